/**
 * Noticing a form submit the person made, to offer learning what was
 * submitted. The capture is taken at once, synchronously, because the page
 * may unload right after; sending it is asynchronous, so the submit is never
 * held up by Tessera.
 *
 * Only a submit the person made counts: a page's script can submit any form
 * it likes (requestSubmit() from a timer, a synthetic submit event, a
 * scripted click), with values it chose, and a learn dialog after that would
 * put the page's words into the profile as the person's. The submit event
 * of requestSubmit() is trusted (isTrusted is true), so isTrusted alone
 * proves nothing: the evidence is the person's own input on that form just
 * before — a trusted click on one of its submit buttons, or a trusted Enter
 * in one of its fields (implicit submission) — while the page holds the
 * transient user activation that input gave it.
 */
import { type Failure, type FrameCapture, isFailure } from '../shared/messages';

/** MIN_GAP_MS is the least time between two learn captures of one document (a page cannot flood the app). */
export const MIN_GAP_MS = 1000;

/**
 * INPUT_WINDOW_MS is how long after the person's click or Enter a submit of
 * that form is theirs: the submit normally follows in the same task, but
 * Enter's implicit submission comes with the key's later keypress, and a
 * page may validate first.
 */
export const INPUT_WINDOW_MS = 1000;

/**
 * Activation tells the person's input from a script's: trusted reports
 * whether the browser made event from the person's input (Event.isTrusted),
 * active whether the page holds transient user activation now
 * (navigator.userActivation.isActive; true where the browser lacks it).
 * Tests give their own.
 */
export interface Activation {
  trusted(e: Event): boolean;
  active(): boolean;
}

/** browserActivation is the Activation of the document the content script runs in. */
export const browserActivation: Activation = {
  trusted: (e) => e.isTrusted,
  active: () => (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation?.isActive ?? true,
};

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

/** enterForm returns the form an Enter key in a field would submit implicitly. */
function enterForm(e: Event): HTMLFormElement | null {
  if ((e as KeyboardEvent).key !== 'Enter') return null;
  const t = e.composedPath()[0];
  if (!(t instanceof Element) || t.tagName !== 'INPUT') return null;
  return (t as HTMLInputElement).form;
}

/**
 * watchSubmits calls send with a capture of doc after each form submit the
 * person made: on the submit event (capture phase) of a form they just
 * clicked a submit button of or pressed Enter in, and after a click on a
 * form's submit button that produced no submit event the document could
 * see (a form in a shadow root, whose submit event stays inside it, or a
 * page that submits by script from the click). A submit with no such input
 * is the page's, and sends nothing.
 */
export function watchSubmits(
  doc: Document,
  send: (frame: FrameCapture) => void,
  snap: () => FrameCapture | Failure,
  now: () => number = () => Date.now(),
  activation: Activation = browserActivation,
): void {
  let last = -Infinity;
  let sawSubmit = false;
  // input is the person's latest click on a submit button or Enter in a field: which form, when.
  let input: { form: HTMLFormElement; at: number } | null = null;
  const take = (): void => {
    const t = now();
    if (t - last < MIN_GAP_MS) return;
    last = t;
    const c = snap();
    if (!isFailure(c)) send(c);
  };
  const theirs = (form: EventTarget | null): boolean =>
    input !== null && input.form === form && now() - input.at <= INPUT_WINDOW_MS && activation.active();
  doc.addEventListener(
    'submit',
    (e) => {
      sawSubmit = true;
      if (activation.trusted(e) && theirs(e.target)) {
        input = null;
        take();
      }
    },
    true,
  );
  doc.addEventListener(
    'keydown',
    (e) => {
      const form = activation.trusted(e) ? enterForm(e) : null;
      if (form !== null) input = { form, at: now() };
    },
    true,
  );
  doc.addEventListener(
    'click',
    (e) => {
      const b = submitButton(e);
      if (b === null || !activation.trusted(e)) return;
      input = { form: b.form!, at: now() };
      sawSubmit = false;
      // A form's submit event fires during the click's default action, before this timer.
      setTimeout(() => {
        if (!sawSubmit && theirs(b.form)) {
          input = null;
          take();
        }
      }, 0);
    },
    true,
  );
}
