import { describe, expect, it } from 'vitest';
import { CURVE_GRID_BYTES, curvePoints } from '../../src/cache/hitRatioCurves.js';
import { cheApproximation } from '../../src/cache/che.js';
import { weightBuckets } from '../../src/cache/lruStationary.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { Catalogue } from '../../src/workload/catalogue.js';
import { RandomStreams } from '../../src/sim/random.js';

/**
 * Curves from a stationary start (docs/curves.md, "A stationary start"; issue 25 item 2 on a
 * steady warm-up): the edge's stack-distance recorder starts from the whole stationary LRU
 * order of the catalogue, not only the prefix its cache holds, so the curve above the run's
 * capacity counts no false first request. One edge (the regions model's single site),
 * immutable content (spec 8.1 row 1), no fetch time (docs/curves.md: then the curve is exact
 * at every capacity), 20,000 objects of 1.06 GB in all, and a warm-up of 1,000 requests
 * after the fill, so the measured requests start from the drawn state, not one the warm-up
 * rebuilt.
 */
function scenarioText(capacity: number, curves: boolean): string {
  return `
name: curves-stationary
seed: 3
run:
  requests: 100000
  warmup: { requests: 1000, start: stationary }
  curves: ${curves}
traffic:
  rate: 20k/s
content:
  objects: 20000
  zipfExponent: 0.8
  objectSize: { median: 32KB, sigma: 1, min: 100B, max: 10MB }
  headers:
    profile: guidance-static-assets
edge:
  capacity: ${capacity}B
topology:
  model: regions
  edgeSites: single
  originLatency: 0ms
`;
}

/** 10^7.5, 10^8 (the curve run's own capacity) and 10^8.5 bytes. */
const CAPACITIES = [CURVE_GRID_BYTES[288], CURVE_GRID_BYTES[320], CURVE_GRID_BYTES[352]];
const CURVE_RUN_CAPACITY = CAPACITIES[1];

let curveRun: ReturnType<typeof runScenario> | undefined;
const withCurves = (): ReturnType<typeof runScenario> => (curveRun ??= runScenario(parseScenarioText(scenarioText(CURVE_RUN_CAPACITY, true), 'curves.yaml')));

function curveAt(result: ReturnType<typeof runScenario>, capacity: number): number {
  const curve = result.curves?.nodes.find((entry) => entry.layer === 'edge');
  // The last grid point at most `capacity`: past its last row a curve is flat.
  const point = curve === undefined ? undefined : curvePoints(curve.histogram).findLast((entry) => entry.capacityBytes <= capacity);
  if (point === undefined) throw new Error(`no curve point at ${capacity} B`);
  return point.hitRatio;
}

describe('hit-ratio curves from a stationary start (docs/curves.md "A stationary start", issue 25 item 2)', () => {
  it('Mattson 1970 from the stationary order: the curve at 31.6 MB, 100 MB and 316 MB within 0.001 of runs with that edge.capacity (each from its own stationary start)', () => {
    expect(CAPACITIES).toEqual([31_622_777, 100_000_000, 316_227_766]);
    const curve = withCurves();
    expect(curve.warmup.start).toBe('stationary');
    const real = CAPACITIES.map((capacity) => buildSummary(runScenario(parseScenarioText(scenarioText(capacity, false), 'curves.yaml'))).edges[0]);
    // Seed 3: the runs measure 0.28104, 0.43571 and 0.65957; the curve reads 0.28104, 0.43571
    // and 0.65970. Before the recorder started from the whole order it started from the
    // 100 MB prefix the cache held and counted every object past it as a first request:
    // 0.0066 low at 316 MB.
    for (const [k, capacity] of CAPACITIES.entries()) expect(Math.abs(curveAt(curve, capacity) - real[k].hitRatio)).toBeLessThan(0.001);
    // The recorder's extra draws come from a stream of their own: the curve run's cache is the run without curves'.
    expect(buildSummary(curve).edges[0]).toEqual(real[1]);
  });

  it("Che's approximation (Fricker et al. 2012, unequal sizes) at the three capacities within 0.005: three standard deviations of 100,000 requests' hit ratio (√(h(1 − h)/N) ≤ 0.0016) and Che's own error (0.011 off at 316 MB before)", () => {
    const scenario = parseScenarioText(scenarioText(CURVE_RUN_CAPACITY, true), 'curves.yaml');
    // The sizes the run drew (the 'content.sizes' stream) and the fill's own Che solver.
    const catalogue = new Catalogue(scenario.content, new RandomStreams(scenario.seed).stream('content.sizes'));
    const buckets = weightBuckets(catalogue.popularity, catalogue.objectSizes, Infinity);
    // Every object has a weight and fits (largest Infinity): the buckets hold the whole 1.06 GB catalogue.
    expect(buckets.ids.length).toBe(catalogue.objectSizes.length);
    expect(catalogue.totalBytes()).toBe(1_060_707_165);
    const che = CAPACITIES.map((capacity) => cheApproximation(buckets.idWeights, buckets.idSizes, capacity).hitRatio);
    expect(che.map((h) => Number(h.toFixed(3)))).toEqual([0.282, 0.439, 0.664]);
    for (const [k, capacity] of CAPACITIES.entries()) expect(Math.abs(curveAt(withCurves(), capacity) - che[k])).toBeLessThan(0.005);
  });

  it('above the catalogue (1.06 GB) the curve is 1: every object the fill drew is in the starting stack, none is a first request (0.8504 when only the held prefix was)', () => {
    expect(curveAt(withCurves(), CURVE_GRID_BYTES[CURVE_GRID_BYTES.length - 1])).toBe(1);
  });
});
