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

/**
 * controlOf is the control that shows path: an element named path (name,
 * then id), else the first control inside the renderer's [data-name]
 * wrapper of path; the first one in document order of the first of these
 * that finds any.
 */
export function controlOf(doc: Document, path: string): Element | undefined {
  const q = CSS.escape(path);
  const named = doc.querySelector(`[name="${q}"]:is(input, select, textarea)`) ?? doc.getElementById(path);
  if (named) return named;
  const wrap = doc.querySelector(`[data-name="${q}"]`);
  if (!wrap) return undefined;
  return wrap.matches(CONTROL) ? wrap : (wrap.querySelector(CONTROL) ?? undefined);
}

/** measurePaths measures the control of each path (the first MAX_MEASURED distinct strings). */
export function measurePaths(doc: Document, paths: readonly unknown[], layout: Layout): FormspecMeasure[] {
  const list = [...new Set(paths.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 1024))].slice(0, MAX_MEASURED);
  const found = list.map((p) => controlOf(doc, p));
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
