// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { type Activation, INPUT_WINDOW_MS, MIN_GAP_MS, watchSubmits } from '../src/content/submit';
import type { FrameCapture } from '../src/shared/messages';

let clock: number;
let sent: number;
let doc: Document;
// person holds the events the person made (the browser's isTrusted);
// active is the page's transient user activation.
let person: WeakSet<Event>;
let active: boolean;
// clicking is set while a click is dispatched.
let clicking: number;

beforeEach(() => {
  // A document of its own: listeners do not pile up on the shared one.
  doc = document.implementation.createHTMLDocument('t');
  clock = 0;
  sent = 0;
  person = new WeakSet();
  active = true;
  const activation: Activation = { trusted: (e) => person.has(e), active: () => active };
  // The browser's own submit after a click on a submit button (its
  // activation behaviour) is trusted, whoever clicked: happy-dom dispatches
  // it during the click.
  clicking = 0;
  doc.addEventListener('click', () => clicking++, true);
  doc.addEventListener('submit', (e) => clicking > 0 && person.add(e), true);
  watchSubmits(doc, () => sent++, () => ({}) as FrameCapture, () => clock, activation);
});

const tick = () => new Promise((r) => setTimeout(r, 0));

/** byPerson dispatches e on target as the person's input (trusted). */
function byPerson(target: EventTarget, e: Event): void {
  person.add(e);
  dispatch(target, e);
}

/** dispatch dispatches e on target (a script's event unless byPerson marked it). */
function dispatch(target: EventTarget, e: Event): void {
  target.dispatchEvent(e);
  clicking = 0;
}

/** submits dispatches a submit event on form as the browser would after requestSubmit() or a click (trusted either way). */
function submits(form: HTMLFormElement): void {
  byPerson(form, new Event('submit', { bubbles: true }));
}

const click = () => new MouseEvent('click', { bubbles: true, composed: true });
const enter = () => new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true });

describe('watchSubmits', () => {
  it('captures a submit after the person clicked its submit button, at most once per MIN_GAP_MS', () => {
    doc.body.innerHTML = '<form><input name=a><button id=go>Go</button></form>';
    const form = doc.querySelector('form')!;
    const go = doc.getElementById('go')!;
    byPerson(go, click());
    submits(form);
    expect(sent).toBe(1);
    byPerson(go, click());
    submits(form);
    expect(sent).toBe(1);
    clock += MIN_GAP_MS;
    byPerson(go, click());
    submits(form);
    expect(sent).toBe(2);
  });

  it('captures a submit after the person pressed Enter in one of its fields', () => {
    doc.body.innerHTML = '<form><input id=a name=a></form>';
    byPerson(doc.getElementById('a')!, enter());
    clock += 50;
    submits(doc.querySelector('form')!);
    expect(sent).toBe(1);
  });

  // Regression (issue 23): a page that submits by script — requestSubmit()
  // from a timer (a trusted submit event), a scripted click, a synthetic
  // submit event — got a learn dialog saying "You submitted…" for values it
  // chose.
  it('ignores a submit the person did not make', async () => {
    doc.body.innerHTML =
      '<form id=f><input id=a name=a><input id=b name=b><button id=go>Go</button></form><form id=g><input id=c name=c><button id=go2>Go</button></form>';
    const f = doc.getElementById('f') as HTMLFormElement;
    const g = doc.getElementById('g') as HTMLFormElement;
    // requestSubmit() with no input at all.
    submits(f);
    // A synthetic submit event.
    f.dispatchEvent(new Event('submit', { bubbles: true }));
    // A scripted click on the submit button (untrusted), then its submit.
    dispatch(doc.getElementById('go')!, click());
    submits(f);
    // The person clicked a field of the form, not a submit button.
    byPerson(doc.getElementById('a')!, click());
    submits(f);
    // The person submitted the other form; the page submits this one.
    byPerson(doc.getElementById('go2')!, click());
    submits(f);
    // A key other than Enter, and Enter outside any form.
    byPerson(doc.getElementById('b')!, new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    submits(f);
    byPerson(doc.body, enter());
    submits(f);
    await tick();
    expect(sent).toBe(1); // the other form, clicked by the person, once its timer ran
    sent = 0;
    // The person's Enter long ago (the page kept it from submitting): the
    // page submits later from a timer.
    clock += MIN_GAP_MS;
    const a = doc.getElementById('a')!;
    a.addEventListener('keydown', (e) => e.preventDefault());
    byPerson(a, enter());
    clock += INPUT_WINDOW_MS + 1;
    submits(f);
    await tick();
    expect(sent).toBe(0);
    // The person's Enter, but the page no longer holds their activation.
    clock += MIN_GAP_MS;
    byPerson(doc.getElementById('a')!, enter());
    active = false;
    submits(f);
    expect(sent).toBe(0);
    void g;
  });

  it('one input is one submit: a second, scripted submit right after is not theirs', () => {
    doc.body.innerHTML = '<form><input name=a><button id=go>Go</button></form>';
    const form = doc.querySelector('form')!;
    byPerson(doc.getElementById('go')!, click());
    submits(form);
    clock += MIN_GAP_MS;
    submits(form);
    expect(sent).toBe(1);
  });

  it('captures after a submit button click that no submit event followed', async () => {
    doc.body.innerHTML = '<form><input name=a><button id=go>Go</button><button id=plain type=button>No</button></form><button id=orphan>x</button>';
    byPerson(doc.getElementById('plain')!, click());
    byPerson(doc.getElementById('orphan')!, click());
    await tick();
    expect(sent).toBe(0);
    // A scripted click on it is the page's.
    dispatch(doc.getElementById('go')!, click());
    await tick();
    expect(sent).toBe(0);
    byPerson(doc.getElementById('go')!, click());
    await tick();
    expect(sent).toBe(1);
  });
});
