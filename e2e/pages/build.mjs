// Bundles the framework-driven end-to-end test pages (real React from npm)
// with esbuild.
//   node build.mjs [--outdir DIR]     default: dist/
// The HTML that loads each bundle lives in ../testdata/pages/.
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const here = import.meta.dirname;

await esbuild.build({
  entryPoints: { 'react-form': join(here, 'src/react-form.jsx') },
  outdir: values.outdir ?? join(here, 'dist'),
  bundle: true,
  format: 'iife',
  target: ['chrome116'],
  jsx: 'automatic',
  // React's production build: what real sites ship.
  define: { 'process.env.NODE_ENV': '"production"' },
  minify: true,
  logLevel: 'warning',
});
