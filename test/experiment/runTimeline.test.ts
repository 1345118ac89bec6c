import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * A small site with browser caches, a regional tier and each kind of incident, on a 10 s
 * interval: every measured request must be in exactly one layer, one interval and (past
 * the browser) one PoP, and the rows must add up to the run's totals.
 */
const SCENARIO = `
run: { duration: 100s, warmup: 20s }
traffic: { rate: 400/s, clients: { perRegion: 2000 } }
content:
  classes:
    - { name: static-asset, objects: 2000, share: 80% }
    - { name: html, objects: 300, share: 20%, rendering: static, headers: { fields: { Cache-Control: "public, max-age=5, stale-while-revalidate=60" } } }
edge: { capacity: 50MB }
regional: { capacity: 500MB }
metrics: { interval: 10s }
incidents:
  - { kind: outage, start: 40s, duration: 10s }
  - { kind: error-burst, start: 60s, duration: 10s, status: 500, share: 50% }
`;

describe('the run on its clock: time series and capacity per PoP (spec 4.9 layers; timeseries.csv, pops.csv)', () => {
  let summary: ReturnType<typeof buildSummary>;
  let rows: NonNullable<ReturnType<typeof runScenario>['timeline']>['rows'];
  beforeAll(() => {
    const result = runScenario(parseScenarioText(SCENARIO, 'scenarios/timeline.yaml'));
    summary = buildSummary(result);
    rows = result.timeline?.rows ?? [];
  });

  it('every measured request is served by exactly one layer: the layers, the classes and the intervals each add up to the measured count', () => {
    expect(summary.requests).toBeGreaterThan(20_000);
    expect(Object.keys(summary.requestsByLayer)).toEqual(['browser', 'edge', 'regional', 'origin']);
    expect(sum(Object.values(summary.requestsByLayer))).toBe(summary.requests);
    expect(sum(summary.contentClasses.map((klass) => klass.requests))).toBe(summary.requests);
    expect(sum(rows.map((row) => row.requests))).toBe(summary.requests);
    // Past the browser, each request went through one PoP; past the edge, through one regional site.
    const reachingEdge = summary.requests - summary.requestsByLayer.browser;
    expect(sum(summary.edges.map((edge) => edge.requests))).toBe(reachingEdge);
    expect(sum(summary.regionals.map((site) => site.requests))).toBe(summary.requestsByLayer.regional + summary.requestsByLayer.origin);
  });

  it('intervals of 10 s from the end of the warm-up, back to back; the last runs on until the last request sent before 100 s is back', () => {
    expect(rows[0].startSeconds).toBeGreaterThanOrEqual(20);
    expect(rows[0].startSeconds).toBeLessThan(20.1);
    // 8 intervals: the 8th, from just past 90 s, also holds the requests in flight at 100 s (no row of those alone).
    expect(rows).toHaveLength(8);
    for (let i = 1; i < rows.length; i++) expect(rows[i].startSeconds).toBe(rows[i - 1].endSeconds);
    for (const row of rows.slice(0, -1)) expect(row.endSeconds - row.startSeconds).toBeCloseTo(10, 9);
    const last = rows[7];
    expect(last.endSeconds).toBeGreaterThan(100);
    expect(last.endSeconds).toBeLessThan(102);
  });

  it('the rows add up to the run: origin requests and bytes, stale serves, errors', () => {
    const length = (row: (typeof rows)[number]) => row.endSeconds - row.startSeconds;
    expect(sum(rows.map((row) => row.originRequestsPerSecond * length(row)))).toBeCloseTo(summary.cdn.origin.requests, 6);
    expect(sum(rows.map((row) => (row.originGbitPerSecond * length(row) * 1e9) / 8))).toBeCloseTo(summary.cdn.origin.bytes, 0);
    const stale = summary.cdn.staleServed;
    expect(sum(rows.map((row) => row.staleServed))).toBe(stale.whileRevalidate + stale.originError + stale.originUnreachable);
    expect(sum(rows.map((row) => row.errorsServed))).toBe(summary.cdn.errors.responses);
  });

  it('the incidents show in their intervals: stale serves while the origin refuses (40–50 s), errors during the burst (60–70 s) and nowhere before', () => {
    const at = (second: number) => rows.find((row) => row.startSeconds <= second && second < row.endSeconds);
    expect(at(45)?.staleServed).toBeGreaterThan(0);
    expect(at(65)?.errorsServed).toBeGreaterThan(0);
    expect(at(25)?.errorsServed).toBe(0);
    expect(at(25)?.p50Ms).toBeGreaterThanOrEqual(0);
    expect(rows.every((row) => row.browserHitRatio !== null && row.regionalHitRatio !== null)).toBe(true);
  });

  it('per PoP: a 1 s peak at least its mean rate and the 60 s peak, within its uplink; stored bytes at peak at least those at the end', () => {
    const measuredSeconds = summary.simulatedSeconds - rows[0].startSeconds;
    for (const edge of summary.edges) {
      expect(edge.uplinkGbitPerSecond === 100 || edge.uplinkGbitPerSecond === 10).toBe(true);
      expect(edge.peakEgressGbitPerSecond1s).toBeGreaterThanOrEqual(edge.peakEgressGbitPerSecond60s ?? Infinity);
      expect(edge.storedBytesPeak).toBeGreaterThanOrEqual(edge.storedBytes);
      expect(edge.storedBytesPeak).toBeLessThanOrEqual(50_000_000);
      if (edge.requests > 0) expect(edge.peakRequestsPerSecond).toBeGreaterThanOrEqual(Math.floor(edge.requests / measuredSeconds));
    }
    expect(summary.capacity?.edgeCapacityBytes).toBe(50_000_000);
    const busiest = summary.capacity?.busiest ?? [];
    expect(busiest).toHaveLength(5);
    for (let i = 1; i < busiest.length; i++) expect(busiest[i].uplinkShare1s).toBeLessThanOrEqual(busiest[i - 1].uplinkShare1s ?? 0);
    expect(busiest[0].uplinkShare1s).toBeCloseTo(busiest[0].peakEgressGbitPerSecond1s / (busiest[0].uplinkGbitPerSecond ?? 0), 5);
  });

  it('the stated uplink row (spec 1.1, 100 Gbit/s at major PoPs): the busiest major PoP\'s 1 s peak over its uplink, within; not applicable without the per-PoP capacity', () => {
    const majors = summary.edges.filter((edge) => edge.uplinkGbitPerSecond === 100 && edge.requests > 0);
    expect(majors.length).toBeGreaterThan(10);
    const busiest = Math.max(...majors.map((edge) => edge.peakEgressGbitPerSecond1s ?? 0));
    const row = summary.stated.find((r) => r.id === 'uplink.major');
    expect(row).toMatchObject({ simulated: Math.round(busiest * 1e7) / 1e9, verdict: 'within', unit: 'ratio' });
    expect(row?.note).toMatch(/^[A-Z]{3} peaks at [\d.]+ Gbit\/s over 1 s \([\d.]+ over 60 s\) of its 100 Gbit\/s uplink/);
    const without = buildSummary(runScenario(parseScenarioText(SCENARIO, 'scenarios/timeline.yaml'), { timeline: false, requests: 5_000 }));
    expect(without.stated.find((r) => r.id === 'uplink.major')?.verdict).toBe('not-applicable');
  });

  it('timeline: false records neither, and changes nothing else in summary.json', () => {
    const without = runScenario(parseScenarioText(SCENARIO, 'scenarios/timeline.yaml'), { timeline: false });
    expect(without.timeline).toBeUndefined();
    const plain = buildSummary(without);
    expect(plain.capacity).toBeUndefined();
    expect(plain.hitRatio).toEqual(summary.hitRatio);
    expect(plain.latencyMs).toEqual(summary.latencyMs);
  });
});
