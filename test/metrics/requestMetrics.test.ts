import { describe, expect, it } from 'vitest';
import { RequestMetrics } from '../../src/metrics/requestMetrics.js';
import { REGIONS } from '../../src/topology/regions.js';

const EDGE = 0;
const ORIGIN = 1;

/**
 * Ten hand-made requests: 7 served by the edge (1,000 B each, 20 ms), 3 by the origin
 * (10,000 B each, 120 ms). Regions: edge hits in 0,0,0,1,1,2,4; origin in 0,3,3.
 */
function tenRequests(): RequestMetrics {
  const metrics = new RequestMetrics(['edge', 'origin'], REGIONS);
  for (const region of [0, 0, 0, 1, 1, 2, 4]) metrics.record(region, EDGE, 20, 1_000);
  for (const region of [0, 3, 3]) metrics.record(region, ORIGIN, 120, 10_000);
  return metrics;
}

describe('RequestMetrics with layers [edge, origin] and the five regions', () => {
  it('7 edge-served and 3 origin-served requests: edge and cdn hit ratio 0.7', () => {
    const metrics = tenRequests();
    expect(metrics.requests).toBe(10);
    const ratios = metrics.hitRatios(['edge'], ['edge']);
    expect(ratios.requests).toEqual({ edge: 0.7, cdn: 0.7 });
  });

  it('byte hit ratios come from the bytes: 7,000 of 37,000 bytes served by the edge', () => {
    const ratios = tenRequests().hitRatios(['edge'], ['edge']);
    expect(ratios.bytes.edge).toBeCloseTo(7_000 / 37_000, 15);
    expect(ratios.bytes.cdn).toBeCloseTo(7_000 / 37_000, 15);
  });

  it('servedBy and reaching: every request reaches the edge, 3 requests (30,000 B) reach the origin', () => {
    const metrics = tenRequests();
    expect(metrics.servedBy(EDGE)).toEqual({ requests: 7, bytes: 7_000 });
    expect(metrics.servedBy(ORIGIN)).toEqual({ requests: 3, bytes: 30_000 });
    expect(metrics.reaching(EDGE)).toEqual({ requests: 10, bytes: 37_000 });
    expect(metrics.reaching(ORIGIN)).toEqual({ requests: 3, bytes: 30_000 });
  });

  it('the origin as a "cache layer" has hit ratio 1 (every request reaching it is served there)', () => {
    const ratios = tenRequests().hitRatios(['edge', 'origin'], ['edge']);
    expect(ratios.requests).toEqual({ edge: 0.7, origin: 1, cdn: 0.7 });
    expect(ratios.bytes.origin).toBe(1);
  });

  it('per-region histogram counts: [4, 2, 1, 2, 1]; per-layer: edge 7, origin 3; overall 10', () => {
    const metrics = tenRequests();
    expect(metrics.byRegion.map((h) => h.count)).toEqual([4, 2, 1, 2, 1]);
    expect(metrics.byLayer.map((h) => h.count)).toEqual([7, 3]);
    expect(metrics.all.count).toBe(10);
  });

  it('latency() summaries by region and layer name: North America mean (3·20 + 120)/4 = 45, Latin America all 120, edge max 20', () => {
    const latency = tenRequests().latency();
    expect(Object.keys(latency.byRegion)).toEqual([...REGIONS]);
    expect(Object.keys(latency.byLayer)).toEqual(['edge', 'origin']);
    expect(latency.byRegion['North America'].count).toBe(4);
    expect(latency.byRegion['North America'].mean).toBeCloseTo(45, 12);
    expect(latency.byRegion['North America'].min).toBe(20);
    expect(latency.byRegion['North America'].max).toBe(120);
    expect(latency.byRegion['Latin America'].count).toBe(2);
    expect(latency.byRegion['Latin America'].mean).toBeCloseTo(120, 12);
    expect(latency.byRegion.Africa.count).toBe(1);
    expect(latency.byLayer.edge.count).toBe(7);
    expect(latency.byLayer.edge.max).toBe(20);
    expect(latency.byLayer.origin.min).toBe(120);
    expect(latency.all.count).toBe(10);
    expect(latency.all.mean).toBeCloseTo(50, 12);
    // p50 of seven 20s and three 120s is 20 (nearest rank 5; reported within 0.05%), p90 is 120 (rank 9; the maximum).
    expect(Math.abs(latency.all.p50 / 20 - 1)).toBeLessThan(0.0005);
    expect(latency.all.p90).toBe(120);
  });

  it('three layers [edge, regional, origin]: reaching, per-layer and cdn ratios over edge + regional', () => {
    const metrics = new RequestMetrics(['edge', 'regional', 'origin'], REGIONS);
    // 6 edge (100 B), 3 regional (1,000 B), 1 origin (10,000 B).
    for (let i = 0; i < 6; i++) metrics.record(i % 5, 0, 10, 100);
    for (let i = 0; i < 3; i++) metrics.record(i, 1, 40, 1_000);
    metrics.record(4, 2, 150, 10_000);
    expect(metrics.reaching(1)).toEqual({ requests: 4, bytes: 13_000 });
    expect(metrics.reaching(2)).toEqual({ requests: 1, bytes: 10_000 });
    const ratios = metrics.hitRatios(['edge', 'regional'], ['edge', 'regional']);
    expect(ratios.requests.edge).toBeCloseTo(0.6, 15);
    expect(ratios.requests.regional).toBeCloseTo(0.75, 15);
    expect(ratios.requests.cdn).toBeCloseTo(0.9, 15);
    expect(ratios.bytes.edge).toBeCloseTo(600 / 13_600, 15);
    expect(ratios.bytes.regional).toBeCloseTo(3_000 / 13_000, 15);
    expect(ratios.bytes.cdn).toBeCloseTo(3_600 / 13_600, 15);
  });

  it('spec 4.8: recordSplit credits each layer the bytes its pieces served and counts the request once, at its served layer, with the latency read from latencies[at] (issue 27: no number argument)', () => {
    const metrics = new RequestMetrics(['edge', 'regional', 'origin'], REGIONS);
    const latencies = new Float64Array([999, 37.5, 999]);
    // A 12 MB range: 5 MB from the edge, 7 MB from the origin; served at the origin (the deepest).
    metrics.recordSplit(2, 2, latencies, 1, new Float64Array([5e6, 0, 7e6, 0]));
    latencies[1] = 12.5;
    metrics.recordSplit(2, 0, latencies, 1, new Float64Array([1e6, 0, 0, 0]));
    expect(metrics.requests).toBe(2);
    expect(metrics.servedBy(0)).toEqual({ requests: 1, bytes: 6e6 });
    expect(metrics.servedBy(1)).toEqual({ requests: 0, bytes: 0 });
    expect(metrics.servedBy(2)).toEqual({ requests: 1, bytes: 7e6 });
    const latency = metrics.latency();
    expect(latency.all.mean).toBe(25);
    expect([latency.all.min, latency.all.max]).toEqual([12.5, 37.5]);
    expect(latency.byRegionAndLayer['Asia-Pacific'].origin.count).toBe(1);
    expect(latency.byRegionAndLayer['Asia-Pacific'].origin.mean).toBe(37.5);
    expect(latency.byLayer.edge.mean).toBe(12.5);
  });

  it('an unknown layer name throws, naming the known layers', () => {
    const metrics = tenRequests();
    expect(() => metrics.hitRatios(['regional'], ['edge'])).toThrow("unknown layer 'regional'; layers are edge, origin");
    expect(() => metrics.hitRatios(['edge'], ['shield'])).toThrow("unknown layer 'shield'; layers are edge, origin");
  });

  it('a fresh RequestMetrics has 0 requests and empty histograms', () => {
    const metrics = new RequestMetrics(['edge', 'origin'], REGIONS);
    expect(metrics.requests).toBe(0);
    expect(metrics.reaching(0)).toEqual({ requests: 0, bytes: 0 });
    expect(metrics.byRegion.map((h) => h.count)).toEqual([0, 0, 0, 0, 0]);
    expect(metrics.latency().all.count).toBe(0);
  });
});
