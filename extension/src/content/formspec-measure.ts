/**
 * Measuring the controls of a Formspec form for formspec.apply (issue 23),
 * in the bridge's isolated world, where no page script can change what the
 * DOM methods answer. A provider, the page's own (mode 1) or Tessera's
 * bootstrap around the page's engine (mode 2), names fields by path; this
 * finds the control that shows each path in the document and measures
 * whether the person can see it (content/visibility.ts). The app ticks a
 * row only for a path measured visible: whatever a provider lists, a field
 * with no visible control is in the dialog's "not filled unless you tick
 * them" section.
 */
import { type Layout, hiddenReasons } from './visibility';

/** FormspecMeasure is one path's measurement (app.FormspecMeasure). */
export interface FormspecMeasure {
  path: string;
  found: boolean;
  visible: boolean;
  reason?: string;
}

/** MAX_MEASURED bounds the paths measured for one apply (the app's maxFormspecFields). */
export const MAX_MEASURED = 5000;

const CONTROL = 'input:not([type="hidden"]), select, textarea, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"], [role="listbox"]';

/** MAX_ROOTS bounds the open shadow roots searched for controls. */
const MAX_ROOTS = 256;

/** searchRoots are the document and its open shadow roots (renderers built as custom elements), the first MAX_ROOTS in document order. */
function searchRoots(doc: Document): Array<Document | ShadowRoot> {
  const roots: Array<Document | ShadowRoot> = [doc];
  for (let i = 0; i < roots.length && roots.length < MAX_ROOTS; i++) {
    for (const el of roots[i]!.querySelectorAll('*')) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      if (roots.length >= MAX_ROOTS) break;
    }
  }
  return roots;
}

/**
 * controlOf is the control that shows path: an element named path (name,
 * then id), else the first control inside the renderer's [data-name]
 * wrapper of path; in the document first, then in its open shadow roots.
 */
export function controlOf(doc: Document, path: string, roots: ReadonlyArray<Document | ShadowRoot> = [doc]): Element | undefined {
  const q = CSS.escape(path);
  for (const root of roots) {
    const named = root.querySelector(`[name="${q}"]:is(input, select, textarea)`) ?? root.querySelector(`#${q}`);
    if (named) return named;
    const wrap = root.querySelector(`[data-name="${q}"]`);
    if (wrap) return wrap.matches(CONTROL) ? wrap : (wrap.querySelector(CONTROL) ?? undefined);
  }
  return undefined;
}

/** measurePaths measures the control of each path (the first MAX_MEASURED distinct strings). */
export function measurePaths(doc: Document, paths: readonly unknown[], layout: Layout): FormspecMeasure[] {
  const list = [...new Set(paths.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 1024))].slice(0, MAX_MEASURED);
  const roots = list.length > 0 ? searchRoots(doc) : [];
  const found = list.map((p) => controlOf(doc, p, roots));
  const els = found.filter((e): e is Element => e !== undefined);
  const reasons = new Map(hiddenReasons(els, layout).map((r, i) => [els[i]!, r]));
  const frame = layout.frameHidden();
  return list.map((path, i) => {
    const el = found[i];
    if (!el) return { path, found: false, visible: false };
    const reason = frame || reasons.get(el) || '';
    return reason === '' ? { path, found: true, visible: true } : { path, found: true, visible: false, reason: reason.slice(0, 64) };
  });
}
