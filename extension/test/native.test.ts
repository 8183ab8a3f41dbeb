import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NativeClient } from '../src/shared/native';
import { FakeEnv, HELLO_OK, error, result } from './fakeport';

const NOT_FOUND = 'Specified native messaging host not found.';
const FORBIDDEN = 'Access to the specified native messaging host is forbidden.';

let env: FakeEnv;
let c: NativeClient;

beforeEach(() => {
  vi.useFakeTimers();
  env = new FakeEnv();
  c = new NativeClient(env.deps, { backoffBaseMs: 100, backoffMaxMs: 1000, callTimeoutMs: 5000, helloTimeoutMs: 8000 });
});
afterEach(() => vi.useRealTimers());

async function connect(): Promise<void> {
  c.start();
  env.port.deliver(result(env.port.last().id, HELLO_OK));
  await vi.advanceTimersByTimeAsync(0);
}

describe('NativeClient', () => {
  it('says hello first and is connected with the app and vault state', async () => {
    c.start();
    expect(c.status.state).toBe('connecting');
    const hello = env.port.sent[0];
    expect(hello).toEqual({
      jsonrpc: '2.0',
      id: hello.id,
      method: 'session.hello',
      params: { protocol: [1], client: env.deps.client },
    });
    expect(typeof hello.id).toBe('string');
    env.port.deliver(result(hello.id, HELLO_OK));
    await vi.advanceTimersByTimeAsync(0);
    expect(c.status).toEqual({ state: 'connected', app: HELLO_OK.app, vault: 'locked', session: 's1' });
  });

  it('refuses calls before the session is open', async () => {
    c.start();
    await expect(c.call('session.ping', {})).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    expect(env.port.sent).toHaveLength(1);
  });

  it('correlates answers by id, in any order', async () => {
    await connect();
    const a = c.call('session.ping', { payload: 'a' });
    const idA = env.port.last().id;
    const b = c.call('session.ping', { payload: 'b' });
    const idB = env.port.last().id;
    expect(idA).not.toBe(idB);
    env.port.deliver(result(idB, 'B'));
    env.port.deliver(result(idA, 'A'));
    await expect(a).resolves.toBe('A');
    await expect(b).resolves.toBe('B');
  });

  it('rejects with the string code of an error answer', async () => {
    await connect();
    const p = c.call('vault.open');
    env.port.deliver(error(env.port.last().id, 'VAULT_LOCKED', 'vault is locked', -32010));
    await expect(p).rejects.toMatchObject({ code: 'VAULT_LOCKED', rpcCode: -32010, message: 'vault is locked' });
  });

  it('keeps the error data (DECLINED carries the reason)', async () => {
    await connect();
    const p = c.call('fill.request', {});
    env.port.deliver({ jsonrpc: '2.0', id: env.port.last().id, error: { code: -32028, message: 'declined', data: { code: 'DECLINED', reason: 'timeout' } } });
    await expect(p).rejects.toMatchObject({ code: 'DECLINED', data: { reason: 'timeout' } });
  });

  // The host closes the connection unread on a frame over 8 MiB (PROTOCOL.md §1).
  it('refuses to send a request over 8 MiB, and the session stays usable', async () => {
    await connect();
    const sentBefore = env.port.sent.length;
    // 3 MiB of "é" is 6 MiB of UTF-8 plus 3 MiB of ASCII: over the limit only when counted in bytes.
    const big = { html: 'é'.repeat(3 * 1024 * 1024) + 'x'.repeat(3 * 1024 * 1024) };
    await expect(c.call('fill.request', big)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(env.port.sent.length).toBe(sentBefore);
    expect(env.port.closed).toBe(false);
    const ok = c.call('session.ping', { payload: 'x'.repeat(7 * 1024 * 1024) });
    expect(env.port.sent.length).toBe(sentBefore + 1);
    env.port.deliver(result(env.port.last().id, {}));
    await expect(ok).resolves.toEqual({});
  }, 60_000);

  it('times out a call and ignores its late answer', async () => {
    await connect();
    const p = c.call('session.ping', {});
    const id = env.port.last().id;
    const done = expect(p).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(5000);
    await done;
    env.port.deliver(result(id, 'late'));
    expect(c.status.state).toBe('connected');
  });

  it('ignores malformed messages from the host', async () => {
    await connect();
    const p = c.call('session.ping', {});
    const id = env.port.last().id;
    // Regression guard: a numeric id must not match the string id "2".
    env.port.deliver({ jsonrpc: '2.0', id: Number(id), result: 'wrong' });
    env.port.deliver({ id, result: 'no version' });
    env.port.deliver('garbage');
    env.port.deliver(null);
    env.port.deliver(result(id, 'right'));
    await expect(p).resolves.toBe('right');
  });

  it('fails pending calls when the port drops, then reconnects with backoff', async () => {
    await connect();
    const p = c.call('session.ping', {});
    env.port.drop(env, 'Native host has exited.');
    await expect(p).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(c.status.state).toBe('disconnected');
    expect(env.ports).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(env.ports).toHaveLength(2);
    expect(env.port.last().method).toBe('session.hello');
  });

  it('reports not-installed and backs off exponentially up to the cap', async () => {
    const gaps: number[] = [];
    let last = Date.now();
    c.start();
    for (let i = 0; i < 7; i++) {
      env.port.drop(env, NOT_FOUND);
      expect(c.status.state).toBe('not-installed');
      const n = env.ports.length;
      while (env.ports.length === n) await vi.advanceTimersByTimeAsync(50);
      gaps.push(Date.now() - last);
      last = Date.now();
    }
    expect(gaps).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('understands Firefox wording', async () => {
    c.start();
    env.port.drop(env, 'No such native application dev.tessera.host');
    expect(c.status.state).toBe('not-installed');
  });

  it('reports forbidden, from the browser or from the host', async () => {
    c.start();
    env.port.drop(env, FORBIDDEN);
    expect(c.status.state).toBe('forbidden');

    await vi.advanceTimersByTimeAsync(100);
    env.port.deliver(error(null, 'FORBIDDEN', 'origin not allowed', -32006));
    expect(c.status.state).toBe('forbidden');
    env.port.drop(env, 'Native host has exited.');
    expect(c.status.state).toBe('forbidden');
  });

  it('reports app-unavailable and says hello again on the same port', async () => {
    c.start();
    env.port.deliver(error(env.port.last().id, 'APP_UNAVAILABLE', 'the Tessera app is not running', -32005));
    await vi.advanceTimersByTimeAsync(0);
    expect(c.status.state).toBe('app-unavailable');
    await vi.advanceTimersByTimeAsync(100);
    expect(env.ports).toHaveLength(1);
    expect(env.port.sent).toHaveLength(2);
    env.port.deliver(result(env.port.last().id, HELLO_OK));
    await vi.advanceTimersByTimeAsync(0);
    expect(c.status.state).toBe('connected');
  });

  it('resets the backoff after a successful hello', async () => {
    c.start();
    env.port.drop(env, NOT_FOUND);
    await vi.advanceTimersByTimeAsync(100);
    env.port.drop(env, NOT_FOUND);
    await vi.advanceTimersByTimeAsync(200);
    env.port.deliver(result(env.port.last().id, HELLO_OK));
    await vi.advanceTimersByTimeAsync(0);
    env.port.drop(env, 'Native host has exited.');
    await vi.advanceTimersByTimeAsync(100);
    expect(env.ports).toHaveLength(4);
  });

  it('retryNow skips the backoff', async () => {
    c.start();
    env.port.drop(env, NOT_FOUND);
    c.retryNow();
    expect(env.ports).toHaveLength(2);
  });

  it('is incompatible when hello answers with an unknown shape', async () => {
    c.start();
    const port = env.port;
    port.deliver(result(port.last().id, { protocol: 2, app: {}, vault: {}, session: 1 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(c.status.state).toBe('incompatible');
    expect(port.closed).toBe(true);
  });

  it('follows vault.stateChanged notifications and passes them on', async () => {
    const seen: string[] = [];
    c.onNotification((m) => seen.push(m));
    await connect();
    env.port.deliver({ jsonrpc: '2.0', method: 'vault.stateChanged', params: { state: 'unlocked' } });
    expect(c.status.vault).toBe('unlocked');
    env.port.deliver({ jsonrpc: '2.0', method: 'vault.stateChanged', params: { state: 'bogus' } });
    expect(c.status.vault).toBe('unlocked');
    expect(seen).toEqual(['vault.stateChanged', 'vault.stateChanged']);
  });

  it('ignores events from a port it has replaced', async () => {
    c.start();
    const old = env.port;
    old.drop(env, 'Native host has exited.');
    await vi.advanceTimersByTimeAsync(100);
    old.deliver(result(old.sent[0].id, HELLO_OK));
    expect(c.status.state).toBe('connecting');
  });

  it('notifies status listeners until unsubscribed', async () => {
    const states: string[] = [];
    const off = c.onStatus((s) => states.push(s.state));
    await connect();
    off();
    env.port.drop(env, 'x');
    expect(states).toEqual(['connecting', 'connected']);
  });
});

describe('NativeClient split responses', () => {
  function pieces(id: string, response: unknown, size: number) {
    const bytes = new TextEncoder().encode(JSON.stringify(response));
    const b64 = btoa(String.fromCharCode(...bytes));
    const parts: string[] = [];
    // Split on raw-byte boundaries as the app does (multiples of 3 keep base64 whole).
    for (let i = 0; i < b64.length; i += size * 4) parts.push(b64.slice(i, i + size * 4));
    return parts.map((data, index) => ({
      jsonrpc: '2.0',
      method: 'session.chunk',
      params: { id, index, count: parts.length, data },
    }));
  }

  it('reassembles session.chunk pieces into the response, UTF-8 intact', async () => {
    await connect();
    const call = c.call('session.ping', { payload: 'x' });
    const id = env.port.last().id;
    const payload = 'é€'.repeat(50);
    for (const p of pieces(id, result(id, { payload }), 9)) env.port.deliver(p);
    await expect(call).resolves.toEqual({ payload });
  });

  it('ignores pieces out of order or for requests not pending', async () => {
    await connect();
    const call = c.call('session.ping', {}, 1000);
    const id = env.port.last().id;
    const ps = pieces(id, result(id, { payload: 'abcdefghijklmnop' }), 3);
    expect(ps.length).toBeGreaterThan(2);
    env.port.deliver(ps[1]);
    env.port.deliver(ps[0]);
    for (const p of pieces('999', result('999', 'other'), 3)) env.port.deliver(p);
    const settled = expect(call).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(1001);
    await settled;
  });

  it('rejects a split response that is not valid JSON', async () => {
    await connect();
    const call = c.call('session.ping', {});
    const id = env.port.last().id;
    env.port.deliver({ jsonrpc: '2.0', method: 'session.chunk', params: { id, index: 0, count: 1, data: btoa('{nope') } });
    await expect(call).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});

describe('NativeClient, the app asking (PROTOCOL.md §4.3)', () => {
  it('answers an app request with the handler result, and an error with its code', async () => {
    c.onRequest(async (method, params) => {
      if (method === 'browser.tabs') return { tabs: [], echo: params };
      throw Object.assign(new Error('no such tab'), { code: 'NOT_FOUND' });
    });
    await connect();
    env.port.deliver({ jsonrpc: '2.0', id: 'a1', method: 'browser.tabs', params: { x: 1 } });
    env.port.deliver({ jsonrpc: '2.0', id: 'a2', method: 'browser.snapshot', params: { tab: 9 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(env.port.sent).toContainEqual({ jsonrpc: '2.0', id: 'a1', result: { tabs: [], echo: { x: 1 } } });
    expect(env.port.sent).toContainEqual({ jsonrpc: '2.0', id: 'a2', error: { code: -32603, message: 'no such tab', data: { code: 'NOT_FOUND' } } });
  });

  it('answers METHOD_NOT_FOUND without a handler, and nothing before hello', async () => {
    c.start();
    env.port.deliver({ jsonrpc: '2.0', id: 'a0', method: 'browser.tabs' });
    await vi.advanceTimersByTimeAsync(0);
    expect(env.port.sent.filter((m) => m.id === 'a0')).toHaveLength(0);
    env.port.deliver(result(env.port.sent[0].id, HELLO_OK));
    await vi.advanceTimersByTimeAsync(0);
    env.port.deliver({ jsonrpc: '2.0', id: 'a1', method: 'browser.tabs' });
    await vi.advanceTimersByTimeAsync(0);
    expect(env.port.last()).toMatchObject({ id: 'a1', error: { data: { code: 'METHOD_NOT_FOUND' } } });
  });

  it('sends notifications only while connected', async () => {
    c.notify('browser.changed', { tab: 1 });
    await connect();
    c.notify('browser.changed', { tab: 2 });
    expect(env.port.sent.filter((m) => m.method === 'browser.changed')).toEqual([{ jsonrpc: '2.0', method: 'browser.changed', params: { tab: 2 } }]);
  });
});
