import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Agents } from '../src/background/agent';

const filler = { measure: vi.fn(), applyAll: vi.fn() };

describe('Agents', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a top page tool change at most once a second per tab, the last of a burst at the end of the gap, never a subframe', () => {
    const sent: unknown[] = [];
    const a = new Agents(filler, (method, params) => sent.push({ method, params }));
    const top = { tab: { id: 4, url: 'https://a.example/' }, frameId: 0 } as chrome.runtime.MessageSender;
    const change = { method: 'browser.changed', params: { tab: 4, url: 'https://a.example/' } };
    expect(a.toolsChanged(top)).toEqual({ accepted: true });
    expect(a.toolsChanged(top)).toEqual({ accepted: false });
    expect(a.toolsChanged(top)).toEqual({ accepted: false });
    expect(a.toolsChanged({ ...top, frameId: 3 })).toEqual({ accepted: false });
    expect(sent).toEqual([change]);
    // The changes that came too soon are told once, when the gap ends.
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([change, change]);
    vi.advanceTimersByTime(5000);
    expect(sent).toEqual([change, change]);
    expect(a.toolsChanged(top)).toEqual({ accepted: true });
    expect(sent).toEqual([change, change, change]);
  });

  it("reports a child frame's navigation under the same bound, never the top frame's (the tab's own)", () => {
    const sent: unknown[] = [];
    const a = new Agents(filler, (method, params) => sent.push({ method, params }));
    expect(a.frameCommitted({ tabId: 4, frameId: 0 })).toBe(false);
    expect(a.frameCommitted({ tabId: -1, frameId: 3 })).toBe(false);
    expect(sent).toEqual([]);
    expect(a.frameCommitted({ tabId: 4, frameId: 3, url: 'https://ads.example/' })).toBe(true);
    expect(a.frameCommitted({ tabId: 4, frameId: 5 })).toBe(false);
    expect(a.frameCommitted({ tabId: 4, frameId: 3 })).toBe(false);
    // A frame's URL is not the tab's: only the tab is told.
    expect(sent).toEqual([{ method: 'browser.changed', params: { tab: 4 } }]);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
    // Another tab has its own bound.
    expect(a.frameCommitted({ tabId: 5, frameId: 2 })).toBe(true);
    expect(sent).toHaveLength(3);
  });

  it('refuses malformed requests from the app before touching the browser', async () => {
    const a = new Agents(filler);
    await expect(a.handle('browser.snapshot', { tab: -1 })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(a.handle('browser.snapshot', null)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(a.handle('browser.apply', { tab: 1, snapshot: 'x9', fields: [] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(a.handle('browser.nope', {})).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND' });
    expect(filler.measure).not.toHaveBeenCalled();
    expect(filler.applyAll).not.toHaveBeenCalled();
  });

  it('runs form tool scripts only in the frame named, on the origin the app approved; registered tools only in the top frame', async () => {
    const frames: Record<number, { url: string; documentId: string }> = {
      0: { url: 'https://shop.example/checkout', documentId: 'D0' },
      5: { url: 'https://pay.example/card', documentId: 'D5' },
    };
    const asked: number[] = [];
    const ran: unknown[] = [];
    vi.stubGlobal('chrome', {
      webNavigation: {
        getFrame: async ({ frameId }: { frameId: number }) => (asked.push(frameId), frames[frameId] ?? null),
        onCommitted: { addListener: () => {}, removeListener: () => {} },
      },
      tabs: { onRemoved: { addListener: () => {}, removeListener: () => {} } },
      scripting: {
        executeScript: async (d: { target: unknown }) => (ran.push(d.target), [{ result: JSON.stringify({ ok: true }) }]),
      },
    });
    try {
      const a = new Agents(filler);
      // A frame's document, pinned, when it is on the origin approved.
      await expect(a.handle('browser.toolevent', { tab: 2, frame: 5, origin: 'https://pay.example', name: 'pay', event: 'toolactivated' })).resolves.toEqual({ fired: true });
      expect(ran).toEqual([{ tabId: 2, documentIds: ['D5'] }]);
      // The top page's origin does not open a frame on another site.
      await expect(a.handle('browser.submittool', { tab: 2, frame: 5, origin: 'https://shop.example', name: 'pay' })).rejects.toMatchObject({ code: 'NOT_EXPOSED' });
      await expect(a.handle('browser.toolevent', { tab: 2, frame: 8, origin: 'https://pay.example', name: 'pay', event: 'toolcancel' })).rejects.toMatchObject({ code: 'NOT_EXPOSED' });
      // Imperative tools stay the top document's.
      await expect(a.handle('browser.execute', { tab: 2, frame: 5, origin: 'https://pay.example', name: 'x', input: {} })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
      await expect(a.handle('browser.tools', { tab: 2, frame: 5, origin: 'https://pay.example' })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
      await expect(a.handle('browser.toolevent', { tab: 2, frame: -1, origin: 'https://pay.example', name: 'pay', event: 'toolcancel' })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
      expect(ran).toHaveLength(1);
      expect(asked).toEqual([5, 5, 8]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
