/**
 * Waiting for a page to react to filled values: a country select may reveal
 * region fields, "same as billing" an address. The page counts as settled
 * once no mutation was seen for quietMs, or after maxMs in any case.
 */

/** QUIET_MS and MAX_MS are the shipped settle bounds (milliseconds). */
export const QUIET_MS = 150;
export const MAX_MS = 1000;

/**
 * settle resolves when the DOM under roots (a document and its open shadow
 * roots, each observed on its own since mutations inside a shadow root are
 * not seen from the document) has been quiet for quietMs, or after maxMs.
 */
export function settle(roots: readonly Node[], quietMs = QUIET_MS, maxMs = MAX_MS): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout>;
    const done = (): void => {
      clearTimeout(quiet);
      clearTimeout(bound);
      mo.disconnect();
      resolve();
    };
    const mo = new MutationObserver(() => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    });
    for (const r of roots) mo.observe(r, { subtree: true, childList: true, attributes: true, characterData: true });
    quiet = setTimeout(done, quietMs);
    const bound = setTimeout(done, maxMs);
  });
}
