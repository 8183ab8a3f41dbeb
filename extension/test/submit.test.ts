// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { MIN_GAP_MS, watchSubmits } from '../src/content/submit';
import type { FrameCapture } from '../src/shared/messages';

let clock: number;
let sent: number;
let doc: Document;

beforeEach(() => {
  // A document of its own: listeners do not pile up on the shared one.
  doc = document.implementation.createHTMLDocument('t');
  clock = 0;
  sent = 0;
  watchSubmits(doc, () => sent++, () => ({}) as FrameCapture, () => clock);
});

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('watchSubmits', () => {
  it('captures on submit, at most once per MIN_GAP_MS', () => {
    doc.body.innerHTML = '<form><input name=a></form>';
    const form = doc.querySelector('form')!;
    form.dispatchEvent(new Event('submit', { bubbles: true }));
    form.dispatchEvent(new Event('submit', { bubbles: true }));
    expect(sent).toBe(1);
    clock += MIN_GAP_MS;
    form.dispatchEvent(new Event('submit', { bubbles: true }));
    expect(sent).toBe(2);
  });

  it('captures after a submit button click that no submit event followed', async () => {
    doc.body.innerHTML = '<form><input name=a><button id=go>Go</button><button id=plain type=button>No</button></form><button id=orphan>x</button>';
    (doc.getElementById('plain') as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    (doc.getElementById('orphan') as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    await tick();
    expect(sent).toBe(0);
    (doc.getElementById('go') as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    await tick();
    expect(sent).toBe(1);
  });
});
