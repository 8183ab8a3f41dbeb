// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { type Layout, hiddenReason, hiddenReasons, liveLayout } from '../src/content/visibility';
import { fakeLayout } from './fakelayout';

beforeEach(() => {
  document.body.innerHTML = '';
});

describe('hiddenReason', () => {
  const setup = () => {
    document.body.innerHTML =
      '<div id=clip><div id=wrap><label for=x>X</label><input id=x><div id=over></div></div></div><div id=host></div>';
    return {
      input: document.getElementById('x')!,
      wrap: document.getElementById('wrap')!,
      clip: document.getElementById('clip')!,
      over: document.getElementById('over')!,
      label: document.querySelector('label')!,
    };
  };
  type Env = ReturnType<typeof setup>;
  const at = (left: number, top: number, width = 100, height = 20) => ({ left, top, width, height });
  const cases: { name: string; want: string; layout: (e: Env) => Layout; type?: string }[] = [
    { name: 'visible', want: '', layout: () => fakeLayout() },
    { name: 'type hidden', want: 'type-hidden', type: 'hidden', layout: () => fakeLayout() },
    { name: 'display none', want: 'display-none', layout: (e) => fakeLayout({ unrendered: new Set([e.input]) }) },
    { name: 'visibility hidden', want: 'visibility-hidden', layout: (e) => fakeLayout({ styles: new Map([[e.input, { visibility: 'hidden' }]]) }) },
    { name: 'transparent ancestor', want: 'transparent', layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { opacity: '0' }]]) }) },
    // Regression guard: opacities multiply down the tree (0.2 * 0.2 < 0.05).
    {
      name: 'faint twice',
      want: 'transparent',
      layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { opacity: '0.2' }], [e.input, { opacity: '0.2' }]]) }),
    },
    { name: 'zero size', want: 'zero-size', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(10, 10, 0, 20)]]) }) },
    // Regression guard: a 1×1 px input passed "under 1×1 px" and was filled.
    { name: '1 px square', want: 'zero-size', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(10, 10, 1, 1)]]) }) },
    { name: '2 px high', want: 'zero-size', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(10, 10, 200, 2)]]) }) },
    { name: 'checkbox size is visible', want: '', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(10, 10, 13, 13)]]) }) },
    {
      name: 'clip rect(0 0 0 0) (visually hidden idiom)',
      want: 'zero-size',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { position: 'absolute', clip: 'rect(0px, 0px, 0px, 0px)' }]]) }),
    },
    {
      name: 'clip on a static box does nothing',
      want: '',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { clip: 'rect(0px, 0px, 0px, 0px)' }]]) }),
    },
    { name: 'clip-path inset(50%)', want: 'zero-size', layout: (e) => fakeLayout({ styles: new Map([[e.input, { clipPath: 'inset(50%)' }]]) }) },
    { name: 'ancestor clip-path circle(0)', want: 'zero-size', layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { clipPath: 'circle(0px at 50% 50%)' }]]) }) },
    { name: 'partial clip-path is visible', want: '', layout: (e) => fakeLayout({ styles: new Map([[e.input, { clipPath: 'inset(10%)' }]]) }) },
    {
      name: 'clip-path polygon of no area',
      want: 'zero-size',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { clipPath: 'polygon(0px 0px, 0px 0px, 0px 0px)' }]]) }),
    },
    {
      name: 'clip-path polygon covering the box',
      want: '',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { clipPath: 'polygon(0% 0%, 100% 0%, 100% 100%, 0% 100%)' }]]) }),
    },
    {
      name: 'fixed below the viewport',
      want: 'offscreen',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { position: 'fixed' }]]), rects: new Map([[e.input, at(10, 700)]]), hit: () => null }),
    },
    {
      name: 'fixed inside the viewport',
      want: '',
      layout: (e) => fakeLayout({ styles: new Map([[e.input, { position: 'fixed' }]]), rects: new Map([[e.input, at(10, 500)]]) }),
    },
    {
      name: 'outside an overflow:hidden ancestor',
      want: 'offscreen',
      layout: (e) =>
        fakeLayout({
          styles: new Map([[e.clip, { overflowX: 'hidden', overflowY: 'hidden' }]]),
          rects: new Map([[e.clip, at(0, 0, 300, 300)], [e.input, at(400, 10)]]),
          hit: () => null,
        }),
    },
    {
      name: 'inside a tiny overflow:hidden box',
      want: 'offscreen',
      layout: (e) =>
        fakeLayout({
          styles: new Map([[e.wrap, { overflowX: 'hidden', overflowY: 'hidden' }]]),
          rects: new Map([[e.wrap, at(10, 10, 0.5, 0.5)]]),
        }),
    },
    {
      name: 'partly inside an overflow:hidden ancestor is visible',
      want: '',
      layout: (e) =>
        fakeLayout({
          styles: new Map([[e.clip, { overflowX: 'hidden', overflowY: 'visible' }]]),
          rects: new Map([[e.clip, at(0, 0, 50, 300)]]),
        }),
    },
    {
      name: 'fixed position escapes the clipping ancestor',
      want: '',
      layout: (e) =>
        fakeLayout({
          styles: new Map([[e.clip, { overflowX: 'hidden', overflowY: 'hidden' }], [e.wrap, { position: 'fixed' }]]),
          rects: new Map([[e.clip, at(0, 0, 1, 1)]]),
        }),
    },
    { name: 'off-screen left', want: 'offscreen', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(-9999, 10)]]) }) },
    { name: 'past the document right edge', want: 'offscreen', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(5000, 10)]]) }) },
    { name: 'below the fold is visible', want: '', layout: (e) => fakeLayout({ rects: new Map([[e.input, at(10, 1500)]]), hit: () => null }) },
    { name: 'covered', want: 'covered', layout: (e) => fakeLayout({ hit: () => e.over }) },
    // Regression guard: a control painted under its container's background
    // (z-index:-1) hits the container, which was taken for the control.
    { name: 'under an ancestor’s background', want: 'covered', layout: (e) => fakeLayout({ hit: () => e.wrap }) },
    {
      name: 'an ancestor hit through a control without pointer events',
      want: '',
      layout: (e) => fakeLayout({ hit: () => e.wrap, styles: new Map([[e.input, { pointerEvents: 'none' }]]) }),
    },
    { name: 'filter: opacity(0)', want: 'transparent', layout: (e) => fakeLayout({ styles: new Map([[e.input, { filter: 'opacity(0)' }]]) }) },
    {
      name: 'filter opacity times opacity',
      want: 'transparent',
      layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { filter: 'blur(1px) opacity(20%)' }], [e.input, { opacity: '0.2' }]]) }),
    },
    { name: 'filter without opacity', want: '', layout: (e) => fakeLayout({ styles: new Map([[e.input, { filter: 'blur(1px)' }]]) }) },
    { name: 'in a hidden frame', want: 'transparent', layout: () => fakeLayout({ frameHidden: 'transparent' }) },
    { name: 'its label on top', want: '', layout: (e) => fakeLayout({ hit: () => e.label }) },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const e = setup();
      if (tc.type) e.input.setAttribute('type', tc.type);
      const got = hiddenReason(e.input, tc.layout(e));
      expect(got, `hiddenReason(${tc.name}) = ${JSON.stringify(got)}, want ${JSON.stringify(tc.want)}`).toBe(tc.want);
    });
  }

  describe('in a scroll container', () => {
    // An app shell: body clips, main scrolls; the field is scrolled below main's view.
    const shell = () => {
      document.body.innerHTML = '<header id=head></header><main id=main><div id=wrap><input id=x></div></main>';
      const e = { body: document.body, main: document.getElementById('main')!, head: document.getElementById('head')!, input: document.getElementById('x')! };
      return e;
    };
    const base = (e: ReturnType<typeof shell>, inputTop: number, scrollHeight: number, pos = 'static') =>
      fakeLayout({
        styles: new Map([
          [e.body, { overflowX: 'hidden', overflowY: 'hidden' }],
          [e.main, { overflowX: 'auto', overflowY: 'auto', position: pos }],
        ]),
        rects: new Map([
          [e.body, { left: 0, top: 0, width: 800, height: 600 }],
          [e.main, { left: 0, top: 60, width: 800, height: 540 }],
          [e.input, { left: 10, top: inputTop, width: 100, height: 20 }],
        ]),
        scrolls: new Map([[e.main, { left: 0, top: 400, width: 800, height: scrollHeight }]]),
        // Whatever is at a point outside main's view is the header, not the field.
        hit: (el) => el,
      });
    it('a field scrolled out of view is visible (reachable by scrolling), not clipped or covered', () => {
      const e = shell();
      // Below main's view and below the body's box.
      expect(hiddenReason(e.input, base(e, 900, 3000))).toBe('');
      // Above main's view, its centre over the header.
      const l = base(e, 20, 3000);
      expect(hiddenReason(e.input, { ...l, hit: () => e.head })).toBe('');
    });
    it('past the end of its scroll container is offscreen', () => {
      const e = shell();
      // 60 + scrollHeight 1000 - scrollTop 400 = 660: a field at 700 starts past the end.
      expect(hiddenReason(e.input, base(e, 700 + 400, 1000))).toBe('offscreen');
    });
    it('a field in a fixed modal’s scrolling body, below the viewport, is visible', () => {
      const e = shell();
      expect(hiddenReason(e.input, base(e, 900, 3000, 'fixed'))).toBe('');
    });
  });

  describe('through overlays without pointer events', () => {
    const page = () => {
      document.body.innerHTML = '<label for=x>X</label><input id=x><span id=float>Name</span><div id=veil></div><input id=y>';
      return {
        x: document.getElementById('x')!,
        y: document.getElementById('y')!,
        veil: document.getElementById('veil')!,
        float: document.getElementById('float')!,
        label: document.querySelector('label')!,
      };
    };
    it('a painting overlay over one control makes it covered', () => {
      const e = page();
      const l = fakeLayout({ through: (el) => (el === e.x ? e.veil : el) });
      expect(hiddenReason(e.x, l), 'hit testing alone passes through').toBe('');
      expect(hiddenReasons([e.x, e.y], l)).toEqual(['covered', '']);
    });
    it('a floating label that paints nothing, or the control’s own label, does not', () => {
      const e = page();
      const l = fakeLayout({ through: (el) => (el === e.x ? e.label : e.float), painting: new Set([e.veil]) });
      expect(hiddenReasons([e.x, e.y], l)).toEqual(['', '']);
    });
    it('is not looked for where hit testing already decided', () => {
      const e = page();
      let looked = 0;
      const l = fakeLayout({ hit: () => e.veil, through: () => (looked++, e.veil) });
      expect(hiddenReasons([e.x], l)).toEqual(['covered']);
      expect(looked).toBe(0);
    });
  });

  it('multiplies opacity across a shadow host', () => {
    document.body.innerHTML = '<div id=host></div>';
    const host = document.getElementById('host')!;
    host.attachShadow({ mode: 'open' }).innerHTML = '<input name=s>';
    const input = host.shadowRoot!.querySelector('input')!;
    expect(hiddenReason(input, fakeLayout({ styles: new Map([[host, { opacity: '0.01' }]]) }))).toBe('transparent');
    expect(hiddenReason(input, fakeLayout())).toBe('');
  });
});

describe('liveLayout.hitThrough', () => {
  // Regression guard: the live adoptedStyleSheets array was saved by
  // reference, so the override sheet stayed adopted after each measurement.
  it('adopts its override sheet only while it runs, keeping the page’s own', () => {
    document.body.innerHTML = '<div id=h></div>';
    const root = document.getElementById('h')!.attachShadow({ mode: 'open' });
    const own = new CSSStyleSheet();
    // Browsers keep one live array per document (an ObservableArray): an
    // assignment replaces its contents. happy-dom's is a plain array.
    const live: CSSStyleSheet[] = [own];
    Object.defineProperty(document, 'adoptedStyleSheets', {
      configurable: true,
      get: () => live,
      set: (v: CSSStyleSheet[]) => void live.splice(0, live.length, ...v),
    });
    try {
      const inside = liveLayout(window).hitThrough(() => [document.adoptedStyleSheets.length, root.adoptedStyleSheets.length]);
      expect(inside).toEqual([2, 1]);
      expect(document.adoptedStyleSheets).toEqual([own]);
      expect(root.adoptedStyleSheets).toEqual([]);
    } finally {
      delete (document as { adoptedStyleSheets?: unknown }).adoptedStyleSheets;
    }
  });
});
