/**
 * The service worker's side of Formspec Assist (issue 14): remembers which
 * mode each tab's page is in (for the popup), caches discovered sidecars per
 * (origin, definition url, version) as Assist §9 says, and relays the
 * bridge's calls to the app's formspec.* methods (PROTOCOL.md §4.4), naming
 * the page by the tab the browser says the message came from, never by what
 * the page claims.
 */
import type { FillReport } from '../shared/fill';
import { APP_METHODS, CONSUME_MS, CONSUME_PORT, type Detection, type FormspecRequest, type Sidecars } from '../shared/formspec';
import type { FillProgress } from '../shared/messages';
import { RpcError } from '../shared/rpc';

/** Caller is what this needs of the native client. */
export interface Caller {
  call(method: string, params?: unknown, timeoutMs?: number): Promise<unknown>;
}

const MAX_CACHE = 32;
const MAX_CACHE_CHARS = 16 << 20;

function sizeOf(sc: Sidecars): number {
  let n = 0;
  for (const list of [sc?.references, sc?.ontologies, sc?.registries]) {
    if (!Array.isArray(list)) return Infinity;
    for (const d of list) n += typeof d === 'string' ? d.length : Infinity;
  }
  return n;
}

/** ModeReport is what the popup shows for a tab. */
export interface ModeReport {
  detection?: Detection;
  url?: string;
}

/** MODE_WAIT_MS bounds how long the popup waits for an on-demand detection. */
const MODE_WAIT_MS = 2500;

/**
 * claimDocument runs in the document's isolated world (no page script sees
 * it) and reports whether this is the first injection into the document;
 * passed to scripting.executeScript, so it must stand alone.
 */
function claimDocument(): boolean {
  const g = globalThis as { [k: symbol]: unknown };
  const k = Symbol.for('tessera.formspec-injected');
  if (g[k]) return false;
  g[k] = true;
  return true;
}

/** resendDetection asks a bridge injected earlier to report its detection again (a page restored from the back-forward cache). */
function resendDetection(): void {
  const f = (globalThis as { [k: symbol]: unknown })[Symbol.for('tessera.formspec-resend')];
  if (typeof f === 'function') f();
}

export class Formspec {
  private readonly modes = new Map<number, { detection: Detection; url: string }>();
  private readonly cache = new Map<string, Sidecars>();
  private readonly waiting = new Map<number, Array<() => void>>();
  /** topDocument is each tab's current top document, where the browser names documents (a late report of the one before is dropped). */
  private readonly topDocument = new Map<number, string>();

  constructor(
    private readonly client: Caller,
    private readonly onProgress: (p: FillProgress) => void = () => {},
  ) {}

  /** isProvider reports whether the tab's page runs its own Assist provider (mode 1). */
  isProvider(tab: number): boolean {
    return this.modes.get(tab)?.detection.mode === 1;
  }

  /**
   * consume fills a mode-1 page through its own provider (page/consume.ts):
   * the person approves in the app's dialog, the provider writes, and its
   * validation report comes back in the report's message.
   */
  async consume(tab: number): Promise<FillReport> {
    this.onProgress({ tab, phase: 'confirming' });
    const answer = await new Promise<{ report?: FillReport; error?: { code: string; message: string } }>((resolve) => {
      let port: chrome.runtime.Port;
      const done = (r: { report?: FillReport; error?: { code: string; message: string } }) => {
        clearTimeout(timer);
        resolve(r);
        try {
          port.disconnect();
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => done({ error: { code: 'TIMEOUT', message: 'the page did not finish in time' } }), CONSUME_MS + 5000);
      try {
        port = chrome.tabs.connect(tab, { name: CONSUME_PORT, frameId: 0 });
      } catch (e) {
        done({ error: { code: 'NO_FRAMES', message: String(e) } });
        return;
      }
      port.onMessage.addListener((m: { report?: FillReport; error?: { code: string; message: string } }) => done(m));
      port.onDisconnect.addListener(() => done({ error: { code: 'NO_FRAMES', message: 'the page went away' } }));
      port.postMessage({ op: 'consume' });
    });
    let report: FillReport;
    if (answer.report && typeof answer.report === 'object') {
      const r = answer.report;
      report = { status: r.status, reason: r.reason, message: r.message, fields: Array.isArray(r.fields) ? r.fields : [] };
      (report as FillReport & { validation?: unknown }).validation = (r as { validation?: unknown }).validation;
    } else {
      const e = answer.error ?? { code: 'INTERNAL', message: 'no answer' };
      report = e.code === 'DECLINED' ? { status: 'declined', reason: 'denied', fields: [] } : { status: 'failed', reason: e.code, message: e.message, fields: [] };
    }
    this.onProgress({ tab, phase: 'done', report });
    return report;
  }

  /**
   * inject runs the bridge (isolated world) and then the page-world script
   * in a tab's top document, once per document (doc pins the document the
   * probe ran in, where the browser names documents). A document injected
   * before is asked to report its detection again instead.
   */
  async inject(tab: number, doc?: string): Promise<void> {
    const target = doc !== undefined ? { tabId: tab, documentIds: [doc] } : { tabId: tab, frameIds: [0] };
    const [first] = await chrome.scripting.executeScript({ target, func: claimDocument });
    if (first?.result !== true) {
      await chrome.scripting.executeScript({ target, func: resendDetection });
      return;
    }
    await chrome.scripting.executeScript({ target, files: ['formspec-bridge.js'] });
    await chrome.scripting.executeScript({ target, files: ['formspec-page.js'], world: 'MAIN' });
  }

  /** modeOf is the tab's detection, detecting on demand (bounded) when the page has reported none. */
  private async modeOf(tab: number): Promise<ModeReport> {
    if (!this.modes.has(tab)) {
      const seen = new Promise<void>((resolve) => {
        const list = this.waiting.get(tab) ?? [];
        list.push(resolve);
        this.waiting.set(tab, list);
        setTimeout(resolve, MODE_WAIT_MS);
      });
      try {
        await this.inject(tab);
        await seen;
      } catch {
        // A page no extension may script (the browser's own pages).
      }
    }
    const m = this.modes.get(tab);
    return { detection: m?.detection, url: m?.url };
  }

  async handle(req: FormspecRequest, sender: chrome.runtime.MessageSender | undefined): Promise<unknown> {
    const tab = sender?.tab;
    switch (req.op) {
      case 'mode-of': {
        if (tab !== undefined) return { error: { code: 'FORBIDDEN', message: 'the popup asks' } };
        if (typeof req.tab !== 'number') return { error: { code: 'INVALID_MESSAGE', message: 'mode-of needs a tab' } };
        return await this.modeOf(req.tab);
      }
      case 'inject': {
        if (tab?.id === undefined || sender?.frameId !== 0) return { error: { code: 'FORBIDDEN', message: 'top documents only' } };
        try {
          await this.inject(tab.id, (sender as { documentId?: string }).documentId);
        } catch (e) {
          return { error: { code: 'NO_FRAMES', message: String(e) } };
        }
        return {};
      }
      case 'detected': {
        if (tab?.id === undefined || sender?.frameId !== 0) return { error: { code: 'FORBIDDEN', message: 'top documents only' } };
        const doc = (sender as { documentId?: string }).documentId;
        const current = this.topDocument.get(tab.id);
        if (doc !== undefined && current !== undefined && doc !== current) return { error: { code: 'GONE', message: 'a document the tab has left' } };
        this.modes.set(tab.id, { detection: sanitize(req.detection), url: sender.url ?? tab.url ?? '' });
        const list = this.waiting.get(tab.id) ?? [];
        this.waiting.delete(tab.id);
        for (const f of list) f();
        return {};
      }
      case 'cache-get':
        return this.cache.get(String(req.key)) ?? null;
      case 'cache-put': {
        // Bounded: at most MAX_CACHE forms and MAX_CACHE_CHARS of documents.
        const size = sizeOf(req.sidecars);
        if (size > MAX_CACHE_CHARS / 4) return {};
        this.cache.delete(String(req.key));
        while (this.cache.size >= MAX_CACHE || (this.cache.size > 0 && this.cacheChars() + size > MAX_CACHE_CHARS)) {
          this.cache.delete(this.cache.keys().next().value as string);
        }
        this.cache.set(String(req.key), req.sidecars);
        return {};
      }
      case 'call': {
        if (!APP_METHODS.includes(req.method)) return { error: { code: 'UNSUPPORTED', message: 'no such method' } };
        const url = sender?.url ?? tab?.url;
        if (tab?.id === undefined || url === undefined) return { error: { code: 'FORBIDDEN', message: 'only a tab may ask' } };
        const page = { tab: tab.id, url, title: (tab.title ?? '').slice(0, 200) };
        // apply and learn wait for the person (the app's dialog times out at 2 minutes).
        const long = req.method === 'formspec.apply' || req.method === 'formspec.learn';
        const params = req.method === 'formspec.help' ? stripPage(req.params) : { ...req.params, page };
        try {
          return await this.client.call(req.method, params, long ? 140_000 : 15_000);
        } catch (e) {
          if (e instanceof RpcError) {
            return { error: { code: e.code, message: e.message, path: typeof e.data?.path === 'string' ? e.data.path : undefined, reason: typeof e.data?.reason === 'string' ? e.data.reason : undefined } };
          }
          return { error: { code: 'ENGINE_ERROR', message: String(e) } };
        }
      }
    }
    return { error: { code: 'UNKNOWN_MESSAGE', message: 'unknown formspec op' } };
  }

  private cacheChars(): number {
    let n = 0;
    for (const v of this.cache.values()) n += sizeOf(v);
    return n;
  }

  /** forget drops a tab's detection: the tab closed, or its top document changed (to document, where the browser names it). */
  forget(tab: number, document?: string): void {
    this.modes.delete(tab);
    if (document !== undefined) this.topDocument.set(tab, document);
    else this.topDocument.delete(tab);
  }
}

function stripPage(p: Record<string, unknown>): Record<string, unknown> {
  const { path, audience, definition, references, ontologies, registries } = p;
  return { path, audience, definition, references, ontologies, registries };
}

function sanitize(d: Detection): Detection {
  const s = (x: unknown, n: number) => (typeof x === 'string' ? x.slice(0, n) : undefined);
  const mode = d?.mode === 1 || d?.mode === 2 ? d.mode : 3;
  return {
    mode,
    why: s(d?.why, 300) ?? '',
    definitionUrl: s(d?.definitionUrl, 2048),
    definitionVersion: s(d?.definitionVersion, 64),
    title: s(d?.title, 200),
    tools: Array.isArray(d?.tools) ? d.tools.filter((t) => typeof t === 'string').slice(0, 64).map((t) => t.slice(0, 100)) : [],
  };
}
