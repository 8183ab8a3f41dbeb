// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ID = 'mcbhdggcijnkcgnmbmijkpbahglkfaph';
const ORIGIN = `chrome-extension://${ID}/`;
type Listener = (msg: unknown, sender: chrome.runtime.MessageSender, sendResponse: (r: unknown) => void) => boolean;

let listeners: Listener[];

beforeEach(() => {
  listeners = [];
  // A fresh document: no bootstrap has run in it yet.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('tessera.content')];
  vi.stubGlobal('chrome', {
    runtime: {
      id: ID,
      getURL: (p: string) => ORIGIN + p,
      onMessage: { addListener: (l: Listener) => listeners.push(l) },
    },
  });
  document.body.innerHTML = '<form><input name=a></form>';
});
afterEach(() => vi.unstubAllGlobals());

async function inject(): Promise<void> {
  // Each scripting.executeScript runs the bundle afresh.
  vi.resetModules();
  await import('../src/content/index');
}

function ask(msg: unknown, sender: chrome.runtime.MessageSender): unknown {
  let answer: unknown;
  listeners[0]!(msg, sender, (r) => (answer = r));
  return answer;
}

describe('content bootstrap', () => {
  it('installs its listener once however often it is injected', async () => {
    await inject();
    await inject();
    expect(listeners).toHaveLength(1);
  });

  it('answers a snapshot request from the extension', async () => {
    await inject();
    const snap = ask({ type: 'snapshot' }, { id: ID, url: ORIGIN + 'background.js' }) as { controls: number; html: string };
    expect(snap.controls).toBe(1);
    expect(snap.html).toContain('data-tessera-ref=');
  });

  it('ignores other tabs and other extensions', async () => {
    await inject();
    for (const sender of [
      { id: ID, url: 'https://example.org/', tab: { id: 2 } as chrome.tabs.Tab },
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/bg.js' },
    ]) {
      expect(ask({ type: 'snapshot' }, sender), JSON.stringify(sender)).toBeUndefined();
    }
    expect(document.querySelector('input')!.hasAttribute('data-tessera-ref')).toBe(false);
  });

  it('refuses unknown requests', async () => {
    await inject();
    expect(ask({ type: 'fill' }, { id: ID, url: ORIGIN + 'background.js' })).toMatchObject({ error: { code: 'UNKNOWN_MESSAGE' } });
  });
});
