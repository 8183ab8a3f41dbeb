import { describe, expect, it, vi } from 'vitest';
import { type HandlerTable, makeRouter } from '../src/background/router';
import { RpcError } from '../src/shared/rpc';

const self = { id: 'mcbhdggcijnkcgnmbmijkpbahglkfaph', origin: 'chrome-extension://mcbhdggcijnkcgnmbmijkpbahglkfaph/' };
const popup = { id: self.id, url: self.origin + 'popup.html' };
const content = { id: self.id, url: 'https://example.org/', tab: { id: 1 } as chrome.tabs.Tab };
const foreign = { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/' };

function setup(reconnect: () => never | { state: 'connected' } = () => ({ state: 'connected' })) {
  const status = vi.fn(() => ({ state: 'connected' as const }));
  const table: HandlerTable = {
    status: { from: ['page', 'content'], handle: status },
    reconnect: { from: ['page'], handle: reconnect },
  };
  return { status, route: makeRouter(self, table) };
}

function send(route: ReturnType<typeof setup>['route'], msg: unknown, sender: chrome.runtime.MessageSender) {
  return new Promise<{ async: boolean; answer: unknown }>((resolve) => {
    let answer: unknown;
    let sync = true;
    const async = route(msg, sender, (a) => {
      answer = a;
      if (!sync) resolve({ async: true, answer });
    });
    sync = false;
    if (!async) resolve({ async, answer });
  });
}

describe('makeRouter', () => {
  it('answers our own pages', async () => {
    const { route, status } = setup();
    expect(await send(route, { type: 'status' }, popup)).toEqual({ async: true, answer: { state: 'connected' } });
    expect(status).toHaveBeenCalledOnce();
  });

  it('drops foreign senders before looking at the message', async () => {
    const { route, status } = setup();
    const msg = { get type(): string { throw new Error('message was read'); } };
    expect(await send(route, msg, foreign)).toEqual({ async: false, answer: undefined });
    expect(status).not.toHaveBeenCalled();
  });

  it('refuses a type the sender may not use', async () => {
    const { route } = setup();
    const got = await send(route, { type: 'reconnect' }, content);
    expect(got.answer).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('refuses unknown and inherited types', async () => {
    const { route } = setup();
    for (const type of ['bogus', 'toString', '__proto__', 42]) {
      const got = await send(route, { type }, popup);
      expect(got.answer, `type ${String(type)}`).toMatchObject({ error: { code: 'UNKNOWN_MESSAGE' } });
    }
  });

  it('turns a handler error into a failure with its code', async () => {
    const { route } = setup(() => {
      throw new RpcError('APP_UNAVAILABLE', 'not running');
    });
    const got = await send(route, { type: 'reconnect' }, popup);
    expect(got.answer).toEqual({ error: { code: 'APP_UNAVAILABLE', message: 'not running' } });
  });
});
