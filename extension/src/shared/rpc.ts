/**
 * Wire protocol v1 between the extension and the Tessera app (through the
 * native host): JSON-RPC 2.0 with string ids. See nativemsg/PROTOCOL.md.
 */

/** PROTOCOL_VERSIONS lists the protocol versions this extension speaks. */
export const PROTOCOL_VERSIONS = [1] as const;

/** HOST_NAME is the native-messaging host the extension connects to. */
export const HOST_NAME = 'dev.tessera.host';

/** VaultState is the app's vault state as reported by session.hello. */
export type VaultState = 'uninitialized' | 'locked' | 'unlocked';

/** HelloResult is the result of session.hello. */
export interface HelloResult {
  protocol: number;
  app: { name: string; version: string };
  vault: { state: VaultState };
  session: string;
  /** challenge is the session's pairing challenge (base64), for a verified browser session. */
  challenge?: string;
}

/** RpcRequest is a request the extension sends. */
export interface RpcRequest {
  jsonrpc: '2.0';
  id: string;
  method: string;
  params?: unknown;
}

/** RpcErrorObject is the error member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { code?: string; [k: string]: unknown };
}

/** Incoming is a classified message from the host. */
export type Incoming =
  | { kind: 'result'; id: string; result: unknown }
  | { kind: 'error'; id: string | null; error: RpcErrorObject }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'request'; id: string; method: string; params: unknown };

/**
 * Error codes (the string codes of error.data.code) the extension acts on.
 * The full, append-only table is in nativemsg/PROTOCOL.md.
 */
export const Codes = {
  AppUnavailable: 'APP_UNAVAILABLE',
  Forbidden: 'FORBIDDEN',
  ProtocolUnsupported: 'PROTOCOL_UNSUPPORTED',
  /** Timeout is local: no answer within the call's deadline. */
  Timeout: 'TIMEOUT',
  /** Disconnected is local: the port closed before the answer came. */
  Disconnected: 'DISCONNECTED',
  /** Internal is the app's INTERNAL, also used locally for a response that cannot be decoded. */
  Internal: 'INTERNAL',
  /** NotConnected is local: a call was made while no session was open. */
  NotConnected: 'NOT_CONNECTED',
  /** TooLarge is the app's TOO_LARGE, also used locally for a request the extension refuses to send (over 8 MiB). */
  TooLarge: 'TOO_LARGE',
  VaultLocked: 'VAULT_LOCKED',
  VaultUninitialized: 'VAULT_UNINITIALIZED',
  Declined: 'DECLINED',
  /** NotPaired: this install has not proven a key the person paired (PROTOCOL.md §2.1). */
  NotPaired: 'NOT_PAIRED',
} as const;

/** RpcError is how a failed native call rejects. */
export class RpcError extends Error {
  /** code is the protocol's string code (error.data.code), or a local one. */
  readonly code: string;
  /** rpcCode is the numeric JSON-RPC code, 0 for local errors. */
  readonly rpcCode: number;
  /** data is the wire error's data member (DECLINED carries data.reason), when there was one. */
  readonly data: RpcErrorObject['data'];

  constructor(code: string, message: string, rpcCode = 0, data?: RpcErrorObject['data']) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.rpcCode = rpcCode;
    this.data = data;
  }

  /** fromObject converts a wire error object; a missing string code becomes INTERNAL. */
  static fromObject(e: RpcErrorObject): RpcError {
    const code = typeof e.data?.code === 'string' ? e.data.code : 'INTERNAL';
    return new RpcError(code, e.message, e.code, e.data);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isErrorObject(v: unknown): v is RpcErrorObject {
  return isObject(v) && typeof v.code === 'number' && typeof v.message === 'string';
}

/**
 * classify checks a message from the host and says what it is; anything that
 * is not a well-formed JSON-RPC 2.0 response or notification yields null, so
 * a misbehaving host cannot resolve a call with garbage.
 */
export function classify(msg: unknown): Incoming | null {
  if (!isObject(msg) || msg.jsonrpc !== '2.0') return null;
  if ('method' in msg) {
    if (typeof msg.method !== 'string') return null;
    // The app's own requests to the browser (PROTOCOL.md §4.3).
    if ('id' in msg) return typeof msg.id === 'string' ? { kind: 'request', id: msg.id, method: msg.method, params: msg.params } : null;
    return { kind: 'notification', method: msg.method, params: msg.params };
  }
  const id = msg.id;
  if ('error' in msg) {
    if ((typeof id !== 'string' && id !== null) || !isErrorObject(msg.error)) return null;
    return { kind: 'error', id, error: msg.error };
  }
  if ('result' in msg && typeof id === 'string') {
    return { kind: 'result', id, result: msg.result };
  }
  return null;
}

/** isHelloResult reports whether v is a usable session.hello result. */
export function isHelloResult(v: unknown): v is HelloResult {
  if (!isObject(v) || !isObject(v.app) || !isObject(v.vault)) return false;
  return (
    (PROTOCOL_VERSIONS as readonly number[]).includes(v.protocol as number) &&
    typeof v.app.name === 'string' &&
    typeof v.app.version === 'string' &&
    ['uninitialized', 'locked', 'unlocked'].includes(v.vault.state as string) &&
    typeof v.session === 'string'
  );
}
