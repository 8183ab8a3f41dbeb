// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { RECHECK_MS, formspecSign, watchFormspec } from '../src/content/formspec-probe';
import { ANNOUNCED } from '../src/shared/formspec';

let doc: Document;
let later: Array<[() => void, number]>;
let asked: string[];

function watch(): void {
  watchFormspec(doc, (why) => asked.push(why), (f, ms) => void later.push([f, ms]));
}
function runLater(): void {
  for (const [f] of later) f();
}

beforeEach(() => {
  doc = document.implementation.createHTMLDocument('t');
  later = [];
  asked = [];
  delete (globalThis as { [k: symbol]: unknown })[Symbol.for(ANNOUNCED)];
});

describe('the Formspec probe', () => {
  it('injects nothing into a plain form page, now or at the later looks', () => {
    doc.body.innerHTML = '<form>' + '<label>F <input name=f></label>'.repeat(200) + '</form><div class="formspec-container"></div><link rel="alternate" href="feed.xml">';
    watch();
    expect(later.map(([, ms]) => ms)).toEqual(RECHECK_MS);
    runLater();
    expect(asked).toEqual([]);
    expect(formspecSign(doc)).toBeUndefined();
  });

  it('asks once for a <formspec-render> page', () => {
    doc.body.innerHTML = '<formspec-render src="d.json"></formspec-render>';
    watch();
    runLater();
    expect(asked).toEqual(['a <formspec-render> element']);
  });

  it('finds renderer markup and sidecar links', () => {
    doc.body.innerHTML = '<div class="formspec-container"><div class="formspec-field" data-name="a.b"></div></div>';
    expect(formspecSign(doc)).toBe('Formspec renderer markup');
    doc.body.innerHTML = '';
    doc.head.innerHTML = '<link rel="formspec-references alternate" href="r.json">';
    expect(formspecSign(doc)).toBe('Formspec sidecar links');
  });

  it('asks when the form renders after idle', () => {
    watch();
    expect(asked).toEqual([]);
    doc.body.innerHTML = '<formspec-render></formspec-render>';
    runLater();
    expect(asked).toEqual(['a <formspec-render> element']);
  });

  it('asks on an announcement, and notes it for the bridge', () => {
    watch();
    doc.dispatchEvent(new CustomEvent('formspec-tools-available', { detail: {} }));
    doc.dispatchEvent(new CustomEvent('formspec-tools-available', { detail: {} }));
    expect(asked).toEqual(['the page announced formspec-tools-available']);
    expect((globalThis as { [k: symbol]: unknown })[Symbol.for(ANNOUNCED)]).toBe(true);
  });
});
