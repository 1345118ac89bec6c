import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * A small network in which LRU eviction keeps every cache busy, so a steady state exists
 * and a cold run reaches it: 8 PoPs with 10 MB each, their regional sites with 40 MB, a
 * catalogue of 2,000 objects (about 105 MB).
 */
const SMALL_NETWORK = 'seed: 3\ncontent: { objects: 2000 }\nedge: { capacity: 10MB }\nregional: { capacity: 40MB }\ntopology: { pops: { count: 8 } }\n';
const scenario = (run: string) => parseScenarioText(`${SMALL_NETWORK}run: ${run}\n`, 'scenarios/steady.yaml');

describe('steady state (spec 1.1, issue 13): the cache-only warm-up against a cold run long enough to converge', () => {
  it('the CDN hit ratio measured after warming the caches until steady is within 0.01 of a cold run measured after 500,000 requests through the flow', () => {
    const cold = buildSummary(runScenario(scenario('{ requests: 600000, warmup: 500000 }')));
    const warmed = buildSummary(runScenario(scenario('{ requests: 100000, warmup: { until: steady, block: 50k, tolerance: 0.5% } }')));
    expect(cold.requests).toBe(100_000);
    expect(warmed.requests).toBe(100_000);
    expect(warmed.warmup.method).toBe('caches');
    expect(warmed.warmup.steady?.converged).toBe(true);
    expect(Math.abs(warmed.hitRatio.cdn - cold.hitRatio.cdn)).toBeLessThan(0.01);
    // The edge tier settles too, not only the sum of the tiers.
    expect(Math.abs(warmed.hitRatio.edge - cold.hitRatio.edge)).toBeLessThan(0.01);
    // And both are far from the cold start the warm-up replaces.
    const coldStart = buildSummary(runScenario(scenario('{ requests: 100000 }')));
    expect(cold.hitRatio.cdn - coldStart.hitRatio.cdn).toBeGreaterThan(0.05);
  }, 120_000);

  it('a fixed cache-only warm-up reports its requests, its simulated time and its last block; the run then measures run.requests', () => {
    const summary = buildSummary(runScenario(scenario('{ requests: 20000, warmup: { requests: 2M } }')));
    expect(summary.warmup).toMatchObject({ method: 'caches', until: 'requests', requests: 2_000_000 });
    // 2M requests at the default 20k/s: about 100 s of simulated time.
    expect(summary.warmup.simulatedSeconds).toBeGreaterThan(99);
    expect(summary.warmup.simulatedSeconds).toBeLessThan(101);
    expect(summary.warmup.finalBlockHitRatio).toBeGreaterThan(0.5);
    expect(summary.requests).toBe(20_000);
    expect(summary.warmupRequests).toBe(0);
  }, 120_000);

  it('a warm-up through the flow says so: method flow, its requests and the time of the first measured request', () => {
    const summary = buildSummary(runScenario(scenario('{ requests: 20000, warmup: 5000 }')));
    expect(summary.warmup.method).toBe('flow');
    expect(summary.warmup.requests).toBe(5_000);
    // 5,000 requests at 20k/s: a quarter of a second.
    expect(summary.warmup.simulatedSeconds).toBeGreaterThan(0.2);
    expect(summary.warmup.simulatedSeconds).toBeLessThan(0.3);
  }, 120_000);
});
