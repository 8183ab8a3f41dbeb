// Bundles the framework-driven end-to-end test pages (real React and Vue
// from npm) with esbuild.
//   node build.mjs [--outdir DIR]     default: dist/
// The HTML that loads each bundle lives in ../testdata/pages/.
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const here = import.meta.dirname;

await esbuild.build({
  entryPoints: { 'react-form': join(here, 'src/react-form.jsx'), 'vue-form': join(here, 'src/vue-form.js') },
  outdir: values.outdir ?? join(here, 'dist'),
  bundle: true,
  format: 'iife',
  target: ['chrome116'],
  jsx: 'automatic',
  // The frameworks' production builds: what real sites ship.
  define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  minify: true,
  logLevel: 'warning',
});
