/**
 * Measuring whether a person can see a control. The reasons are the ones
 * form.Visibility documents; the app, not the extension, decides what a
 * hidden control means for a fill.
 */

/** StyleLike is the part of a computed style the measurement reads. */
export interface StyleLike {
  visibility: string;
  opacity: string;
  overflowX: string;
  overflowY: string;
  position: string;
  clip: string;
  clipPath: string;
  filter: string;
  pointerEvents: string;
}

/** Box is a rectangle in viewport coordinates (CSS pixels). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Layout is what visibility measurement reads from the live page; the real
 * one wraps getBoundingClientRect / getComputedStyle / elementFromPoint, and
 * tests pass a fake (happy-dom has no layout).
 */
export interface Layout {
  rect(el: Element): Box;
  /** rendered reports whether el generates boxes (false under display:none). */
  rendered(el: Element): boolean;
  style(el: Element): StyleLike;
  /** hit returns the topmost element at viewport point (x, y) in el's own tree (document or shadow root), or null. */
  hit(el: Element, x: number, y: number): Element | null;
  /** scroll returns a scroll container's scroll offset and scrollable size. */
  scroll(el: Element): Box;
  /**
   * hitThrough runs f while every element takes pointer events, so that hit
   * tests inside f also find overlays declared pointer-events:none.
   */
  hitThrough<T>(f: () => T): T;
  /** paints reports whether el paints a surface that hides what is under it (a background colour or image, not transparent). */
  paints(el: Element): boolean;
  /** viewport is the window's size and scroll offset, and the document's scrollable size. */
  viewport: { width: number; height: number; scrollX: number; scrollY: number; docWidth: number; docHeight: number };
  /**
   * frameHidden returns why the person cannot see this document's frame at
   * all ("" when they can, or when the frame's parent is of another origin
   * and cannot be measured: the app judges cross-origin frames itself).
   */
  frameHidden(): string;
}

/** liveLayout measures in the page the content script runs in. */
export function liveLayout(win: Window): Layout {
  let frame: string | undefined;
  return {
    rect: (el) => el.getBoundingClientRect(),
    // checkVisibility also sees content-visibility:hidden ancestors, whose content keeps its boxes.
    rendered: (el) => el.getClientRects().length > 0 && (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
    style: (el) => win.getComputedStyle(el),
    hit: (el, x, y) => {
      const root = el.getRootNode() as Document | ShadowRoot;
      return 'elementFromPoint' in root ? root.elementFromPoint(x, y) : null;
    },
    scroll: (el) => ({ left: el.scrollLeft, top: el.scrollTop, width: el.scrollWidth, height: el.scrollHeight }),
    hitThrough: (f) => {
      // An adopted sheet is no DOM mutation: the page observes nothing, and
      // it is gone again before any page script runs. Where a browser will
      // not let a content script adopt one, hit testing stays as it is.
      let sheet: CSSStyleSheet;
      try {
        sheet = new CSSStyleSheet();
        sheet.replaceSync('*, *::before, *::after { pointer-events: auto !important; }');
      } catch {
        return f();
      }
      const targets: (Document | ShadowRoot)[] = [win.document, ...openRoots(win.document)];
      // Copies: adoptedStyleSheets is a live array, which the assignment below would change under us.
      const saved = targets.map((t) => [...t.adoptedStyleSheets]);
      const adopted: number[] = [];
      try {
        targets.forEach((t, i) => {
          try {
            t.adoptedStyleSheets = [...saved[i]!, sheet];
            adopted.push(i);
          } catch {
            // Left as the page has it.
          }
        });
        return f();
      } finally {
        for (const i of adopted) targets[i]!.adoptedStyleSheets = saved[i]!;
      }
    },
    paints: (el) => {
      const st = win.getComputedStyle(el);
      if ((Number.parseFloat(st.opacity) || 0) < MIN_OPACITY) return false;
      return st.backgroundImage !== 'none' || !/^(transparent|rgba\(.*,\s*0\))$/.test(st.backgroundColor);
    },
    get viewport() {
      const de = win.document.documentElement;
      return {
        width: win.innerWidth,
        height: win.innerHeight,
        scrollX: win.scrollX,
        scrollY: win.scrollY,
        docWidth: Math.max(de.scrollWidth, win.innerWidth),
        docHeight: Math.max(de.scrollHeight, win.innerHeight),
      };
    },
    frameHidden: () => (frame ??= frameHiddenReason(win)),
  };
}

// openRoots lists the open shadow roots under root, nested ones included.
function openRoots(root: Document | ShadowRoot): ShadowRoot[] {
  const out: ShadowRoot[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) out.push(el.shadowRoot, ...openRoots(el.shadowRoot));
  }
  return out;
}

/**
 * frameHiddenReason measures the frame elements that hold win, up through
 * same-origin parents: a form in a transparent, 1 px or covered iframe is
 * as hidden as its frame.
 */
function frameHiddenReason(win: Window): string {
  for (let w = win; w.parent !== w; w = w.parent) {
    let holder: Element | null;
    try {
      holder = w.frameElement;
    } catch {
      return '';
    }
    if (holder === null) return '';
    const reason = hiddenReason(holder, liveLayout(w.parent));
    if (reason !== '') return reason;
  }
  return '';
}

// Below this combined opacity a control is as good as invisible.
const MIN_OPACITY = 0.05;

// MIN_SIDE is the smallest width and height (CSS px) a person can be
// expected to see a control at: a 1×1 px or 2 px high input is a trap, the
// smallest real controls (checkboxes, radios) are about 12 px.
const MIN_SIDE = 4;

/**
 * hiddenReason returns why a person cannot see el, or "" when they can:
 *   type-hidden        <input type=hidden>
 *   (any reason)       the frame holding el's document is hidden for that reason
 *   display-none       no box (display:none on it or an ancestor, or not rendered)
 *   visibility-hidden  visibility hidden or collapse
 *   transparent        its opacity times its ancestors' (across shadow hosts) under 0.05
 *   zero-size          under 4 px wide or high, or clipped to (almost) nothing by clip / clip-path
 *   offscreen          where no scrolling reaches it (outside its nearest scroll
 *                      container's scrollable area, outside the viewport when
 *                      fixed, else outside the document), or entirely outside
 *                      an overflow:hidden/clip ancestor below those
 *   covered            another element is on top at its centre (checked when
 *                      the centre is in view; nothing is scrolled)
 */
export function hiddenReason(el: Element, layout: Layout): string {
  return measure(el, layout).reason;
}

/**
 * hiddenReasons measures every element of els like hiddenReason, then looks
 * again at the centre of each one found visible there, this time through
 * overlays declared pointer-events:none (hit testing passes through them,
 * so the first look cannot see them): one that paints over the control
 * makes it covered.
 */
export function hiddenReasons(els: readonly Element[], layout: Layout): string[] {
  const ms = els.map((el) => measure(el, layout));
  if (ms.some((m) => m.probe !== undefined)) {
    layout.hitThrough(() => {
      ms.forEach((m, i) => {
        if (m.probe === undefined) return;
        const el = els[i]!;
        const top = layout.hit(el, m.probe.x, m.probe.y);
        if (top !== null && !coversSelf(el, top, false) && layout.paints(top)) m.reason = 'covered';
      });
    });
  }
  return ms.map((m) => m.reason);
}

// A Measure is a reason, and for a control found visible at its centre, that point.
interface Measure {
  reason: string;
  probe?: { x: number; y: number };
}

function measure(el: Element, layout: Layout): Measure {
  const reason = (r: string): Measure => ({ reason: r });
  if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden') return reason('type-hidden');
  const frame = layout.frameHidden();
  if (frame !== '') return reason(frame);
  if (!layout.rendered(el)) return reason('display-none');
  const st = layout.style(el);
  if (st.visibility === 'hidden' || st.visibility === 'collapse') return reason('visibility-hidden');
  const r = layout.rect(el);
  let opacity = 1;
  let zeroClip = false;
  // clipped is el's box cut down by the overflow:hidden/clip ancestors up to
  // its nearest scroll container or fixed-position ancestor: above those,
  // clipping applies to the container, not to where scrolling brings el.
  let clipped: Box | null = r;
  let scroller: Element | null = null;
  let fixed = false;
  for (let n: Element | null = el; n !== null; n = parentElement(n)) {
    const s = n === el ? st : layout.style(n);
    opacity *= (Number.parseFloat(s.opacity) || 0) * filterOpacity(s.filter);
    if (opacity < MIN_OPACITY) return reason('transparent');
    if (hasClip(s) && clipsToNothing(s, n === el ? r : layout.rect(n))) zeroClip = true;
    if (n === el || scroller !== null || fixed) {
      fixed ||= s.position === 'fixed';
      continue;
    }
    if (scrolls(s.overflowX) || scrolls(s.overflowY)) {
      scroller = n;
      continue;
    }
    const x = clipsOverflow(s.overflowX);
    const y = clipsOverflow(s.overflowY);
    if ((x || y) && clipped !== null) clipped = intersect(clipped, layout.rect(n), x, y);
    fixed = s.position === 'fixed';
  }
  if (r.width < MIN_SIDE || r.height < MIN_SIDE || zeroClip) return reason('zero-size');
  if (clipped === null) return reason('offscreen');
  const vp = layout.viewport;
  // Where no scrolling reaches: judged in el's nearest scroll container, else
  // in the viewport for a fixed box (it does not scroll), else in the document.
  let view: Box = { left: 0, top: 0, width: vp.width, height: vp.height };
  if (scroller !== null) {
    const c = layout.rect(scroller);
    const sc = layout.scroll(scroller);
    if (outside(r.left - c.left + sc.left, r.top - c.top + sc.top, r, sc.width, sc.height)) return reason('offscreen');
    view = c;
  } else if (fixed) {
    if (outside(r.left, r.top, r, vp.width, vp.height)) return reason('offscreen');
  } else if (outside(r.left + vp.scrollX, r.top + vp.scrollY, r, vp.docWidth, vp.docHeight)) {
    return reason('offscreen');
  }
  // Covered is measured where the person sees el now: its centre inside the
  // viewport and inside its scroll container's box (else it is scrolled out
  // of view, not covered).
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const inView = (b: Box): boolean => cx >= b.left && cy >= b.top && cx < b.left + b.width && cy < b.top + b.height;
  if (inView({ left: 0, top: 0, width: vp.width, height: vp.height }) && inView(view)) {
    const top = layout.hit(el, cx, cy);
    if (top !== null && !coversSelf(el, top, st.pointerEvents === 'none')) return reason('covered');
    return { reason: '', probe: { x: cx, y: cy } };
  }
  return reason('');
}

// outside reports whether a box of r's size at (left, top) lies entirely outside 0..width × 0..height.
function outside(left: number, top: number, r: Box, width: number, height: number): boolean {
  return left + r.width <= 0 || top + r.height <= 0 || left >= width || top >= height;
}

function scrolls(v: string): boolean {
  return v === 'auto' || v === 'scroll';
}

// filterOpacity returns the product of the opacity() functions in a computed filter ("opacity(0)", "opacity(50%)").
function filterOpacity(filter: string): number {
  let f = 1;
  for (const m of filter.matchAll(/opacity\(\s*([\d.]+)(%?)\s*\)/g)) {
    const v = Number.parseFloat(m[1]!);
    f *= m[2] === '%' ? v / 100 : v;
  }
  return f;
}

function hasClip(s: StyleLike): boolean {
  return (s.clip !== '' && s.clip !== 'auto') || (s.clipPath !== '' && s.clipPath !== 'none');
}

function clipsOverflow(v: string): boolean {
  return v === 'hidden' || v === 'clip';
}

// intersect cuts a by b along the clipping axes; null when too thin a sliver remains to be seen.
function intersect(a: Box, b: Box, x: boolean, y: boolean): Box | null {
  let { left, top, width, height } = a;
  if (x) {
    const l = Math.max(left, b.left);
    const rgt = Math.min(left + width, b.left + b.width);
    left = l;
    width = rgt - l;
  }
  if (y) {
    const t = Math.max(top, b.top);
    const btm = Math.min(top + height, b.top + b.height);
    top = t;
    height = btm - t;
  }
  return width < MIN_SIDE || height < MIN_SIDE ? null : { left, top, width, height };
}

/*
 * clipsToNothing reports whether clip (on absolutely or fixed positioned
 * boxes) or clip-path leaves less than MIN_SIDE px of box: the forms the
 * "visually hidden" idiom uses — rect(0 0 0 0), inset(50%), circle(0),
 * ellipse(0 0), a polygon of no area.
 */
function clipsToNothing(s: StyleLike, box: Box): boolean {
  if ((s.position === 'absolute' || s.position === 'fixed') && s.clip.startsWith('rect(')) {
    const v = numbers(s.clip.slice(5, -1));
    if (v.length === 4 && v.every((n) => n !== null)) {
      const [top, right, bottom, left] = v as number[];
      if (right! - left! < MIN_SIDE || bottom! - top! < MIN_SIDE) return true;
    }
  }
  const cp = s.clipPath.trim();
  const inset = /^inset\(([^)]*)\)/.exec(cp);
  if (inset) {
    const parts = inset[1]!.split(/\s+round\s+/)[0]!.trim().split(/\s+/);
    const px = (p: string | undefined, size: number): number => {
      if (p === undefined) return NaN;
      if (p.endsWith('%')) return (Number.parseFloat(p) / 100) * size;
      return Number.parseFloat(p);
    };
    const [t, r = t, b = t, l = r] = parts;
    const w = box.width - px(l, box.width) - px(r, box.width);
    const h = box.height - px(t, box.height) - px(b, box.height);
    if (w < MIN_SIDE || h < MIN_SIDE) return true;
  }
  const shape = /^(circle|ellipse)\(\s*([\d.]+)(px|%)?(?:\s+([\d.]+)(px|%)?)?/.exec(cp);
  if (shape) {
    const rx = Number.parseFloat(shape[2]!);
    const ry = shape[4] !== undefined ? Number.parseFloat(shape[4]) : rx;
    if (rx === 0 || ry === 0) return true;
  }
  const poly = /^polygon\((?:\s*(?:nonzero|evenodd)\s*,)?([^)]*)\)/.exec(cp);
  if (poly) {
    const coord = (p: string, size: number): number => (p.endsWith('%') ? (Number.parseFloat(p) / 100) * size : Number.parseFloat(p));
    const pts = poly[1]!.split(',').map((pair) => {
      const [x = '', y = ''] = pair.trim().split(/\s+/);
      return [coord(x, box.width), coord(y, box.height)] as const;
    });
    // The shoelace formula: a polygon of (almost) no area shows nothing.
    let twice = 0;
    pts.forEach(([x1, y1], i) => {
      const [x2, y2] = pts[(i + 1) % pts.length]!;
      twice += x1 * y2 - x2 * y1;
    });
    if (pts.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)) && Math.abs(twice) / 2 < MIN_SIDE * MIN_SIDE) return true;
  }
  return false;
}

// numbers parses "0px, 1px, auto, 0px" (or space-separated) into numbers, null for auto.
function numbers(s: string): (number | null)[] {
  return s
    .split(/[\s,]+/)
    .filter((p) => p !== '')
    .map((p) => (p === 'auto' ? null : Number.parseFloat(p)));
}

// parentElement crosses shadow boundaries, so a transparent host hides its shadow content.
function parentElement(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const root = n.getRootNode();
  return 'host' in root ? (root as ShadowRoot).host : null;
}

// coversSelf reports whether the element hit at the control's centre is the
// control itself, inside it, or one of its labels (custom checkboxes draw a
// label over a transparent-looking input). An ancestor hit means the
// control is painted under the ancestor's own background (a negative
// z-index), unless the control takes no pointer events: then hit testing
// passes through it and an ancestor is what it finds.
function coversSelf(el: Element, top: Element, noPointer: boolean): boolean {
  if (top === el || el.contains(top)) return true;
  if (top.contains(el)) return noPointer;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (l === top || l.contains(top)) return true;
  return false;
}
