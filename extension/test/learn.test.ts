import { describe, expect, it } from 'vitest';
import { Learner } from '../src/background/learn';
import type { FrameCapture } from '../src/shared/messages';
import { RpcError } from '../src/shared/rpc';

const cap: FrameCapture = {
  origin: 'https://shop.example',
  url: 'https://shop.example/checkout',
  title: 'Checkout',
  nonce: 'N',
  html: '<html></html>',
  controls: 1,
  values: { t1: { value: 'Ada', checked: false } },
  hidden: { t1: '' },
  shadowRoots: true,
};

function setup(answer: () => Promise<unknown> = async () => ({ saved: 1, asked: true })) {
  const calls: { method: string; params: any }[] = [];
  const learner = new Learner(
    {
      call: (method, params) => {
        calls.push({ method, params });
        return answer();
      },
    },
    async (_tab, frame) => (frame === 0 ? -1 : 2),
  );
  return { calls, learner };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Learner', () => {
  it('sends learn.request with the submitting frame', async () => {
    const { calls, learner } = setup();
    expect(learner.submitted({ tab: { id: 4, url: 'https://shop.example/checkout', title: 'Checkout' }, frameId: 0 }, cap, true)).toEqual({ accepted: true });
    await tick();
    expect(calls).toEqual([
      {
        method: 'learn.request',
        params: {
          page: { tab: 4, url: 'https://shop.example/checkout', title: 'Checkout' },
          frames: [
            {
              frame: 0,
              parent: -1,
              origin: 'https://shop.example',
              url: 'https://shop.example/checkout',
              nonce: 'N',
              html: '<html></html>',
              controls: 1,
              values: { t1: { value: 'Ada', checked: false } },
            },
          ],
          gesture: true,
        },
      },
    ]);
  });

  it('names the top page and the frame parent for a subframe submit', async () => {
    const { calls, learner } = setup();
    learner.submitted({ tab: { id: 4, url: 'https://top.example/', title: 'Top' }, frameId: 9 }, { ...cap, url: 'https://pay.example/f' }, true);
    await tick();
    expect(calls[0]!.params.page).toEqual({ tab: 4, url: 'https://top.example/', title: 'Top' });
    expect(calls[0]!.params.frames[0]).toMatchObject({ frame: 9, parent: 2, url: 'https://pay.example/f' });
  });

  it('one learn per tab at a time, and none for a malformed capture', async () => {
    let decline!: () => void;
    const { calls, learner } = setup(
      () => new Promise((_, reject) => (decline = () => reject(new RpcError('DECLINED', 'no', -32028, { code: 'DECLINED', reason: 'denied' })))),
    );
    const sender = { tab: { id: 4 }, frameId: 0 };
    expect(learner.submitted(sender, cap, true)).toEqual({ accepted: true });
    expect(learner.submitted(sender, cap, true)).toEqual({ accepted: false });
    expect(learner.submitted({ tab: { id: 5 }, frameId: 0 }, { html: 1 }, true)).toEqual({ accepted: false });
    expect(learner.submitted({ frameId: 0 }, cap, true)).toEqual({ accepted: false });
    await tick();
    expect(calls).toHaveLength(1);
    decline();
    await tick();
    expect(learner.submitted(sender, cap, true)).toEqual({ accepted: true });
  });

  // Regression (issue 23): a capture without the content script's word
  // that the person submitted is the page's doing, and asks nothing.
  it('refuses a capture without gesture', async () => {
    const { calls, learner } = setup();
    for (const g of [undefined, false, 'true', 1]) {
      expect(learner.submitted({ tab: { id: 4 }, frameId: 0 }, cap, g)).toEqual({ accepted: false });
    }
    await tick();
    expect(calls).toHaveLength(0);
  });
});
