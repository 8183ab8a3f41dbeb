/**
 * Mode 1 (Assist §10.1): the page runs its own Assist provider and Tessera
 * consumes it. The provider is authoritative for live state, labels, help
 * and concepts: its field list and each field's help (concept, equivalents,
 * references) become the documents the app matches and shows from; the
 * person approves in Tessera's dialog; the approved values go back through
 * the provider's formspec.field.bulkSet (field.set when it has no bulkSet),
 * and its validation report is returned for the popup.
 *
 * The provider is a page script and may lie: every answer is bounded in
 * time (TOOL_MS each, and the whole collection BUDGET_MS) and size
 * (MAX_ANSWER), parsed as the §4 envelope, and checked; a path that is not
 * a field path is dropped, one the provider then refuses is reported.
 */

export interface ConsumeDeps {
  /** callTool invokes one of the page's tools and returns its raw answer. */
  callTool(name: string, input: unknown): Promise<unknown>;
  tools(): Promise<string[]>;
  /** apply asks the app (formspec.apply) with these documents. */
  apply(params: Record<string, unknown>, definition: string, docs: { references: unknown[]; ontologies: unknown[] }): Promise<unknown>;
}

/** ConsumeReport is what the popup shows: the FillReport shape plus the validation report. */
export interface ConsumeReport {
  status: 'filled' | 'declined' | 'failed';
  reason?: string;
  message?: string;
  fields: Array<{ frame: 0; ref: string; outcome: 'filled' | 'rejected' | 'gone' }>;
  validation?: { valid: boolean; errors: number; results: Array<{ path?: string; message?: string; severity?: string }> };
}

export const TOOL_MS = 5000;
export const BUDGET_MS = 30000;
export const MAX_ANSWER = 256 << 10;
const MAX_FIELDS = 300;

const PATH_RE = /^[A-Za-z][A-Za-z0-9_-]*(\[(\*|0|[1-9][0-9]{0,5})\])?(\.[A-Za-z][A-Za-z0-9_-]*(\[(\*|0|[1-9][0-9]{0,5})\])?){0,31}$/;
const PRIORITIES = ['primary', 'supplementary', 'background'];

export class ProviderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** parseAnswer checks a raw tool answer (the envelope, or its JSON text) and returns the payload. */
export function parseAnswer(name: string, raw: unknown): { ok: boolean; payload: unknown } {
  let env = raw;
  if (typeof raw === 'string') {
    if (raw.length > MAX_ANSWER) throw new ProviderError('x-too-large', `the page's ${name} answered more than ${MAX_ANSWER >> 10} KiB`);
    try {
      env = JSON.parse(raw);
    } catch {
      throw new ProviderError('x-provider-invalid', `the page's ${name} answer is not JSON`);
    }
  }
  const content = (env as { content?: unknown })?.content;
  const text = Array.isArray(content) ? (content[0] as { text?: unknown })?.text : undefined;
  if (typeof text !== 'string') throw new ProviderError('x-provider-invalid', `the page's ${name} answer is not an Assist result envelope`);
  if (text.length > MAX_ANSWER) throw new ProviderError('x-too-large', `the page's ${name} answered more than ${MAX_ANSWER >> 10} KiB`);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new ProviderError('x-provider-invalid', `the page's ${name} result text is not JSON`);
  }
  return { ok: (env as { isError?: unknown }).isError !== true, payload };
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new ProviderError('TIMEOUT', `the page's ${what} did not answer within ${ms / 1000} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

interface Field {
  path: string;
  label: string;
  dataType: string;
  readonly: boolean;
  relevant: boolean;
  concept?: Record<string, unknown>;
  equivalents?: unknown[];
  refs: Array<Record<string, unknown>>;
  options?: Array<{ value: unknown; label: string }>;
}

const str = (v: unknown, n: number): string | undefined => (typeof v === 'string' ? v.slice(0, n) : undefined);

/** consume runs mode 1 end to end. */
export async function consume(d: ConsumeDeps): Promise<ConsumeReport> {
  const started = Date.now();
  const left = (): number => Math.max(0, BUDGET_MS - (Date.now() - started));
  const tools = new Set(await within(d.tools(), TOOL_MS, 'tool list'));
  const call = async (name: string, input: unknown): Promise<{ ok: boolean; payload: unknown } | undefined> => {
    if (!tools.has(name)) return undefined;
    const r = parseAnswer(name, await within(d.callTool(name, input), Math.min(TOOL_MS, left()), name));
    // An UNSUPPORTED answer is an absent tool (§7.1).
    if (!r.ok && (r.payload as { code?: unknown })?.code === 'UNSUPPORTED') return undefined;
    return r;
  };
  if (!tools.has('formspec.field.list')) throw new ProviderError('UNSUPPORTED', "the page's Assist provider has no formspec.field.list");
  if (!tools.has('formspec.field.bulkSet') && !tools.has('formspec.field.set')) throw new ProviderError('UNSUPPORTED', "the page's Assist provider can set no field");
  const desc = await call('formspec.form.describe', {});
  const info = (desc?.ok ? desc.payload : {}) as Record<string, unknown>;
  const list = await call('formspec.field.list', { filter: 'all' });
  if (!list?.ok || !Array.isArray(list.payload)) throw new ProviderError('x-provider-invalid', "the page's formspec.field.list gave no field list");
  const fields: Field[] = [];
  const seen = new Set<string>();
  for (const raw of (list.payload as unknown[]).slice(0, 5000)) {
    const f = raw as Record<string, unknown>;
    const path = str(f?.path, 1024);
    if (!path || !PATH_RE.test(path) || seen.has(path)) continue;
    seen.add(path);
    fields.push({ path, label: str(f.label, 300) ?? path, dataType: str(f.dataType, 40) ?? 'string', readonly: f.readonly === true, relevant: f.relevant !== false, refs: [] });
  }
  const writable = fields.filter((f) => !f.readonly && f.relevant).slice(0, MAX_FIELDS);
  // Help (and options) for each writable field, eight at a time.
  const describe = tools.has('formspec.field.describe') ? 'formspec.field.describe' : 'formspec.field.help';
  for (let i = 0; i < writable.length && left() > 0; i += 8) {
    await Promise.all(
      writable.slice(i, i + 8).map(async (f) => {
        let r;
        try {
          r = await call(describe, describe === 'formspec.field.help' ? { path: f.path, audience: 'both' } : { path: f.path });
        } catch {
          return; // a slow or broken answer: this field has no help
        }
        if (!r?.ok) return;
        const p = r.payload as Record<string, unknown>;
        const help = (describe === 'formspec.field.describe' ? p.help : p) as Record<string, unknown> | undefined;
        if (Array.isArray(p.options)) {
          f.options = (p.options as unknown[]).slice(0, 500).flatMap((o) => {
            const oo = o as { value?: unknown; label?: unknown };
            return typeof oo?.value === 'string' || typeof oo?.value === 'number' ? [{ value: oo.value, label: str(oo.label, 200) ?? String(oo.value) }] : [];
          });
        }
        if (!help || typeof help !== 'object') return;
        const c = help.concept as Record<string, unknown> | undefined;
        if (typeof c?.concept === 'string') {
          f.concept = { concept: c.concept.slice(0, 2048), system: str(c.system, 2048), code: str(c.code, 2048), display: str(c.display, 200) };
          if (Array.isArray(help.equivalents)) {
            f.equivalents = (help.equivalents as unknown[]).slice(0, 64).flatMap((e) => {
              const ee = e as Record<string, unknown>;
              if (typeof ee?.concept !== 'string' && typeof ee?.code !== 'string') return [];
              return [{ concept: str(ee.concept, 2048), system: str(ee.system, 2048), code: str(ee.code, 2048), display: str(ee.display, 200), type: str(ee.type, 20) }];
            });
          }
        }
        const refs = help.references as Record<string, unknown> | undefined;
        if (refs && typeof refs === 'object') {
          for (const [type, list] of Object.entries(refs).slice(0, 12)) {
            if (!Array.isArray(list)) continue;
            for (const e of list.slice(0, 3)) {
              const ee = e as Record<string, unknown>;
              const content = typeof ee?.content === 'string' ? ee.content.slice(0, 2000) : undefined;
              const uri = str(ee?.uri, 2048);
              if (!content && !uri) continue;
              f.refs.push({
                target: f.path,
                type: type.slice(0, 40),
                audience: 'both',
                title: str(ee.title, 200) ?? '',
                uri,
                content,
                priority: PRIORITIES.includes(ee.priority as string) ? ee.priority : undefined,
              });
            }
          }
        }
      }),
    );
  }
  // The provider's word as documents the app reads.
  const url = str(info.url, 2048) || `${location.origin}${location.pathname}`;
  const definition = { $formspec: '1.0', url, version: str(info.version, 64) ?? '', title: str(info.title, 200) ?? document.title, items: itemsOf(fields) };
  const ontology = { $formspecOntology: '1.0', version: '1.0.0', targetDefinition: { url }, concepts: {} as Record<string, unknown> };
  const references = { $formspecReferences: '1.0', version: '1.0.0', targetDefinition: { url }, references: [] as unknown[] };
  for (const f of fields) {
    if (f.concept) ontology.concepts[f.path] = { ...f.concept, equivalents: f.equivalents };
    references.references.push(...f.refs);
  }
  let answer: { entries?: Array<{ path: string; value: unknown }> };
  try {
    answer = (await d.apply(
      {
        fields: fields.map((f) => ({ path: f.path, label: f.label, readonly: f.readonly, relevant: f.relevant })),
        paths: writable.map((f) => f.path),
      },
      JSON.stringify(definition),
      { references: [references], ontologies: [ontology] },
    )) as typeof answer;
  } catch (e) {
    const code = (e as { code?: unknown })?.code;
    if (code === 'DECLINED') return { status: 'declined', reason: String((e as { reason?: unknown }).reason ?? 'denied'), fields: [] };
    throw e;
  }
  const entries = (answer?.entries ?? []).filter((e) => typeof e?.path === 'string' && seen.has(e.path));
  const fieldsOut: ConsumeReport['fields'] = [];
  if (entries.length > 0) {
    const typed = entries.map((e) => ({ path: e.path, value: typedValue(fields.find((f) => f.path === e.path)!, e.value) }));
    if (tools.has('formspec.field.bulkSet')) {
      const r = await call('formspec.field.bulkSet', { entries: typed });
      const results = r?.ok && Array.isArray((r.payload as { results?: unknown }).results) ? ((r.payload as { results: unknown[] }).results as Array<Record<string, unknown>>) : [];
      for (const e of typed) {
        const res = results.find((x) => x?.path === e.path);
        fieldsOut.push({ frame: 0, ref: e.path, outcome: outcomeOf(res?.accepted === true, (res?.error as { code?: unknown })?.code) });
      }
    } else {
      for (const e of typed) {
        let r;
        try {
          r = await call('formspec.field.set', e);
        } catch {
          r = undefined;
        }
        fieldsOut.push({ frame: 0, ref: e.path, outcome: outcomeOf(r?.ok === true, (r?.payload as { code?: unknown })?.code) });
      }
    }
  }
  const report: ConsumeReport = { status: 'filled', fields: fieldsOut };
  try {
    const v = await call('formspec.form.validate', { mode: 'continuous' });
    if (v?.ok) {
      const p = v.payload as { valid?: unknown; results?: unknown };
      const results = Array.isArray(p.results) ? (p.results as Array<Record<string, unknown>>) : [];
      const errors = results.filter((x) => x?.severity === 'error');
      report.validation = {
        valid: p.valid === true || errors.length === 0,
        errors: errors.length,
        results: errors.slice(0, 20).map((x) => ({ path: str(x.path, 300), message: str(x.message, 300), severity: 'error' })),
      };
      report.message = report.validation.valid ? 'The form reports no validation errors.' : `The form reports ${errors.length} validation error${errors.length === 1 ? '' : 's'}: ${report.validation.results.map((x) => x.message ?? x.path).slice(0, 3).join('; ')}`;
    }
  } catch (e) {
    report.message = `The form's validation report could not be read: ${(e as Error).message}`;
  }
  return report;
}

function outcomeOf(accepted: boolean, code: unknown): 'filled' | 'rejected' | 'gone' {
  if (accepted) return 'filled';
  return code === 'NOT_FOUND' ? 'gone' : 'rejected';
}

function typedValue(f: Field, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (['integer', 'decimal', 'number'].includes(f.dataType) && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (f.dataType === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

interface Item {
  key: string;
  type: string;
  label?: string;
  dataType?: string;
  repeatable?: boolean;
  options?: Array<{ value: unknown; label: string }>;
  children?: Item[];
}

/** itemsOf builds definition items from field paths: groups for prefixes, repeatable where a segment is indexed. */
export function itemsOf(fields: Array<Pick<Field, 'path' | 'label' | 'dataType' | 'options'>>): Item[] {
  const root: Item[] = [];
  for (const f of fields) {
    const segs = f.path.split('.');
    let level = root;
    segs.forEach((seg, i) => {
      const m = /^([^[]+)(\[[^\]]*\])?$/.exec(seg);
      if (!m) return;
      let it = level.find((x) => x.key === m[1]);
      if (!it) {
        it = { key: m[1], type: 'group' };
        level.push(it);
      }
      if (m[2]) it.repeatable = true;
      if (i === segs.length - 1) {
        it.type = 'field';
        it.label = f.label;
        it.dataType = f.dataType;
        if (f.options?.length) it.options = f.options;
      } else {
        it.children ??= [];
        level = it.children;
      }
    });
  }
  return root;
}
