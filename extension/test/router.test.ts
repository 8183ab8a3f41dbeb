import { describe, expect, it, vi } from 'vitest';
import { type HandlerTable, makeRouter } from '../src/background/router';
import { RpcError } from '../src/shared/rpc';

const self = { id: 'mcbhdggcijnkcgnmbmijkpbahglkfaph', origin: 'chrome-extension://mcbhdggcijnkcgnmbmijkpbahglkfaph/' };
const popup = { id: self.id, url: self.origin + 'popup.html' };
const content = { id: self.id, url: 'https://example.org/', tab: { id: 1 } as chrome.tabs.Tab };
const foreign = { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/' };

function setup(reconnect: () => never | { state: 'connected' } = () => ({ state: 'connected' })) {
  const status = vi.fn(() => ({ state: 'connected' as const }));
  const fill = vi.fn(() => ({ status: 'filled' as const, fields: [] }));
  const unlock = vi.fn(() => ({ state: 'locked', shown: true }));
  const submitted = vi.fn((_req: unknown, _sender: chrome.runtime.MessageSender) => ({ accepted: true }));
  const table: HandlerTable = {
    status: { from: ['page', 'content'], handle: status },
    reconnect: { from: ['page'], handle: reconnect },
    fill: { from: ['page'], handle: fill },
    unlock: { from: ['page'], handle: unlock },
    pair: { from: ['page'], handle: () => ({ state: 'unpaired' as const }) },
    submitted: { from: ['content'], handle: submitted },
    formspec: { from: ['content', 'page'], handle: vi.fn(() => ({})) },
    toolsChanged: { from: ['content'], handle: () => ({ accepted: true }) },
  };
  return { status, fill, unlock, submitted, route: makeRouter(self, table) };
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

  it('serves fill and unlock to our pages only, never to content scripts', async () => {
    const { route, fill, unlock } = setup();
    for (const msg of [{ type: 'fill', tab: 3 }, { type: 'unlock' }]) {
      const got = await send(route, msg, content);
      expect(got.answer, msg.type).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect(fill).not.toHaveBeenCalled();
    expect(unlock).not.toHaveBeenCalled();
    expect((await send(route, { type: 'fill', tab: 3 }, popup)).answer).toEqual({ status: 'filled', fields: [] });
    expect(fill).toHaveBeenCalledWith({ type: 'fill', tab: 3 }, popup);
  });

  it('takes submitted captures from content scripts only, and hands the handler the sender', async () => {
    const { route, submitted } = setup();
    const msg = { type: 'submitted', frame: {} };
    expect((await send(route, msg, popup)).answer).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await send(route, msg, foreign)).answer).toBeUndefined();
    // A web page's own message (externally_connectable is not declared, but
    // a sender without our ID is what one would look like) is dropped.
    expect((await send(route, msg, { url: 'https://evil.example/', tab: { id: 1 } as chrome.tabs.Tab })).answer).toBeUndefined();
    expect(submitted).not.toHaveBeenCalled();
    expect((await send(route, msg, content)).answer).toEqual({ accepted: true });
    expect(submitted).toHaveBeenCalledWith(msg, content);
  });
});
