/** A fake native port for NativeClient tests. */
import type { NativeDeps, PortLike } from '../src/shared/native';

export class FakePort implements PortLike {
  sent: any[] = [];
  closed = false;
  private msgCbs: ((m: unknown) => void)[] = [];
  private discCbs: (() => void)[] = [];
  onMessage = { addListener: (cb: (m: unknown) => void) => void this.msgCbs.push(cb) };
  onDisconnect = { addListener: (cb: () => void) => void this.discCbs.push(cb) };
  postMessage(m: unknown): void {
    if (this.closed) throw new Error('Attempting to use a disconnected port object');
    this.sent.push(m);
  }
  disconnect(): void {
    this.closed = true;
  }
  /** deliver simulates a message from the host. */
  deliver(m: unknown): void {
    for (const cb of this.msgCbs) cb(m);
  }
  /** drop simulates the browser closing the port, with lastError set to err. */
  drop(env: FakeEnv, err?: string): void {
    this.closed = true;
    env.lastErr = err;
    for (const cb of this.discCbs) cb();
    env.lastErr = undefined;
  }
  /** last returns the last request sent. */
  last(): any {
    return this.sent[this.sent.length - 1];
  }
}

export class FakeEnv {
  ports: FakePort[] = [];
  lastErr: string | undefined;
  deps: NativeDeps = {
    connect: () => {
      const p = new FakePort();
      this.ports.push(p);
      return p;
    },
    lastError: () => this.lastErr,
    client: { kind: 'browser', name: 'chromium', version: '156.0', extension: '0.1.0' },
  };
  get port(): FakePort {
    return this.ports[this.ports.length - 1]!;
  }
}

export const HELLO_OK = {
  protocol: 1,
  app: { name: 'tessera', version: '0.1.0-dev' },
  vault: { state: 'locked' },
  session: 's1',
};

export function result(id: string, r: unknown) {
  return { jsonrpc: '2.0', id, result: r };
}

export function error(id: string | null, code: string, message = code, rpcCode = -32000) {
  return { jsonrpc: '2.0', id, error: { code: rpcCode, message, data: { code } } };
}
