/**
 * Hooks for the end-to-end tests (e2e/), compiled only into the test build
 * (`npm run build:test`, __TESSERA_TEST__ true). They are evaluated in the
 * service worker over CDP as globalThis.tesseraTest. Fills themselves start
 * through the shipped globalThis.tessera.fill(tabId).
 */
import type { FillProgress, FrameCapture } from '../shared/messages';
import type { NativeClient, Status } from '../shared/native';
import type { RpcError } from '../shared/rpc';
import { type BenchResult, bench } from './bench';
import type { Filler } from './fill';

/** TestHooks is globalThis.tesseraTest in the test build. */
export interface TestHooks {
  status(): Status;
  /** waitFor resolves with the status once it reaches state, or rejects after timeoutMs with the last status. */
  waitFor(state: Status['state'], timeoutMs: number): Promise<Status>;
  call(method: string, params?: unknown): Promise<unknown>;
  bench(n: number, payload?: unknown): Promise<BenchResult>;
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

/** installTestHooks publishes TestHooks for client and filler on globalThis. */
export function installTestHooks(client: NativeClient, filler: Filler): void {
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
    snapshot: async (urlPattern) => {
      const id = await tabId(urlPattern);
      for (let i = 0; i < 2; i++) await chrome.scripting.executeScript({ target: { tabId: id }, files: ['content.js'] });
      return (await chrome.tabs.sendMessage(id, { type: 'snapshot' }, { frameId: 0 })) as FrameCapture;
    },
    tabId,
    lastFill: () => filler.last,
  };
  (globalThis as { tesseraTest?: TestHooks }).tesseraTest = hooks;
}
