import { describe, expect, it } from 'vitest';
import { cheApproximation } from '../../src/cache/che.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';
import { Catalogue } from '../../src/workload/catalogue.js';
import { RandomStreams } from '../../src/sim/random.js';

/**
 * The thin slice against theory: one edge LRU cache under IRM Zipf(0.8) traffic must hit
 * as often as Che's approximation predicts (Che, Tung and Wang 2002; Fricker et al. 2012
 * for unequal sizes), within 0.01. The theory stores a missed object at once; on the
 * simulated clock a request that comes while the object is being fetched waits for that
 * fetch (a miss), so these runs give the origin no latency, as the model assumes.
 */
function scenarioText(objectSize: string, capacity: string): string {
  return `
name: che
seed: 11
run:
  requests: 1200000
  warmup: 200000
traffic:
  rate: 50k/s
content:
  objects: 100000
  zipfExponent: 0.8
  objectSize: ${objectSize}
edge:
  capacity: ${capacity}
topology:
  model: regions
  edgeSites: single
  originLatency: 0ms
`;
}

describe('thin slice: edge LRU hit ratio against Che\'s approximation', () => {
  it('equal sizes (count-equivalent): 100,000 objects, cache of 10,000, Zipf 0.8 — within 0.01 of Che', () => {
    const scenario = parseScenarioText(scenarioText('{ median: 10KB, sigma: 0, min: 10KB, max: 10KB }', '100MB'), 'che.yaml');
    const summary = buildSummary(runScenario(scenario));
    const che = cheApproximation(zipfProbabilities(100_000, 0.8), undefined, 10_000);
    // The prediction itself, so a regression in the model is visible too.
    expect(che.hitRatio).toBeCloseTo(0.4687, 3);
    expect(summary.requests).toBe(1_000_000);
    expect(Math.abs(summary.hitRatio.edge - che.hitRatio)).toBeLessThan(0.01);
    expect(summary.edges[0].storedObjects).toBe(10_000);
    // The run reports the same prediction in summary.json.
    expect(summary.theory).toEqual({ model: "che-lru", edgeHitRatio: Number(che.hitRatio.toFixed(6)), edgeByteHitRatio: Number(che.byteHitRatio.toFixed(6)) });
  });

  it('lognormal sizes (byte capacity): within 0.01 of Che generalised to unequal sizes', () => {
    const scenario = parseScenarioText(scenarioText('{ median: 20KB, sigma: 1, min: 100B, max: 10MB }', '300MB'), 'che.yaml');
    const result = runScenario(scenario);
    const summary = buildSummary(result);
    // The same sizes the run drew: the catalogue draws them from the 'content.sizes' stream of the seed.
    const catalogue = new Catalogue(scenario.content, new RandomStreams(scenario.seed).stream('content.sizes'));
    const che = cheApproximation(catalogue.popularity, catalogue.objectSizes, 300e6);
    expect(Math.abs(summary.hitRatio.edge - che.hitRatio)).toBeLessThan(0.01);
    expect(Math.abs(summary.byteHitRatio.edge - che.byteHitRatio)).toBeLessThan(0.01);
  });
});

describe("one Che solver: the stationary start's expectation is the printed theory (docs/warmup.md, \"A stationary start\")", () => {
  it('spec 1.1: one edge of 30 MB over 5,000 lognormal objects, filled to its stationary state: warmup.fill.edge.cheHitRatio equals theory.edgeHitRatio to the last printed digit, and the run measures it', () => {
    const scenario = parseScenarioText(
      `name: che-fill
seed: 3
run: { requests: 50000, warmup: { requests: 50000, start: stationary } }
traffic: { rate: 5k/s }
content: { objects: 5000, zipfExponent: 0.8, objectSize: { median: 20KB, sigma: 1, min: 100B, max: 1MB } }
edge: { capacity: 30MB }
topology: { model: regions, edgeSites: single, originLatency: 0ms }
`,
      'che-fill.yaml',
    );
    const summary = buildSummary(runScenario(scenario));
    expect(summary.theory?.model).toBe('che-lru');
    // The same equation solved once (src/cache/che.ts) over the same objects (every object fits 30 MB).
    expect(summary.warmup.fill?.edge.cheHitRatio).toBe(summary.theory?.edgeHitRatio);
    // 50,000 requests after the fill: σ ≈ √(h(1 − h)/50,000) ≈ 0.002; Che itself within a few tenths of a point.
    expect(Math.abs(summary.hitRatio.edge - (summary.theory?.edgeHitRatio ?? 0))).toBeLessThan(0.01);
  });
});
