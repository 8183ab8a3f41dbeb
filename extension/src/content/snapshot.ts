/**
 * Capturing a document for the app: stamp every control with
 * data-tessera-ref, mark the ones a person cannot see with
 * data-tessera-hidden="<reason>", and serialise the live DOM, open shadow
 * roots included. All reasoning over the result happens in the app (Go).
 */
import type { PageSnapshot } from '../shared/messages';

/** REF_ATTR stamps each control with a reference stable for the page's life. */
export const REF_ATTR = 'data-tessera-ref';
/** HIDDEN_ATTR carries the measured reason a control is invisible. */
export const HIDDEN_ATTR = 'data-tessera-hidden';

/** MAX_CONTROLS bounds the work on hostile pages; controls beyond it are not stamped. */
export const MAX_CONTROLS = 5000;

const CONTROL_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/**
 * Layout is what visibility measurement reads from the live page; the real
 * one wraps getBoundingClientRect / getComputedStyle / elementFromPoint, and
 * tests pass a fake (happy-dom has no layout).
 */
export interface Layout {
  rect(el: Element): { left: number; top: number; width: number; height: number };
  /** rendered reports whether el generates boxes (false under display:none). */
  rendered(el: Element): boolean;
  style(el: Element): { visibility: string; opacity: string };
  /** hit returns the topmost element at viewport point (x, y) in el's tree, or null. */
  hit(el: Element, x: number, y: number): Element | null;
  viewport: { width: number; height: number; scrollX: number; scrollY: number };
}

/** liveLayout measures in the page the content script runs in. */
export function liveLayout(win: Window): Layout {
  return {
    rect: (el) => el.getBoundingClientRect(),
    rendered: (el) => el.getClientRects().length > 0,
    style: (el) => win.getComputedStyle(el),
    hit: (el, x, y) => {
      const root = el.getRootNode() as Document | ShadowRoot;
      return 'elementFromPoint' in root ? root.elementFromPoint(x, y) : null;
    },
    get viewport() {
      return { width: win.innerWidth, height: win.innerHeight, scrollX: win.scrollX, scrollY: win.scrollY };
    },
  };
}

// Below this combined opacity a control is as good as invisible.
const MIN_OPACITY = 0.05;

/**
 * hiddenReason returns why a person cannot see el ("type-hidden",
 * "display-none", "visibility-hidden", "transparent", "zero-size",
 * "offscreen", "covered"), or "" when it is visible. The reasons are the
 * ones form.Visibility documents.
 */
export function hiddenReason(el: Element, layout: Layout): string {
  if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden') return 'type-hidden';
  if (!layout.rendered(el)) return 'display-none';
  const st = layout.style(el);
  if (st.visibility === 'hidden' || st.visibility === 'collapse') return 'visibility-hidden';
  let opacity = 1;
  for (let n: Element | null = el; n !== null; n = parentElement(n)) {
    opacity *= Number.parseFloat(layout.style(n).opacity) || 0;
    if (opacity < MIN_OPACITY) return 'transparent';
  }
  const r = layout.rect(el);
  if (r.width < 1 || r.height < 1) return 'zero-size';
  const vp = layout.viewport;
  // Left of or above the document's origin: no scrolling reaches it.
  if (r.left + r.width + vp.scrollX <= 0 || r.top + r.height + vp.scrollY <= 0) return 'offscreen';
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  if (cx >= 0 && cy >= 0 && cx < vp.width && cy < vp.height) {
    const top = layout.hit(el, cx, cy);
    if (top !== null && !coversSelf(el, top)) return 'covered';
  }
  return '';
}

// parentElement crosses shadow boundaries, so a transparent host hides its shadow content.
function parentElement(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const root = n.getRootNode();
  return 'host' in root ? (root as ShadowRoot).host : null;
}

// coversSelf reports whether the element hit at the control's centre is the
// control itself, inside it, its shadow host, or one of its labels (custom
// checkboxes draw a label over a transparent-looking input).
function coversSelf(el: Element, top: Element): boolean {
  if (top === el || el.contains(top) || top.contains(el)) return true;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (l === top || l.contains(top)) return true;
  return false;
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

let nextRef = 0;

/**
 * takeSnapshot stamps and measures every control of doc and serialises it.
 * Refs already on the page are kept, so a ref stays valid across snapshots.
 */
export function takeSnapshot(doc: Document, layout: Layout): PageSnapshot {
  const { controls, roots } = controlsAndRoots(doc);
  let stamped = 0;
  for (const el of controls.slice(0, MAX_CONTROLS)) {
    if (!el.hasAttribute(REF_ATTR)) el.setAttribute(REF_ATTR, `t${++nextRef}`);
    const reason = hiddenReason(el, layout);
    if (reason) el.setAttribute(HIDDEN_ATTR, reason);
    else el.removeAttribute(HIDDEN_ATTR);
    stamped++;
  }
  const html = doc.documentElement;
  const canShadow = typeof html.getHTML === 'function';
  const inner = canShadow ? html.getHTML({ serializableShadowRoots: true, shadowRoots: roots }) : html.innerHTML;
  return {
    url: doc.URL,
    title: doc.title,
    html: `<!DOCTYPE html>${startTag(html)}${inner}</html>`,
    controls: stamped,
    shadowRoots: canShadow,
  };
}

function startTag(el: Element): string {
  let s = '<' + el.localName;
  for (const a of el.attributes) s += ` ${a.name}="${a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  return s + '>';
}
