/**
 * Noticing a form submit, to offer learning what was submitted. The capture
 * is taken at once, synchronously, because the page may unload right after;
 * sending it is asynchronous, so the submit is never held up by Tessera.
 */
import { type Failure, type FrameCapture, isFailure } from '../shared/messages';

/** MIN_GAP_MS is the least time between two learn captures of one document (a page cannot flood the app). */
export const MIN_GAP_MS = 1000;

/** submitButton returns the submit button a click landed on, when it has a form to submit. */
function submitButton(e: Event): HTMLButtonElement | HTMLInputElement | null {
  for (const n of e.composedPath()) {
    if (!(n instanceof Element)) continue;
    if (n.tagName === 'BUTTON' || n.tagName === 'INPUT') {
      const b = n as HTMLButtonElement | HTMLInputElement;
      const submits = b.type === 'submit' || (n.tagName === 'INPUT' && b.type === 'image');
      return submits && b.form !== null && !b.disabled ? b : null;
    }
  }
  return null;
}

/**
 * watchSubmits calls send with a capture of doc after each form submit: on
 * the submit event (capture phase), and after a click on a form's submit
 * button that produced no submit event the document could see (a form in a
 * shadow root, whose submit event stays inside it, or a page that submits
 * by script from the click).
 */
export function watchSubmits(
  doc: Document,
  send: (frame: FrameCapture) => void,
  snap: () => FrameCapture | Failure,
  now: () => number = () => Date.now(),
): void {
  let last = -Infinity;
  let sawSubmit = false;
  const take = (): void => {
    const t = now();
    if (t - last < MIN_GAP_MS) return;
    last = t;
    const c = snap();
    if (!isFailure(c)) send(c);
  };
  doc.addEventListener(
    'submit',
    () => {
      sawSubmit = true;
      take();
    },
    true,
  );
  doc.addEventListener(
    'click',
    (e) => {
      if (submitButton(e) === null) return;
      sawSubmit = false;
      // A form's submit event fires during the click's default action, before this timer.
      setTimeout(() => {
        if (!sawSubmit) take();
      }, 0);
    },
    true,
  );
}
