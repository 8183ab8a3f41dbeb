// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { itemsOf, MAX_ANSWER, parseAnswer, ProviderError } from '../src/page/consume';
import { describeMode } from '../src/popup/formspec';
import { controlOf, measurePaths } from '../src/content/formspec-measure';
import { fakeLayout } from './fakelayout';

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

  it('injects the bridge, then the page world, once per document, into top documents only', async () => {
    const { Formspec } = await import('../src/background/formspec');
    const calls: Array<Record<string, unknown>> = [];
    let claimed = false;
    (globalThis as { chrome?: unknown }).chrome = {
      scripting: {
        executeScript: async (o: Record<string, unknown> & { func?: () => unknown }) => {
          calls.push(o);
          // The claim runs in the document's isolated world: a flag that outlives one injection.
          if (o.func?.name === 'claimDocument') {
            const first = !claimed;
            claimed = true;
            return [{ result: first }];
          }
          return [{ result: undefined }];
        },
      },
    };
    const fs = new Formspec({ call: async () => ({}) });
    const top = { tab: { id: 4 } as chrome.tabs.Tab, frameId: 0, documentId: 'D1' } as chrome.runtime.MessageSender;
    expect(await fs.handle({ type: 'formspec', op: 'inject', why: 'x' }, { ...top, frameId: 2 })).toHaveProperty('error');
    expect(calls).toEqual([]);
    expect(await fs.handle({ type: 'formspec', op: 'inject', why: 'x' }, top)).toEqual({});
    const target = { tabId: 4, documentIds: ['D1'] };
    expect(calls.map((c) => [c.target, c.files ?? (c.func as () => unknown).name, c.world])).toEqual([
      [target, 'claimDocument', undefined],
      [target, ['formspec-bridge.js'], undefined],
      [target, ['formspec-page.js'], 'MAIN'],
    ]);
    // Again in the same document: the bridge is asked to say its detection again, nothing is injected twice.
    calls.length = 0;
    await fs.handle({ type: 'formspec', op: 'inject', why: 'x' }, top);
    expect(calls.map((c) => c.files ?? (c.func as () => unknown).name)).toEqual(['claimDocument', 'resendDetection']);
    delete (globalThis as { chrome?: unknown }).chrome;
  });

  it('detects on demand when the popup asks about a page that reported nothing, and forgets a page that went away', async () => {
    const { Formspec } = await import('../src/background/formspec');
    let fs: InstanceType<typeof Formspec>;
    const detection = { mode: 3 as const, why: 'no Formspec form: heuristic filling', tools: [] };
    let injected = 0;
    (globalThis as { chrome?: unknown }).chrome = {
      scripting: {
        executeScript: async (o: { func?: () => unknown; files?: string[]; target: { tabId: number } }) => {
          if (o.func?.name === 'claimDocument') return [{ result: true }];
          if (o.files?.[0] === 'formspec-page.js') {
            injected++;
            // The page world reports a little later, through the bridge.
            setTimeout(() => void fs.handle({ type: 'formspec', op: 'detected', detection }, { tab: { id: o.target.tabId } as chrome.tabs.Tab, frameId: 0, url: 'https://p.example/' }), 10);
          }
          return [{ result: undefined }];
        },
      },
    };
    fs = new Formspec({ call: async () => ({}) });
    expect(await fs.handle({ type: 'formspec', op: 'mode-of', tab: 7 }, undefined)).toEqual({ detection, url: 'https://p.example/' });
    expect(injected).toBe(1);
    // Known now: no second injection.
    await fs.handle({ type: 'formspec', op: 'mode-of', tab: 7 }, undefined);
    expect(injected).toBe(1);
    fs.forget(7);
    await fs.handle({ type: 'formspec', op: 'mode-of', tab: 7 }, undefined);
    expect(injected).toBe(2);
    delete (globalThis as { chrome?: unknown }).chrome;
  });

  it('drops a late report from the document a tab has left', async () => {
    const { Formspec } = await import('../src/background/formspec');
    const fs = new Formspec({ call: async () => ({}) });
    const tab = { id: 9 } as chrome.tabs.Tab;
    const mode2 = { mode: 2 as const, why: 'old page', tools: ['formspec.form.describe'] };
    const mode3 = { mode: 3 as const, why: 'new page', tools: [] };
    fs.forget(9, 'NEW');
    expect(await fs.handle({ type: 'formspec', op: 'detected', detection: mode2 }, { tab, frameId: 0, documentId: 'OLD' } as chrome.runtime.MessageSender)).toHaveProperty('error');
    await fs.handle({ type: 'formspec', op: 'detected', detection: mode3 }, { tab, frameId: 0, documentId: 'NEW' } as chrome.runtime.MessageSender);
    expect(((await fs.handle({ type: 'formspec', op: 'mode-of', tab: 9 }, undefined)) as { detection: unknown }).detection).toEqual(mode3);
    // A browser that names no documents: every report counts.
    fs.forget(9);
    await fs.handle({ type: 'formspec', op: 'detected', detection: mode2 }, { tab, frameId: 0 });
    expect(fs.isProvider(9)).toBe(false);
    expect(((await fs.handle({ type: 'formspec', op: 'mode-of', tab: 9 }, undefined)) as { detection: unknown }).detection).toEqual(mode2);
  });
});

describe('measurePaths (issue 23: a provider never decides what is ticked)', () => {
  it('finds each path by name, id or data-name and measures it; a path with no control is not found', () => {
    document.body.innerHTML = `
      <input name="contact.email">
      <input name="contact.phone" style="opacity:0">
      <div data-name="household.city"><label>City</label><input id="x"></div>
      <input id="birth.date">`;
    const phone = document.querySelector('[name="contact.phone"]')!;
    const layout = fakeLayout({ styles: new Map([[phone, { opacity: '0' }]]) });
    const m = measurePaths(document, ['contact.email', 'contact.phone', 'household.city', 'birth.date', 'contact.address', 42, 'contact.email'], layout);
    expect(m).toEqual([
      { path: 'contact.email', found: true, visible: true },
      { path: 'contact.phone', found: true, visible: false, reason: 'transparent' },
      { path: 'household.city', found: true, visible: true },
      { path: 'birth.date', found: true, visible: true },
      { path: 'contact.address', found: false, visible: false },
    ]);
    expect(controlOf(document, 'household.city')).toBe(document.getElementById('x'));
  });
  it('finds a control in an open shadow root', () => {
    document.body.innerHTML = `<formspec-x></formspec-x>`;
    const root = document.querySelector('formspec-x')!.attachShadow({ mode: 'open' });
    root.innerHTML = `<div data-name="a.b"><select></select></div>`;
    expect(measurePaths(document, ['a.b'], fakeLayout())).toEqual([{ path: 'a.b', found: true, visible: true }]);
  });
  it('measures a hidden renderer wrapper as hidden', () => {
    document.body.innerHTML = `<div data-name="a.b" hidden><input name="other"></div>`;
    const input = document.querySelector('input')!;
    const m = measurePaths(document, ['a.b'], fakeLayout({ unrendered: new Set([input]) }));
    expect(m[0]!.found).toBe(true);
    expect(m[0]!.visible).toBe(false);
  });
});
