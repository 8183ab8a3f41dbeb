// A minimal stand-in for the Formspec renderer and engine (the published
// <formspec-render> web component is not available offline). It follows the
// renderer's DOM contract (.formspec-container, .formspec-field[data-name]
// [data-bind], control name=<path> id="field-<path>", <label for>) and the
// engine contract (getEngine(): getFieldPaths, getFieldVM with label, value,
// required, visible, readonly, options and setValue, getValidationReport,
// getProgress, getDefinition) over a real Formspec Definition. Values are
// signals ({value, peek, subscribe}) as the real engine's are. It evaluates
// only the simplest FEL relevance forms ($a, $a = 'x', $a != 'x'); every
// other expression counts as true. Repeatable groups get `repeat-count`
// instances (default 2). Constraints: `$ >= 0` forms and matches($, 're'). Written for Tessera's e2e tests.
(function () {
  function signal(v) {
    const subs = new Set();
    return {
      get value() { return v; },
      set value(n) { v = n; subs.forEach((f) => f(n)); },
      peek() { return v; },
      subscribe(f) { subs.add(f); return () => subs.delete(f); },
    };
  }
  const strip = (p) => p.replace(/\[[^\]]*\]/g, '');
  const empty = (v) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

  class Engine {
    constructor(def, repeats) {
      this.def = def;
      this.fields = new Map(); // path -> {item, vm}
      this.binds = new Map();
      for (const b of def.binds || []) {
        const k = strip(b.path);
        this.binds.set(k, Object.assign({}, this.binds.get(k) || {}, b));
      }
      const walk = (items, prefix, depth) => {
        for (const it of items || []) {
          const p = prefix + it.key;
          if (it.type === 'field') this.add(p, it);
          if (it.children) {
            if (it.repeatable) {
              for (let i = 0; i < repeats; i++) walk(it.children, `${p}[${i}].`, depth + 1);
            } else walk(it.children, p + '.', depth + 1);
          }
        }
      };
      walk(def.items, '', 0);
    }
    add(path, item) {
      const b = this.binds.get(strip(path)) || {};
      const options = item.options || (item.optionSet && this.def.optionSets && this.def.optionSets[item.optionSet] && this.def.optionSets[item.optionSet].options) || undefined;
      const vm = {
        path,
        label: signal(item.label || item.key),
        hint: item.hint,
        value: signal(item.dataType === 'multiChoice' ? [] : null),
        required: signal(b.required === 'true' || b.required === true),
        readonly: signal(b.readonly === 'true' || b.readonly === true || typeof b.calculate === 'string'),
        options: signal(options),
        visible: signal(true),
        setValue: (v) => {
          if (vm.readonly.value) throw new Error('readonly');
          vm.value.value = v;
          this.refresh();
        },
      };
      this.fields.set(path, { item, vm, bind: b });
    }
    relevant(path) {
      // A field is relevant when it and every ancestor group are.
      const parts = strip(path).split('.');
      for (let i = parts.length; i >= 1; i--) {
        const b = this.binds.get(parts.slice(0, i).join('.'));
        if (b && typeof b.relevant === 'string' && !this.evaluate(b.relevant, path)) return false;
      }
      return true;
    }
    evaluate(expr, path) {
      let m = /^\$([\w.]+)$/.exec(expr.trim());
      if (m) return !!this.valueOf(m[1], path);
      m = /^\$([\w.]+)\s*(=|!=)\s*'([^']*)'$/.exec(expr.trim());
      if (m) return (this.valueOf(m[1], path) === m[3]) === (m[2] === '=');
      return true;
    }
    valueOf(ref) {
      const f = this.fields.get(ref);
      return f ? f.vm.value.value : undefined;
    }
    refresh() {
      for (const [p, f] of this.fields) f.vm.visible.value = this.relevant(p);
      for (const cb of this.listeners || []) cb();
    }
    getFieldPaths() { return [...this.fields.keys()]; }
    getFieldVM(path) { const f = this.fields.get(path); return f ? f.vm : undefined; }
    getDefinition() { return this.def; }
    getValidationReport(opts) {
      const mode = (opts && opts.mode) || 'continuous';
      const results = [];
      for (const [p, f] of this.fields) {
        if (!f.vm.visible.value) continue;
        const v = f.vm.value.value;
        if (mode === 'submit' && f.vm.required.value && empty(v)) results.push({ path: p, severity: 'error', code: 'REQUIRED', message: 'Required' });
        if (typeof f.bind.constraint === 'string' && />=\s*0\)?$/.test(f.bind.constraint) && typeof v === 'number' && v < 0) {
          results.push({ path: p, severity: 'error', code: 'CONSTRAINT_FAILED', message: f.bind.constraintMessage || 'Invalid' });
        }
        const re = typeof f.bind.constraint === 'string' && /matches\(\$, '(.*)'\)/.exec(f.bind.constraint);
        if (re && typeof v === 'string' && v !== '' && !new RegExp(re[1].replace(/\\\\/g, '\\')).test(v)) {
          results.push({ path: p, severity: 'error', code: 'CONSTRAINT_FAILED', message: f.bind.constraintMessage || 'Invalid' });
        }
        if (f.item.semanticType === 'email' && typeof v === 'string' && v !== '' && !/^[^@\s]+@[^@\s]+$/.test(v)) {
          results.push({ path: p, severity: 'error', code: 'CONSTRAINT_FAILED', message: f.bind.constraintMessage || 'Invalid email' });
        }
      }
      const errors = results.filter((r) => r.severity === 'error').length;
      return { valid: errors === 0, results, counts: { error: errors, warning: 0, info: 0 } };
    }
    getProgress() {
      let total = 0, filled = 0;
      for (const [, f] of this.fields) if (f.vm.visible.value) { total++; if (!empty(f.vm.value.value)) filled++; }
      return { total, filled };
    }
  }

  class FormspecRender extends HTMLElement {
    async connectedCallback() {
      const def = await (await fetch(this.getAttribute('src'))).json();
      this.engine = new Engine(def, Number(this.getAttribute('repeat-count') || '2'));
      const root = document.createElement('div');
      root.className = 'formspec-container';
      for (const p of this.engine.getFieldPaths()) {
        const { item, vm } = this.engine.fields.get(p);
        const wrap = document.createElement('div');
        wrap.className = 'formspec-field';
        wrap.dataset.name = p;
        wrap.dataset.bind = item.key;
        const label = document.createElement('label');
        label.htmlFor = 'field-' + p;
        label.textContent = item.label || item.key;
        const input = document.createElement('input');
        input.name = p;
        input.id = 'field-' + p;
        input.readOnly = vm.readonly.value;
        input.addEventListener('input', () => {
          const raw = input.value;
          const n = Number(raw);
          vm.setValue(['integer', 'decimal'].includes(item.dataType) && raw !== '' && !Number.isNaN(n) ? n : raw);
        });
        vm.value.subscribe((v) => { if (document.activeElement !== input) input.value = v == null ? '' : String(v); });
        vm.visible.subscribe((v) => { wrap.hidden = !v; });
        wrap.append(label, input);
        root.append(wrap);
      }
      this.engine.refresh();
      this.append(root);
      this.dispatchEvent(new CustomEvent('formspec-ready', { bubbles: true }));
    }
    getEngine() { return this.engine || null; }
  }
  customElements.define('formspec-render', FormspecRender);
})();
