import { describe, expect, it } from 'vitest';
import { RpcError, classify, isHelloResult } from '../src/shared/rpc';
import { HELLO_OK } from './fakeport';

describe('classify', () => {
  const cases: { name: string; msg: unknown; want: ReturnType<typeof classify> }[] = [
    { name: 'result', msg: { jsonrpc: '2.0', id: '3', result: { a: 1 } }, want: { kind: 'result', id: '3', result: { a: 1 } } },
    { name: 'null result', msg: { jsonrpc: '2.0', id: '3', result: null }, want: { kind: 'result', id: '3', result: null } },
    {
      name: 'error',
      msg: { jsonrpc: '2.0', id: '4', error: { code: -32601, message: 'no', data: { code: 'METHOD_NOT_FOUND' } } },
      want: { kind: 'error', id: '4', error: { code: -32601, message: 'no', data: { code: 'METHOD_NOT_FOUND' } } },
    },
    {
      name: 'error without id',
      msg: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse' } },
      want: { kind: 'error', id: null, error: { code: -32700, message: 'parse' } },
    },
    {
      name: 'notification',
      msg: { jsonrpc: '2.0', method: 'vault.stateChanged', params: { state: 'locked' } },
      want: { kind: 'notification', method: 'vault.stateChanged', params: { state: 'locked' } },
    },
    { name: 'numeric id', msg: { jsonrpc: '2.0', id: 3, result: 1 }, want: null },
    { name: 'missing version', msg: { id: '3', result: 1 }, want: null },
    // The app's own requests (PROTOCOL.md §4.3) are requests; a numeric id is not one.
    { name: 'request from host', msg: { jsonrpc: '2.0', id: '1', method: 'x' }, want: { kind: 'request', id: '1', method: 'x', params: undefined } },
    { name: 'request with numeric id', msg: { jsonrpc: '2.0', id: 1, method: 'x' }, want: null },
    { name: 'error without message', msg: { jsonrpc: '2.0', id: '1', error: { code: 1 } }, want: null },
    { name: 'array', msg: [], want: null },
    { name: 'string', msg: 'x', want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => expect(classify(tc.msg)).toEqual(tc.want));
  }
});

describe('isHelloResult', () => {
  const cases: { name: string; v: unknown; want: boolean }[] = [
    { name: 'ok', v: HELLO_OK, want: true },
    { name: 'unknown protocol', v: { ...HELLO_OK, protocol: 2 }, want: false },
    { name: 'unknown vault state', v: { ...HELLO_OK, vault: { state: 'open' } }, want: false },
    { name: 'no session', v: { ...HELLO_OK, session: undefined }, want: false },
    { name: 'echoed params', v: { protocol: [1], client: {} }, want: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => expect(isHelloResult(tc.v)).toBe(tc.want));
  }
});

describe('RpcError.fromObject', () => {
  it('uses the string code, or INTERNAL without one', () => {
    expect(RpcError.fromObject({ code: -32010, message: 'm', data: { code: 'VAULT_LOCKED' } }).code).toBe('VAULT_LOCKED');
    expect(RpcError.fromObject({ code: -32603, message: 'm' }).code).toBe('INTERNAL');
  });
});
