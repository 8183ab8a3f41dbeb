import { sentence } from "./format";
import { errorText } from "./wails";

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

/**
 * CardMessages are a Settings card's status line and error line, and act,
 * which runs a change, renders its answer and says it was done, or shows
 * why not.
 */
export class CardMessages<T> {
  readonly status = make("p", "settings-done");
  readonly error = make("p", "field-error");

  constructor(private readonly render: (v: T) => void) {
    this.status.setAttribute("role", "status");
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
  }

  /** fail shows why a read or a change did not happen. */
  fail(e: unknown): void {
    this.error.textContent = sentence(errorText(e));
    this.error.hidden = false;
  }

  /** act runs f; its answer is rendered and done is said, or the error shown. */
  async act(f: () => Promise<T>, done: string): Promise<void> {
    try {
      this.render(await f());
      this.status.textContent = done;
    } catch (e) {
      this.fail(e);
    }
  }
}
