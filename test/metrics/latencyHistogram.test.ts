import { describe, expect, it } from 'vitest';
import { mean as exactMean } from 'simple-statistics';
import { LATENCY_RELATIVE_ERROR, LatencyHistogram } from '../../src/metrics/latencyHistogram.js';
import { RandomStreams } from '../../src/sim/random.js';

/** Nearest-rank quantile of sorted values for q = k/1000, with the rank in exact integer arithmetic. */
function nearestRank(sorted: readonly number[], k: number): number {
  const rank = Math.max(1, Math.ceil((k * sorted.length) / 1_000));
  return sorted[rank - 1];
}

function lognormalSamples(seed: number, n: number, median: number, sigma: number): number[] {
  const stream = new RandomStreams(seed).stream('latency');
  return Array.from({ length: n }, () => stream.lognormal(median, sigma));
}

function histogramOf(values: readonly number[]): LatencyHistogram {
  const histogram = new LatencyHistogram();
  for (const value of values) histogram.record(value);
  return histogram;
}

const relativeError = (actual: number, expected: number) => Math.abs(actual / expected - 1);

describe('LatencyHistogram: quantiles against the exact sorted sample', () => {
  const samples = lognormalSamples(1, 100_000, 45, 0.8);
  const sorted = [...samples].sort((a, b) => a - b);
  const histogram = histogramOf(samples);

  it('100k lognormal samples (median 45 ms, sigma 0.8): every quantile q = 0, 0.001, …, 1 is within 0.06% of the nearest-rank sample quantile', () => {
    let worst = 0;
    let worstK = -1;
    for (let k = 0; k <= 1_000; k++) {
      const error = relativeError(histogram.quantile(k / 1_000), nearestRank(sorted, k));
      if (error > worst) {
        worst = error;
        worstK = k;
      }
    }
    expect(worst, `worst relative error at q = ${worstK}/1000`).toBeLessThan(0.0006);
  });

  it('the summary percentiles p50 … p99.9 are within 0.06% of the sample quantiles; count, min and max are exact', () => {
    const summary = histogram.summary();
    expect(summary.count).toBe(100_000);
    expect(summary.min).toBe(sorted[0]);
    expect(summary.max).toBe(sorted[99_999]);
    expect(relativeError(summary.p50, sorted[49_999])).toBeLessThan(0.0006);
    expect(relativeError(summary.p90, sorted[89_999])).toBeLessThan(0.0006);
    expect(relativeError(summary.p95, sorted[94_999])).toBeLessThan(0.0006);
    expect(relativeError(summary.p99, sorted[98_999])).toBeLessThan(0.0006);
    expect(relativeError(summary.p999, sorted[99_899])).toBeLessThan(0.0006);
    // Sanity on the sample itself: the median of a lognormal(45, 0.8) sample is near 45 ms.
    expect(Math.abs(sorted[49_999] / 45 - 1)).toBeLessThan(0.02);
  });

  it('the mean is exact (to 9 digits)', () => {
    expect(histogram.mean).toBeCloseTo(exactMean(samples), 9);
    expect(histogram.summary().mean).toBeCloseTo(exactMean(samples), 9);
  });

  it('quantile(1) is the maximum and quantile(0) is within 0.05% of the minimum', () => {
    expect(relativeError(histogram.quantile(1), sorted[99_999])).toBeLessThan(0.0005);
    expect(histogram.quantile(1)).toBeLessThanOrEqual(sorted[99_999]);
    expect(relativeError(histogram.quantile(0), sorted[0])).toBeLessThan(0.0005);
    expect(histogram.quantile(0)).toBeGreaterThanOrEqual(sorted[0]);
  });
});

describe('LatencyHistogram: special values and ranges', () => {
  it('zero latencies (browser-cache hits) are reported as 0: 300 zeros and 700 × 20 ms give p0.3 = 0, p0.301 ≈ 20', () => {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < 300; i++) histogram.record(0);
    for (let i = 0; i < 700; i++) histogram.record(20);
    expect(histogram.quantile(0)).toBe(0);
    expect(histogram.quantile(0.25)).toBe(0);
    expect(histogram.quantile(0.3)).toBe(0);
    expect(histogram.quantile(0.301)).toBe(20);
    expect(histogram.quantile(0.5)).toBe(20);
    const summary = histogram.summary();
    expect(summary.min).toBe(0);
    expect(summary.max).toBe(20);
    expect(summary.mean).toBeCloseTo(14, 12);
    expect(summary.p50).toBe(20);
  });

  it('all-zero samples give an all-zero summary apart from the count', () => {
    const histogram = histogramOf([0, 0, 0]);
    expect(histogram.summary()).toEqual({ count: 3, mean: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, min: 0, max: 0 });
  });

  it('an empty histogram has count 0 and a summary of zeros', () => {
    const histogram = new LatencyHistogram();
    expect(histogram.count).toBe(0);
    expect(histogram.mean).toBe(0);
    expect(histogram.quantile(0.5)).toBe(0);
    expect(histogram.summary()).toEqual({ count: 0, mean: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, min: 0, max: 0 });
  });

  it('values from 0.5 ms to 10 minutes: each of 0.5, 1, 10, 1000, 60,000, 600,000 ms is recovered within 0.05%', () => {
    const values = [0.5, 1, 10, 1_000, 60_000, 600_000];
    const histogram = histogramOf(values);
    for (let i = 0; i < values.length; i++) {
      // q = (i + 1)/6 has nearest rank i + 1.
      expect(relativeError(histogram.quantile((i + 1) / 6), values[i])).toBeLessThan(0.0005);
    }
    expect(histogram.summary().min).toBe(0.5);
    expect(histogram.summary().max).toBe(600_000);
    expect(histogram.quantile(1)).toBeLessThanOrEqual(600_000);
    expect(histogram.mean).toBeCloseTo(661_011.5 / 6, 9);
  });

  it('a single sample is every quantile exactly (the bucket middle is clamped to [min, max])', () => {
    const histogram = histogramOf([123.456]);
    expect(histogram.summary()).toEqual({ count: 1, mean: 123.456, p50: 123.456, p90: 123.456, p95: 123.456, p99: 123.456, p999: 123.456, min: 123.456, max: 123.456 });
  });

  it('100 values 1..100 ms: p50 ≈ 50, p90 ≈ 90, p99 ≈ 99, p999 ≈ 100 (nearest rank) within 0.05%', () => {
    const histogram = histogramOf(Array.from({ length: 100 }, (_, i) => i + 1));
    const summary = histogram.summary();
    expect(relativeError(summary.p50, 50)).toBeLessThan(0.0005);
    expect(relativeError(summary.p90, 90)).toBeLessThan(0.0005);
    expect(relativeError(summary.p95, 95)).toBeLessThan(0.0005);
    expect(relativeError(summary.p99, 99)).toBeLessThan(0.0005);
    expect(relativeError(summary.p999, 100)).toBeLessThan(0.0005);
  });

  // 0.07 × 100 is 7.000000000000001 in floating point: a plain Math.ceil would pick rank 8
  // (so would 44 of the 1001 quantiles k/1000 with n = 100,000).
  it('quantile(0.07) of the 100 values 1..100 ms is the 7th value (nearest rank ⌈0.07·100⌉ = 7), not the 8th', () => {
    const histogram = histogramOf(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(relativeError(histogram.quantile(0.07), 7)).toBeLessThan(0.0005);
  });
});

describe('LatencyHistogram: merge', () => {
  it('merging three histograms equals recording all 30k samples in one (same quantiles, count, min, max; mean to 9 digits)', () => {
    const samples = lognormalSamples(2, 30_000, 80, 1.2);
    const whole = histogramOf(samples);
    const parts = [samples.slice(0, 5_000), samples.slice(5_000, 21_000), samples.slice(21_000)].map(histogramOf);
    const merged = new LatencyHistogram();
    for (const part of parts) merged.merge(part);
    expect(merged.count).toBe(30_000);
    const quantiles = (h: LatencyHistogram) => Array.from({ length: 101 }, (_, k) => h.quantile(k / 100));
    expect(quantiles(merged)).toEqual(quantiles(whole));
    const { mean: mergedMean, ...mergedRest } = merged.summary();
    const { mean: wholeMean, ...wholeRest } = whole.summary();
    expect(mergedRest).toEqual(wholeRest);
    expect(mergedMean).toBeCloseTo(wholeMean, 9);
  });

  it('merging an empty histogram changes nothing; merging into an empty one copies', () => {
    const samples = lognormalSamples(3, 1_000, 30, 0.5);
    const histogram = histogramOf(samples);
    const before = histogram.summary();
    histogram.merge(new LatencyHistogram());
    expect(histogram.summary()).toEqual(before);
    const copy = new LatencyHistogram();
    copy.merge(histogram);
    expect(copy.summary()).toEqual(before);
  });
});

describe('LatencyHistogram: the stated relative error (LATENCY_RELATIVE_ERROR, 0.05 %) on known distributions', () => {
  const stream = new RandomStreams(11).stream('latency.distributions');
  const distributions: [string, () => number][] = [
    // Time to first byte is roughly lognormal; origin service times roughly exponential; uniform spreads over 3 decades.
    ['lognormal (median 25 ms, sigma 1.2)', () => stream.lognormal(25, 1.2)],
    ['exponential (mean 120 ms)', () => stream.exponential(1 / 120)],
    ['uniform on [0.5 ms, 500 ms)', () => 0.5 + 499.5 * stream.next()],
  ];
  for (const [name, draw] of distributions) {
    it(`${name}, 50k samples: mean, p50, p90, p95, p99, p99.9 and every q = k/1000 are within 0.05 % of the exact sample figures`, () => {
      const samples = Array.from({ length: 50_000 }, draw);
      const sorted = [...samples].sort((a, b) => a - b);
      const histogram = histogramOf(samples);
      let worst = 0;
      for (let k = 0; k <= 1_000; k++) worst = Math.max(worst, relativeError(histogram.quantile(k / 1_000), nearestRank(sorted, k)));
      expect(worst).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
      const summary = histogram.summary();
      for (const [figure, k] of [['p50', 500], ['p90', 900], ['p95', 950], ['p99', 990], ['p999', 999]] as const) {
        expect(relativeError(summary[figure], nearestRank(sorted, k)), figure).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
      }
      expect(summary.mean).toBeCloseTo(exactMean(samples), 9);
    });
  }

  it('the bound is the bucket geometry: √1.001 − 1 = 0.0499875 % ≤ 0.05 %', () => {
    expect(Math.sqrt(1.001) - 1).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
    expect(Math.sqrt(1.001) - 1).toBeGreaterThan(0.999 * LATENCY_RELATIVE_ERROR);
  });

  it('merge of an exponential and a uniform histogram is the histogram of the union (every quantile k/1000 equal)', () => {
    const a = Array.from({ length: 20_000 }, () => stream.exponential(1 / 40));
    const b = Array.from({ length: 7_000 }, () => 2 + 300 * stream.next());
    const merged = histogramOf(a);
    merged.merge(histogramOf(b));
    const union = histogramOf([...a, ...b]);
    const quantiles = (h: LatencyHistogram) => Array.from({ length: 1_001 }, (_, k) => h.quantile(k / 1_000));
    expect(quantiles(merged)).toEqual(quantiles(union));
    expect(merged.count).toBe(27_000);
  });
});

describe('LatencyHistogram: quantiles of a window of a running histogram (timeseries.csv percentiles)', () => {
  it('quantileSince(copy) gives the window\'s own quantiles within 0.05 %, whatever came before', () => {
    const stream = new RandomStreams(12).stream('latency.window');
    const running = new LatencyHistogram();
    for (let i = 0; i < 20_000; i++) running.record(stream.lognormal(300, 0.4));
    const before = LatencyHistogram.emptyCounts();
    running.copyCounts(before);
    const window = Array.from({ length: 10_000 }, () => stream.exponential(1 / 30));
    for (const value of window) running.record(value);
    const sorted = [...window].sort((a, b) => a - b);
    for (const k of [500, 950, 990]) {
      expect(relativeError(running.quantileSince(before, k / 1_000), nearestRank(sorted, k))).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
    }
    running.copyCounts(before);
    expect(running.quantileSince(before, 0.5)).toBe(0);
  });
});

describe('LatencyHistogram: counts past 32 bits', () => {
  it('a bucket past 2^32 − 1 samples keeps every one: 3 samples doubled by 32 merges give 3 × 2^32 in their buckets and the same quantiles', () => {
    const histogram = new LatencyHistogram();
    histogram.record(10);
    histogram.record(10);
    histogram.record(500);
    for (let i = 0; i < 32; i++) histogram.merge(histogram);
    expect(histogram.count).toBe(3 * 2 ** 32);
    // Two thirds of the samples at 10 ms (2^33 of them: had the count wrapped at 2^32, the
    // bucket would hold none and the median would be 500 ms), the rest at 500 ms.
    expect(Math.abs(histogram.quantile(0.5) - 10) / 10).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
    expect(Math.abs(histogram.quantile(0.9) - 500) / 500).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
  });
});
