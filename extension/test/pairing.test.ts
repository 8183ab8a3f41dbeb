import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NativeClient } from '../src/shared/native';
import { type InstallStore, Pairing, type StoredInstall, fromB64, pairCode, pairMessage } from '../src/shared/pairing';
import { FakeEnv, HELLO_OK, error, result } from './fakeport';

/** memStore is the install's record in memory, as IndexedDB keeps it. */
function memStore(): InstallStore & { rec?: StoredInstall } {
  const s: InstallStore & { rec?: StoredInstall } = {
    load: async () => s.rec,
    save: async (r) => {
      s.rec = r;
    },
  };
  return s;
}

describe('pairCode', () => {
  it('is the code the app computes (app TestPairCodeVector)', async () => {
    const challenge = new Uint8Array(32).fill(7);
    const key = new Uint8Array(65).fill(9);
    key[0] = 4;
    expect(await pairCode(challenge, key)).toBe('918 152');
  });
});

describe('Pairing', () => {
  it('keeps one non-extractable P-256 key and signs the session challenge with it', async () => {
    const store = memStore();
    const p = new Pairing(store);
    const challenge = crypto.getRandomValues(new Uint8Array(32));
    const proof = await p.proof(challenge, 's7');
    const raw = fromB64(proof.key)!;
    expect(raw.length).toBe(65);
    expect(store.rec?.keys.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('pkcs8', store.rec!.keys.privateKey)).rejects.toThrow();
    const pub = await crypto.subtle.importKey('raw', raw, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const sig = fromB64(proof.signature)!;
    expect(sig.length).toBe(64);
    const ok = (c: Uint8Array, sid: string) => crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pub, sig, pairMessage(c, sid));
    expect(await ok(challenge, 's7')).toBe(true);
    expect(await ok(challenge, 's8')).toBe(false);
    // The same key next time, from the store.
    const again = await new Pairing(store).proof(challenge, 's7');
    expect(again.key).toBe(proof.key);
  });
});

const CHALLENGE = btoa(String.fromCharCode(...new Uint8Array(32).fill(3)));
const HELLO = { ...HELLO_OK, challenge: CHALLENGE };

/** The real setTimeout, kept before any test fakes the timers. */
const realSetTimeout = globalThis.setTimeout;

describe('NativeClient pairing', () => {
  let env: FakeEnv;
  let store: ReturnType<typeof memStore>;
  let c: NativeClient;
  beforeEach(() => {
    vi.useFakeTimers();
    env = new FakeEnv();
    store = memStore();
    env.deps.pairing = new Pairing(store);
    c = new NativeClient(env.deps, { backoffBaseMs: 100, backoffMaxMs: 1000, callTimeoutMs: 5000, helloTimeoutMs: 8000 });
  });
  afterEach(() => vi.useRealTimers());

  // until advances fake time 1 ms at a time, but the key's signatures are
  // real WebCrypto work that finishes in real time: each step also yields
  // to the real event loop, so a loaded machine cannot outrun the 200 fake
  // milliseconds before the signature is ready (at most ~500 fake ms, well
  // under the client's timeouts, and ~6 s of real time).
  async function until(f: () => boolean): Promise<void> {
    for (let i = 0; i < 3000 && !f(); i++) {
      if (i < 200 || i % 10 === 0) await vi.advanceTimersByTimeAsync(1);
      await new Promise((r) => realSetTimeout(r, 2));
    }
    expect(f()).toBe(true);
  }

  async function hello(): Promise<void> {
    c.start();
    env.port.deliver(result(env.port.last().id, HELLO));
    await until(() => env.port.last().method === 'pair.prove');
  }

  it('is connected once it proves a paired key', async () => {
    await hello();
    const prove = env.port.last();
    expect(c.status.state).toBe('connecting');
    await expect(c.call('profile.list')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    env.port.deliver(result(prove.id, { paired: true, id: 'x' }));
    await until(() => c.status.state === 'connected');
    expect(store.rec?.state).toBe('paired');
  });

  it('asks to pair on first use, showing the code the app shows, and is connected when approved', async () => {
    await hello();
    env.port.deliver(error(env.port.last().id, 'NOT_PAIRED'));
    await until(() => env.port.last().method === 'pair.request');
    const req = env.port.last();
    expect(c.status.state).toBe('pairing');
    expect(c.status.code).toBe(await pairCode(fromB64(CHALLENGE)!, fromB64(req.params.key)!));
    expect(req.params).toEqual(env.port.sent.find((m) => m.method === 'pair.prove').params);
    env.port.deliver(result(req.id, { paired: true, id: 'x' }));
    await until(() => c.status.state === 'connected');
  });

  it('stays unpaired when declined, and asks again only from the popup', async () => {
    await hello();
    env.port.deliver(error(env.port.last().id, 'NOT_PAIRED'));
    await until(() => env.port.last().method === 'pair.request');
    env.port.deliver({ jsonrpc: '2.0', id: env.port.last().id, error: { code: -32031, message: 'declined', data: { code: 'NOT_PAIRED', reason: 'denied' } } });
    await until(() => c.status.state === 'unpaired');
    expect(store.rec?.state).toBe('declined');
    await expect(c.call('profile.list')).rejects.toMatchObject({ code: 'NOT_PAIRED' });
    // A new session proves, fails, and does not ask by itself.
    env.port.drop(env);
    await vi.advanceTimersByTimeAsync(200);
    env.port.deliver(result(env.port.last().id, HELLO));
    await until(() => env.port.last().method === 'pair.prove');
    env.port.deliver(error(env.port.last().id, 'NOT_PAIRED'));
    await until(() => c.status.state === 'unpaired');
    const sent = env.port.sent.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(env.port.sent.length).toBe(sent);
    c.pairNow();
    await until(() => env.port.last().method === 'pair.request');
    expect(c.status.state).toBe('pairing');
  });

  it('does not ask again by itself once unpaired in the app', async () => {
    store.rec = undefined;
    await hello();
    env.port.deliver(result(env.port.last().id, { paired: true, id: 'x' }));
    await until(() => c.status.state === 'connected');
    env.port.drop(env);
    await vi.advanceTimersByTimeAsync(200);
    env.port.deliver(result(env.port.last().id, HELLO));
    await until(() => env.port.last().method === 'pair.prove');
    env.port.deliver(error(env.port.last().id, 'NOT_PAIRED'));
    await until(() => c.status.state === 'unpaired');
    expect(c.status.detail).toMatch(/unpaired in the Tessera app/);
    expect(env.port.sent.some((m) => m.method === 'pair.request')).toBe(false);
  });
});
