/**
 * Hooks for the end-to-end tests (e2e/), compiled only into the test build
 * (`npm run build:test`, __TESSERA_TEST__ true). They are evaluated in the
 * service worker over CDP as globalThis.tesseraTest. Fills themselves start
 * through the shipped globalThis.tessera.fill(tabId). Where no driver can
 * evaluate in the background (Firefox over WebDriver BiDi), the page under
 * test reaches the same hooks through the content script's page bridge
 * (content/testbridge.ts) on a TEST_PORT.
 */
import { type FrameCapture, type FillProgress, TEST_PORT } from '../shared/messages';
import { type Self, senderKind } from '../shared/sender';
import type { NativeClient, Status } from '../shared/native';
import type { RpcError } from '../shared/rpc';
import { type BenchResult, bench, timings } from './bench';
import type { Filler } from './fill';

/** TestHooks is globalThis.tesseraTest in the test build. */
export interface TestHooks {
  status(): Status;
  /** waitFor resolves with the status once it reaches state, or rejects after timeoutMs with the last status. */
  waitFor(state: Status['state'], timeoutMs: number): Promise<Status>;
  call(method: string, params?: unknown): Promise<unknown>;
  bench(n: number, payload?: unknown): Promise<BenchResult>;
  /** timings times n session.ping calls after warmup untimed ones and returns each call's time (ms). */
  timings(n: number, warmup: number): Promise<number[]>;
  /**
   * snapshot injects the content script (twice, as a repeated injection
   * would) into the top frame of the tab whose URL matches urlPattern and
   * returns its FrameCapture (stamps carry the capture's nonce).
   */
  snapshot(urlPattern: string): Promise<FrameCapture>;
  /** tabId returns the id of the first tab whose URL matches urlPattern, for tessera.fill. */
  tabId(urlPattern: string): Promise<number>;
  /** lastFill returns the latest fill's progress, with its report once done (undefined before any fill). */
  lastFill(): FillProgress | undefined;
}

/**
 * installTestHooks publishes TestHooks for client and filler on globalThis,
 * and serves them to this extension's content scripts on TEST_PORT.
 */
export function installTestHooks(client: NativeClient, filler: Filler, self: Self): void {
  const tabId = async (urlPattern: string): Promise<number> => {
    const [tab] = await chrome.tabs.query({ url: urlPattern });
    if (tab?.id === undefined) throw new Error(`no tab matches ${urlPattern}`);
    return tab.id;
  };
  const hooks: TestHooks = {
    status: () => client.status,
    waitFor: (state, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (client.status.state === state) return resolve(client.status);
        const timer = setTimeout(() => {
          off();
          reject(new Error(`status ${JSON.stringify(client.status)} after ${timeoutMs} ms, want ${state}`));
        }, timeoutMs);
        const off = client.onStatus((s) => {
          if (s.state !== state) return;
          clearTimeout(timer);
          off();
          resolve(s);
        });
      }),
    // The code goes into the message: CDP only passes an exception's text.
    call: (method, params) =>
      client.call(method, params).catch((e: RpcError) => {
        throw new Error(`${e.code}: ${e.message}`);
      }),
    bench: (n, payload = { seq: 0 }) => bench((p) => client.call('session.ping', { payload: p }), n, Math.min(100, n), payload),
    timings: (n, warmup) => timings((p) => client.call('session.ping', { payload: p }), n, warmup, { seq: 0 }),
    snapshot: async (urlPattern) => {
      const id = await tabId(urlPattern);
      for (let i = 0; i < 2; i++) await chrome.scripting.executeScript({ target: { tabId: id }, files: ['content.js'] });
      return (await chrome.tabs.sendMessage(id, { type: 'snapshot' }, { frameId: 0 })) as FrameCapture;
    },
    tabId,
    lastFill: () => filler.last,
  };
  (globalThis as { tesseraTest?: TestHooks }).tesseraTest = hooks;
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== TEST_PORT || senderKind(port.sender, self) !== 'content') return;
    const tab = port.sender?.tab?.id;
    port.onMessage.addListener((req: { method?: unknown; args?: unknown }) => {
      const args = Array.isArray(req.args) ? (req.args as unknown[]) : [];
      Promise.resolve()
        .then(() => pageCall(hooks, filler, tab, String(req.method), args))
        .then(
          (result) => port.postMessage({ result: result ?? null }),
          (e: unknown) => port.postMessage({ error: e instanceof Error ? e.message : String(e) }),
        );
    });
  });
}

// pageCall serves one page bridge call: "fill" fills the caller's own tab as
// globalThis.tessera.fill does; the others are the TestHooks of that name.
function pageCall(hooks: TestHooks, filler: Filler, tab: number | undefined, method: string, args: unknown[]): unknown {
  switch (method) {
    case 'fill':
      if (tab === undefined) throw new Error('fill: the caller is in no tab');
      // Through the shipped entry point, so a Formspec mode-1 page fills through its provider.
      return (globalThis as { tessera?: { fill(tab: number): Promise<unknown> } }).tessera?.fill(tab) ?? filler.fill(tab);
    case 'status':
      return hooks.status();
    case 'waitFor':
      return hooks.waitFor(args[0] as Parameters<TestHooks['waitFor']>[0], Number(args[1]));
    case 'call':
      return hooks.call(String(args[0]), args[1]);
    case 'bench':
      return hooks.bench(Number(args[0]), args[1]);
    case 'timings':
      return hooks.timings(Number(args[0]), Number(args[1]));
    case 'lastFill':
      return hooks.lastFill();
  }
  throw new Error(`unknown test method ${JSON.stringify(method)}`);
}
