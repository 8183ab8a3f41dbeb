// Builds the extension with esbuild.
//   node build.mjs            shipped build into dist/ (Chromium) and dist-firefox/
//   node build.mjs --test     test build into dist-test/ and dist-test-firefox/:
//                             __TESSERA_TEST__ on (background test hooks,
//                             globalThis.tesseraTest); the manifests are the
//                             shipped ones
//   --outdir DIR              write the Chromium build to DIR instead (and the
//                             Firefox one to DIR-firefox)
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { test: { type: 'boolean', default: false }, outdir: { type: 'string' } },
});
const test = values.test;
const here = import.meta.dirname;
const outdir = values.outdir ?? join(here, test ? 'dist-test' : 'dist');

const entries = { background: 'src/background/index.ts', popup: 'src/popup/index.ts', content: 'src/content/index.ts',
  'formspec-bridge': 'src/content/formspec-bridge.ts', 'formspec-page': 'src/page/formspec.ts' };

// manifestFor returns the manifest for a target ("chromium" or "firefox").
function manifestFor(base, target) {
  const m = structuredClone(base);
  if (target === 'firefox') {
    // Firefox has no MV3 service worker; the ID comes from gecko.id, not key.
    delete m.key;
    delete m.minimum_chrome_version;
    m.background = { scripts: ['background.js'] };
    m.browser_specific_settings = {
      gecko: {
        id: 'tessera@tessera-app.dev',
        // ESR 140: the oldest Firefox that reads data_collection_permissions.
        strict_min_version: '140.0',
        // Form values go only to the Tessera app on this machine, never to us or anyone else.
        data_collection_permissions: { required: ['none'] },
      },
      // Firefox for Android has no native messaging; the key only keeps the
      // version check of `web-ext lint` honest about it.
      gecko_android: { strict_min_version: '142.0' },
    };
  }
  return m;
}

async function build(dir, target) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await esbuild.build({
    entryPoints: Object.entries(entries).map(([out, src]) => ({ out, in: join(here, src) })),
    outdir: dir,
    bundle: true,
    format: 'iife',
    target: ['chrome116', 'firefox140'],
    // Dead-branch elimination drops the test hooks from the shipped build.
    minifySyntax: true,
    define: { __TESSERA_TEST__: String(test) },
    logLevel: 'warning',
  });
  const base = JSON.parse(await readFile(join(here, 'static/manifest.json'), 'utf8'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifestFor(base, target), null, 2) + '\n');
  for (const f of ['popup.html', 'popup.css']) await copyFile(join(here, 'static', f), join(dir, f));
}

await build(outdir, 'chromium');
await build(values.outdir === undefined && !test ? join(here, 'dist-firefox') : `${outdir}-firefox`, 'firefox');
