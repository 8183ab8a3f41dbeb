// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../src/content/settle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function watch(p: Promise<void>): () => boolean {
  let done = false;
  void p.then(() => (done = true));
  return () => done;
}

describe('settle', () => {
  it('resolves after a quiet spell', async () => {
    const done = watch(settle([document], 150, 1000));
    await vi.advanceTimersByTimeAsync(149);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('waits while the page keeps changing, up to the bound', async () => {
    const done = watch(settle([document], 150, 1000));
    for (let t = 0; t < 9; t++) {
      await vi.advanceTimersByTimeAsync(100);
      document.body.append(document.createElement('p'));
    }
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(done()).toBe(true);
  });

  it('sees mutations inside a shadow root it is given', async () => {
    document.body.innerHTML = '<div id=h></div>';
    const root = document.getElementById('h')!.attachShadow({ mode: 'open' });
    const done = watch(settle([document, root], 150, 1000));
    await vi.advanceTimersByTimeAsync(100);
    root.append(document.createElement('input'));
    await vi.advanceTimersByTimeAsync(100);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(60);
    expect(done()).toBe(true);
  });
});
