/**
 * Content script bootstrap. It may be injected more than once into the same
 * document (each scripting.executeScript call runs it again), so it installs
 * its listener only once.
 */
import { type ContentRequest, type Failure, type PageSnapshot } from '../shared/messages';
import { selfFromRuntime, senderKind } from '../shared/sender';
import { liveLayout, takeSnapshot } from './snapshot';

const GUARD = Symbol.for('tessera.content');

// handle answers one ContentRequest.
function handle(msg: unknown): PageSnapshot | Failure {
  const type = typeof msg === 'object' && msg !== null ? (msg as { type?: unknown }).type : undefined;
  if (type === ('snapshot' satisfies ContentRequest['type'])) return takeSnapshot(document, liveLayout(window));
  return { error: { code: 'UNKNOWN_MESSAGE', message: `unknown message type ${JSON.stringify(type)}` } };
}

const g = globalThis as { [GUARD]?: boolean };
if (!g[GUARD]) {
  g[GUARD] = true;
  const ours = selfFromRuntime();
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    // Only the extension itself (not another tab's content script) may ask.
    if (senderKind(sender, ours) !== 'page') return false;
    sendResponse(handle(msg));
    return false;
  });
}
