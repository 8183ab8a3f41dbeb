import { describe, expect, it } from 'vitest';
import { type Caller, Filler, type FrameDriver, type FrameInfo, MAX_CONTINUES } from '../src/background/fill';
import type { FillProgress } from '../src/shared/messages';
import type { ApplyField, ApplyOutcome, FrameCapture } from '../src/shared/messages';
import { RpcError } from '../src/shared/rpc';

/** capture makes a FrameCapture with refs, each "" (visible) unless named in hidden. */
function capture(url: string, refs: string[], hidden: Record<string, string> = {}, html = '<html></html>'): FrameCapture {
  return {
    origin: new URL(url).origin,
    url,
    title: `title of ${url}`,
    nonce: 'N',
    html,
    controls: refs.length,
    values: Object.fromEntries(refs.map((r) => [r, { value: '', checked: false }])),
    hidden: Object.fromEntries(refs.map((r) => [r, hidden[r] ?? ''])),
    shadowRoots: true,
  };
}

/** FakeTab plays the browser side: frames whose captures change as fills apply values. */
class FakeTab implements FrameDriver {
  log: string[] = [];
  frames: FrameInfo[] = [{ frame: 0, parent: -1, document: 'd0' }];
  /** captures[frame] returns that frame's next capture. */
  captures = new Map<number, () => FrameCapture>();
  outcomes: (f: ApplyField) => ApplyOutcome['outcome'] = () => 'filled';

  async list(): Promise<FrameInfo[]> {
    return this.frames.map((f) => ({ ...f }));
  }
  async snapshot(_tab: number, f: FrameInfo): Promise<FrameCapture> {
    this.log.push(`snapshot ${f.frame}`);
    const c = this.captures.get(f.frame);
    if (!c) throw new Error(`frame ${f.frame} unreachable`);
    return c();
  }
  async apply(_tab: number, f: FrameInfo, fields: ApplyField[]): Promise<ApplyOutcome[]> {
    this.log.push(`apply ${f.frame} ${fields.map((x) => `${x.ref}=${x.value}`).join(',')}`);
    return fields.map((x) => ({ ref: x.ref, outcome: this.outcomes(x) }));
  }
}

/** FakeApp answers native calls from a table of method → handler and logs them. */
class FakeApp implements Caller {
  calls: { method: string; params: any }[] = [];
  constructor(
    private readonly log: string[],
    private readonly handlers: Record<string, (params: any) => unknown>,
  ) {}
  async call(method: string, params?: unknown): Promise<unknown> {
    this.calls.push({ method, params });
    this.log.push(method);
    const h = this.handlers[method];
    if (!h) throw new RpcError('METHOD_NOT_FOUND', method);
    return h(params);
  }
}

describe('Filler', () => {
  // Regression (issue 23): values approved for the document measured must
  // name it when applied, whatever the browser can address (Firefox: frame
  // ids only).
  it('applies naming the token of the document each frame measured', async () => {
    const tab = new FakeTab();
    tab.frames = [{ frame: 0, parent: -1 }];
    tab.captures.set(0, () => ({ ...capture('https://shop.example/checkout', ['t1']), doc: 'DOC-A' }));
    const tokens: (string | undefined)[] = [];
    const apply = tab.apply.bind(tab);
    tab.apply = async (t, f, fields) => {
      tokens.push(f.token);
      return apply(t, f, fields);
    };
    const filler = new Filler(new FakeApp(tab.log, {}), tab);
    const round = await filler.measure(1);
    expect(round.infos.get(0)?.token).toBe('DOC-A');
    await filler.applyAll(1, round, [{ frame: 0, ref: 't1', kind: 'text', value: 'Ada' }]);
    expect(tokens).toEqual(['DOC-A']);
    // The token stays in the browser: the app is not sent it.
    expect(JSON.stringify(round.frames)).not.toContain('DOC-A');
  });

  it('requests, applies, continues with new fields, then reports', async () => {
    const tab = new FakeTab();
    let country = '';
    // The country select reveals a region field once filled.
    tab.captures.set(0, () => capture('https://shop.example/checkout', country ? ['t1', 't2', 't3'] : ['t1', 't2']));
    tab.outcomes = (f) => {
      if (f.ref === 't2') country = f.value;
      return 'filled';
    };
    const app = new FakeApp(tab.log, {
      'fill.request': () => ({
        fill: 'f1',
        profile: 'p1',
        fields: [
          { frame: 0, ref: 't1', kind: 'text', value: 'Ada', expect: { name: 'first', id: 'fn', type: 'text' } },
          { frame: 0, ref: 't2', kind: 'select', value: 'US' },
        ],
      }),
      'fill.continue': () => ({ fill: 'f1', fields: [{ frame: 0, ref: 't3', kind: 'select', value: 'CA' }] }),
      'fill.report': () => ({}),
    });
    const progress: FillProgress[] = [];
    const filler = new Filler(app, tab, (p) => progress.push(p));
    const report = await filler.fill(12);

    expect(tab.log).toEqual([
      'snapshot 0',
      'fill.request',
      'apply 0 t1=Ada,t2=US',
      'snapshot 0',
      'fill.continue',
      'apply 0 t3=CA',
      'snapshot 0',
      'fill.report',
    ]);
    const req = app.calls[0]!.params;
    expect(req.page).toEqual({ tab: 12, url: 'https://shop.example/checkout', title: 'title of https://shop.example/checkout' });
    expect(req.frames).toEqual([
      {
        frame: 0,
        parent: -1,
        origin: 'https://shop.example',
        url: 'https://shop.example/checkout',
        nonce: 'N',
        html: '<html></html>',
        controls: 2,
        values: { t1: { value: '', checked: false }, t2: { value: '', checked: false } },
      },
    ]);
    expect(app.calls[1]!.params.fill).toBe('f1');
    expect(app.calls[1]!.params.frames[0].controls).toBe(3);
    const fields = [
      { frame: 0, ref: 't1', outcome: 'filled' },
      { frame: 0, ref: 't2', outcome: 'filled' },
      { frame: 0, ref: 't3', outcome: 'filled' },
    ];
    expect(app.calls[2]!.params).toEqual({ fill: 'f1', fields });
    expect(report).toEqual({ status: 'filled', fill: 'f1', fields });
    expect(progress.map((p) => p.phase)).toEqual(['measuring', 'confirming', 'filling', 'done']);
    expect(filler.last).toEqual({ tab: 12, phase: 'done', report });
  });

  it('continues when a hidden control becomes visible, not for new hidden ones', async () => {
    const tab = new FakeTab();
    let round = 0;
    tab.captures.set(0, () => {
      round++;
      if (round === 1) return capture('https://a.example/', ['t1', 't2'], { t2: 'display-none' });
      if (round === 2) return capture('https://a.example/', ['t1', 't2', 't3'], { t3: 'type-hidden' });
      return capture('https://a.example/', ['t1', 't2', 't3'], { t3: 'type-hidden' });
    });
    const app = new FakeApp(tab.log, {
      'fill.request': () => ({ fill: 'f1', fields: [{ frame: 0, ref: 't1', kind: 'text', value: 'x' }] }),
      'fill.continue': () => ({ fill: 'f1', fields: [] }),
      'fill.report': () => ({}),
    });
    await new Filler(app, tab).fill(1);
    expect(app.calls.map((c) => c.method)).toEqual(['fill.request', 'fill.continue', 'fill.report']);
  });

  it(`continues at most ${MAX_CONTINUES} times`, async () => {
    const tab = new FakeTab();
    let n = 0;
    // Every snapshot shows one more control, and every round fills the newest.
    tab.captures.set(0, () => capture('https://a.example/', Array.from({ length: ++n }, (_, i) => `t${i + 1}`)));
    const newest = () => ({ fill: 'f1', fields: [{ frame: 0, ref: `t${n}`, kind: 'text', value: 'x' }] });
    const app = new FakeApp(tab.log, { 'fill.request': newest, 'fill.continue': newest, 'fill.report': () => ({}) });
    await new Filler(app, tab).fill(1);
    expect(app.calls.filter((c) => c.method === 'fill.continue')).toHaveLength(MAX_CONTINUES);
  });

  it('does not continue when nothing was filled', async () => {
    const tab = new FakeTab();
    let n = 0;
    tab.captures.set(0, () => capture('https://a.example/', Array.from({ length: ++n }, (_, i) => `t${i + 1}`)));
    const app = new FakeApp(tab.log, { 'fill.request': () => ({ fill: 'f1', fields: [] }), 'fill.report': () => ({}) });
    await new Filler(app, tab).fill(1);
    expect(app.calls.map((c) => c.method)).toEqual(['fill.request', 'fill.report']);
  });

  it('declined: nothing applied, nothing reported', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    const app = new FakeApp(tab.log, {
      'fill.request': () => {
        throw new RpcError('DECLINED', 'the person declined', -32028, { code: 'DECLINED', reason: 'timeout' });
      },
    });
    const report = await new Filler(app, tab).fill(1);
    expect(report).toEqual({ status: 'declined', reason: 'timeout', message: 'the person declined', fields: [] });
    expect(tab.log).toEqual(['snapshot 0', 'fill.request']);
  });

  it('locked: asks the app to show its unlock screen and fails with the reason', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    const app = new FakeApp(tab.log, {
      'fill.request': () => {
        throw new RpcError('VAULT_LOCKED', 'vault locked', -32010);
      },
      'vault.unlock': () => ({ state: 'locked', shown: true }),
    });
    const report = await new Filler(app, tab).fill(1);
    expect(report).toMatchObject({ status: 'failed', reason: 'VAULT_LOCKED', fields: [] });
    expect(report.message).toMatch(/unlock it in the Tessera app/);
    expect(tab.log).toEqual(['snapshot 0', 'fill.request', 'vault.unlock']);
  });

  it('sends a value only to refs and frames it measured', async () => {
    const tab = new FakeTab();
    tab.frames.push({ frame: 3, parent: 0, document: 'd3' }, { frame: 5, parent: 0, document: 'd5' });
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    tab.captures.set(3, () => capture('https://b.example/frame', ['t1']));
    // Frame 5 cannot be reached: the app never hears of it.
    const app = new FakeApp(tab.log, {
      'fill.request': () => ({
        fill: 'f1',
        fields: [
          { frame: 0, ref: 't1', kind: 'text', value: 'a' },
          { frame: 0, ref: 't7', kind: 'text', value: 'not measured' },
          { frame: 3, ref: 't1', kind: 'text', value: 'b' },
          { frame: 5, ref: 't1', kind: 'text', value: 'unmeasured frame' },
          { frame: 0, ref: 't1', kind: 'file', value: 'bad kind' },
        ],
      }),
      'fill.report': () => ({}),
    });
    const report = await new Filler(app, tab).fill(1);
    expect(app.calls[0]!.params.frames.map((f: { frame: number; parent: number }) => [f.frame, f.parent])).toEqual([
      [0, -1],
      [3, 0],
    ]);
    expect(tab.log.filter((l) => l.startsWith('apply')).sort()).toEqual(['apply 0 t1=a', 'apply 3 t1=b']);
    expect(report.fields).toEqual([
      { frame: 0, ref: 't1', outcome: 'filled' },
      { frame: 0, ref: 't7', outcome: 'gone' },
      { frame: 3, ref: 't1', outcome: 'filled' },
      { frame: 5, ref: 't1', outcome: 'gone' },
    ]);
  });

  it('leaves out a child frame that would take the request over 8 MiB, fails when the top frame does', async () => {
    const tab = new FakeTab();
    tab.frames.push({ frame: 1, parent: 0 });
    const big = 'x'.repeat(8 * 1024 * 1024);
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    tab.captures.set(1, () => capture('https://a.example/ad', ['t1'], {}, big));
    const app = new FakeApp(tab.log, { 'fill.request': () => ({ fill: 'f1', fields: [] }), 'fill.report': () => ({}) });
    await new Filler(app, tab).fill(1);
    expect(app.calls[0]!.params.frames.map((f: { frame: number }) => f.frame)).toEqual([0]);

    tab.captures.set(0, () => capture('https://a.example/', ['t1'], {}, big));
    const report = await new Filler(app, tab).fill(1);
    expect(report).toMatchObject({ status: 'failed', reason: 'TOO_LARGE' });
  }, 60_000);

  it('leaves out frames the app would refuse: a long data: URL, values over the limit', async () => {
    const tab = new FakeTab();
    tab.frames.push({ frame: 1, parent: 0 }, { frame: 2, parent: 0 }, { frame: 3, parent: 0 });
    const many = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);
    tab.captures.set(0, () => capture('https://a.example/', many(5000)));
    tab.captures.set(1, () => ({ ...capture('https://a.example/', ['t1']), url: 'data:text/html,' + 'x'.repeat(9000) }));
    tab.captures.set(2, () => capture('https://a.example/b', many(5000)));
    tab.captures.set(3, () => capture('https://a.example/c', many(15000)));
    const app = new FakeApp(tab.log, { 'fill.request': () => ({ fill: 'f1', fields: [] }), 'fill.report': () => ({}) });
    await new Filler(app, tab).fill(1);
    expect(app.calls[0]!.params.frames.map((f: { frame: number }) => f.frame)).toEqual([0, 2]);
  }, 60_000);

  it('fails on a page that is not http(s)', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('file:///home/a/form.html', ['t1']));
    const app = new FakeApp(tab.log, {});
    expect(await new Filler(app, tab).fill(1)).toMatchObject({ status: 'failed', reason: 'UNSUPPORTED_PAGE' });
    expect(app.calls).toEqual([]);
  });

  it('fails when the top frame cannot be read, with its reason', async () => {
    const tab = new FakeTab();
    const app = new FakeApp(tab.log, {});
    const report = await new Filler(app, tab).fill(1);
    expect(report.status).toBe('failed');
    expect(app.calls).toEqual([]);
  });

  it('fails when not connected', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    const app = new FakeApp(tab.log, {
      'fill.request': () => {
        throw new RpcError('NOT_CONNECTED', 'not connected');
      },
    });
    expect(await new Filler(app, tab).fill(1)).toMatchObject({ status: 'failed', reason: 'NOT_CONNECTED' });
  });

  it('resolves with a failure when something unexpected throws, and frees the tab', async () => {
    const tab = new FakeTab();
    tab.list = async () => {
      throw new TypeError('boom');
    };
    const app = new FakeApp(tab.log, {});
    const filler = new Filler(app, tab);
    expect(await filler.fill(1)).toMatchObject({ status: 'failed', reason: 'INTERNAL', message: 'boom' });
    tab.list = async () => [{ frame: 0, parent: -1 }];
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    expect(await filler.fill(1)).toMatchObject({ status: 'failed', reason: 'METHOD_NOT_FOUND' });
  });

  it('is not disturbed by a progress watcher that throws (a popup closing)', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    const app = new FakeApp(tab.log, { 'fill.request': () => ({ fill: 'f1', fields: [] }), 'fill.report': () => ({}) });
    const filler = new Filler(app, tab, () => {
      throw new Error('Attempting to use a disconnected port object');
    });
    expect(await filler.fill(1)).toEqual({ status: 'filled', fill: 'f1', fields: [] });
  });

  it('runs one fill per tab at a time', async () => {
    const tab = new FakeTab();
    tab.captures.set(0, () => capture('https://a.example/', ['t1']));
    let approve!: (v: unknown) => void;
    const app = new FakeApp(tab.log, {
      'fill.request': () => new Promise((r) => (approve = r)),
      'fill.report': () => ({}),
    });
    const filler = new Filler(app, tab);
    const a = filler.fill(1);
    const b = filler.fill(1);
    expect(b).toBe(a);
    await new Promise((r) => setTimeout(r, 0));
    approve({ fill: 'f1', fields: [] });
    await a;
    expect(app.calls.filter((c) => c.method === 'fill.request')).toHaveLength(1);
  });

  it('keeps the filled outcomes when the follow-up is declined', async () => {
    const tab = new FakeTab();
    let n = 0;
    tab.captures.set(0, () => capture('https://a.example/', ++n === 1 ? ['t1'] : ['t1', 't2']));
    const app = new FakeApp(tab.log, {
      'fill.request': () => ({ fill: 'f1', fields: [{ frame: 0, ref: 't1', kind: 'text', value: 'a' }] }),
      'fill.continue': () => {
        throw new RpcError('DECLINED', 'no', -32028, { code: 'DECLINED', reason: 'denied' });
      },
      'fill.report': () => ({}),
    });
    const report = await new Filler(app, tab).fill(1);
    expect(report).toEqual({ status: 'filled', fill: 'f1', fields: [{ frame: 0, ref: 't1', outcome: 'filled' }] });
    expect(app.calls.map((c) => c.method)).toEqual(['fill.request', 'fill.continue', 'fill.report']);
  });
});
