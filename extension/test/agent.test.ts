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

  it('refuses malformed requests from the app before touching the browser', async () => {
    const a = new Agents(filler);
    await expect(a.handle('browser.snapshot', { tab: -1 })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(a.handle('browser.snapshot', null)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(a.handle('browser.apply', { tab: 1, snapshot: 'x9', fields: [] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(a.handle('browser.nope', {})).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND' });
    expect(filler.measure).not.toHaveBeenCalled();
    expect(filler.applyAll).not.toHaveBeenCalled();
  });
});
