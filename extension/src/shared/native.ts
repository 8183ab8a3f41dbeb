/**
 * The extension's one connection to the Tessera app: a native-messaging port
 * to the host, the session.hello handshake, request/response correlation,
 * timeouts, reconnection with capped exponential backoff, and the connection
 * state the popup shows. NativeClient.call is the choke point: every message
 * to the app passes through it.
 */
import {
  Codes,
  type HelloResult,
  PROTOCOL_VERSIONS,
  RpcError,
  type RpcRequest,
  type VaultState,
  classify,
  isHelloResult,
} from './rpc';
import { MAX_REQUEST_BYTES, utf8Length } from './fill';
import { type Pairing, type PairProof, fromB64 } from './pairing';

/**
 * ConnState is where the connection to the app stands:
 * - connecting: a port is open and hello is under way;
 * - not-installed: the browser found no host manifest (Tessera not installed);
 * - forbidden: the host manifest or the host does not allow this extension;
 * - app-unavailable: the host runs but cannot reach or start the app;
 * - incompatible: the app speaks no protocol version we do;
 * - disconnected: the port closed for another reason; a retry is scheduled;
 * - pairing: hello succeeded and the person is asked in the app to pair this
 *   install; Status.code is the code both show;
 * - unpaired: hello succeeded but this install is not paired (declined,
 *   unpaired in the app, or nobody answered); the popup offers to pair;
 * - connected: hello succeeded (and the install proved its pairing); calls are accepted.
 */
export type ConnState =
  | 'connecting'
  | 'not-installed'
  | 'forbidden'
  | 'app-unavailable'
  | 'incompatible'
  | 'disconnected'
  | 'pairing'
  | 'unpaired'
  | 'connected';

/** Status is the connection state with what is known about the app. */
export interface Status {
  state: ConnState;
  app?: HelloResult['app'];
  vault?: VaultState;
  session?: string;
  /** detail is the last error message, for the popup's fine print. */
  detail?: string;
  /** code is, while pairing, the code the app's pairing dialog shows too. */
  code?: string;
}

/** PortLike is the part of chrome.runtime.Port the client uses. */
export interface PortLike {
  postMessage(msg: unknown): void;
  disconnect(): void;
  onMessage: { addListener(cb: (msg: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
}

/** NativeDeps are the browser facilities the client needs, passed in so tests can fake them. */
export interface NativeDeps {
  /** connect opens a port to the host (chrome.runtime.connectNative). */
  connect(): PortLike;
  /**
   * lastError returns why port closed, read inside onDisconnect: Chromium
   * sets chrome.runtime.lastError, Firefox sets port.error.
   */
  lastError(port: PortLike): string | undefined;
  /** client describes this browser and extension in session.hello. */
  client: { kind: 'browser'; name: string; version: string; extension: string };
  /** pairing holds this install's key; without it the client proves nothing (tests of other duties). */
  pairing?: Pairing;
}

/** RequestHandler answers one of the app's requests; it rejects with an error carrying a string code. */
export type RequestHandler = (method: string, params: unknown) => Promise<unknown>;

/** NativeOptions tunes timeouts and backoff (milliseconds). */
export interface NativeOptions {
  callTimeoutMs: number;
  /** helloTimeoutMs covers the host starting the app (the host waits up to 10 s). */
  helloTimeoutMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** DEFAULT_OPTIONS are the shipped timeouts and backoff. */
export const DEFAULT_OPTIONS: NativeOptions = {
  callTimeoutMs: 30_000,
  helloTimeoutMs: 20_000,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
};

// Chromium's and Firefox's wording for the two failures a person can fix themselves.
const NOT_FOUND_RE = /native messaging host not found|no such native application/i;
const FORBIDDEN_RE = /native messaging host is forbidden|does not have permission to use native/i;

// A response too large for one native frame arrives as session.chunk
// notifications (PROTOCOL.md §5). MAX_CHUNKS bounds what one response may
// make the worker buffer (64 × 600 KiB).
const CHUNK_METHOD = 'session.chunk';

// PAIR_TIMEOUT_MS covers the app's pairing dialog (it declines itself after 2 minutes).
const PAIR_TIMEOUT_MS = 150_000;

/** Session is what hello told about the session now open, for pairing. */
interface Session {
  gen: number;
  base: Pick<Status, 'app' | 'vault' | 'session'>;
  challenge: Uint8Array;
}
const MAX_CHUNKS = 64;

interface ChunkParams {
  id: string;
  index: number;
  count: number;
  data: string;
}

function isChunk(p: unknown): p is ChunkParams {
  const c = p as Partial<ChunkParams> | null;
  return (
    typeof c?.id === 'string' &&
    Number.isInteger(c.index) &&
    Number.isInteger(c.count) &&
    typeof c.data === 'string' &&
    c.count! > 0 &&
    c.count! <= MAX_CHUNKS &&
    c.index! >= 0 &&
    c.index! < c.count!
  );
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: RpcError): void;
  timer: ReturnType<typeof setTimeout>;
}

/** NativeClient owns one native port and the session on it. */
export class NativeClient {
  private readonly deps: NativeDeps;
  private readonly opts: NativeOptions;
  private port: PortLike | null = null;
  // generation tells events of the current port from late ones of a closed port.
  private generation = 0;
  private seq = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly chunks = new Map<string, string[]>();
  private current: Status = { state: 'disconnected' };
  private session: Session | null = null;
  private readonly statusListeners = new Set<(s: Status) => void>();
  private readonly notificationListeners = new Set<(method: string, params: unknown) => void>();
  private requestHandler: RequestHandler | null = null;

  constructor(deps: NativeDeps, opts: Partial<NativeOptions> = {}) {
    this.deps = deps;
    this.opts = { ...DEFAULT_OPTIONS, ...opts };
  }

  /** status returns the current connection status. */
  get status(): Status {
    return this.current;
  }

  /** start opens the port unless one is open or a retry is already scheduled. */
  start(): void {
    if (this.port === null && this.retryTimer === null) this.open();
  }

  /** retryNow skips any scheduled backoff and tries again at once. */
  retryNow(): void {
    this.clearRetry();
    this.attempt = 0;
    if (this.port === null) {
      this.open();
    } else if (this.current.state === 'unpaired') {
      this.pairNow();
    } else if (this.current.state !== 'connected' && this.current.state !== 'connecting' && this.current.state !== 'pairing') {
      void this.hello(this.generation);
    }
  }

  /** onStatus calls cb on every status change; it returns an unsubscribe function. */
  onStatus(cb: (s: Status) => void): () => void {
    this.statusListeners.add(cb);
    return () => this.statusListeners.delete(cb);
  }

  /** onNotification calls cb for each notification from the app; it returns an unsubscribe function. */
  onNotification(cb: (method: string, params: unknown) => void): () => void {
    this.notificationListeners.add(cb);
    return () => this.notificationListeners.delete(cb);
  }

  /**
   * onRequest sets what answers the app's own requests (PROTOCOL.md §4.3);
   * without one they are answered METHOD_NOT_FOUND.
   */
  onRequest(h: RequestHandler): void {
    this.requestHandler = h;
  }

  /** notify sends a notification to the app; it is dropped while no session is open. */
  notify(method: string, params: unknown): void {
    if (this.current.state !== 'connected' || this.port === null) return;
    try {
      this.port.postMessage({ jsonrpc: '2.0', method, params });
    } catch {
      // A port closing right now: its onDisconnect reconnects.
    }
  }

  private async answer(port: PortLike, id: string, method: string, params: unknown): Promise<void> {
    let reply: unknown;
    try {
      if (this.requestHandler === null) throw new RpcError('METHOD_NOT_FOUND', `unknown method ${method}`, -32601);
      reply = { jsonrpc: '2.0', id, result: (await this.requestHandler(method, params)) ?? {} };
    } catch (e) {
      const code = e instanceof RpcError ? e.code : typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : 'INTERNAL';
      const rpcCode = e instanceof RpcError && e.rpcCode !== 0 ? e.rpcCode : -32603;
      reply = { jsonrpc: '2.0', id, error: { code: rpcCode, message: e instanceof Error ? e.message : String(e), data: { code } } };
    }
    try {
      port.postMessage(reply);
    } catch {
      // The port closed meanwhile; the app has dropped the request with it.
    }
  }

  /**
   * call sends one request to the app and resolves with its result. It is the
   * only way to reach the app: it rejects with RpcError (NOT_CONNECTED when no
   * session is open, TIMEOUT, DISCONNECTED, or the app's own error code).
   */
  call(method: string, params?: unknown, timeoutMs = this.opts.callTimeoutMs): Promise<unknown> {
    if (this.current.state === 'unpaired' || this.current.state === 'pairing') {
      return Promise.reject(new RpcError(Codes.NotPaired, 'this browser is not paired with the Tessera app'));
    }
    if (this.current.state !== 'connected') {
      return Promise.reject(new RpcError(Codes.NotConnected, `not connected to the Tessera app (${this.current.state})`));
    }
    return this.send(method, params, timeoutMs);
  }

  private send(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    const port = this.port;
    if (port === null) {
      return Promise.reject(new RpcError(Codes.NotConnected, 'no native port'));
    }
    const id = String(++this.seq);
    const req: RpcRequest = { jsonrpc: '2.0', id, method };
    if (params !== undefined) req.params = params;
    // Over the app's limit the host would close the connection unread
    // (PROTOCOL.md §1), so such a request is refused here instead.
    const text = JSON.stringify(req);
    // A UTF-16 unit takes at most 3 bytes: short requests need no count.
    const bytes = text.length * 3 <= MAX_REQUEST_BYTES ? text.length : utf8Length(text);
    if (bytes > MAX_REQUEST_BYTES) {
      return Promise.reject(
        new RpcError(Codes.TooLarge, `${method}: ${(bytes / 1048576).toFixed(1)} MiB is over the 8 MiB a request may take`),
      );
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcError(Codes.Timeout, `${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        port.postMessage(req);
      } catch (e) {
        // postMessage throws on a port that has just been closed.
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new RpcError(Codes.Disconnected, `${method}: ${String(e)}`));
      }
    });
  }

  private open(): void {
    const gen = ++this.generation;
    this.setStatus({ state: 'connecting' });
    let port: PortLike;
    try {
      port = this.deps.connect();
    } catch (e) {
      this.dropped(gen, String(e));
      return;
    }
    this.port = port;
    port.onMessage.addListener((msg) => {
      if (gen === this.generation) this.receive(msg);
    });
    port.onDisconnect.addListener(() => {
      // lastError must be read inside the listener or Chromium logs it as unchecked.
      const err = this.deps.lastError(port);
      if (gen === this.generation) this.dropped(gen, err);
    });
    void this.hello(gen);
  }

  private async hello(gen: number): Promise<void> {
    let result: unknown;
    try {
      result = await this.send(
        'session.hello',
        { protocol: [...PROTOCOL_VERSIONS], client: this.deps.client },
        this.opts.helloTimeoutMs,
      );
    } catch (e) {
      if (gen !== this.generation || !(e instanceof RpcError) || e.code === Codes.Disconnected) return;
      switch (e.code) {
        case Codes.AppUnavailable:
          // The host stays up and retries the app on our next request.
          this.setStatus({ state: 'app-unavailable', detail: e.message });
          this.scheduleRetry(() => {
            if (gen === this.generation) void this.hello(gen);
          });
          return;
        case Codes.ProtocolUnsupported:
          this.setStatus({ state: 'incompatible', detail: e.message });
          this.closePort();
          return;
        default:
          this.setStatus({ state: 'disconnected', detail: e.message });
          this.closePort();
          this.scheduleRetry(() => this.open());
          return;
      }
    }
    if (gen !== this.generation) return;
    if (!isHelloResult(result)) {
      this.setStatus({ state: 'incompatible', detail: 'the app answered session.hello with an unknown shape' });
      this.closePort();
      return;
    }
    this.attempt = 0;
    const base = { app: result.app, vault: result.vault.state, session: result.session };
    const challenge = typeof result.challenge === 'string' ? fromB64(result.challenge) : null;
    if (this.deps.pairing === undefined || challenge === null || challenge.length < 16) {
      this.setStatus({ state: 'connected', ...base });
      return;
    }
    this.session = { gen, base, challenge };
    await this.pair(false);
  }

  /** pairNow asks the person in the app to pair this install (the popup's "Pair" button). */
  pairNow(): void {
    if (this.current.state === 'unpaired' && this.session?.gen === this.generation) void this.pair(true);
  }

  /**
   * pair proves this install's key for the open session; when the app does
   * not know the key, it asks the person to pair, unless ask is false and
   * the person has already answered (declined, or unpaired it since).
   */
  private async pair(ask: boolean): Promise<void> {
    const s = this.session;
    const p = this.deps.pairing;
    if (s === null || p === undefined) return;
    const still = (): boolean => s.gen === this.generation && this.session === s;
    let proof: PairProof;
    try {
      proof = await p.proof(s.challenge, s.base.session!);
    } catch (e) {
      if (still()) this.setStatus({ state: 'unpaired', ...s.base, detail: `this browser cannot keep Tessera's pairing key: ${String(e)}` });
      return;
    }
    if (!ask) {
      try {
        await this.send('pair.prove', proof, this.opts.callTimeoutMs);
        if (!still()) return;
        await p.setState('paired');
        this.setStatus({ state: 'connected', ...s.base });
        return;
      } catch (e) {
        if (!still()) return;
        if (!(e instanceof RpcError) || e.code !== Codes.NotPaired) {
          this.pairFailed(e);
          return;
        }
      }
      const known = await p.state();
      if (known === 'paired' || known === 'declined') {
        const detail = known === 'paired' ? 'This browser was unpaired in the Tessera app.' : 'Pairing was declined in the Tessera app.';
        if (still()) this.setStatus({ state: 'unpaired', ...s.base, detail });
        return;
      }
    }
    const code = await p.code(s.challenge);
    if (!still()) return;
    this.setStatus({ state: 'pairing', ...s.base, code });
    try {
      await this.send('pair.request', proof, PAIR_TIMEOUT_MS);
      if (!still()) return;
      await p.setState('paired');
      this.setStatus({ state: 'connected', ...s.base });
    } catch (e) {
      if (!still()) return;
      if (!(e instanceof RpcError) || e.code !== Codes.NotPaired) {
        this.pairFailed(e);
        return;
      }
      await p.setState(e.data?.reason === 'denied' ? 'declined' : 'asked');
      if (still()) this.setStatus({ state: 'unpaired', ...s.base, detail: e.message });
    }
  }

  /** pairFailed ends a session whose pairing broke off for another reason than the app's no. */
  private pairFailed(e: unknown): void {
    if (e instanceof RpcError && e.code === Codes.Disconnected) return;
    this.setStatus({ state: 'disconnected', detail: e instanceof Error ? e.message : String(e) });
    this.closePort();
    this.scheduleRetry(() => this.open());
  }

  private receive(msg: unknown): void {
    const m = classify(msg);
    if (m === null) return;
    switch (m.kind) {
      case 'request':
        if (this.current.state === 'connected' && this.port !== null) void this.answer(this.port, m.id, m.method, m.params);
        return;
      case 'notification':
        if (m.method === CHUNK_METHOD) {
          this.chunk(m.params);
          return;
        }
        if (m.method === 'vault.stateChanged' && this.current.state === 'connected') {
          const state = (m.params as { state?: unknown } | null)?.state;
          if (state === 'uninitialized' || state === 'locked' || state === 'unlocked') {
            this.setStatus({ ...this.current, vault: state });
          }
        }
        for (const cb of this.notificationListeners) cb(m.method, m.params);
        return;
      case 'result':
        this.settle(m.id, (p) => p.resolve(m.result));
        return;
      case 'error': {
        const err = RpcError.fromObject(m.error);
        if (m.id === null) {
          // An error without an id is about the connection itself.
          if (err.code === Codes.Forbidden) this.setStatus({ state: 'forbidden', detail: err.message });
          return;
        }
        this.settle(m.id, (p) => p.reject(err));
        return;
      }
    }
  }

  /**
   * chunk collects one piece of a split response; pieces must come in order
   * and belong to a pending request, else the partial response is dropped and
   * the request times out as if never answered.
   */
  private chunk(params: unknown): void {
    if (!isChunk(params) || !this.pending.has(params.id)) return;
    const parts = this.chunks.get(params.id) ?? [];
    if (parts.length !== params.index) {
      this.chunks.delete(params.id);
      return;
    }
    parts.push(params.data);
    if (parts.length < params.count) {
      this.chunks.set(params.id, parts);
      return;
    }
    this.chunks.delete(params.id);
    let whole: unknown;
    try {
      const bytes = Uint8Array.from(atob(parts.join('')), (ch) => ch.charCodeAt(0));
      whole = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      this.settle(params.id, (p) => p.reject(new RpcError(Codes.Internal, 'a split response could not be reassembled')));
      return;
    }
    const inner = classify(whole);
    // Only a response to the same request may arrive this way.
    if (inner !== null && (inner.kind === 'result' || inner.kind === 'error') && inner.id === params.id) this.receive(whole);
  }

  private settle(id: string, f: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    f(p);
  }

  private dropped(gen: number, err: string | undefined): void {
    if (gen !== this.generation) return;
    this.port = null;
    this.session = null;
    this.generation++;
    this.failPending(err ?? 'the native host closed the connection');
    let next: Status;
    if (err !== undefined && NOT_FOUND_RE.test(err)) next = { state: 'not-installed', detail: err };
    else if (err !== undefined && FORBIDDEN_RE.test(err)) next = { state: 'forbidden', detail: err };
    else if (this.current.state === 'forbidden' || this.current.state === 'incompatible') next = this.current;
    else next = { state: 'disconnected', detail: err ?? 'the native host closed the connection' };
    this.setStatus(next);
    this.scheduleRetry(() => this.open());
  }

  private closePort(): void {
    const port = this.port;
    this.port = null;
    this.session = null;
    this.generation++;
    this.failPending('connection closed');
    try {
      port?.disconnect();
    } catch {
      // Already closed: nothing left to release.
    }
  }

  private failPending(why: string): void {
    this.chunks.clear();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new RpcError(Codes.Disconnected, why));
      this.pending.delete(id);
    }
  }

  private scheduleRetry(f: () => void): void {
    this.clearRetry();
    const delay = Math.min(this.opts.backoffBaseMs * 2 ** this.attempt, this.opts.backoffMaxMs);
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      f();
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private setStatus(s: Status): void {
    this.current = s;
    for (const cb of this.statusListeners) cb(s);
  }
}
