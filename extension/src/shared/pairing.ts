/**
 * Pairing this extension install with the Tessera app (PROTOCOL.md §2.1,
 * "Pairing"). The install keeps one ECDSA P-256 key pair, made with
 * WebCrypto and stored in IndexedDB; its private half is not extractable,
 * so neither a page nor this extension's own code can read it out, only
 * sign with it. Every session proves the key by signing the app's random
 * challenge for that session; the first session asks the person in the
 * app to pair, with a six-digit code shown in both places.
 */

/** PairState is what this install knows of its pairing. */
export type PairState =
  /** new: it never asked the person. */
  | 'new'
  /** asked: it asked, and nobody answered (no window, timeout). */
  | 'asked'
  /** paired: the person approved it once. */
  | 'paired'
  /** declined: the person declined; only the popup's button asks again. */
  | 'declined';

/** StoredInstall is the install's record in IndexedDB. */
export interface StoredInstall {
  keys: CryptoKeyPair;
  /** publicRaw is the raw uncompressed public key (65 bytes). */
  publicRaw: ArrayBuffer;
  state: PairState;
}

/** InstallStore keeps the install's record: IndexedDB in the browser, memory in tests. */
export interface InstallStore {
  load(): Promise<StoredInstall | undefined>;
  save(r: StoredInstall): Promise<void>;
}

/** PairProof is the params of pair.prove and pair.request. */
export interface PairProof {
  key: string;
  signature: string;
}

const ALG: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGN: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const SIGN_CONTEXT = 'tessera pair v1';
const CODE_CONTEXT = 'tessera pair code v1';

const enc = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function b64(bytes: ArrayBuffer | Uint8Array): string {
  const u = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (const b of u) s += String.fromCharCode(b);
  return btoa(s);
}

/** fromB64 decodes base64, or returns null when it is not. */
export function fromB64(s: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** pairMessage is what the install signs for session sid with challenge (app/pairing.go). */
export function pairMessage(challenge: Uint8Array, sid: string): Uint8Array<ArrayBuffer> {
  return concat(enc.encode(SIGN_CONTEXT), new Uint8Array([0]), challenge, new Uint8Array([0]), enc.encode(sid));
}

/** pairCode is the six-digit code ("123 456") for key asking to pair in the session with challenge. */
export async function pairCode(challenge: Uint8Array, key: Uint8Array, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const h = new Uint8Array(await subtle.digest('SHA-256', concat(enc.encode(CODE_CONTEXT), new Uint8Array([0]), challenge, key)));
  const n = (((h[0]! << 24) >>> 0) + (h[1]! << 16) + (h[2]! << 8) + h[3]!) % 1_000_000;
  const s = String(n).padStart(6, '0');
  return `${s.slice(0, 3)} ${s.slice(3)}`;
}

/** Pairing holds this install's key and pairing state. */
export class Pairing {
  private record: Promise<StoredInstall> | null = null;

  constructor(
    private readonly store: InstallStore,
    private readonly subtle: SubtleCrypto = crypto.subtle,
  ) {}

  /** install returns the install's record, making the key pair on first use. */
  install(): Promise<StoredInstall> {
    this.record ??= this.loadOrCreate().catch((e: unknown) => {
      this.record = null;
      throw e;
    });
    return this.record;
  }

  private async loadOrCreate(): Promise<StoredInstall> {
    const r = await this.store.load();
    if (r !== undefined) return r;
    // Not extractable: the private key can sign, never be exported.
    const keys = (await this.subtle.generateKey(ALG, false, ['sign', 'verify'])) as CryptoKeyPair;
    const rec: StoredInstall = { keys, publicRaw: await this.subtle.exportKey('raw', keys.publicKey), state: 'new' };
    await this.store.save(rec);
    return rec;
  }

  /** proof signs the session's challenge (base64, from hello) for session sid. */
  async proof(challenge: Uint8Array, sid: string): Promise<PairProof> {
    const r = await this.install();
    const sig = await this.subtle.sign(SIGN, r.keys.privateKey, pairMessage(challenge, sid));
    return { key: b64(r.publicRaw), signature: b64(sig) };
  }

  /** code is the code this install shows while it asks to pair in the session with challenge. */
  async code(challenge: Uint8Array): Promise<string> {
    const r = await this.install();
    return pairCode(challenge, new Uint8Array(r.publicRaw), this.subtle);
  }

  /** state returns what the install knows of its pairing. */
  async state(): Promise<PairState> {
    return (await this.install()).state;
  }

  /** setState records s. */
  async setState(s: PairState): Promise<void> {
    const r = await this.install();
    if (r.state === s) return;
    r.state = s;
    await this.store.save(r);
  }
}

const DB = 'tessera';
const STORE = 'install';
const KEY = 'install';

/** idbInstallStore keeps the install's record in this extension's IndexedDB. */
export function idbInstallStore(idb: IDBFactory = indexedDB): InstallStore {
  const open = (): Promise<IDBDatabase> =>
    new Promise((resolve, reject) => {
      const req = idb.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const run = async <T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    try {
      return await new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = f(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  };
  return {
    load: async () => (await run<StoredInstall | undefined>('readonly', (s) => s.get(KEY))) ?? undefined,
    save: async (r) => {
      await run('readwrite', (s) => s.put(r, KEY));
    },
  };
}
