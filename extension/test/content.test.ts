// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ID = 'mcbhdggcijnkcgnmbmijkpbahglkfaph';
const ORIGIN = `chrome-extension://${ID}/`;
const WORKER = { id: ID, url: ORIGIN + 'background.js' };
type Listener = (msg: unknown, sender: chrome.runtime.MessageSender, sendResponse: (r: unknown) => void) => boolean;

let listeners: Listener[];
let sent: unknown[];

beforeEach(() => {
  listeners = [];
  sent = [];
  // A fresh document: no bootstrap has run in it yet.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('tessera.content')];
  vi.stubGlobal('chrome', {
    runtime: {
      id: ID,
      getURL: (p: string) => ORIGIN + p,
      onMessage: { addListener: (l: Listener) => listeners.push(l) },
      sendMessage: async (m: unknown) => void sent.push(m),
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

/** ask sends msg to the last installed listener and resolves with its answer, sync or async. */
function ask(msg: unknown, sender: chrome.runtime.MessageSender): Promise<unknown> {
  return new Promise((resolve) => {
    let answered = false;
    const async = listeners[listeners.length - 1]!(msg, sender, (r) => {
      answered = true;
      resolve(r);
    });
    if (!async && !answered) resolve(undefined);
  });
}

describe('content bootstrap', () => {
  it('installs its listeners once however often it is injected', async () => {
    await inject();
    await inject();
    expect(listeners).toHaveLength(1);
  });

  it('sets up again when the runtime it was set up with is gone (extension updated)', async () => {
    await inject();
    const stale = (globalThis as { chrome: { runtime: object } }).chrome.runtime;
    vi.stubGlobal('chrome', { runtime: { ...stale } });
    await inject();
    expect(listeners).toHaveLength(2);
  });

  it('answers a snapshot request from the extension, stamps removed afterwards', async () => {
    await inject();
    const snap = (await ask({ type: 'snapshot' }, WORKER)) as { controls: number; html: string; nonce: string };
    expect(snap.controls).toBe(1);
    expect(snap.html).toContain(`data-tessera-ref="${snap.nonce}:t1"`);
    expect(document.querySelector('input')!.hasAttribute('data-tessera-ref')).toBe(false);
  });

  it('applies approved values to the refs it measured', async () => {
    await inject();
    vi.useFakeTimers();
    try {
      // happy-dom has no layout: every control measures as display-none there, so
      // the snapshot gives the ref, and apply reports the control hidden.
      const { doc } = (await ask({ type: 'snapshot' }, WORKER)) as { doc: string };
      const answer = ask({ type: 'apply', fields: [{ ref: 't1', kind: 'text', value: 'Ada' }, { ref: 't9', kind: 'text', value: 'x' }], doc }, WORKER);
      await vi.runAllTimersAsync();
      expect(await answer).toEqual([
        { ref: 't1', outcome: 'hidden' },
        { ref: 't9', outcome: 'gone' },
      ]);
      expect(document.querySelector('input')!.value).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  // Regression (issue 23): Firefox addresses a frame by its id alone, so an
  // apply meant for the document measured reached whatever document the
  // frame held by then. Apply and submit must name the measured
  // document's token; another document's script refuses them.
  it('applies and submits only in the document measured', async () => {
    await inject();
    const first = (await ask({ type: 'snapshot' }, WORKER)) as { doc: string };
    expect(first.doc).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(((await ask({ type: 'snapshot' }, WORKER)) as { doc: string }).doc).toBe(first.doc);
    document.body.innerHTML = '<form><input name=a><button>Go</button></form>';
    const fields = [{ ref: 't1', kind: 'text', value: 'Ada' }];
    for (const doc of [undefined, '', 'another-documents-token', `${first.doc}x`]) {
      expect(await ask({ type: 'apply', fields, doc }, WORKER), String(doc)).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(await ask({ type: 'submit', ref: 't1', doc }, WORKER), String(doc)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect(document.querySelector('input')!.value).toBe('');
    // Another document (a new content script) draws another token.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('tessera.content')];
    await inject();
    const second = (await ask({ type: 'snapshot' }, WORKER)) as { doc: string };
    expect(second.doc).not.toBe(first.doc);
  });

  it('ignores other tabs and other extensions', async () => {
    await inject();
    for (const sender of [
      { id: ID, url: 'https://example.org/', tab: { id: 2 } as chrome.tabs.Tab },
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/bg.js' },
    ]) {
      expect(await ask({ type: 'snapshot' }, sender), JSON.stringify(sender)).toBeUndefined();
      expect(await ask({ type: 'apply', fields: [{ ref: 't1', kind: 'text', value: 'x' }] }, sender), JSON.stringify(sender)).toBeUndefined();
    }
    expect(document.querySelector('input')!.value).toBe('');
  });

  it('refuses unknown requests', async () => {
    await inject();
    expect(await ask({ type: 'fill' }, WORKER)).toMatchObject({ error: { code: 'UNKNOWN_MESSAGE' } });
    const { doc } = (await ask({ type: 'snapshot' }, WORKER)) as { doc: string };
    expect(await ask({ type: 'apply', doc }, WORKER)).toMatchObject({ error: { code: 'INVALID_MESSAGE' } });
  });

  it('sends a capture of what the person submitted, and nothing for a page\'s own submit', async () => {
    await inject();
    document.querySelector('input')!.value = 'typed';
    const before = sent.length;
    // The page submits by itself (a synthetic event): nothing is sent.
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(sent.length).toBe(before);
    // The person clicks the form's submit button (a trusted click; the
    // page handles the submit itself).
    const go = document.createElement('button');
    document.querySelector('form')!.append(go);
    go.addEventListener('click', (e) => e.preventDefault());
    const click = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true });
    Object.defineProperty(click, 'isTrusted', { value: true });
    go.dispatchEvent(click);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.length).toBeGreaterThan(before);
    // Earlier tests' bootstraps listen on this same document too; the latest one's message comes last.
    const msg = sent[sent.length - 1] as { type: string; gesture: boolean; frame: { values: Record<string, { value: string }> } };
    expect(msg.type).toBe('submitted');
    expect(msg.gesture).toBe(true);
    expect(Object.values(msg.frame.values)).toEqual([{ value: 'typed', checked: false }]);
  });
});
