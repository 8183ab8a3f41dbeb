/**
 * The isolated-world half of the Formspec channel (shared/formspec.ts),
 * injected by the service worker into a top document that shows a Formspec
 * form (content/formspec-probe.ts), just before the page-world script: it
 * takes the page-world script's port, relays its detection to the service worker
 * (for the popup) and its calls to the app's formspec.* methods, adding the
 * sidecars it discovers as Assist §9 says (link relations first, then the
 * sibling references.json / ontology.json), cached by the service worker per
 * (origin, definition url, version). Before an apply it measures the
 * controls of the paths asked for (content/formspec-measure.ts) and says
 * whose provider writes: the app reads both from here, never from the page.
 */
import { measurePaths } from './formspec-measure';
import { liveLayout } from './visibility';
import {
  ANNOUNCED,
  APP_METHODS,
  CONSUME_MS,
  CONSUME_PORT,
  type AppMethod,
  type BridgeToPage,
  type Detection,
  type FormspecRequest,
  MAX_DOC_CHARS,
  MAX_SIDECARS,
  PORT_MESSAGE,
  type PageToBridge,
  type Sidecars,
} from '../shared/formspec';

const GUARD = Symbol.for('tessera.formspec-bridge');

function ask(req: FormspecRequest): Promise<unknown> {
  return chrome.runtime.sendMessage(req);
}

/** fetchDoc fetches one sidecar as the page could (page-origin CORS), bounded in time and size. */
async function fetchDoc(url: string): Promise<string> {
  const u = new URL(url, location.href);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`${u.protocol} is not fetched`);
  const r = await fetch(u.href, { credentials: 'same-origin', signal: AbortSignal.timeout(5000), redirect: 'follow' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  const len = Number(r.headers.get('content-length') ?? '0');
  if (len > MAX_DOC_CHARS) throw new Error('too large');
  const text = await r.text();
  if (text.length > MAX_DOC_CHARS) throw new Error('too large');
  return text;
}

function linked(rel: string): string[] {
  return Array.from(document.querySelectorAll<HTMLLinkElement>(`link[rel~="${rel}"][href]`))
    .map((l) => l.href)
    .slice(0, MAX_SIDECARS);
}

/** discover finds the sidecars of the page's form (Assist §9 steps 2 and 4). */
export async function discover(): Promise<Sidecars> {
  const out: Sidecars = { references: [], ontologies: [], registries: [], warnings: [] };
  const kinds: Array<[string, keyof Omit<Sidecars, 'warnings'>, string, string]> = [
    ['formspec-references', 'references', 'references.json', '$formspecReferences'],
    ['formspec-ontology', 'ontologies', 'ontology.json', '$formspecOntology'],
    ['formspec-registry', 'registries', '', '$formspecRegistry'],
  ];
  for (const [rel, key, sibling, pin] of kinds) {
    const links = linked(rel);
    for (const href of links) {
      try {
        // A linked document is the page's word: a broken one is passed on,
        // and the app answers x-invalid-sidecar.
        out[key].push(await fetchDoc(href));
      } catch (e) {
        out.warnings.push(`${rel} ${href}: ${String(e)}`);
      }
    }
    if (links.length === 0 && sibling !== '') {
      // A sibling guess counts only when it is the document it claims to be.
      try {
        const text = await fetchDoc(sibling);
        const doc = JSON.parse(text) as Record<string, unknown>;
        if (doc && typeof doc === 'object' && pin in doc) out[key].push(text);
      } catch {
        // No sibling: less help, nothing wrong.
      }
    }
  }
  return out;
}

/**
 * definitionKey is the cache key of a form's sidecars: (definition url,
 * version) as §9 says, within this origin, and the sidecars the page links
 * (a page linking other documents for the same form gets those).
 */
function definitionKey(def: string): string {
  try {
    const d = JSON.parse(def) as { url?: unknown; version?: unknown };
    const links = ['formspec-references', 'formspec-ontology', 'formspec-registry'].map((r) => linked(r).join(' ')).join('\n');
    return `${location.origin}\n${String(d.url)}\n${String(d.version)}\n${links}`;
  } catch {
    return '';
  }
}

const sidecarsOf = new Map<string, Promise<Sidecars>>();
function sidecarsFor(def: string): Promise<Sidecars> {
  const key = definitionKey(def);
  let p = sidecarsOf.get(key);
  if (!p) {
    p = (async () => {
      const cached = (await ask({ type: 'formspec', op: 'cache-get', key }).catch(() => undefined)) as Sidecars | undefined;
      if (cached && Array.isArray(cached.references)) return cached;
      const found = await discover();
      void ask({ type: 'formspec', op: 'cache-put', key, sidecars: found }).catch(() => undefined);
      return found;
    })();
    sidecarsOf.set(key, p);
  }
  return p;
}

function errorOf(e: unknown): { code: string; message: string; path?: string; reason?: string } {
  const o = e as { error?: { code?: unknown; message?: unknown; path?: unknown; reason?: unknown } };
  if (o && typeof o.error?.code === 'string') {
    return {
      code: o.error.code,
      message: String(o.error.message ?? ''),
      path: typeof o.error.path === 'string' ? o.error.path : undefined,
      reason: typeof o.error.reason === 'string' ? o.error.reason : undefined,
    };
  }
  return { code: 'ENGINE_ERROR', message: String(e) };
}

/** busy holds the one long call (a dialog) a page may have waiting at a time; quick counts the others in flight. */
let busy = false;
let quick = 0;
const MAX_QUICK = 4;
const MAX_QUEUED = 64;
const queued: Array<() => void> = [];

/** enter waits for one of MAX_QUICK slots; a page queueing more than MAX_QUEUED calls is refused. */
function enter(): Promise<void> {
  if (quick < MAX_QUICK) {
    quick++;
    return Promise.resolve();
  }
  if (queued.length >= MAX_QUEUED) return Promise.reject({ error: { code: 'x-busy', message: `more than ${MAX_QUEUED} calls waiting` } });
  return new Promise((resolve) => queued.push(resolve));
}

function leave(): void {
  const next = queued.shift();
  if (next) next();
  else quick--;
}

async function serve(port: MessagePort, secret: string, m: Extract<PageToBridge, { kind: 'call' }>): Promise<void> {
  const answer: BridgeToPage = { secret, kind: 'answer', id: m.id };
  try {
    if (!APP_METHODS.includes(m.method)) throw { error: { code: 'UNSUPPORTED', message: 'no such method' } };
    if (typeof m.definition !== 'string' || m.definition.length > MAX_DOC_CHARS) throw { error: { code: 'INVALID_VALUE', message: 'definition too large' } };
    // Mode 1: the provider's own word, no discovery (Assist §9 step 1).
    const given = m.docs;
    if (given !== undefined && (!Array.isArray(given.references) || !Array.isArray(given.ontologies) || given.references.length + given.ontologies.length > MAX_SIDECARS)) {
      throw { error: { code: 'INVALID_VALUE', message: 'bad provider documents' } };
    }
    const sc = given !== undefined ? { references: given.references.map((d) => JSON.stringify(d)), ontologies: given.ontologies.map((d) => JSON.stringify(d)), registries: [], warnings: [] } : await sidecarsFor(m.definition);
    const { measured: _m, provider: _p, ...pageParams } = (typeof m.params === 'object' && m.params !== null ? m.params : {}) as Record<string, unknown>;
    const params: Record<string, unknown> = {
      ...pageParams,
      definition: JSON.parse(m.definition) as unknown,
      references: sc.references.map((t) => JSON.parse(t) as unknown),
      ontologies: sc.ontologies.map((t) => JSON.parse(t) as unknown),
      registries: sc.registries.map((t) => JSON.parse(t) as unknown),
    };
    if (m.method === 'formspec.apply') {
      // What the person can see, measured here: the page's word (its
      // provider's field list, the page-world script's call) never ticks
      // a row by itself.
      const asked = Array.isArray(params.paths) && params.paths.length > 0 ? params.paths : Array.isArray(params.fields) ? params.fields.map((f) => (f as { path?: unknown })?.path) : [];
      params.measured = measurePaths(document, asked as unknown[], liveLayout(window));
      // The page's own provider writes in mode 1 (its documents come with
      // the call, or the page announced a provider of its own).
      params.provider = given !== undefined || detected?.mode === 1 ? 'page' : 'tessera';
    }
    const long = m.method === 'formspec.apply' || m.method === 'formspec.learn';
    if (long && busy) throw { error: { code: 'x-busy', message: 'a Tessera confirmation for this page is already waiting' } };
    if (long) busy = true;
    else await enter();
    let r: unknown;
    try {
      r = await ask({ type: 'formspec', op: 'call', method: m.method as AppMethod, params });
    } finally {
      if (long) busy = false;
      else leave();
    }
    if (r && typeof r === 'object' && 'error' in r) throw r;
    answer.result = r;
  } catch (e) {
    // JSON that does not parse is a broken sidecar.
    answer.error = e instanceof SyntaxError ? { code: 'x-invalid-sidecar', message: e.message } : errorOf(e);
  }
  port.postMessage(answer);
}

let pagePort: { port: MessagePort; secret: string } | undefined;
const consumers = new Map<number, (m: Extract<PageToBridge, { kind: 'consumed' }>) => void>();
let nextConsume = 1;

/** runConsume asks the page world to fill from the page's own provider (mode 1), bounded by CONSUME_MS. */
function runConsume(): Promise<unknown> {
  const pp = pagePort;
  if (!pp) return Promise.resolve({ error: { code: 'UNSUPPORTED', message: 'no Formspec channel on this page' } });
  if (busy) return Promise.resolve({ error: { code: 'x-busy', message: 'a Tessera confirmation for this page is already waiting' } });
  const id = nextConsume++;
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      consumers.delete(id);
      resolve({ error: { code: 'TIMEOUT', message: `the page did not finish within ${CONSUME_MS / 1000} s` } });
    }, CONSUME_MS);
    consumers.set(id, (m) => {
      clearTimeout(t);
      resolve(m.error ? { error: m.error } : { report: m.report });
    });
    pp.port.postMessage({ secret: pp.secret, kind: 'consume', id } satisfies BridgeToPage);
  });
}

/** detected is the page world's last detection, said again when the service worker asks (background/formspec.ts resendDetection). */
let detected: Detection | undefined;

const g = globalThis as { [GUARD]?: boolean; [k: symbol]: unknown };
if (!g[GUARD] && window === window.top) {
  g[GUARD] = true;
  g[Symbol.for('tessera.formspec-resend')] = () => {
    if (detected) void ask({ type: 'formspec', op: 'detected', detection: detected }).catch(() => undefined);
  };
  let taken = false;
  window.addEventListener(
    'message',
    (ev: MessageEvent) => {
      const d = ev.data as { tessera?: unknown; secret?: unknown } | null;
      if (taken || ev.source !== window || d?.tessera !== PORT_MESSAGE) return;
      if (ev.origin !== location.origin && !(location.origin === 'null' && ev.origin === 'null')) return;
      if (typeof d.secret !== 'string' || d.secret.length < 32 || ev.ports.length !== 1) return;
      // The first hand-over wins, and no page listener sees it.
      ev.stopImmediatePropagation();
      taken = true;
      const secret = d.secret;
      const port = ev.ports[0];
      pagePort = { port, secret };
      if ((globalThis as { [k: symbol]: unknown })[Symbol.for(ANNOUNCED)] === true) port.postMessage({ secret, kind: 'announced', id: 0 } satisfies BridgeToPage);
      port.onmessage = (e: MessageEvent) => {
        const m = e.data as Partial<PageToBridge> | null;
        if (!m || m.secret !== secret) return;
        if (m.kind === 'consumed' && typeof m.id === 'number') {
          consumers.get(m.id)?.(m as Extract<PageToBridge, { kind: 'consumed' }>);
          consumers.delete(m.id);
          return;
        }
        if (m.kind === 'detected' && m.detection) {
          detected = m.detection as Detection;
          void ask({ type: 'formspec', op: 'detected', detection: detected }).catch(() => undefined);
        } else if (m.kind === 'call' && typeof m.id === 'number') {
          void serve(port, secret, m as Extract<PageToBridge, { kind: 'call' }>);
        }
      };
    },
    true,
  );
  // The service worker asks for a mode-1 fill on a port of its own (tabs.connect).
  chrome.runtime.onConnect.addListener((p) => {
    if (p.name !== CONSUME_PORT || p.sender?.id !== chrome.runtime.id || p.sender?.tab !== undefined) return;
    p.onMessage.addListener((msg: { op?: unknown }) => {
      if (msg?.op !== 'consume') return;
      void runConsume().then((r) => {
        try {
          p.postMessage(r);
        } catch {
          // The service worker went away.
        }
      });
    });
  });
}
