// The DOM helpers the views share.

/** el returns the element of index.html with id, or throws: a missing one is a bug. */
export function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing #${id} in index.html`);
  return e as T;
}

/** make builds an element with a class and text (set as text, never HTML). */
export function make<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** pollWhileShown runs load now, then every ms while view is shown (a card reading Go again). */
export function pollWhileShown(view: HTMLElement, ms: number, load: () => Promise<void>): void {
  window.setInterval(() => {
    if (view.getClientRects().length > 0) void load();
  }, ms);
  void load();
}
