import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserFrames, parentOf } from '../src/background/frames';

type Opts = { frameId?: number; documentId?: string };
let sent: { tab: number; msg: unknown; opts: Opts }[];
let injected: unknown[];
let answer: (opts: Opts) => Promise<unknown>;

beforeEach(() => {
  sent = [];
  injected = [];
  vi.stubGlobal('chrome', {
    tabs: {
      sendMessage: (tab: number, msg: unknown, opts: Opts) => {
        sent.push({ tab, msg, opts });
        return answer(opts);
      },
    },
    scripting: { executeScript: async (d: unknown) => void injected.push(d) },
    webNavigation: {
      getAllFrames: async () => [
        { frameId: 0, parentFrameId: -1, documentId: 'D0', errorOccurred: false },
        { frameId: 7, parentFrameId: 0, documentId: 'D7', errorOccurred: false },
        { frameId: 9, parentFrameId: 7, documentId: 'D9', errorOccurred: true },
      ],
      getFrame: async ({ frameId }: { frameId: number }) => (frameId === 7 ? { parentFrameId: 3 } : null),
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('browserFrames', () => {
  it('lists frames with parents, pinned to documents on Chromium only', async () => {
    expect(await browserFrames(true).list(1)).toEqual([
      { frame: 0, parent: -1, document: 'D0' },
      { frame: 7, parent: 0, document: 'D7' },
    ]);
    expect(await browserFrames(false).list(1)).toEqual([
      { frame: 0, parent: -1 },
      { frame: 7, parent: 0 },
    ]);
  });

  it('reports a tab that does not exist as unreachable', async () => {
    (chrome.webNavigation as { getAllFrames: unknown }).getAllFrames = async () => {
      throw new Error('No tab with id: 99.');
    };
    await expect(browserFrames(true).list(99)).rejects.toMatchObject({ name: 'FrameError', code: 'UNREACHABLE' });
  });

  it('asks the document measured, not whatever is in the frame now', async () => {
    answer = async () => [{ ref: 't1', outcome: 'filled' }];
    const got = await browserFrames(true).apply(1, { frame: 7, parent: 0, document: 'D7', token: 'T7' }, [{ ref: 't1', kind: 'text', value: 'x' }]);
    expect(got).toEqual([{ ref: 't1', outcome: 'filled' }]);
    expect(sent).toEqual([{ tab: 1, msg: { type: 'apply', fields: [{ ref: 't1', kind: 'text', value: 'x' }], doc: 'T7' }, opts: { documentId: 'D7' } }]);
  });

  // Regression (issue 23): Firefox has no documentId; the apply names the
  // measured document's token, which only that document's script accepts.
  it('names the document measured where frames are addressed by id only', async () => {
    answer = async () => [{ ref: 't1', outcome: 'filled' }];
    await browserFrames(false).apply(1, { frame: 7, parent: 0, token: 'T7' }, [{ ref: 't1', kind: 'text', value: 'x' }]);
    expect(sent).toEqual([{ tab: 1, msg: { type: 'apply', fields: [{ ref: 't1', kind: 'text', value: 'x' }], doc: 'T7' }, opts: { frameId: 7 } }]);
  });

  it('injects the content script where it is missing, then asks again', async () => {
    let n = 0;
    answer = async () => {
      if (n++ === 0) throw new Error('Could not establish connection. Receiving end does not exist.');
      return { html: '' };
    };
    await browserFrames(false).snapshot(1, { frame: 7, parent: 0 });
    expect(injected).toEqual([{ target: { tabId: 1, frameIds: [7] }, files: ['content.js'] }]);
    expect(sent).toHaveLength(2);
  });

  it('turns a content script failure into a FrameError with its code', async () => {
    answer = async () => ({ error: { code: 'TAMPERED', message: 'the page altered the measurement' } });
    await expect(browserFrames(true).snapshot(1, { frame: 0, parent: -1, document: 'D0' })).rejects.toMatchObject({
      name: 'FrameError',
      code: 'TAMPERED',
    });
  });

  it('reports an unreachable frame', async () => {
    answer = async () => {
      throw new Error('No tab with id: 1.');
    };
    await expect(browserFrames(true).snapshot(1, { frame: 0, parent: -1 })).rejects.toMatchObject({ code: 'UNREACHABLE' });
    expect(injected).toEqual([]);
  });

  it('refuses an apply answer of the wrong shape', async () => {
    answer = async () => ({ not: 'a list' });
    await expect(browserFrames(true).apply(1, { frame: 0, parent: -1 }, [])).rejects.toMatchObject({ code: 'INVALID_ANSWER' });
  });
});

describe('parentOf', () => {
  it('is -1 for the top, the browser’s answer otherwise, 0 when the frame is unknown', async () => {
    expect(await parentOf(1, 0)).toBe(-1);
    expect(await parentOf(1, 7)).toBe(3);
    expect(await parentOf(1, 8)).toBe(0);
  });
});
