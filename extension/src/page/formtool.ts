/**
 * Page-world (world: "MAIN") code for an agent's call of a declarative form
 * tool (PROTOCOL.md §4.3), as the WebMCP declarative explainer describes:
 * the `toolactivated` event when the agent's values land in the form, the
 * `toolcancel` event when the person declines or the call fails, and the
 * submit itself, whose SubmitEvent says `agentInvoked` and offers
 * `respondWith(promise)`, the promise's value being the tool's answer to
 * the agent instead of Tessera's outcome.
 *
 * Like page/webmcp.ts, each function is self-contained (serialised on its
 * own), injected on demand into the one document the service worker
 * checked, and answers a JSON string that the service worker parses and
 * bounds. Everything in it is the page's word: the app passes it to the
 * agent only, framed as the page's text.
 */

/** TOOL_EVENTS are the events Tessera fires at a form tool. */
export const TOOL_EVENTS = ['toolactivated', 'toolcancel'] as const;

/**
 * formToolEvent fires type (toolactivated or toolcancel) at the form whose
 * tool name is name; it bubbles, so the document and the window hear it.
 * It answers JSON {ok, error?}.
 */
export async function formToolEvent(name: string, type: string): Promise<string> {
  try {
    if (type !== 'toolactivated' && type !== 'toolcancel') throw new Error(`unknown event ${type}`);
    const form = Array.from(document.querySelectorAll('form')).find((f) => (f.getAttribute('toolname') ?? f.getAttribute('tool-name')) === name);
    if (form === undefined) throw new Error('the page has no such form tool');
    // A listener that throws is reported by the page, not to us.
    form.dispatchEvent(new CustomEvent(type, { bubbles: true, detail: { toolName: name } }));
    return JSON.stringify({ ok: true });
  } catch (e) {
    return JSON.stringify({ ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * submitFormTool submits the form whose tool name is name with
 * requestSubmit() (validation, the submit event, then the form's action
 * unless the page prevents it). While the submit event is dispatched, and
 * only then, SubmitEvent has `agentInvoked` (true for this form's submit)
 * and `respondWith(promise)`, which the page may call once, after
 * preventDefault(), synchronously from a listener. Its promise is waited
 * for at most waitMs; its value (a string as is, anything else as JSON) is
 * at most maxChars long.
 *
 * It answers JSON {ok: true, submitted, responded: false} when the page did
 * not respond, {ok: true, submitted: true, responded: true, response, json}
 * when it did, and {ok: false, error} when the promise was rejected, timed
 * out, or answered something too long or not serialisable.
 */
export async function submitFormTool(name: string, waitMs: number, maxChars: number): Promise<string> {
  const clip = (s: string): string => (s.length > 2000 ? `${s.slice(0, 2000)}…` : s);
  const fail = (e: unknown): string => JSON.stringify({ ok: false, error: clip(e instanceof Error ? `${e.name}: ${e.message}` : String(e)) });
  try {
    const form = Array.from(document.querySelectorAll('form')).find((f) => (f.getAttribute('toolname') ?? f.getAttribute('tool-name')) === name);
    if (form === undefined) throw new Error('the page has no such form tool');
    let dispatching = true;
    let seen = false;
    let response: Promise<unknown> | undefined;
    const proto = SubmitEvent.prototype as unknown as Record<string, unknown>;
    const had = {
      agentInvoked: Object.getOwnPropertyDescriptor(proto, 'agentInvoked'),
      respondWith: Object.getOwnPropertyDescriptor(proto, 'respondWith'),
    };
    const ours = (e: Event): boolean => dispatching && e.type === 'submit' && e.target === form;
    Object.defineProperty(proto, 'agentInvoked', {
      configurable: true,
      get(this: Event): boolean {
        return ours(this);
      },
    });
    Object.defineProperty(proto, 'respondWith', {
      configurable: true,
      writable: true,
      value(this: Event, p: unknown): void {
        if (!ours(this)) throw new DOMException('respondWith() is for an agent-invoked submit, during its dispatch', 'InvalidStateError');
        if (!this.defaultPrevented) throw new DOMException('call preventDefault() before respondWith()', 'InvalidStateError');
        if (response !== undefined) throw new DOMException('respondWith() was already called', 'InvalidStateError');
        response = Promise.resolve(p);
      },
    });
    const saw = (e: Event): void => {
      if (e.target === form) seen = true;
    };
    window.addEventListener('submit', saw, true);
    try {
      form.requestSubmit();
    } finally {
      dispatching = false;
      window.removeEventListener('submit', saw, true);
      for (const [k, d] of Object.entries(had)) {
        if (d !== undefined) Object.defineProperty(proto, k, d);
        else delete proto[k];
      }
    }
    if (response === undefined) return JSON.stringify({ ok: true, submitted: seen, responded: false });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page did not answer within ${Math.round(waitMs / 1000)} s`)), waitMs);
    });
    let v: unknown;
    try {
      v = await Promise.race([response, late]);
    } finally {
      clearTimeout(timer);
    }
    const text = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
    if (typeof text !== 'string') throw new Error('the page answered something that is not JSON');
    if (text.length > maxChars) throw new Error(`the page answered more than ${maxChars} characters`);
    return JSON.stringify({ ok: true, submitted: true, responded: true, response: text, json: typeof v !== 'string' && v !== undefined });
  } catch (e) {
    return fail(e);
  }
}
