// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { Registry } from '../src/content/refs';
import { CaptureError, HIDDEN_ATTR, MAX_CONTROLS, REF_ATTR, capture, controlsAndRoots, newNonce } from '../src/content/snapshot';
import { fakeLayout } from './fakelayout';

beforeEach(() => {
  document.documentElement.setAttribute('lang', 'en');
  document.body.innerHTML = '';
});

/** stamps returns the stamp attributes of each control's start tag in html, by name attribute. */
function stamps(html: string): Map<string, { ref?: string; hidden?: string }> {
  const out = new Map<string, { ref?: string; hidden?: string }>();
  for (const m of html.matchAll(/<(?:input|select|textarea)\b[^>]*>/g)) {
    const tag = m[0];
    const name = /\bname="([^"]*)"/.exec(tag)?.[1] ?? '';
    out.set(name, {
      ref: new RegExp(`${REF_ATTR}="([^"]*)"`).exec(tag)?.[1],
      hidden: new RegExp(`${HIDDEN_ATTR}="([^"]*)"`).exec(tag)?.[1],
    });
  }
  return out;
}

function stampedAttributesLeft(): number {
  return document.querySelectorAll(`[${REF_ATTR}],[${HIDDEN_ATTR}]`).length;
}

describe('newNonce', () => {
  it('is fresh, long and needs no escaping', () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newNonce()).not.toBe(a);
  });
});

describe('capture', () => {
  it('stamps every control with the nonce while serialising, and removes the stamps after', () => {
    document.body.innerHTML =
      '<form><input name=a><select name=b></select><textarea name=c></textarea><input type=hidden name=d></form><p>x</p>';
    const snap = capture(document, fakeLayout(), new Registry(), 'NONCE1');
    expect(snap.controls).toBe(4);
    expect(snap.nonce).toBe('NONCE1');
    const s = stamps(snap.html);
    expect([...s.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    for (const [name, st] of s) {
      expect(st.ref, name).toMatch(/^NONCE1:t\d+$/);
      expect(st.hidden, name).toBe(name === 'd' ? 'NONCE1:type-hidden' : 'NONCE1:');
    }
    expect(new Set([...s.values()].map((v) => v.ref)).size).toBe(4);
    expect(snap.hidden).toEqual(Object.fromEntries([...s.values()].map((v) => [v.ref!.slice(7), v.hidden!.slice(7)])));
    expect(snap.html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(stampedAttributesLeft()).toBe(0);
  });

  it('keeps refs across captures, with a fresh nonce each time', () => {
    document.body.innerHTML = '<input name=a><input name=b>';
    const reg = new Registry();
    const one = capture(document, fakeLayout(), reg);
    const two = capture(document, fakeLayout(), reg);
    expect(two.nonce).not.toBe(one.nonce);
    expect(Object.keys(two.hidden)).toEqual(Object.keys(one.hidden));
    const input = document.querySelector('input')!;
    expect(reg.lookup(Object.keys(one.hidden)[0]!)).toBe(input);
  });

  // Regression guard (issue 18): refs and hidden marks a page pre-set were
  // kept, so a transparent trap field could pass as measured and visible.
  it('overwrites stamps the page pre-set', () => {
    document.body.innerHTML =
      '<input name=trap data-tessera-ref="t1" data-tessera-hidden=""><input name=ok data-tessera-ref="NONCE2:t99" data-tessera-hidden="NONCE2:">';
    const trap = document.querySelector('[name=trap]')!;
    const snap = capture(document, fakeLayout({ styles: new Map([[trap, { opacity: '0' }]]) }), new Registry(), 'NONCE2');
    const s = stamps(snap.html);
    expect(s.get('trap')!.hidden).toBe('NONCE2:transparent');
    expect(s.get('trap')!.ref).not.toBe('t1');
    expect(s.get('ok')!.ref).not.toBe('NONCE2:t99');
    // Only the stamps capture wrote carry the nonce: two per control.
    expect(snap.html.split('NONCE2').length - 1).toBe(4);
    expect(stampedAttributesLeft()).toBe(0);
  });

  it('does not stamp controls past MAX_CONTROLS', () => {
    const n = MAX_CONTROLS + 3;
    document.body.innerHTML = Array.from({ length: n }, (_, i) => `<input name=c${i}>`).join('') + '<input name=late data-tessera-hidden="">';
    const snap = capture(document, fakeLayout(), new Registry(), 'NONCE3');
    expect(snap.controls).toBe(MAX_CONTROLS);
    const s = stamps(snap.html);
    expect(s.get(`c${MAX_CONTROLS - 1}`)!.ref).toMatch(/^NONCE3:/);
    for (const name of [`c${MAX_CONTROLS}`, `c${n - 1}`]) expect(s.get(name), name).toEqual({ ref: undefined, hidden: undefined });
    // The page's own mark stays as the page wrote it: without the nonce, the app reads it as unmeasured.
    expect(s.get('late')!.hidden).toBe('');
    expect(Object.keys(snap.values)).toHaveLength(MAX_CONTROLS);
    // 5,000 controls in happy-dom take seconds on a loaded machine.
  }, 60_000);

  it('reads live values and checkedness, never a password', () => {
    document.body.innerHTML =
      '<input name=a value=default><input type=checkbox name=b><input type=password name=p><select name=s><option value=x>X<option value=y>Y</select>';
    (document.querySelector('[name=a]') as HTMLInputElement).value = 'typed';
    (document.querySelector('[name=b]') as HTMLInputElement).checked = true;
    (document.querySelector('[name=p]') as HTMLInputElement).value = 'secret';
    (document.querySelector('[name=s]') as HTMLSelectElement).value = 'y';
    const reg = new Registry();
    const snap = capture(document, fakeLayout(), reg);
    const byName = (name: string) => snap.values[reg.refOf(document.querySelector(`[name=${name}]`)!)];
    expect(byName('a')).toEqual({ value: 'typed', checked: false });
    expect(byName('b')).toEqual({ value: 'on', checked: true });
    expect(byName('p')).toEqual({ value: '', checked: false });
    expect(byName('s')).toEqual({ value: 'y', checked: false });
    expect(snap.html).not.toContain('secret');
  });

  it('stamps controls in open shadow roots and serialises them as templates', () => {
    document.body.innerHTML = '<div id=open></div><div id=closed></div><input name=light>';
    document.getElementById('open')!.attachShadow({ mode: 'open' }).innerHTML = '<input name=inopen>';
    document.getElementById('closed')!.attachShadow({ mode: 'closed' }).innerHTML = '<input name=inclosed>';
    const { controls, roots } = controlsAndRoots(document);
    expect(controls.map((c) => c.getAttribute('name'))).toEqual(['inopen', 'light']);
    expect(roots).toHaveLength(1);
    const snap = capture(document, fakeLayout(), new Registry(), 'NONCE4');
    expect(snap.shadowRoots).toBe(true);
    expect(snap.html).toMatch(/<template shadowrootmode="open"><input name="inopen" data-tessera-ref="NONCE4:t\d+"/);
    expect(snap.html).not.toContain('inclosed');
  });

  it('escapes attribute values of the root element', () => {
    document.documentElement.setAttribute('data-x', '"><script>');
    const snap = capture(document, fakeLayout(), new Registry());
    expect(snap.html).toContain('data-x="&quot;><script>"');
    document.documentElement.removeAttribute('data-x');
  });

  // A customized built-in's attributeChangedCallback runs page code inside
  // setAttribute; here an instance override stands in for it.
  it('refuses a capture the page altered while it was taken', () => {
    document.body.innerHTML = '<input name=spy><input name=trap>';
    const spy = document.querySelector('[name=spy]')!;
    const trap = document.querySelector('[name=trap]')!;
    const native = spy.setAttribute.bind(spy);
    spy.setAttribute = (k: string, v: string) => {
      native(k, v);
      const nonce = v.split(':')[0]!;
      trap.setAttribute('title', `${nonce}:`);
    };
    expect(() => capture(document, fakeLayout(), new Registry())).toThrow(expect.objectContaining({ code: 'TAMPERED' }));
    expect(stampedAttributesLeft()).toBe(0);
  });

  it('refuses a document over 8 MiB of HTML', () => {
    document.body.innerHTML = '<input name=a>';
    document.body.append(document.createTextNode('x'.repeat(8 * 1024 * 1024 + 10)));
    let err: unknown;
    try {
      capture(document, fakeLayout(), new Registry());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CaptureError);
    expect(err).toMatchObject({ code: 'TOO_LARGE', message: expect.stringMatching(/too large.*8 MiB/) });
    expect(stampedAttributesLeft()).toBe(0);
  }, 60_000);
});
