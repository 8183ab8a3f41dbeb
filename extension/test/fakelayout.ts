/** A fake Layout for tests: happy-dom has no layout engine. */
import type { Box, Layout, StyleLike } from '../src/content/visibility';

export type { Box };

const DEFAULT_STYLE: StyleLike = {
  visibility: 'visible',
  opacity: '1',
  overflowX: 'visible',
  overflowY: 'visible',
  position: 'static',
  clip: 'auto',
  clipPath: 'none',
  filter: 'none',
  pointerEvents: 'auto',
};

/**
 * fakeLayout lays out every element as a 100x20 box at (10,10) in an
 * 800x600 viewport over a 800x2000 document unless told otherwise; the
 * element hit at any point is the one asked about.
 */
export function fakeLayout(o: {
  rects?: Map<Element, Box>;
  unrendered?: Set<Element>;
  styles?: Map<Element, Partial<StyleLike>>;
  hit?: (el: Element) => Element | null;
  frameHidden?: string;
  scrolls?: Map<Element, Box>;
  /** through is what is hit while overlays without pointer events are hittable (default: as hit). */
  through?: (el: Element) => Element | null;
  /** painting lists the elements that paint a surface (default: all). */
  painting?: Set<Element>;
} = {}): Layout {
  let hitThrough = false;
  return {
    rect: (el) => o.rects?.get(el) ?? { left: 10, top: 10, width: 100, height: 20 },
    rendered: (el) => !o.unrendered?.has(el),
    style: (el) => ({ ...DEFAULT_STYLE, ...o.styles?.get(el) }),
    hit: (el) => (hitThrough && o.through ? o.through(el) : o.hit ? o.hit(el) : el),
    viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, docWidth: 800, docHeight: 2000 },
    frameHidden: () => o.frameHidden ?? '',
    scroll: (el) => o.scrolls?.get(el) ?? { left: 0, top: 0, width: 100, height: 20 },
    hitThrough: (f) => {
      hitThrough = true;
      try {
        return f();
      } finally {
        hitThrough = false;
      }
    },
    paints: (el) => o.painting?.has(el) ?? true,
  };
}
