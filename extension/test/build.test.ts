// Checks the built extension as the browser sees it: its stable ID, its
// manifests, and that test hooks exist only in the test build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
let tmp: string;

function build(...args: string[]): void {
  execFileSync(process.execPath, [join(root, 'build.mjs'), ...args], { stdio: 'pipe' });
}
function read(dir: string, f: string): string {
  return readFileSync(join(tmp, dir, f), 'utf8');
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tessera-ext-'));
  build('--outdir', join(tmp, 'ship'));
  build('--test', '--outdir', join(tmp, 'test'));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** extensionID computes Chromium's ID for a manifest key: sha256 of the DER SubjectPublicKeyInfo, 32 hex digits mapped 0-f to a-p. */
function extensionID(key: string): string {
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode('a'.charCodeAt(0) + Number.parseInt(c, 16))).join('');
}

describe('extension ID', () => {
  // Chromium itself confirms the algorithm in e2e/, where the service worker's URL must carry this ID.
  it('equals nativemsg.ChromeExtensionID', () => {
    const manifest = JSON.parse(read('ship', 'manifest.json'));
    const goSrc = readFileSync(join(root, '..', 'nativemsg', 'extension_id.go'), 'utf8');
    const want = /const ChromeExtensionID = "([a-p]{32})"/.exec(goSrc)?.[1];
    expect(want, 'ChromeExtensionID in nativemsg/extension_id.go').toBeDefined();
    expect(extensionID(manifest.key)).toBe(want);
  });
});

describe('manifest', () => {
  it('asks only for the permissions Tessera uses', () => {
    const m = JSON.parse(read('ship', 'manifest.json'));
    expect(m.manifest_version).toBe(3);
    // nativeMessaging: the app; scripting: injecting the content script into
    // frames older than the extension; contextMenus: "Fill with Tessera";
    // webNavigation: each frame's parent and document for a fill.
    expect([...m.permissions].sort()).toEqual(['contextMenus', 'nativeMessaging', 'scripting', 'webNavigation']);
    expect(m.permissions).not.toContain('activeTab');
    expect(m.permissions).not.toContain('storage');
    expect(m.permissions).not.toContain('tabs');
    expect(m.host_permissions).toEqual(['<all_urls>']);
    expect(m.externally_connectable).toBeUndefined();
    expect(m.web_accessible_resources).toBeUndefined();
    expect(m.background).toEqual({ service_worker: 'background.js' });
  });

  it('runs the content script in every frame', () => {
    const m = JSON.parse(read('ship', 'manifest.json'));
    expect(m.content_scripts).toContainEqual({
      matches: ['<all_urls>'],
      js: ['content.js'],
      all_frames: true,
      match_about_blank: true,
      match_origin_as_fallback: true,
      run_at: 'document_idle',
    });
    expect(read('ship', 'content.js')).toContain('data-tessera-ref');
  });

  it('runs no script at document_start: Formspec scripts are injected on demand, never declared', () => {
    for (const dir of ['ship', 'ship-firefox']) {
      const m = JSON.parse(read(dir, 'manifest.json'));
      const scripts = m.content_scripts as Array<{ js: string[]; world?: string; run_at?: string }>;
      // Every page pays for a declared script; a Formspec script is only for Formspec pages.
      expect(scripts.filter((c) => c.run_at === 'document_start' || c.world === 'MAIN')).toEqual([]);
      expect(scripts.flatMap((c) => c.js).filter((f) => f.includes('formspec'))).toEqual([]);
      // Both are shipped, for scripting.executeScript.
      expect(read(dir, 'formspec-bridge.js')).toContain('tessera.formspec-resend');
      // The page world holds nothing privileged: no extension API in it.
      expect(read(dir, 'formspec-page.js')).not.toMatch(/chrome\.runtime|browser\.runtime/);
      expect(read(dir, 'background.js')).toContain("files: [\"formspec-page.js\"], world: \"MAIN\"");
    }
  });

  it('has a rebindable fill-page command', () => {
    const m = JSON.parse(read('ship', 'manifest.json'));
    expect(m.commands['fill-page']).toEqual({
      suggested_key: { default: 'Ctrl+Shift+L', mac: 'Command+Shift+L' },
      description: 'Fill this page with Tessera',
    });
  });

  it('has a Firefox variant with the add-on ID and background scripts', () => {
    const m = JSON.parse(read('ship-firefox', 'manifest.json'));
    const goSrc = readFileSync(join(root, '..', 'nativemsg', 'extension_id.go'), 'utf8');
    const want = /const FirefoxAddonID = "([^"]+)"/.exec(goSrc)?.[1];
    expect(m.browser_specific_settings.gecko.id).toBe(want);
    expect(m.background).toEqual({ scripts: ['background.js'] });
    expect(m.key).toBeUndefined();
    expect(m.minimum_chrome_version).toBeUndefined();
    // web-ext lint (scripts/test.sh) rejects data_collection_permissions
    // below 140, and addons.mozilla.org requires the key.
    expect(m.browser_specific_settings.gecko.strict_min_version).toBe('140.0');
    expect(m.browser_specific_settings.gecko.data_collection_permissions).toEqual({ required: ['none'] });
    // Everything else, content scripts and permissions included, is the Chromium manifest's.
    const chromium = JSON.parse(read('ship', 'manifest.json'));
    for (const k of ['permissions', 'host_permissions', 'content_scripts', 'commands', 'action', 'version']) {
      expect(m[k], k).toEqual(chromium[k]);
    }
  });
});

describe('test hooks', () => {
  it('are absent from the shipped build, which keeps the automation entry point', () => {
    const bg = read('ship', 'background.js');
    expect(bg).not.toContain('tesseraTest');
    expect(bg).not.toContain('session.ping');
    expect(bg).not.toContain('lastFill');
    expect(bg).toMatch(/\.tessera\s*=/);
    expect(bg).toContain('fill.request');
  });

  it('are present in the test build, whose manifest is the shipped one', () => {
    expect(read('test', 'background.js')).toContain('tesseraTest');
    expect(read('test', 'background.js')).toContain('lastFill');
    const ship = JSON.parse(read('ship', 'manifest.json'));
    expect(JSON.parse(read('test', 'manifest.json'))).toEqual(ship);
  });

  // The page bridge lets a page reach the background: never shipped.
  it('leave no page bridge in either shipped build', () => {
    for (const dir of ['ship', 'ship-firefox']) {
      for (const f of ['background.js', 'content.js']) expect(read(dir, f), `${dir}/${f}`).not.toContain('tessera-test');
    }
    expect(read('ship-firefox', 'background.js')).not.toContain('tesseraTest');
  });

  it('are in the Firefox test build too, page bridge included, with the shipped Firefox manifest', () => {
    expect(read('test-firefox', 'background.js')).toContain('tesseraTest');
    expect(read('test-firefox', 'content.js')).toContain('tessera-test:');
    const ship = JSON.parse(read('ship-firefox', 'manifest.json'));
    expect(JSON.parse(read('test-firefox', 'manifest.json'))).toEqual(ship);
  });
});
