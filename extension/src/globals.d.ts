/**
 * __TESSERA_TEST__ is replaced at build time (esbuild define): true only in
 * the test build (`npm run build:test`), so test hooks never ship.
 */
declare const __TESSERA_TEST__: boolean;
