// The test pages' own Assist provider (mode 1), over the engine stand-in.
// data-lie on the script tag makes it lie: "ghost" lists a field that does
// not exist, "huge" answers help for one field with 1 MiB, "slow" never
// answers help for one field; data-hang names a tool that never answers.
(function () {
  const me = document.currentScript;
  const lies = (me.dataset.lie || '').split(',');
  const hang = me.dataset.hang || '';
  const concepts = {
    'renewalContact.renewalEmail': { concept: 'https://schema.org/email', display: 'Email' },
    'renewalContact.renewalPhone': { concept: 'https://schema.org/telephone', display: 'Phone' },
    'household.renewalCity': { concept: 'https://schema.org/addressLocality', display: 'City' },
    'household.renewalPostalCode': { concept: 'https://example.org/concepts/zip', equivalents: [{ system: 'https://schema.org', code: 'postalCode' }] },
  };
  const tools = new Map();
  const mc = navigator.modelContext || (navigator.modelContext = {
    registerTool(t) { tools.set(t.name, t); },
    getTools() { return [...tools.values()].map((t) => ({ name: t.name, description: t.description })); },
    async executeTool(name, input) { return JSON.stringify(await tools.get(name).execute(input)); },
  });
  const env = (v) => ({ content: [{ type: 'text', text: JSON.stringify(v) }] });
  const err = (code, message, path) => ({ content: [{ type: 'text', text: JSON.stringify({ code, message, path }) }], isError: true });
  const engine = () => document.querySelector('formspec-render').getEngine();
  const def = () => engine().getDefinition();
  const item = (path) => {
    const find = (items, segs) => { const it = (items || []).find((x) => x.key === segs[0]); return segs.length === 1 ? it : it && find(it.children, segs.slice(1)); };
    return find(def().items, path.replace(/\[[^\]]*\]/g, '').split('.'));
  };
  const never = () => new Promise(() => {});
  const ready = new Promise((r) => document.addEventListener('formspec-ready', r));
  const reg = (name, execute) => mc.registerTool({ name, description: 'page provider: ' + name, inputSchema: { type: 'object' },
    execute: async (i) => {
      if (name === hang) return never();
      if (!engine()) await ready;
      return execute(i || {});
    } });
  reg('formspec.form.describe', () => env({ title: def().title, url: def().url, version: def().version, fieldCount: engine().getFieldPaths().length, provider: 'page' }));
  reg('formspec.field.list', () => {
    const out = engine().getFieldPaths().map((p) => {
      const vm = engine().getFieldVM(p);
      return { path: p, label: vm.label.value, dataType: (item(p) || {}).dataType || 'string', required: vm.required.value, relevant: vm.visible.value, readonly: vm.readonly.value, filled: vm.value.value != null && vm.value.value !== '', valid: true };
    });
    if (lies.includes('ghost')) out.unshift({ path: 'renewalContact.ghostEmail', label: 'Email (ghost)', dataType: 'string', relevant: true, readonly: false });
    return env(out);
  });
  reg('formspec.field.help', ({ path }) => {
    if (lies.includes('huge') && path === 'household.renewalStreet') return env({ path, label: 'x', references: { context: [{ title: 'big', content: 'x'.repeat(1 << 20) }] } });
    if (lies.includes('slow') && path === 'household.renewalState') return never();
    if (path === 'renewalContact.ghostEmail') return env({ path, label: 'Email (ghost)', references: {}, concept: { concept: 'https://schema.org/email' } });
    if (!engine().getFieldVM(path)) return err('NOT_FOUND', 'no such field', path);
    const c = concepts[path];
    const h = { path, label: engine().getFieldVM(path).label.value, references: {} };
    if (c) { h.concept = { concept: c.concept, display: c.display }; if (c.equivalents) h.equivalents = c.equivalents; }
    if (path === 'renewalContact.renewalEmail') h.references.documentation = [{ title: 'Where we write to you', content: 'We send renewal notices to this address.', priority: 'primary' }];
    return env(h);
  });
  reg('formspec.field.bulkSet', ({ entries }) => {
    const results = (entries || []).map((e) => {
      const vm = engine().getFieldVM(e.path);
      if (!vm) return { path: e.path, accepted: false, validation: [], error: { code: 'NOT_FOUND', message: 'no such field', path: e.path } };
      try { vm.setValue(e.value); return { path: e.path, accepted: true, validation: [] }; }
      catch (x) { return { path: e.path, accepted: false, validation: [], error: { code: 'READONLY', message: String(x), path: e.path } }; }
    });
    const accepted = results.filter((r) => r.accepted).length;
    return env({ results, summary: { accepted, rejected: results.length - accepted, errors: results.length - accepted } });
  });
  reg('formspec.form.validate', ({ mode }) => env(engine().getValidationReport({ mode: mode || 'continuous' })));
  reg('formspec.profile.apply', () => err('UNSUPPORTED', 'this provider fills nothing from profiles'));
  document.addEventListener('formspec-ready', () => {
    document.dispatchEvent(new CustomEvent('formspec-tools-available', { detail: {
      protocolVersion: '1.0.0-draft.1', definitionUrl: def().url, definitionVersion: def().version, tools: [...tools.keys()] } }));
  });
})();
