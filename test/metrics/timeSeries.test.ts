import { describe, expect, it } from 'vitest';
import { LATENCY_RELATIVE_ERROR, LatencyHistogram } from '../../src/metrics/latencyHistogram.js';
import { TimeSeries } from '../../src/metrics/timeSeries.js';

const STALE = 8;
/** browser 0, edge 1, regional 2, origin 3 */
const LAYERS = { browser: 0, edge: 1, regional: 2, origin: 3 };

/** A series over its own time-to-first-byte histogram, fed as the run's sink feeds it: the series first, then the histogram. */
function series(intervalMs: number, layers = LAYERS) {
  const origin = { requests: 0, bytes: 0 };
  const latency = new LatencyHistogram();
  const s = new TimeSeries(intervalMs, layers, origin, latency, STALE);
  const record = (nowMs: number, layer: number, latencyMs: number, status: number, outcome: number) => {
    s.record(nowMs, layer, status, outcome);
    latency.record(latencyMs);
  };
  return { origin, series: s, record };
}

describe('TimeSeries: one row per interval of the measured part (timeseries.csv)', () => {
  it('intervals start at the measured part and are metrics.interval long; the last row ends with the run; quiet intervals are rows of zeros', () => {
    const { series: s, record } = series(10_000);
    s.start(5_000);
    record(5_000, 1, 20, 200, 0);
    record(14_999, 3, 300, 200, 0);
    // 15 s – 25 s: nothing. 25 s – 35 s: two requests; the run ends at 31 s.
    record(25_000, 1, 10, 200, 0);
    record(30_000, 2, 40, 200, 0);
    s.finish(31_000);
    expect(s.rows.map((row) => [row.startSeconds, row.endSeconds, row.requests])).toEqual([
      [5, 15, 2],
      [15, 25, 0],
      [25, 31, 2],
    ]);
    expect(s.rows[0].requestsPerSecond).toBe(0.2);
    expect(s.rows[2].requestsPerSecond).toBeCloseTo(2 / 6, 12);
    // A quiet interval has no ratio and no percentile to give: empty cells, not zeros.
    expect(s.rows[1]).toMatchObject({ requestsPerSecond: 0, edgeHitRatio: null, cdnHitRatio: null, p50Ms: null, p99Ms: null, staleServed: 0, errorsServed: 0 });
  });

  it('hit ratios per layer as summary.json defines them (served here / reaching here); the CDN ratio counts edge and regional hits of requests reaching the edge', () => {
    const { series: s, record } = series(60_000);
    s.start(0);
    // 4 browser hits, 3 edge hits, 2 regional hits, 1 origin: 10 requests.
    for (const [layer, count] of [[0, 4], [1, 3], [2, 2], [3, 1]]) for (let i = 0; i < count; i++) record(1_000, layer, layer === 0 ? 0 : 10 * layer, 200, 0);
    s.finish(60_000);
    const [row] = s.rows;
    expect(row.requests).toBe(10);
    expect(row.browserHitRatio).toBe(0.4);
    expect(row.edgeHitRatio).toBe(0.5); // 3 of the 6 reaching the edge
    expect(row.regionalHitRatio).toBe(2 / 3); // 2 of 3
    expect(row.cdnHitRatio).toBe(5 / 6);
    // Time to first byte of every request: 4 zeros, 3 × 10, 2 × 20, 1 × 30 ms (nearest rank, within the histogram's 0.05 %).
    expect(Math.abs((row.p50Ms ?? 0) / 10 - 1)).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
    expect(Math.abs((row.p95Ms ?? 0) / 30 - 1)).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
  });

  it('a run without browser caches or regional tier leaves those ratios empty', () => {
    const { series: s, record } = series(1_000, { browser: -1, edge: 0, regional: -1, origin: 1 });
    s.start(0);
    record(10, 0, 5, 200, 0);
    record(20, 1, 150, 200, 0);
    s.finish(1_000);
    expect(s.rows[0]).toMatchObject({ browserHitRatio: null, regionalHitRatio: null, edgeHitRatio: 0.5, cdnHitRatio: 0.5 });
  });

  it('origin requests/s and Gbit/s are the growth of the origin totals over each interval; stale serves and errors are counted per interval', () => {
    const { origin, series: s, record } = series(2_000);
    s.start(0);
    origin.requests = 10;
    origin.bytes = 250_000_000; // 2 Gbit in the first 2 s
    record(500, 3, 200, 200, 0);
    record(1_500, 1, 10, 503, 0);
    record(1_600, 1, 10, 200, STALE | 1);
    record(2_500, 1, 10, 200, 1); // coalesced, not stale
    origin.requests = 16;
    origin.bytes = 300_000_000;
    s.finish(3_000);
    expect(s.rows[0]).toMatchObject({ originRequestsPerSecond: 5, originGbitPerSecond: 1, staleServed: 1, errorsServed: 1 });
    expect(s.rows[1]).toMatchObject({ originRequestsPerSecond: 6, originGbitPerSecond: 0.4, staleServed: 0, errorsServed: 0, requests: 1 });
  });

  it("each row's percentiles are of its own requests: the run's histogram over the interval", () => {
    const { series: s, record } = series(1_000);
    s.start(0);
    for (let i = 0; i < 100; i++) record(i, 1, 1_000, 200, 0);
    for (let i = 0; i < 100; i++) record(1_000 + i, 1, 10, 200, 0);
    s.finish(2_000);
    // Each row's percentile is its own requests' (within the histogram's 0.05 %), not the run's so far.
    const [first, second] = s.rows.map((row) => row.p99Ms ?? 0);
    expect(Math.abs(first / 1_000 - 1)).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
    expect(Math.abs(second / 10 - 1)).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR);
  });

  it('the requests in flight when the run stops taking requests count in its last interval, which runs on until they are back', () => {
    const { series: s, record } = series(10_000);
    s.start(0);
    record(5_000, 1, 10, 200, 0);
    record(19_000, 1, 10, 200, 0);
    s.endRun(20_000); // on a boundary: the interval 10–20 s stays open
    record(20_100, 3, 300, 200, 0);
    record(20_400, 3, 400, 200, 0);
    s.finish(20_400);
    expect(s.rows.map((row) => [row.startSeconds, row.endSeconds, row.requests])).toEqual([
      [0, 10, 1],
      [10, 20.4, 3],
    ]);
  });

  it('a run that never measured writes no row; a run ending exactly on a boundary has no empty last row', () => {
    const never = series(1_000).series;
    never.finish(5_000);
    expect(never.rows).toEqual([]);
    const { series: s, record } = series(1_000);
    s.start(0);
    record(999, 1, 10, 200, 0);
    s.finish(1_000);
    expect(s.rows).toHaveLength(1);
  });
});
