import { describe, expect, it } from 'vitest';
import { itemsOf, MAX_ANSWER, parseAnswer, ProviderError } from '../src/page/consume';
import { describeMode } from '../src/popup/formspec';

describe('parseAnswer (mode 1: a provider answer is untrusted)', () => {
  it('reads the §4.1 envelope, as an object or its JSON text', () => {
    const env = { content: [{ type: 'text', text: JSON.stringify({ title: 'T' }) }] };
    expect(parseAnswer('x', env)).toEqual({ ok: true, payload: { title: 'T' } });
    expect(parseAnswer('x', JSON.stringify({ ...env, isError: true }))).toEqual({ ok: false, payload: { title: 'T' } });
  });
  it('refuses what is no envelope, no JSON, or too large', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ProviderError).code;
      }
      return 'none';
    };
    expect(code(() => parseAnswer('x', { title: 'T' }))).toBe('x-provider-invalid');
    expect(code(() => parseAnswer('x', '{'))).toBe('x-provider-invalid');
    expect(code(() => parseAnswer('x', { content: [{ type: 'text', text: 'not json' }] }))).toBe('x-provider-invalid');
    expect(code(() => parseAnswer('x', { content: [{ type: 'text', text: JSON.stringify('x'.repeat(MAX_ANSWER)) }] }))).toBe('x-too-large');
    expect(code(() => parseAnswer('x', 'x'.repeat(MAX_ANSWER + 1)))).toBe('x-too-large');
  });
});

describe('itemsOf (the provider field list as definition items)', () => {
  it('nests groups and marks indexed segments repeatable', () => {
    const items = itemsOf([
      { path: 'a.b', label: 'B', dataType: 'string' },
      { path: 'r[0].c', label: 'C', dataType: 'integer' },
      { path: 'r[1].c', label: 'C', dataType: 'integer' },
    ]);
    expect(items).toEqual([
      { key: 'a', type: 'group', children: [{ key: 'b', type: 'field', label: 'B', dataType: 'string' }] },
      { key: 'r', type: 'group', repeatable: true, children: [{ key: 'c', type: 'field', label: 'C', dataType: 'integer' }] },
    ]);
  });
});

describe('describeMode (the popup line)', () => {
  it('names each mode and says why', () => {
    expect(describeMode(undefined).mode).toBe('3');
    const d = describeMode({ mode: 2, why: 'a <formspec-render> element', title: 'Grant', definitionVersion: '1.0.0', tools: ['a', 'b'] });
    expect(d.title).toBe('Mode 2: Formspec form: Tessera provides Assist');
    expect(d.detail).toBe('a <formspec-render> element · Grant 1.0.0 · 2 tools');
  });
});
