/**
 * The service worker's side of Formspec Assist (issue 14): remembers which
 * mode each tab's page is in (for the popup), caches discovered sidecars per
 * (origin, definition url, version) as Assist §9 says, and relays the
 * bridge's calls to the app's formspec.* methods (PROTOCOL.md §4.4), naming
 * the page by the tab the browser says the message came from, never by what
 * the page claims.
 */
import { APP_METHODS, type Detection, type FormspecRequest, type Sidecars } from '../shared/formspec';
import { RpcError } from '../shared/rpc';

/** Caller is what this needs of the native client. */
export interface Caller {
  call(method: string, params?: unknown, timeoutMs?: number): Promise<unknown>;
}

const MAX_CACHE = 32;

/** ModeReport is what the popup shows for a tab. */
export interface ModeReport {
  detection?: Detection;
  url?: string;
}

export class Formspec {
  private readonly modes = new Map<number, { detection: Detection; url: string }>();
  private readonly cache = new Map<string, Sidecars>();

  constructor(private readonly client: Caller) {}

  async handle(req: FormspecRequest, sender: chrome.runtime.MessageSender | undefined): Promise<unknown> {
    const tab = sender?.tab;
    switch (req.op) {
      case 'mode-of': {
        if (tab !== undefined) return { error: { code: 'FORBIDDEN', message: 'the popup asks' } };
        const m = this.modes.get(req.tab);
        return { detection: m?.detection, url: m?.url } satisfies ModeReport;
      }
      case 'detected':
        if (tab?.id === undefined || sender?.frameId !== 0) return { error: { code: 'FORBIDDEN', message: 'top documents only' } };
        this.modes.set(tab.id, { detection: sanitize(req.detection), url: sender.url ?? tab.url ?? '' });
        return {};
      case 'cache-get':
        return this.cache.get(String(req.key)) ?? null;
      case 'cache-put':
        if (this.cache.size >= MAX_CACHE) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(String(req.key), req.sidecars);
        return {};
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
          if (e instanceof RpcError) return { error: { code: e.code, message: e.message, path: typeof e.data?.path === 'string' ? e.data.path : undefined } };
          return { error: { code: 'ENGINE_ERROR', message: String(e) } };
        }
      }
    }
    return { error: { code: 'UNKNOWN_MESSAGE', message: 'unknown formspec op' } };
  }

  forget(tab: number): void {
    this.modes.delete(tab);
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
