import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __TESSERA_TEST__: 'true' },
  test: { include: ['test/**/*.test.ts'] },
});
