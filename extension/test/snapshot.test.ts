// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { HIDDEN_ATTR, type Layout, REF_ATTR, controlsAndRoots, hiddenReason, takeSnapshot } from '../src/content/snapshot';

type Box = { left: number; top: number; width: number; height: number };

/** fakeLayout lays out every element as a 100x20 box at (10,10) unless told otherwise. */
function fakeLayout(o: {
  rects?: Map<Element, Box>;
  unrendered?: Set<Element>;
  styles?: Map<Element, { visibility?: string; opacity?: string }>;
  hit?: (el: Element) => Element | null;
}): Layout {
  return {
    rect: (el) => o.rects?.get(el) ?? { left: 10, top: 10, width: 100, height: 20 },
    rendered: (el) => !o.unrendered?.has(el),
    style: (el) => ({ visibility: 'visible', opacity: '1', ...o.styles?.get(el) }),
    hit: (el) => (o.hit ? o.hit(el) : el),
    viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0 },
  };
}

beforeEach(() => {
  document.documentElement.setAttribute('lang', 'en');
  document.body.innerHTML = '';
});

describe('hiddenReason', () => {
  const setup = () => {
    document.body.innerHTML = '<div id=wrap><label for=x>X</label><input id=x><div id=over></div></div>';
    return {
      input: document.getElementById('x')!,
      wrap: document.getElementById('wrap')!,
      over: document.getElementById('over')!,
      label: document.querySelector('label')!,
    };
  };
  const cases: { name: string; want: string; layout: (e: ReturnType<typeof setup>) => Layout; type?: string }[] = [
    { name: 'visible', want: '', layout: () => fakeLayout({}) },
    { name: 'type hidden', want: 'type-hidden', type: 'hidden', layout: () => fakeLayout({}) },
    { name: 'display none', want: 'display-none', layout: (e) => fakeLayout({ unrendered: new Set([e.input]) }) },
    { name: 'visibility hidden', want: 'visibility-hidden', layout: (e) => fakeLayout({ styles: new Map([[e.input, { visibility: 'hidden' }]]) }) },
    { name: 'transparent ancestor', want: 'transparent', layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { opacity: '0' }]]) }) },
    // Regression guard: opacities multiply down the tree (0.2 * 0.2 < 0.05).
    {
      name: 'faint twice',
      want: 'transparent',
      layout: (e) => fakeLayout({ styles: new Map([[e.wrap, { opacity: '0.2' }], [e.input, { opacity: '0.2' }]]) }),
    },
    { name: 'zero size', want: 'zero-size', layout: (e) => fakeLayout({ rects: new Map([[e.input, { left: 10, top: 10, width: 0, height: 20 }]]) }) },
    { name: 'off-screen left', want: 'offscreen', layout: (e) => fakeLayout({ rects: new Map([[e.input, { left: -9999, top: 10, width: 100, height: 20 }]]) }) },
    { name: 'below the fold is visible', want: '', layout: (e) => fakeLayout({ rects: new Map([[e.input, { left: 10, top: 5000, width: 100, height: 20 }]]), hit: () => null }) },
    { name: 'covered', want: 'covered', layout: (e) => fakeLayout({ hit: () => e.over }) },
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
});

describe('takeSnapshot', () => {
  it('stamps every control, keeps refs across snapshots, marks hidden ones', () => {
    document.body.innerHTML = '<form><input name=a><select name=b></select><textarea name=c></textarea><input type=hidden name=d></form><p>x</p>';
    const snap = takeSnapshot(document, fakeLayout({}));
    expect(snap.controls).toBe(4);
    const refs = [...document.querySelectorAll('input,select,textarea')].map((e) => e.getAttribute(REF_ATTR));
    expect(new Set(refs).size).toBe(4);
    expect(refs.every((r) => r && snap.html.includes(`${REF_ATTR}="${r}"`))).toBe(true);
    expect(document.querySelector('[name=d]')!.getAttribute(HIDDEN_ATTR)).toBe('type-hidden');
    expect(document.querySelector('[name=a]')!.hasAttribute(HIDDEN_ATTR)).toBe(false);
    expect(snap.html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);

    takeSnapshot(document, fakeLayout({}));
    const again = [...document.querySelectorAll('input,select,textarea')].map((e) => e.getAttribute(REF_ATTR));
    expect(again).toEqual(refs);
  });

  it('clears a hidden mark when the control becomes visible', () => {
    document.body.innerHTML = '<input name=a>';
    const a = document.querySelector('input')!;
    takeSnapshot(document, fakeLayout({ unrendered: new Set([a]) }));
    expect(a.getAttribute(HIDDEN_ATTR)).toBe('display-none');
    takeSnapshot(document, fakeLayout({}));
    expect(a.hasAttribute(HIDDEN_ATTR)).toBe(false);
  });

  it('finds controls in open shadow roots but not in closed ones', () => {
    document.body.innerHTML = '<div id=open></div><div id=closed></div><input name=light>';
    document.getElementById('open')!.attachShadow({ mode: 'open' }).innerHTML = '<input name=inopen>';
    document.getElementById('closed')!.attachShadow({ mode: 'closed' }).innerHTML = '<input name=inclosed>';
    const { controls, roots } = controlsAndRoots(document);
    expect(controls.map((c) => c.getAttribute('name'))).toEqual(['inopen', 'light']);
    expect(roots).toHaveLength(1);
  });

  it('escapes attribute values of the root element', () => {
    document.documentElement.setAttribute('data-x', '"><script>');
    const snap = takeSnapshot(document, fakeLayout({}));
    expect(snap.html).toContain('data-x="&quot;><script>"');
    document.documentElement.removeAttribute('data-x');
  });
});
