/**
 * The Formspec probe (issue 14), part of the top document's content script
 * at document_idle: Tessera runs nothing of Formspec Assist on a page until
 * the page shows a Formspec form. It looks for the renderer's element, its
 * markup and the sidecar links (a few querySelector calls at idle, again at
 * 1 s and 3 s for forms rendered late) and listens for the page's
 * formspec-tools-available announcement; the first sign makes it ask the
 * service worker to inject the bridge and the page-world script
 * (background/formspec.ts inject), which detect the mode (§10) and, in
 * mode 2, bootstrap the provider. A page with none of these signs gets no
 * Formspec script at all; the popup can still ask for a detection on demand.
 */

import { ANNOUNCED } from '../shared/formspec';

/** SIGNS are what make a document look like a Formspec form, in the order looked for. */
const SIGNS: Array<[string, string]> = [
  ['formspec-render', 'a <formspec-render> element'],
  ['.formspec-container [data-name]', 'Formspec renderer markup'],
  ['link[rel~="formspec-references"], link[rel~="formspec-ontology"], link[rel~="formspec-registry"]', 'Formspec sidecar links'],
];

/** formspecSign returns why doc looks like a Formspec form, or undefined when it does not. */
export function formspecSign(doc: Document): string | undefined {
  for (const [sel, why] of SIGNS) if (doc.querySelector(sel)) return why;
  return undefined;
}

/** RECHECK_MS are the later looks, for forms a script renders after idle. */
export const RECHECK_MS = [1000, 3000];

/**
 * watchFormspec calls inject once, with the reason, when doc shows a
 * Formspec form now, at one of the later looks, or announces Assist tools.
 */
export function watchFormspec(doc: Document, inject: (why: string) => void, later: (f: () => void, ms: number) => void = (f, ms) => void setTimeout(f, ms)): void {
  let asked = false;
  const once = (why: string | undefined): void => {
    if (asked || why === undefined) return;
    asked = true;
    inject(why);
  };
  doc.addEventListener(
    'formspec-tools-available',
    () => {
      // For the bridge, which tells the page-world script injected after it.
      (globalThis as { [k: symbol]: unknown })[Symbol.for(ANNOUNCED)] = true;
      once('the page announced formspec-tools-available');
    },
    true,
  );
  once(formspecSign(doc));
  for (const ms of RECHECK_MS) later(() => once(formspecSign(doc)), ms);
}
