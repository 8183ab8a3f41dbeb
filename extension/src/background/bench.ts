/**
 * The round-trip benchmark run inside the service worker (test build only):
 * sequential session.ping calls through the choke point, each timed with
 * performance.now().
 */

/** BenchResult summarises one benchmark run; times are milliseconds. */
export interface BenchResult {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** percentile returns the nearest-rank p-th percentile (0 < p <= 100) of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

/** summarise computes a BenchResult from raw samples. */
export function summarise(samples: readonly number[]): BenchResult {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    mean: s.length ? sum / s.length : NaN,
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
  };
}

/**
 * bench times n sequential calls of ping(payload) after warmup untimed ones,
 * so that port start-up and JIT warm-up do not count.
 */
export async function bench(
  ping: (payload: unknown) => Promise<unknown>,
  n: number,
  warmup: number,
  payload: unknown,
  now: () => number = () => performance.now(),
): Promise<BenchResult> {
  return summarise(await timings(ping, n, warmup, payload, now));
}

/**
 * timings is bench's raw samples (ms, in call order), for a driver that
 * measures in chunks interleaved with another browser's and summarises
 * them all together.
 */
export async function timings(
  ping: (payload: unknown) => Promise<unknown>,
  n: number,
  warmup: number,
  payload: unknown,
  now: () => number = () => performance.now(),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await ping(payload);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await ping(payload);
    samples.push(now() - t0);
  }
  return samples;
}
