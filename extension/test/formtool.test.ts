// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_RESPONSE, readSubmitAnswer } from '../src/background/agent';
import { formToolEvent, submitFormTool } from '../src/page/formtool';

function page(onSubmit: (e: SubmitEvent) => void): HTMLFormElement {
  document.body.innerHTML = '<form toolname="reserve"><input name="title"><button>Go</button></form><form toolname="other"></form>';
  const f = document.querySelector('form') as HTMLFormElement;
  f.addEventListener('submit', (e) => onSubmit(e as SubmitEvent));
  return f;
}

type Agent = SubmitEvent & { agentInvoked?: boolean; respondWith?: (p: unknown) => void };

describe('submitFormTool', () => {
  afterEach(() => vi.useRealTimers());

  it('marks the submit agent-invoked and answers with the page response, only during the dispatch', async () => {
    let kept: Agent | undefined;
    page((e) => {
      const a = e as Agent;
      e.preventDefault();
      kept = a;
      expect(a.agentInvoked).toBe(true);
      a.respondWith?.(Promise.resolve({ ok: 'yes' }));
      expect(() => a.respondWith?.(Promise.resolve(1))).toThrow(/already/);
    });
    expect(JSON.parse(await submitFormTool('reserve', 1000, 100))).toEqual({ ok: true, submitted: true, responded: true, response: '{"ok":"yes"}', json: true });
    // Afterwards nothing of it stays on SubmitEvent.
    expect('respondWith' in (kept as object)).toBe(false);
    expect((kept as Agent).agentInvoked).toBeUndefined();
  });

  it('refuses respondWith before preventDefault, and a form it was not called for', async () => {
    page((e) => {
      expect(() => (e as Agent).respondWith?.('x')).toThrow(/preventDefault/);
      e.preventDefault();
    });
    expect(JSON.parse(await submitFormTool('reserve', 1000, 100))).toEqual({ ok: true, submitted: true, responded: false });
    expect(JSON.parse(await submitFormTool('nope', 1000, 100)).ok).toBe(false);
  });

  it('bounds the answer: size, time, rejection, unserialisable', async () => {
    let answer: () => unknown = () => 'x'.repeat(101);
    page((e) => {
      e.preventDefault();
      (e as Agent).respondWith?.(answer());
    });
    expect(JSON.parse(await submitFormTool('reserve', 1000, 100))).toMatchObject({ ok: false, error: expect.stringMatching(/more than 100 characters/) });
    answer = () => Promise.reject(new TypeError('no copies'));
    expect(JSON.parse(await submitFormTool('reserve', 1000, 100))).toEqual({ ok: false, error: 'TypeError: no copies' });
    answer = () => ({ n: 1n });
    expect(JSON.parse(await submitFormTool('reserve', 1000, 100)).ok).toBe(false);
    vi.useFakeTimers();
    answer = () => new Promise(() => {});
    const late = submitFormTool('reserve', 5000, 100);
    await vi.advanceTimersByTimeAsync(5000);
    expect(JSON.parse(await late)).toMatchObject({ ok: false, error: expect.stringMatching(/did not answer within 5 s/) });
  });

  it('fires toolactivated and toolcancel at the form, bubbling to the window, and nothing else', async () => {
    page(() => {});
    const heard: string[] = [];
    window.addEventListener('toolactivated', (e) => heard.push(`${e.type}:${(e.target as Element).getAttribute('toolname')}`));
    window.addEventListener('toolcancel', (e) => heard.push(e.type));
    expect(JSON.parse(await formToolEvent('reserve', 'toolactivated'))).toEqual({ ok: true });
    expect(JSON.parse(await formToolEvent('reserve', 'toolcancel'))).toEqual({ ok: true });
    expect(JSON.parse(await formToolEvent('reserve', 'click')).ok).toBe(false);
    expect(heard).toEqual(['toolactivated:reserve', 'toolcancel']);
  });
});

describe('readSubmitAnswer', () => {
  it('checks the page answer again in the service worker', () => {
    expect(readSubmitAnswer(null)).toEqual({ submitted: true, responded: false });
    expect(readSubmitAnswer('{"ok":true,"submitted":false}')).toEqual({ submitted: false, responded: false });
    expect(readSubmitAnswer('{"ok":true,"responded":true,"response":"hi","json":false}')).toEqual({ submitted: true, responded: true, response: 'hi', json: false });
    expect(() => readSubmitAnswer(`{"ok":true,"responded":true,"response":"${'x'.repeat(MAX_RESPONSE + 1)}"}`)).toThrow(/over/);
    expect(() => readSubmitAnswer('{"ok":true,"responded":true,"response":{}}')).toThrow(/not text/);
    expect(() => readSubmitAnswer('{"ok":false,"error":"Error: no"}')).toThrow(/failed: Error: no/);
    expect(() => readSubmitAnswer('nope')).toThrow(/not JSON/);
  });
});
