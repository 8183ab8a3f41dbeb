/**
 * Hooks for the end-to-end tests (e2e/), compiled only into the test build
 * (`npm run build:test`, __TESSERA_TEST__ true). They are evaluated in the
 * service worker over CDP as globalThis.tesseraTest.
 */
import type { PageSnapshot } from '../shared/messages';
import type { NativeClient, Status } from '../shared/native';
import type { RpcError } from '../shared/rpc';
import { type BenchResult, bench } from './bench';

/** TestHooks is globalThis.tesseraTest in the test build. */
export interface TestHooks {
  status(): Status;
  /** waitFor resolves with the status once it reaches state, or rejects after timeoutMs with the last status. */
  waitFor(state: Status['state'], timeoutMs: number): Promise<Status>;
  call(method: string, params?: unknown): Promise<unknown>;
  bench(n: number, payload?: unknown): Promise<BenchResult>;
  /**
   * snapshot injects the content script (twice, as repeated user gestures
   * would) into the tab whose URL matches urlPattern and asks it for a
   * snapshot. The test build's host permission stands in for activeTab.
   */
  snapshot(urlPattern: string): Promise<PageSnapshot>;
}

/** installTestHooks publishes TestHooks for client on globalThis. */
export function installTestHooks(client: NativeClient): void {
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
      const [tab] = await chrome.tabs.query({ url: urlPattern });
      if (tab?.id === undefined) throw new Error(`no tab matches ${urlPattern}`);
      for (let i = 0; i < 2; i++) await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: ['content.js'] });
      return (await chrome.tabs.sendMessage(tab.id, { type: 'snapshot' })) as PageSnapshot;
    },
  };
  (globalThis as { tesseraTest?: TestHooks }).tesseraTest = hooks;
}
