import { describe, expect, it } from 'vitest';
import { COMPARE_CAPACITY_COLUMNS, COMPARE_COLUMNS, compareCapacityTable, compareCsv, compareDocument, compareText } from '../../src/report/compareReport.js';
import type { Summary } from '../../src/report/summary.js';

/**
 * Issue 25 item 1: compare.csv and the compare table carry the capacity figures under their
 * summary.json names (docs/capacity.md), as sweep.csv and --target do.
 */

/** The parts of a run summary compare reads, with figures chosen by hand. */
function summaryOf(capacity: Record<string, unknown> | undefined): Summary {
  const latency = { count: 100, mean: 20, p50: 10, p90: 30, p95: 40, p99: 50, p999: 60 };
  return {
    requests: 100,
    hitRatio: { cdn: 0.9 },
    byteHitRatio: { cdn: 0.8 },
    originOffload: 0.9,
    originByteOffload: 0.8,
    latencyMs: { all: latency },
    cdn: { origin: { requests: 10, bytes: 1_000 }, staleness: { share: 0, maxSeconds: 0 }, availability: 1 },
    incidents: [],
    ...(capacity === undefined ? {} : { capacity }),
  } as unknown as Summary;
}

// 1,200 origin requests over 120 measured seconds: 10/s; 3 GB of bodies: 0.2 Gbit/s.
const origin = { meanRequestsPerSecond: 10, peakRequestsPerSecond1s: 25, peakRequestsPerSecond60s: 12.5, meanGbps: 0.2, peakGbps1s: 0.64, peakGbps60s: 0.3 };
const pops = {
  withTraffic: 3,
  maxUplinkShare1s: 0.0125,
  maxUplinkShare1sPop: 'FRA',
  maxUplinkShare60s: 0.004,
  maxUplinkShare60sPop: 'LHR',
  p95UplinkShare60s: 0.004,
  maxPeakGbps1s: 1.25,
  maxPeakGbps1sPop: 'FRA',
  maxPeakGbps60s: 0.4,
  maxPeakGbps60sPop: 'LHR',
  maxPeakRequestsPerSecond: 340,
  maxPeakRequestsPerSecondPop: 'CDG',
  maxStoredBytes: 5_000_000,
  maxStoredBytesPop: 'FRA',
};

describe('issue 25 item 1: capacity figures in compare', () => {
  it('compare.csv gains capacity.origin.* and capacity.pops.max* columns by their summary.json path, each PoP maximum with its PoP', () => {
    const document = compareDocument('s', 1, [{ name: 'respect-headers', description: '', summary: summaryOf({ measuredSeconds: 120, origin, pops, busiest: [] }) }]);
    const [header, row] = compareCsv(document).trim().split('\n');
    expect(header.split(',')).toEqual([...COMPARE_COLUMNS, ...COMPARE_CAPACITY_COLUMNS]);
    expect(row.split(',').slice(COMPARE_COLUMNS.length)).toEqual(['10', '25', '12.5', '0.2', '0.64', '0.3', '0.0125', 'FRA', '0.004', 'LHR', '1.25', 'FRA', '0.4', 'LHR', '340', 'CDG', '5000000', 'FRA']);
  });

  it('without uplinks (topology model regions) the share cells are empty ("not applicable", docs/outputs.md) and the table names the busiest edge by its egress', () => {
    const { maxUplinkShare1s: _a, maxUplinkShare1sPop: _b, maxUplinkShare60s: _c, maxUplinkShare60sPop: _d, p95UplinkShare60s: _e, ...noUplinks } = pops;
    const document = compareDocument('s', 1, [{ name: 'fixed:1h', description: '', summary: summaryOf({ measuredSeconds: 30, origin, pops: noUplinks, busiest: [] }) }]);
    const cells = compareCsv(document).trim().split('\n')[1].split(',').slice(COMPARE_COLUMNS.length);
    expect(cells.slice(6, 10)).toEqual(['', '', '', '']);
    const table = compareCapacityTable(document);
    // 30 measured seconds: no 60 s window, so no 60 s column (its figure would be the total / 60).
    expect(table[0].split('\n')).toEqual([
      'strategy  origin req/s  peak 1 s  Gbit/s  peak 1 s    busiest edge  PoP req/s',
      'fixed:1h          10.0        25    0.20      0.64  FRA 1.3 Gbit/s        340',
    ]);
  });

  it('the terminal table fits 100 columns, shows the 60 s peak when every run measured a minute, and is absent when a run recorded no capacity', () => {
    const document = compareDocument('s', 1, [
      { name: 'respect-headers-swr2', description: '', summary: summaryOf({ measuredSeconds: 120, origin, pops, busiest: [] }) },
      { name: 'fixed:1m', description: '', summary: summaryOf({ measuredSeconds: 120, origin: { ...origin, meanRequestsPerSecond: 1234.4 }, pops, busiest: [] }) },
    ]);
    const lines = compareCapacityTable(document).join('\n').split('\n');
    expect(lines[0]).toBe('strategy              origin req/s  peak 1 s  peak 60 s  Gbit/s  peak 1 s  busiest PoP  PoP req/s');
    expect(lines[1]).toBe('respect-headers-swr2          10.0        25       12.5    0.20      0.64  FRA 1.250 %        340');
    expect(lines[2]).toMatch(/^fixed:1m\s+1,234\s/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
    expect(compareCapacityTable(compareDocument('s', 1, [{ name: 'x', description: '', summary: summaryOf(undefined) }]))).toEqual([]);
    expect(compareText(document)).toContain(lines[1]);
  });
});
