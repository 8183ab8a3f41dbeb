/**
 * Capturing a document for the app (PROTOCOL.md §4.1 "Stamps"): measure
 * every control, then in one synchronous task stamp each with
 * data-tessera-ref="<nonce>:<ref>" and data-tessera-hidden="<nonce>:<reason>",
 * serialise the live DOM (open shadow roots included) and remove the stamps
 * again. The nonce is fresh for every capture, so a page cannot pre-set a
 * stamp the app would honour; refs live in the isolated world (refs.ts). All
 * reasoning over the result happens in the app (Go).
 */
import { utf8Length } from '../shared/fill';
import type { FrameCapture } from '../shared/messages';
import type { Registry } from './refs';
import { type Layout, hiddenReasons } from './visibility';

/** REF_ATTR carries "<nonce>:<ref>" on each measured control during serialisation. */
export const REF_ATTR = 'data-tessera-ref';
/** HIDDEN_ATTR carries "<nonce>:<reason>" (reason "" when visible) during serialisation. */
export const HIDDEN_ATTR = 'data-tessera-hidden';

/** MAX_CONTROLS bounds the work on hostile pages; controls beyond it are not stamped (the app treats them as unmeasured). */
export const MAX_CONTROLS = 5000;

/** MAX_HTML_BYTES is the most serialised HTML one frame may send (PROTOCOL.md: 8 MiB in all frames together). */
export const MAX_HTML_BYTES = 8 * 1024 * 1024;

const CONTROL_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/** CaptureError is thrown when a document cannot be captured; code is the Failure code. */
export class CaptureError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CaptureError';
    this.code = code;
  }
}

/** controlsAndRoots walks root and every open shadow root below it, in document order. */
export function controlsAndRoots(root: Document | ShadowRoot): { controls: Element[]; roots: ShadowRoot[] } {
  const controls: Element[] = [];
  const roots: ShadowRoot[] = [];
  const walk = (r: Document | ShadowRoot): void => {
    for (const el of r.querySelectorAll('*')) {
      if (CONTROL_TAGS.has(el.tagName)) controls.push(el);
      // shadowRoot is null for closed roots: those stay private to the page.
      if (el.shadowRoot) {
        roots.push(el.shadowRoot);
        walk(el.shadowRoot);
      }
    }
  };
  walk(root);
  return { controls, roots };
}

/** newNonce returns 128 random bits as base64url text (no character the serialiser escapes). */
export function newNonce(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** liveValue reads a control's live value; a password's value is never read (the app never fills or learns it). */
function liveValue(el: Element): { value: string; checked: boolean } {
  const input = el as HTMLInputElement;
  if (el.tagName === 'INPUT' && input.type === 'password') return { value: '', checked: false };
  return { value: input.value ?? '', checked: el.tagName === 'INPUT' ? input.checked : false };
}

/**
 * capture measures, stamps and serialises doc. Controls are measured first
 * (layout reads only), then stamped, serialised, checked and unstamped
 * without yielding, so no page script can observe or alter a stamp in
 * between — except a page's customized built-in element, whose attribute
 * callback runs synchronously on setAttribute: that is detected (a stamp
 * altered, or the nonce anywhere it was not written) and the capture
 * refused with code TAMPERED. A document whose HTML is over MAX_HTML_BYTES
 * is refused with code TOO_LARGE.
 */
export function capture(doc: Document, layout: Layout, reg: Registry, nonce: string = newNonce()): FrameCapture {
  const { controls, roots } = controlsAndRoots(doc);
  const measured = controls.slice(0, MAX_CONTROLS);
  reg.prune();
  const reasons = hiddenReasons(measured, layout);
  const rows = measured.map((el, i) => {
    const ref = reg.refOf(el);
    reg.remember(ref, el);
    return { el, ref, reason: reasons[i]!, live: liveValue(el) };
  });
  const hidden: Record<string, string> = {};
  const values: FrameCapture['values'] = {};
  for (const r of rows) {
    hidden[r.ref] = r.reason;
    values[r.ref] = r.live;
  }

  const root = doc.documentElement;
  const canShadow = typeof root.getHTML === 'function';
  let html: string;
  let tampered = false;
  try {
    for (const r of rows) {
      r.el.setAttribute(REF_ATTR, `${nonce}:${r.ref}`);
      r.el.setAttribute(HIDDEN_ATTR, `${nonce}:${r.reason}`);
    }
    html = canShadow
      ? `<!DOCTYPE html>${startTag(root)}${root.getHTML({ serializableShadowRoots: true, shadowRoots: roots })}</html>`
      : `<!DOCTYPE html>${root.outerHTML}`;
    tampered =
      rows.some((r) => r.el.getAttribute(REF_ATTR) !== `${nonce}:${r.ref}` || r.el.getAttribute(HIDDEN_ATTR) !== `${nonce}:${r.reason}`) ||
      occurrences(html, nonce) !== 2 * rows.length;
  } finally {
    for (const r of rows) {
      r.el.removeAttribute(REF_ATTR);
      r.el.removeAttribute(HIDDEN_ATTR);
    }
  }
  if (tampered) throw new CaptureError('TAMPERED', 'the page altered the measurement while it was taken');
  const bytes = utf8Length(html);
  if (bytes > MAX_HTML_BYTES) {
    throw new CaptureError(
      'TOO_LARGE',
      `this page is too large to send to Tessera (${(bytes / 1048576).toFixed(1)} MiB of HTML; the limit is 8 MiB)`,
    );
  }
  return {
    origin: self.origin,
    url: doc.URL,
    title: doc.title,
    nonce,
    html,
    controls: rows.length,
    values,
    hidden,
    shadowRoots: canShadow,
  };
}

function occurrences(s: string, sub: string): number {
  let n = 0;
  for (let i = s.indexOf(sub); i !== -1; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

function startTag(el: Element): string {
  let s = '<' + el.localName;
  for (const a of el.attributes) s += ` ${a.name}="${a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  return s + '>';
}
