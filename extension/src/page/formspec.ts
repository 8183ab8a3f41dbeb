/**
 * The page-world script (injected by the service worker into the top
 * document's own world, after the bridge, once the page shows a Formspec
 * form: content/formspec-probe.ts): detects which Formspec Assist mode
 * the page is in (§10) and, in mode 2, bootstraps an Assist provider around
 * the live engine of a <formspec-render> element, registering the whole
 * catalog (§3.2–3.4, and pages/nextIncomplete when the definition has pages)
 * on the page's model context.
 *
 * It holds nothing privileged: help, matching, apply and learn are the
 * app's (PROTOCOL.md §4.4), reached through the isolated bridge over a
 * private channel (shared/formspec.ts). What page scripts get from the
 * profile tools is what the app returns: from match, that a value of some
 * kind exists (the preview is a fixed placeholder); from apply, which paths
 * were filled. The values the person approved go into the page's engine,
 * never into a tool result: an agent calls these tools too, and agents
 * never receive a profile value (issue 23). For the same reason no tool
 * result shows a value Tessera wrote (redact), and a tool whose result can
 * hold a field's value is never marked read-only (agents' "remember" is
 * for read-only tools).
 *
 * On a page that is not a Formspec form it does not run at all, unless the
 * popup asks which mode the page is in.
 */
import { consume, ProviderError } from './consume';
import {
  type AppMethod,
  type BridgeToPage,
  type Detection,
  MAX_DOC_CHARS,
  PORT_MESSAGE,
  type PageToBridge,
} from '../shared/formspec';

// References taken once, before the page can change them further.
const W = window;
const postMessage = W.postMessage.bind(W);
const JSONstringify = JSON.stringify;
const JSONparse = JSON.parse;
const addListener = EventTarget.prototype.addEventListener;
const dispatch = EventTarget.prototype.dispatchEvent;

type Json = unknown;
interface ToolError {
  code: string;
  message: string;
  path?: string;
}
class AssistError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** ToolResult is the §4.1 envelope. */
interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}
function ok(v: Json): ToolResult {
  return { content: [{ type: 'text', text: JSONstringify(v) }] };
}
function fail(e: ToolError): ToolResult {
  return { content: [{ type: 'text', text: JSONstringify(e) }], isError: true };
}

// --- the channel to the bridge ------------------------------------------

const secret = Array.from(crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, '0')).join('');
const channel = new MessageChannel();
const port = channel.port1;
let nextId = 1;
const waiting = new Map<number, (a: Answer) => void>();
type Answer = Extract<BridgeToPage, { kind: 'answer' }>;
port.onmessage = (ev: MessageEvent) => {
  const m = ev.data as Partial<BridgeToPage> | null;
  if (!m || m.secret !== secret || typeof m.id !== 'number') return;
  if (m.kind === 'consume') {
    void runConsume(m.id);
    return;
  }
  if (m.kind === 'announced') {
    // The page announced its provider before this script was injected.
    if (!pageAnnounced) {
      pageAnnounced = {};
      if (detection) void detect();
    }
    return;
  }
  if (m.kind !== 'answer') return;
  const f = waiting.get(m.id);
  if (f) {
    waiting.delete(m.id);
    f(m as Answer);
  }
};
postMessage({ tessera: PORT_MESSAGE, secret }, W.location.origin === 'null' ? '*' : W.location.origin, [channel.port2]);

function send(m: PageToBridge): void {
  port.postMessage(m);
}

/** callApp asks the app (through the bridge) and waits at most ms. */
function callApp(method: AppMethod, params: Record<string, unknown>, definition: string, ms: number, docs?: { references: unknown[]; ontologies: unknown[] }): Promise<unknown> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new AssistError('x-timeout', `${method}: no answer from Tessera within ${ms / 1000} s`));
    }, ms);
    waiting.set(id, (a) => {
      clearTimeout(timer);
      if (a.error) reject(Object.assign(new AssistError(a.error.code, a.error.message, a.error.path), { reason: (a.error as { reason?: string }).reason }));
      else resolve(a.result);
    });
    send({ secret, kind: 'call', id, method, params, definition, docs });
  });
}

// --- the engine, read defensively ----------------------------------------

/** read unwraps a signal-like ({value} with peek/subscribe) or getter. */
function read(x: unknown): unknown {
  if (x !== null && typeof x === 'object' && 'value' in x && ('peek' in x || 'subscribe' in x)) return (x as { value: unknown }).value;
  return x;
}

interface VM {
  label?: unknown;
  hint?: unknown;
  value?: unknown;
  required?: unknown;
  visible?: unknown;
  relevant?: unknown;
  readonly?: unknown;
  options?: unknown;
  setValue?: (v: unknown) => unknown;
}
interface Engine {
  getFieldPaths(): string[];
  getFieldVM(path: string): VM | undefined | null;
  getValidationReport?(opts?: { mode?: string }): unknown;
  getProgress?(): unknown;
  getDefinition?(): unknown;
}

interface DefItem {
  key: string;
  type?: string;
  label?: string;
  hint?: string;
  dataType?: string;
  repeatable?: boolean;
  minRepeat?: number;
  maxRepeat?: number;
  presentation?: { widgetHint?: string; layout?: { page?: string } };
  children?: DefItem[];
}
interface Def {
  url?: string;
  version?: string;
  title?: string;
  description?: string;
  items?: DefItem[];
  formPresentation?: { pageMode?: string };
}

const PATH_RE = /^[A-Za-z][A-Za-z0-9_-]*(\[(\*|0|[1-9][0-9]{0,5})\])?(\.[A-Za-z][A-Za-z0-9_-]*(\[(\*|0|[1-9][0-9]{0,5})\])?){0,31}$/;
const strip = (p: string): string => p.replace(/\[[^\]]*\]/g, '');
const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

// --- detection ---------------------------------------------------------------

let detection: Detection | undefined;
let pageAnnounced: { definitionUrl?: string; definitionVersion?: string; tools?: string[] } | undefined;
let ownAnnouncement = false;
let provider: AbortController | undefined;

addListener.call(
  document,
  'formspec-tools-available',
  (ev: Event) => {
    if (ownAnnouncement) return;
    const d = (ev as CustomEvent).detail as Record<string, unknown> | null;
    pageAnnounced = {
      definitionUrl: typeof d?.definitionUrl === 'string' ? d.definitionUrl.slice(0, 2048) : undefined,
      definitionVersion: typeof d?.definitionVersion === 'string' ? d.definitionVersion.slice(0, 64) : undefined,
      tools: Array.isArray(d?.tools) ? (d.tools as unknown[]).filter((t): t is string => typeof t === 'string').slice(0, 64) : [],
    };
    // A page that announces its own provider after Tessera bootstrapped one
    // is in mode 1: Tessera's tools step aside.
    if (provider) {
      provider.abort();
      provider = undefined;
    }
    if (detection) void detect();
  },
  true,
);

interface ModelContext {
  registerTool?(tool: unknown, opts?: { signal?: AbortSignal }): unknown;
  getTools?(): unknown;
  executeTool?(tool: unknown, input: unknown): unknown;
}
function modelContext(): ModelContext | undefined {
  return ((document as unknown as { modelContext?: ModelContext }).modelContext ??
    (navigator as unknown as { modelContext?: ModelContext }).modelContext) as ModelContext | undefined;
}

async function pageTools(): Promise<string[]> {
  const mc = modelContext();
  if (!mc || typeof mc.getTools !== 'function') return [];
  try {
    const list = await Promise.race([Promise.resolve(mc.getTools()), new Promise((r) => setTimeout(() => r([]), 500))]);
    if (!Array.isArray(list)) return [];
    return list
      .map((t) => (typeof t === 'string' ? t : (t as { name?: unknown })?.name))
      .filter((n): n is string => typeof n === 'string' && n.startsWith('formspec.') && !ours.has(n))
      .slice(0, 64);
  } catch {
    return [];
  }
}

function findEngine(): { el: Element; engine: Engine } | undefined {
  for (const el of Array.from(document.querySelectorAll('formspec-render')).slice(0, 4)) {
    const g = (el as unknown as { getEngine?: () => unknown }).getEngine;
    if (typeof g !== 'function') continue;
    try {
      const e = g.call(el) as Engine | null;
      if (e && typeof e.getFieldPaths === 'function' && typeof e.getFieldVM === 'function') return { el, engine: e };
    } catch {
      // A broken engine is no engine.
    }
  }
  return undefined;
}

async function detect(): Promise<void> {
  const listed = await pageTools();
  let d: Detection;
  if (pageAnnounced || listed.length > 0) {
    d = {
      mode: 1,
      why: pageAnnounced ? 'the page announced formspec-tools-available' : `the page lists ${listed.length} formspec.* tools on its model context`,
      definitionUrl: pageAnnounced?.definitionUrl,
      definitionVersion: pageAnnounced?.definitionVersion,
      tools: listed.length > 0 ? listed : (pageAnnounced?.tools ?? []),
    };
  } else {
    const found = findEngine();
    if (found) {
      const def = definitionOf(found.engine);
      const tools = provider ? [...ours] : bootstrap(found.engine, def);
      d = {
        mode: 2,
        why: 'a <formspec-render> element with getEngine() and no Assist tools',
        definitionUrl: def?.url,
        definitionVersion: def?.version,
        title: def?.title,
        tools,
      };
    } else if (document.querySelector('.formspec-container [data-name]')) {
      d = { mode: 2, why: 'Formspec renderer markup (.formspec-container [data-name]) without an engine Tessera can reach: no provider bootstrapped', tools: [] };
    } else {
      d = { mode: 3, why: 'no Formspec form: heuristic filling', tools: [] };
    }
  }
  const changed = !detection || detection.mode !== d.mode || detection.tools.length !== d.tools.length;
  detection = d;
  if (changed) send({ secret, kind: 'detected', detection: d });
}

function definitionOf(engine: Engine): Def | undefined {
  try {
    const d = engine.getDefinition?.();
    return d && typeof d === 'object' ? (d as Def) : undefined;
  } catch {
    return undefined;
  }
}

// Detect once the page has loaded, and again a little later for forms that
// render after load. Nothing runs before.
function schedule(): void {
  void detect();
  for (const ms of [1000, 3000]) setTimeout(() => void (detection?.mode === 3 || (detection?.mode === 2 && !provider) ? detect() : undefined), ms);
}
if (document.readyState === 'complete') setTimeout(schedule, 0);
else addListener.call(W, 'load', () => setTimeout(schedule, 0), { once: true });

// --- mode 2: the bootstrap provider ------------------------------------------

const ours = new Set<string>();

interface Tool {
  name: string;
  description: string;
  inputSchema: Schema;
  run(input: Record<string, unknown>): Promise<Json> | Json;
}
interface Schema {
  type: 'object';
  properties: Record<string, { type?: string; enum?: string[]; items?: unknown; description?: string }>;
  required?: string[];
  additionalProperties: false;
}

/** validate checks input against a tool's (flat) schema: the §11 "all tool input is untrusted". */
function validate(s: Schema, input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) input = {};
  if (typeof input === 'string') {
    if (input.length > MAX_DOC_CHARS) throw new AssistError('INVALID_VALUE', 'input too large');
    try {
      input = JSONparse(input);
    } catch {
      throw new AssistError('INVALID_VALUE', 'input is not JSON');
    }
  }
  if (typeof input !== 'object' || Array.isArray(input)) throw new AssistError('INVALID_VALUE', 'input must be an object');
  const o = input as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const p = s.properties[k];
    if (!p) throw new AssistError('INVALID_VALUE', `unknown property ${JSONstringify(k.slice(0, 64))}`);
    const v = o[k];
    if (v === undefined) continue;
    if (p.type === 'string' && typeof v !== 'string') throw new AssistError(k === 'path' ? 'INVALID_PATH' : 'INVALID_VALUE', `${k} must be a string`);
    if (p.type === 'boolean' && typeof v !== 'boolean') throw new AssistError('INVALID_VALUE', `${k} must be a boolean`);
    if (p.type === 'array' && !Array.isArray(v)) throw new AssistError('INVALID_VALUE', `${k} must be an array`);
    if (p.enum && !p.enum.includes(v as string)) throw new AssistError('INVALID_VALUE', `${k} must be one of ${p.enum.join(', ')}`);
  }
  for (const r of s.required ?? []) if (o[r] === undefined) throw new AssistError(r === 'path' ? 'INVALID_PATH' : 'INVALID_VALUE', `${r} is required`);
  return o;
}

/**
 * READ_ONLY are the tools whose results hold no value of a field (labels,
 * help, counts, paths): the only ones marked read-only. field.describe and
 * the validation tools return values or the engine's messages about them.
 */
const READ_ONLY = new Set(['formspec.form.describe', 'formspec.field.list', 'formspec.field.help', 'formspec.form.progress', 'formspec.form.pages', 'formspec.form.nextIncomplete']);

/** written are the paths Tessera wrote into (profile.apply); writtenText the values' texts, as approved and as the engine keeps them. */
const written = new Set<string>();
const writtenText = new Set<string>();

/** PLACEHOLDER stands for a value Tessera wrote, in any tool result. */
const PLACEHOLDER = '•••';

/**
 * redact replaces in a tool result every value Tessera wrote: the path's
 * own value where the result names the path, and the value's text wherever
 * a string holds it (an engine's message quoting it).
 */
function redact(v: unknown, depth = 0): unknown {
  if (written.size === 0) return v;
  if (typeof v === 'string') {
    let out = v;
    for (const t of writtenText) if (out.includes(t)) out = out.split(t).join(PLACEHOLDER);
    return out;
  }
  if (depth > 32 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const mine = typeof o.path === 'string' && written.has(o.path);
  for (const [k, x] of Object.entries(o)) {
    if (mine && k === 'value') out[k] = PLACEHOLDER;
    else out[k] = redact(x, depth + 1);
  }
  return out;
}

const obj = (properties: Schema['properties'], required?: string[]): Schema => ({ type: 'object', properties, required, additionalProperties: false });
const pathProp = { type: 'string', description: 'field path, e.g. budget.lineItems[0].unitCost' };

function bootstrap(engine: Engine, def: Def | undefined): string[] {
  const items = new Map<string, DefItem>();
  const pageOf = new Map<string, string>();
  const pages: Array<{ id: string; title?: string }> = [];
  const wizard = def?.formPresentation?.pageMode === 'wizard' || def?.formPresentation?.pageMode === 'tabs';
  const walk = (list: DefItem[] | undefined, prefix: string, page: string | undefined, depth: number): void => {
    if (!Array.isArray(list) || depth > 32) return;
    for (const it of list.slice(0, 5000)) {
      if (!it || typeof it.key !== 'string') continue;
      const p = prefix + it.key;
      let pg = page ?? it.presentation?.layout?.page;
      if (pg === undefined && depth === 0 && wizard && it.type === 'group') pg = it.key;
      if (pg !== undefined && !pages.some((x) => x.id === pg)) pages.push({ id: pg, title: depth === 0 && it.type === 'group' ? it.label : undefined });
      items.set(p, it);
      if (pg !== undefined) pageOf.set(p, pg);
      walk(it.children, p + '.', pg, depth + 1);
    }
  };
  walk(def?.items, '', undefined, 0);
  let defText = '';
  try {
    defText = JSONstringify(def ?? {});
  } catch {
    defText = '{}';
  }
  if (defText.length > MAX_DOC_CHARS) defText = '{}';

  const paths = (): string[] => {
    const ps = engine.getFieldPaths();
    return Array.isArray(ps) ? ps.filter((p) => typeof p === 'string').slice(0, 5000) : [];
  };
  const vmOf = (path: unknown): { path: string; vm: VM; item?: DefItem } => {
    if (typeof path !== 'string' || !PATH_RE.test(path)) throw new AssistError('INVALID_PATH', 'not a field path', typeof path === 'string' ? path.slice(0, 256) : undefined);
    if (!paths().includes(path)) throw new AssistError('NOT_FOUND', 'no such field', path);
    const vm = engine.getFieldVM(path);
    if (!vm) throw new AssistError('NOT_FOUND', 'no such field', path);
    return { path, vm, item: items.get(strip(path)) };
  };
  const bool = (x: unknown, dflt: boolean): boolean => {
    const v = read(x);
    return typeof v === 'boolean' ? v : dflt;
  };
  const relevantOf = (vm: VM): boolean => bool(vm.relevant ?? vm.visible, true);
  const report = (mode?: string): { valid: boolean; results: Array<{ path?: string; severity?: string; message?: string }>; counts?: unknown } => {
    let r: unknown;
    try {
      r = engine.getValidationReport?.(mode ? { mode } : undefined);
    } catch (e) {
      throw new AssistError('ENGINE_ERROR', String(e));
    }
    const o = (r ?? {}) as { valid?: unknown; results?: unknown; counts?: unknown };
    const results = Array.isArray(o.results) ? (o.results as Array<{ path?: string; severity?: string; message?: string }>) : [];
    return { valid: typeof o.valid === 'boolean' ? o.valid : !results.some((x) => x?.severity === 'error'), results, counts: o.counts };
  };
  const resultsFor = (path: string, mode?: string): Array<{ path?: string; severity?: string }> => report(mode).results.filter((x) => x?.path === path);
  const summary = (path: string) => {
    const { vm, item } = vmOf(path);
    const value = read(vm.value);
    return {
      path,
      label: String(read(vm.label) ?? item?.label ?? path),
      dataType: item?.dataType ?? 'string',
      required: bool(vm.required, false),
      relevant: relevantOf(vm),
      readonly: bool(vm.readonly, false),
      filled: !isEmpty(value),
      valid: !resultsFor(path).some((x) => x.severity === 'error'),
    };
  };
  const help = async (path: string, audience?: string) => {
    vmOf(path);
    const r = (await callApp('formspec.help', { path, audience: audience ?? 'agent' }, defText, 15000)) as { help?: unknown };
    return r?.help;
  };
  const coerce = (item: DefItem | undefined, v: unknown, path: string): unknown => {
    if (v === undefined) return null; // §3.3: omission clears the field
    const t = item?.dataType;
    if (v === null) return null;
    if (t === 'integer' || t === 'decimal' || t === 'number') {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n) || (t === 'integer' && !Number.isInteger(n))) throw new AssistError('INVALID_VALUE', `a ${t} is needed`, path);
      return n;
    }
    if (t === 'boolean') {
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw new AssistError('INVALID_VALUE', 'a boolean is needed', path);
    }
    if (typeof v === 'string' && v.length > 65536) throw new AssistError('INVALID_VALUE', 'value too long', path);
    if (typeof v === 'object') {
      const s = JSONstringify(v);
      if (s.length > 65536) throw new AssistError('INVALID_VALUE', 'value too large', path);
    }
    return v;
  };
  const write = (path: string, value: unknown) => {
    const { vm, item } = vmOf(path);
    if (bool(vm.readonly, false)) throw new AssistError('READONLY', 'the field is readonly', path);
    if (!relevantOf(vm)) throw new AssistError('NOT_RELEVANT', 'the field is not relevant', path);
    const v = coerce(item, value, path);
    if (typeof vm.setValue !== 'function') throw new AssistError('ENGINE_ERROR', 'the engine cannot set this field', path);
    try {
      vm.setValue(v);
    } catch (e) {
      throw new AssistError('INVALID_VALUE', `the engine refused the value: ${String(e).slice(0, 200)}`, path);
    }
    return { accepted: true, value: read(engine.getFieldVM(path)?.value), validation: resultsFor(path) };
  };
  const liveFields = (withValues: boolean) =>
    paths().map((p) => {
      const vm = engine.getFieldVM(p) ?? {};
      const f: Record<string, unknown> = { path: p, label: String(read(vm.label) ?? '').slice(0, 500), readonly: bool(vm.readonly, false), relevant: relevantOf(vm) };
      if (withValues) {
        const v = read(vm.value);
        if (!isEmpty(v) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) f.value = v;
      }
      return f;
    });
  const progressOf = (ps: string[]) => {
    let filled = 0,
      valid = 0,
      required = 0,
      requiredFilled = 0,
      total = 0;
    const errs = new Set(report().results.filter((x) => x?.severity === 'error').map((x) => x.path));
    for (const p of ps) {
      const vm = engine.getFieldVM(p);
      if (!vm || !relevantOf(vm)) continue;
      total++;
      const f = !isEmpty(read(vm.value));
      if (f) filled++;
      if (!errs.has(p)) valid++;
      if (bool(vm.required, false)) {
        required++;
        if (f) requiredFilled++;
      }
    }
    return { total, filled, valid, required, requiredFilled, complete: requiredFilled === required && valid === total };
  };
  const pageProgress = () =>
    pages.map((pg) => {
      const ps = paths().filter((p) => pageOf.get(strip(p)) === pg.id);
      const pr = progressOf(ps);
      return { id: pg.id, title: pg.title, fieldCount: pr.total, filledCount: pr.filled, complete: pr.complete };
    });
  const tools: Tool[] = [
    {
      name: 'formspec.form.describe',
      description: 'High-level form metadata and status.',
      inputSchema: obj({}),
      run: () => {
        const pr = progressOf(paths());
        return {
          title: def?.title ?? document.title,
          description: def?.description,
          url: def?.url,
          version: def?.version,
          fieldCount: paths().length,
          pageCount: pages.length || undefined,
          status: pr.complete ? 'complete' : 'in-progress',
        };
      },
    },
    {
      name: 'formspec.field.list',
      description: 'Field summaries; filter defaults to "relevant".',
      inputSchema: obj({ filter: { type: 'string', enum: ['all', 'required', 'empty', 'invalid', 'relevant'] } }),
      run: (i) => {
        const f = (i.filter as string | undefined) ?? 'relevant';
        return paths()
          .map(summary)
          .filter((s) => f === 'all' || (f === 'relevant' && s.relevant) || (f === 'required' && s.required) || (f === 'empty' && !s.filled) || (f === 'invalid' && !s.valid));
      },
    },
    {
      name: 'formspec.field.describe',
      description: 'One field: live state and resolved help.',
      inputSchema: obj({ path: pathProp }, ['path']),
      run: async (i) => {
        const path = i.path as string;
        const s = summary(path);
        const { vm, item } = vmOf(path);
        const opts = read(vm.options);
        const instances = /\[(\d+)\][^[]*$/.exec(path);
        return {
          ...s,
          hint: typeof read(vm.hint) === 'string' ? read(vm.hint) : item?.hint,
          widget: item?.presentation?.widgetHint,
          value: read(vm.value),
          validation: resultsFor(path),
          options: Array.isArray(opts) ? opts.slice(0, 500) : undefined,
          repeatIndex: instances ? Number(instances[1]) : undefined,
          help: await help(path),
        };
      },
    },
    {
      name: 'formspec.field.help',
      description: 'Field help resolved from References and Ontology sidecars (Assist §5).',
      inputSchema: obj({ path: pathProp, audience: { type: 'string', enum: ['human', 'agent', 'both'] } }, ['path']),
      run: (i) => help(i.path as string, i.audience as string | undefined),
    },
    {
      name: 'formspec.form.progress',
      description: 'Progress across required and total fields.',
      inputSchema: obj({}),
      run: () => ({ ...progressOf(paths()), pages: pages.length ? pageProgress() : undefined }),
    },
    {
      name: 'formspec.field.set',
      description: 'Set one field; readonly and non-relevant fields are refused.',
      inputSchema: obj({ path: pathProp, value: {} }, ['path']),
      run: (i) => write(i.path as string, i.value),
    },
    {
      name: 'formspec.field.bulkSet',
      description: 'Set several fields; each entry independent.',
      inputSchema: obj({ entries: { type: 'array' } }, ['entries']),
      run: (i) => {
        const entries = i.entries as unknown[];
        if (entries.length > 500) throw new AssistError('INVALID_VALUE', 'more than 500 entries');
        const results = entries.map((e) => {
          const path = typeof (e as { path?: unknown })?.path === 'string' ? (e as { path: string }).path : '';
          try {
            const r = write(path, (e as { value?: unknown }).value);
            return { path, accepted: true, validation: r.validation };
          } catch (err) {
            const te = toToolError(err);
            return { path, accepted: false, validation: [], error: te };
          }
        });
        const accepted = results.filter((r) => r.accepted).length;
        return { results, summary: { accepted, rejected: results.length - accepted, errors: results.filter((r) => r.error).length } };
      },
    },
    {
      name: 'formspec.form.validate',
      description: 'Validation report; mode defaults to "continuous".',
      inputSchema: obj({ mode: { type: 'string', enum: ['continuous', 'submit'] }, profile: { type: 'string', enum: ['continuous', 'submit'] } }),
      run: (i) => report((i.mode ?? i.profile ?? 'continuous') as string),
    },
    {
      name: 'formspec.field.validate',
      description: 'Validation results of one field.',
      inputSchema: obj({ path: pathProp }, ['path']),
      run: (i) => {
        vmOf(i.path);
        return { results: resultsFor(i.path as string) };
      },
    },
    {
      name: 'formspec.profile.match',
      description: 'Which fields the Tessera vault holds a value of the right kind for: never the values, nor any part of them.',
      // profileId/profileRef are accepted (Assist §3.4) and ignored: pages
      // are never told a profile id, and the person picks the profile.
      inputSchema: obj({ profileId: { type: 'string' }, profileRef: { type: 'string' } }),
      run: async () => {
        const r = (await callApp('formspec.match', { fields: liveFields(false) }, defText, 15000)) as {
          matches?: Array<{ path: string; concept?: string; relationship?: string; confidence: number; preview: string }>;
        };
        const matches = (r?.matches ?? []).map((m) => ({
          path: m.path,
          concept: m.concept,
          value: PLACEHOLDER,
          masked: true,
          confidence: m.confidence,
          relationship: m.relationship || (m.concept ? 'exact' : 'field-key'),
          source: { type: 'extension', extensionId: 'tessera', timestamp: new Date().toISOString() },
        }));
        return { matches, entries: matches };
      },
    },
    {
      name: 'formspec.profile.apply',
      description: 'Fill matched fields from the Tessera vault after the person approves them in Tessera.',
      inputSchema: obj({ matches: { type: 'array' }, entries: { type: 'array' }, confirm: { type: 'boolean' }, profileId: { type: 'string' }, profileRef: { type: 'string' } }),
      run: async (i) => {
        const given = (i.matches ?? i.entries) as unknown[] | undefined;
        const list = given ?? [];
        if (list.length > 5000) throw new AssistError('INVALID_VALUE', 'too many matches');
        const wanted = list.map((m) => (m as { path?: unknown })?.path).filter((p): p is string => typeof p === 'string');
        // The matches given, and only those; none given: every match.
        if (given !== undefined && wanted.length === 0) return { filled: [], skipped: [], validation: report() };
        let r: { entries?: Array<{ path: string; value: string }>; skipped?: Array<{ path: string; reason: string }> };
        try {
          r = (await callApp('formspec.apply', { fields: liveFields(false), paths: wanted.length ? wanted : undefined }, defText, 150000)) as typeof r;
        } catch (e) {
          if (e instanceof AssistError && e.code === 'DECLINED') return { filled: [], skipped: wanted.map((path) => ({ path, reason: 'DECLINED' })) };
          throw e;
        }
        // filled names the paths only: whoever called (a page script, an
        // agent through the page's tools) learns what was filled, never
        // the value.
        const filled: Array<{ path: string; outcome: 'filled' }> = [];
        const skipped = [...(r?.skipped ?? [])];
        for (const e of r?.entries ?? []) {
          const remember = (x: unknown) => {
            if ((typeof x === 'string' || typeof x === 'number') && String(x).length >= 2) writtenText.add(String(x));
          };
          remember(e.value);
          written.add(e.path);
          try {
            const w = write(e.path, e.value);
            remember(w.value);
            filled.push({ path: e.path, outcome: 'filled' });
          } catch (err) {
            skipped.push({ path: e.path, reason: toToolError(err).code });
          }
        }
        return { filled, skipped, validation: report() };
      },
    },
    {
      name: 'formspec.profile.learn',
      description: "Save this form's values to the Tessera vault after the person approves them in Tessera.",
      inputSchema: obj({ profileId: { type: 'string' }, profileRef: { type: 'string' } }),
      run: () => callApp('formspec.learn', { fields: liveFields(true) }, defText, 150000),
    },
  ];
  if (pages.length > 0) {
    tools.push(
      { name: 'formspec.form.pages', description: 'Progress per page.', inputSchema: obj({}), run: () => ({ pages: pageProgress() }) },
      {
        name: 'formspec.form.nextIncomplete',
        description: 'The next incomplete field or page.',
        inputSchema: obj({ scope: { type: 'string', enum: ['field', 'page'] } }),
        run: (i) => {
          const errs = new Set(report().results.filter((x) => x?.severity === 'error').map((x) => x.path));
          for (const p of paths()) {
            const vm = engine.getFieldVM(p);
            if (!vm || !relevantOf(vm) || bool(vm.readonly, false)) continue;
            const empty = isEmpty(read(vm.value));
            const reason = errs.has(p) ? 'invalid' : empty && bool(vm.required, false) ? 'required' : undefined;
            if (!reason) continue;
            const pageId = pageOf.get(strip(p));
            if (i.scope === 'page') return { pageId, label: pages.find((x) => x.id === pageId)?.title ?? pageId ?? '', reason };
            return { path: p, pageId, label: String(read(vm.label) ?? p), reason };
          }
          return { label: 'complete', reason: 'complete' };
        },
      },
    );
  }
  const mc = modelContext() ?? polyfill();
  provider = new AbortController();
  for (const t of tools) {
    ours.add(t.name);
    const execute = async (input: unknown): Promise<ToolResult> => {
      try {
        return ok(redact(await t.run(validate(t.inputSchema, input))));
      } catch (e) {
        return fail(redact(toToolError(e)) as ToolError);
      }
    };
    try {
      mc.registerTool?.({ name: t.name, description: t.description, inputSchema: t.inputSchema, execute, annotations: { readOnlyHint: READ_ONLY.has(t.name) } }, { signal: provider.signal });
    } catch {
      // A tool the page already registered keeps the page's.
    }
  }
  ownAnnouncement = true;
  try {
    dispatch.call(
      document,
      new CustomEvent('formspec-tools-available', {
        detail: { protocolVersion: '1.0.0-draft.1', definitionUrl: def?.url, definitionVersion: def?.version, tools: tools.map((t) => t.name), provider: 'tessera-bootstrap' },
      }),
    );
  } finally {
    ownAnnouncement = false;
  }
  // Agents list the page's tools again (page/webmcp.ts): the catalog comes
  // after the load, later than the navigation they were told of.
  dispatch.call(document, new Event('tessera-webmcp-toolchange'));
  return tools.map((t) => t.name);
}

const ASSIST_CODES = ['NOT_FOUND', 'INVALID_PATH', 'INVALID_VALUE', 'NOT_RELEVANT', 'READONLY', 'UNSUPPORTED', 'ENGINE_ERROR'];

/** toToolError is the §4.2 ToolError of e: Tessera's own codes (VAULT_LOCKED, TIMEOUT...) become x- codes. */
function toToolError(e: unknown): ToolError {
  if (e instanceof AssistError) {
    const code = ASSIST_CODES.includes(e.code) || e.code.startsWith('x-') ? e.code : `x-${e.code.toLowerCase().replace(/_/g, '-')}`;
    return { code, message: e.message, path: e.path };
  }
  return { code: 'ENGINE_ERROR', message: String(e).slice(0, 300) };
}

/**
 * polyfill installs a minimal navigator.modelContext when the browser has
 * none (Assist §7.2 allows it): registerTool with an abort signal, getTools,
 * and executeTool(name, input) resolving to the JSON string of the result.
 */
function polyfill(): ModelContext {
  const tools = new Map<string, { name: string; description: string; inputSchema: unknown; annotations?: unknown; execute: (i: unknown) => Promise<unknown> }>();
  const mc: ModelContext = {
    registerTool(tool: unknown, opts?: { signal?: AbortSignal }) {
      const t = tool as { name: string; description: string; inputSchema: unknown; annotations?: unknown; execute: (i: unknown) => Promise<unknown> };
      if (tools.has(t.name)) throw new Error(`tool ${t.name} already registered`);
      tools.set(t.name, t);
      opts?.signal?.addEventListener('abort', () => tools.delete(t.name));
    },
    getTools() {
      // The annotations (readOnlyHint) go with the tool: agents see them.
      return [...tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }));
    },
    async executeTool(tool: unknown, input: unknown) {
      const name = typeof tool === 'string' ? tool : (tool as { name?: string })?.name;
      const t = name === undefined ? undefined : tools.get(name);
      const r = t ? await t.execute(input) : fail({ code: 'UNSUPPORTED', message: `no tool ${String(name).slice(0, 100)}` });
      return JSONstringify(r);
    },
  };
  Object.defineProperty(navigator, 'modelContext', { value: mc, configurable: true });
  return mc;
}

// --- mode 1: consuming the page's own provider ---------------------------------

/** callPageTool invokes one of the page's tools through its model context. */
async function callPageTool(name: string, input: unknown): Promise<unknown> {
  const mc = modelContext();
  if (!mc) throw new ProviderError('UNSUPPORTED', 'the page has no model context');
  if (typeof mc.executeTool === 'function') return await mc.executeTool(name, input);
  const list = (await Promise.resolve(mc.getTools?.())) as Array<{ name?: unknown; execute?: (i: unknown) => unknown }> | undefined;
  const t = Array.isArray(list) ? list.find((x) => x?.name === name) : undefined;
  if (typeof t?.execute !== 'function') throw new ProviderError('UNSUPPORTED', `the page cannot run ${name}`);
  return await t.execute(input);
}

async function runConsume(id: number): Promise<void> {
  if (detection?.mode !== 1) {
    send({ secret, kind: 'consumed', id, error: { code: 'UNSUPPORTED', message: 'the page has no Assist provider of its own' } });
    return;
  }
  try {
    const report = await consume({
      callTool: callPageTool,
      tools: async () => {
        const mc = modelContext();
        const list = (await Promise.resolve(mc?.getTools?.())) as unknown;
        return Array.isArray(list)
          ? list.map((t) => (typeof t === 'string' ? t : (t as { name?: unknown })?.name)).filter((n): n is string => typeof n === 'string' && n.startsWith('formspec.')).slice(0, 64)
          : [];
      },
      apply: (params, definition, docs) => callApp('formspec.apply', params, definition, 150000, docs),
    });
    send({ secret, kind: 'consumed', id, report });
  } catch (e) {
    const code = e instanceof ProviderError || e instanceof AssistError ? e.code : 'x-provider-invalid';
    send({ secret, kind: 'consumed', id, error: { code, message: e instanceof Error ? e.message : String(e) } });
  }
}
