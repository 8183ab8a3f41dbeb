/**
 * The one adapter between the browser engines (issue 16). The extension is
 * one source for Chromium and Firefox; what differs at run time is here,
 * what differs in the manifest is in build.mjs, and nothing else branches on
 * the engine.
 */
import type { PortLike } from '../shared/native';
import { type BrowserInfo, browserInfo } from './clientinfo';

/** Engine is what the background needs to know of the browser it runs in. */
export interface Engine extends BrowserInfo {
  /**
   * pinDocuments reports whether tabs.sendMessage takes a documentId, so a
   * message reaches only the document that was measured (Chromium); Firefox
   * addresses frames by frameId alone.
   */
  pinDocuments: boolean;
  /**
   * portError returns why a native port closed, read inside its
   * onDisconnect: Chromium sets chrome.runtime.lastError, Firefox sets
   * port.error.
   */
  portError(port: PortLike): string | undefined;
}

/** engineFor describes the engine whose user agent string is userAgent. */
export function engineFor(userAgent: string): Engine {
  const info = browserInfo(userAgent);
  return {
    ...info,
    pinDocuments: info.name === 'chromium',
    portError: (port) => chrome.runtime.lastError?.message ?? (port as { error?: { message?: string } }).error?.message,
  };
}
