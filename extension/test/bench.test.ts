import { describe, expect, it } from 'vitest';
import { bench, percentile, timings } from '../src/background/bench';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  const cases: { name: string; s: number[]; p: number; want: number }[] = [
    { name: 'median of 1..100', s: hundred, p: 50, want: 50 },
    { name: 'p99 of 1..100', s: hundred, p: 99, want: 99 },
    { name: 'p100 of 1..100', s: hundred, p: 100, want: 100 },
    { name: 'single sample', s: [7], p: 99, want: 7 },
    { name: 'tiny p', s: [1, 2, 3], p: 0.1, want: 1 },
  ];
  for (const tc of cases) {
    it(tc.name, () => expect(percentile(tc.s, tc.p), `percentile(${tc.p})`).toBe(tc.want));
  }
  it('is NaN without samples', () => expect(percentile([], 50)).toBeNaN());
});

describe('bench', () => {
  it('times only the calls after the warm-up', async () => {
    let clock = 0;
    let calls = 0;
    const ping = async (p: unknown) => {
      calls++;
      clock += calls <= 3 ? 1000 : calls; // warm-up calls are slow and must not count
      return p;
    };
    const r = await bench(ping, 10, 3, {}, () => clock);
    expect(calls).toBe(13);
    expect(r).toEqual({ n: 10, p50: 8, p99: 13, mean: 8.5, min: 4, max: 13 });
  });
  it('gives the raw samples in call order', async () => {
    let clock = 0;
    let calls = 0;
    const ping = async () => {
      clock += ++calls * 10;
    };
    expect(await timings(ping, 3, 1, {}, () => clock)).toEqual([20, 30, 40]);
  });
});
