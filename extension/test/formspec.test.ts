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

describe('Formspec (service worker): the sidecar cache', () => {
  it('answers what was put under the same key, and stays bounded', async () => {
    const { Formspec } = await import('../src/background/formspec');
    const fs = new Formspec({ call: async () => ({}) });
    const sc = (n: number) => ({ references: ['x'.repeat(n)], ontologies: [], registries: [], warnings: [] });
    const tab = { tab: { id: 1 } as chrome.tabs.Tab, frameId: 0 };
    await fs.handle({ type: 'formspec', op: 'cache-put', key: 'a', sidecars: sc(10) }, tab);
    expect(await fs.handle({ type: 'formspec', op: 'cache-get', key: 'a' }, tab)).toEqual(sc(10));
    expect(await fs.handle({ type: 'formspec', op: 'cache-get', key: 'b' }, tab)).toBeNull();
    // Too large to keep: not cached.
    await fs.handle({ type: 'formspec', op: 'cache-put', key: 'big', sidecars: sc(5 << 20) }, tab);
    expect(await fs.handle({ type: 'formspec', op: 'cache-get', key: 'big' }, tab)).toBeNull();
    // At most 32 forms: the oldest goes.
    for (let i = 0; i < 40; i++) await fs.handle({ type: 'formspec', op: 'cache-put', key: `k${i}`, sidecars: sc(1) }, tab);
    expect(await fs.handle({ type: 'formspec', op: 'cache-get', key: 'a' }, tab)).toBeNull();
    expect(await fs.handle({ type: 'formspec', op: 'cache-get', key: 'k39' }, tab)).toEqual(sc(1));
  });

  it('records a mode from top documents only, and shows it to the popup only', async () => {
    const { Formspec } = await import('../src/background/formspec');
    const fs = new Formspec({ call: async () => ({}) });
    const detection = { mode: 2 as const, why: 'w', tools: ['formspec.form.describe'] };
    expect(await fs.handle({ type: 'formspec', op: 'detected', detection }, { tab: { id: 3 } as chrome.tabs.Tab, frameId: 5 })).toHaveProperty('error');
    await fs.handle({ type: 'formspec', op: 'detected', detection }, { tab: { id: 3 } as chrome.tabs.Tab, frameId: 0, url: 'https://a.example/' });
    expect(await fs.handle({ type: 'formspec', op: 'mode-of', tab: 3 }, { tab: { id: 3 } as chrome.tabs.Tab })).toHaveProperty('error');
    expect(await fs.handle({ type: 'formspec', op: 'mode-of', tab: 3 }, undefined)).toEqual({ detection, url: 'https://a.example/' });
    expect(fs.isProvider(3)).toBe(false);
  });
});
