/**
 * The page bridge of the test build (__TESSERA_TEST__ only): an end-to-end
 * driver that cannot reach the background (Firefox over WebDriver BiDi may
 * neither open nor evaluate in moz-extension: pages) calls the background's
 * test hooks from the top frame of the page under test.
 *
 * The page posts the string PAGE_PREFIX + JSON {id, method, args} to its own
 * window; the reply comes back the same way as REPLY_PREFIX + JSON {id,
 * result} or {id, error}. Strings, not objects: Firefox's Xray wrappers
 * would hide a page object's properties from this script.
 */
import { TEST_PORT } from '../shared/messages';

const PAGE_PREFIX = 'tessera-test:';
const REPLY_PREFIX = 'tessera-test-reply:';

/** installPageBridge relays the top frame's test calls to the background over a TEST_PORT. */
export function installPageBridge(): void {
  if (window !== window.top) return;
  window.addEventListener('message', (e) => {
    if (e.source !== window || typeof e.data !== 'string' || !e.data.startsWith(PAGE_PREFIX)) return;
    let req: { id: unknown };
    try {
      req = JSON.parse(e.data.slice(PAGE_PREFIX.length)) as { id: unknown };
    } catch {
      return;
    }
    const reply = (r: object): void => window.postMessage(REPLY_PREFIX + JSON.stringify({ id: req.id, ...r }), '*');
    const port = chrome.runtime.connect({ name: TEST_PORT });
    port.onMessage.addListener((r: object) => {
      reply(r);
      port.disconnect();
    });
    port.onDisconnect.addListener(() => reply({ error: 'the background closed the test port' }));
    port.postMessage(req);
  });
}
