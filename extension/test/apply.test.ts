// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, checkboxWants, forType } from '../src/content/apply';
import { Registry } from '../src/content/refs';
import { capture } from '../src/content/snapshot';
import type { Layout } from '../src/content/visibility';
import type { ApplyField } from '../src/shared/messages';
import { fakeLayout } from './fakelayout';

let reg: Registry;
let log: string[];

beforeEach(() => {
  reg = new Registry();
  log = [];
});

/** page sets up body, measures it once (as the snapshot before fill.request does) and returns a ref finder. */
function page(html: string): (name: string) => string {
  document.body.innerHTML = html;
  capture(document, fakeLayout(), reg);
  return (sel) => reg.refOf(document.querySelector(sel.includes('[') || sel.startsWith('#') ? sel : `[name=${sel}]`)!);
}

function record(el: Element, ...types: string[]): void {
  for (const t of types) el.addEventListener(t, (e) => log.push(`${t}${e.bubbles ? '' : '!'}`));
}

function run(fields: ApplyField[], layout: Layout = fakeLayout()) {
  return apply(fields, { reg, layout, settle: async () => void log.push('settle') });
}

describe('apply', () => {
  it('sets text through the prototype setter, bypassing a React-style tracker on the instance', async () => {
    const ref = page('<input name=first value=old>');
    const input = document.querySelector('input')!;
    // React's inputValueTracking wraps the instance's value property and
    // remembers what was set through it; onChange fires only when the DOM
    // value differs from the tracked one at the input event.
    let tracked = 'old';
    const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
    Object.defineProperty(input, 'value', {
      configurable: true,
      get() {
        return proto.get!.call(this);
      },
      set(v: string) {
        tracked = v;
        proto.set!.call(this, v);
      },
    });
    let reactSaw = '';
    input.addEventListener('input', () => {
      if (input.value !== tracked) reactSaw = input.value;
    });
    record(input, 'focus', 'focusin', 'input', 'change', 'blur', 'focusout');
    const got = await run([{ ref: ref('first'), kind: 'text', value: 'Ada' }]);
    expect(got).toEqual([{ ref: ref('first'), outcome: 'filled' }]);
    expect(input.value).toBe('Ada');
    expect(tracked).toBe('old');
    expect(reactSaw).toBe('Ada');
    expect(log).toEqual(['focus!', 'focusin', 'input', 'change', 'blur!', 'focusout', 'settle']);
  });

  it('sends a composed input event that crosses shadow roots', async () => {
    document.body.innerHTML = '<div id=host></div>';
    const host = document.getElementById('host')!;
    host.attachShadow({ mode: 'open' }).innerHTML = '<input name=s>';
    capture(document, fakeLayout(), reg);
    const input = host.shadowRoot!.querySelector('input')!;
    const saw = () => log.push('document saw input');
    document.addEventListener('input', saw);
    const got = await run([{ ref: reg.refOf(input), kind: 'text', value: 'x' }]);
    document.removeEventListener('input', saw);
    expect(got[0]!.outcome).toBe('filled');
    expect(log).toContain('document saw input');
  });

  it('selects by option value', async () => {
    const ref = page('<select name=country><option value="">–<option value=NZ>New Zealand<option value=US>United States</select>');
    const sel = document.querySelector('select')!;
    record(sel, 'input', 'change');
    expect(await run([{ ref: ref('country'), kind: 'select', value: 'US' }])).toEqual([{ ref: ref('country'), outcome: 'filled' }]);
    expect(sel.value).toBe('US');
    expect(sel.selectedIndex).toBe(2);
    expect(log).toEqual(['input', 'change', 'settle']);
  });

  it('selects exactly the listed options of a select[multiple] (an agent\'s list)', async () => {
    const ref = page('<select name=topics multiple><option value=history>H<option value=poetry selected>P<option value=maps disabled>M<option value=science>S</select>');
    const sel = document.querySelector('select')!;
    record(sel, 'input', 'change');
    const got = await run([{ ref: ref('topics'), kind: 'options', value: '["science","history"]' }]);
    expect(got).toEqual([{ ref: ref('topics'), outcome: 'filled' }]);
    const selected = () => [...sel.options].filter((o) => o.selected).map((o) => o.value);
    expect(selected()).toEqual(['history', 'science']);
    expect(log).toEqual(['input', 'change', 'settle']);
    expect(await run([{ ref: ref('topics'), kind: 'options', value: '[]' }])).toEqual([{ ref: ref('topics'), outcome: 'filled' }]);
    expect(selected()).toEqual([]);
  });

  it('rejects an options list with a value the select lacks, a disabled option, or not a list, and sets nothing', async () => {
    const ref = page('<select name=topics multiple><option value=history selected>H<option value=maps disabled>M</select>');
    const sel = document.querySelector('select')!;
    for (const value of ['["nope"]', '["maps"]', 'history', '[1]', '{"history":true}']) {
      expect(await run([{ ref: ref('topics'), kind: 'options', value }])).toEqual([{ ref: ref('topics'), outcome: 'rejected' }]);
      expect([...sel.options].filter((o) => o.selected).map((o) => o.value)).toEqual(['history']);
    }
  });

  it('reports an options list the page undoes as rejected', async () => {
    const ref = page('<select name=topics multiple><option value=a>A<option value=b>B</select>');
    const sel = document.querySelector('select')!;
    sel.addEventListener('change', () => {
      sel.options[1]!.selected = false;
    });
    expect(await run([{ ref: ref('topics'), kind: 'options', value: '["a","b"]' }])).toEqual([{ ref: ref('topics'), outcome: 'rejected' }]);
  });

  it('does not set options on a single select', async () => {
    const ref = page('<select name=one><option value=a>A<option value=b>B</select>');
    expect(await run([{ ref: ref('one'), kind: 'options', value: '["a"]' }])).toEqual([{ ref: ref('one'), outcome: 'changed' }]);
  });

  it('rejects an option the select does not have', async () => {
    const ref = page('<select name=country><option value=NZ>NZ</select>');
    expect(await run([{ ref: ref('country'), kind: 'select', value: 'XX' }])).toEqual([{ ref: ref('country'), outcome: 'rejected' }]);
  });

  it('checks the approved radio with click events', async () => {
    const ref = page('<input type=radio name=t value=mr checked><input type=radio name=t value=ms>');
    const ms = document.querySelector('[value=ms]') as HTMLInputElement;
    record(ms, 'click', 'input', 'change');
    expect(await run([{ ref: ref('[value=ms]'), kind: 'radio', value: 'ms' }])).toEqual([{ ref: ref('[value=ms]'), outcome: 'filled' }]);
    expect(ms.checked).toBe(true);
    expect((document.querySelector('[value=mr]') as HTMLInputElement).checked).toBe(false);
    expect(log.slice(0, 3)).toEqual(['click', 'input', 'change']);
  });

  it('refuses a radio whose value was swapped after measuring', async () => {
    const ref = page('<input type=radio name=t value=ms>');
    document.querySelector('input')!.value = 'agree';
    expect(await run([{ ref: ref('t'), kind: 'radio', value: 'ms' }])).toEqual([{ ref: ref('t'), outcome: 'changed' }]);
  });

  it('checks and unchecks checkboxes', async () => {
    const ref = page('<input type=checkbox name=a><input type=checkbox name=b checked>');
    const got = await run([
      { ref: ref('a'), kind: 'checkbox', value: 'true' },
      { ref: ref('b'), kind: 'checkbox', value: 'false' },
    ]);
    expect(got.map((o) => o.outcome)).toEqual(['filled', 'filled']);
    expect((document.querySelector('[name=a]') as HTMLInputElement).checked).toBe(true);
    expect((document.querySelector('[name=b]') as HTMLInputElement).checked).toBe(false);
  });

  it('reports a checkbox whose click the page cancels as rejected', async () => {
    const ref = page('<input type=checkbox name=a>');
    document.querySelector('input')!.addEventListener('click', (e) => e.preventDefault());
    expect(await run([{ ref: ref('a'), kind: 'checkbox', value: 'true' }])).toEqual([{ ref: ref('a'), outcome: 'rejected' }]);
  });

  it('takes ISO dates in date inputs', async () => {
    const ref = page('<input type=date name=born>');
    expect(await run([{ ref: ref('born'), kind: 'text', value: '1990-05-17T00:00:00Z' }])).toEqual([{ ref: ref('born'), outcome: 'filled' }]);
    expect(document.querySelector('input')!.value).toBe('1990-05-17');
  });

  const changedCases: { name: string; mutate: () => void; expect?: ApplyField['expect']; kind?: ApplyField['kind'] }[] = [
    { name: 'name swapped after measuring', mutate: () => document.querySelector('input')!.setAttribute('name', 'password') },
    { name: 'type swapped after measuring', mutate: () => document.querySelector('input')!.setAttribute('type', 'email') },
    { name: 'expect differs from the control', mutate: () => {}, expect: { name: 'first', id: 'other', type: 'text' } },
    { name: 'kind does not fit the control', mutate: () => {}, kind: 'select' },
  ];
  for (const tc of changedCases) {
    it(`reports changed: ${tc.name}`, async () => {
      const ref = page('<input name=first id=fn>')('first');
      tc.mutate();
      const f: ApplyField = { ref, kind: tc.kind ?? 'text', value: 'Ada' };
      if (tc.expect) f.expect = tc.expect;
      expect(await run([f])).toEqual([{ ref, outcome: 'changed' }]);
      expect(document.querySelector('input')!.value).toBe('');
    });
  }

  it('never puts a value into a password field, even one measured as such', async () => {
    const ref = page('<input type=password name=pw>')('pw');
    expect(await run([{ ref, kind: 'text', value: 'Ada', expect: { name: 'pw', type: 'password' } }])).toEqual([{ ref, outcome: 'changed' }]);
    expect(document.querySelector('input')!.value).toBe('');
  });

  it('fills when expect matches', async () => {
    const ref = page('<input name=first id=fn>')('first');
    expect(await run([{ ref, kind: 'text', value: 'Ada', expect: { name: 'first', id: 'fn', type: 'text' } }])).toEqual([{ ref, outcome: 'filled' }]);
  });

  it('reports gone for a removed control and an unknown ref', async () => {
    const ref = page('<input name=first>')('first');
    document.querySelector('input')!.remove();
    expect(await run([{ ref, kind: 'text', value: 'Ada' }, { ref: 't999', kind: 'text', value: 'x' }])).toEqual([
      { ref, outcome: 'gone' },
      { ref: 't999', outcome: 'gone' },
    ]);
    expect(log).not.toContain('settle');
  });

  it('reports hidden for a control no longer visible, and leaves it alone', async () => {
    const ref = page('<input name=first>')('first');
    const input = document.querySelector('input')!;
    expect(await run([{ ref, kind: 'text', value: 'Ada' }], fakeLayout({ styles: new Map([[input, { opacity: '0' }]]) }))).toEqual([
      { ref, outcome: 'hidden' },
    ]);
    expect(input.value).toBe('');
  });

  it('measures visibility before setting anything (a suggestion list opened by one field does not hide the next)', async () => {
    const find = page('<input name=first><input name=last><div id=suggest></div>');
    const last = document.querySelector('[name=last]')!;
    let open = false;
    document.querySelector('[name=first]')!.addEventListener('focusin', () => (open = true));
    const layout = fakeLayout({ hit: (el) => (open && el === last ? document.getElementById('suggest') : el) });
    expect(
      await run(
        [
          { ref: find('first'), kind: 'text', value: 'Ada' },
          { ref: find('last'), kind: 'text', value: 'Lovelace' },
        ],
        layout,
      ),
    ).toEqual([
      { ref: find('first'), outcome: 'filled' },
      { ref: find('last'), outcome: 'filled' },
    ]);
  });

  it('reports rejected when the page resets the value, filled when it only reformats', async () => {
    const find = page('<input name=zip><input name=tel>');
    document.querySelector('[name=zip]')!.addEventListener('input', (e) => ((e.target as HTMLInputElement).value = ''));
    document.querySelector('[name=tel]')!.addEventListener('input', (e) => ((e.target as HTMLInputElement).value = '(555) 123-4567'));
    expect(
      await run([
        { ref: find('zip'), kind: 'text', value: '1000' },
        { ref: find('tel'), kind: 'text', value: '5551234567' },
      ]),
    ).toEqual([
      { ref: find('zip'), outcome: 'rejected' },
      { ref: find('tel'), outcome: 'filled' },
    ]);
  });

  it('reads back after the page settled', async () => {
    const ref = page('<input name=first>')('first');
    const input = document.querySelector('input')!;
    const got = await apply([{ ref, kind: 'text', value: 'Ada' }], {
      reg,
      layout: fakeLayout(),
      // The page clears the field a moment later (asynchronous validation).
      settle: async () => void (input.value = ''),
    });
    expect(got).toEqual([{ ref, outcome: 'rejected' }]);
  });

  it('leaves focus where the person had it', async () => {
    const find = page('<input name=here><input name=first>');
    const here = document.querySelector('[name=here]') as HTMLInputElement;
    here.focus();
    await run([{ ref: find('first'), kind: 'text', value: 'Ada' }]);
    expect(document.activeElement).toBe(here);
  });
});

describe('checkboxWants', () => {
  for (const [v, want] of [['true', true], ['on', true], ['yes', true], ['false', false], ['off', false], ['0', false], ['', false]] as const) {
    it(JSON.stringify(v), () => expect(checkboxWants(v)).toBe(want));
  }
});

describe('forType', () => {
  const cases: [string, string, string][] = [
    ['date', '1990-05-17', '1990-05-17'],
    ['date', '1990-05-17T10:00:00Z', '1990-05-17'],
    ['month', '1990-05-17', '1990-05'],
    ['datetime-local', '1990-05-17T10:30:00Z', '1990-05-17T10:30:00'],
    ['text', '1990-05-17T10:00:00Z', '1990-05-17T10:00:00Z'],
    ['date', 'not a date', 'not a date'],
  ];
  for (const [type, v, want] of cases) it(`${type} ${v}`, () => expect(forType(type, v)).toBe(want));
});
