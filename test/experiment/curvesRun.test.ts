import { describe, expect, it } from 'vitest';
import { CURVE_GRID_BYTES, curvePoints } from '../../src/cache/hitRatioCurves.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { curvesCsv } from '../../src/report/curvesCsv.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * Issue 25 item 2's check (docs/curves.md): one run with curves gives every edge's hit ratio
 * at every capacity; runs with edge.capacity set to three grid capacities (31.6 MB, 100 MB,
 * 316 MB) must agree PoP by PoP within 0.001. Immutable content (spec 8.1 row 1), five
 * regional edges (the regions model), 20,000 objects of about 1 GB in all.
 */
function scenarioText(capacity: string, originLatency: string, curves: boolean): string {
  return `
name: curves-check
seed: 5
run:
  requests: 150000
  warmup: 30000
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
  capacity: ${capacity}
topology:
  model: regions
  edgeSites: per-region
  originLatency: ${originLatency}
`;
}

/** The three grid capacities checked: 10^7.5, 10^8 and 10^8.5 bytes. */
const CAPACITIES = [CURVE_GRID_BYTES[288], CURVE_GRID_BYTES[320], CURVE_GRID_BYTES[352]];

function perPop(capacity: number, originLatency: string): { name: string; hitRatio: number; byteHitRatio: number }[] {
  const summary = buildSummary(runScenario(parseScenarioText(scenarioText(`${capacity}B`, originLatency, false), 'curves.yaml')));
  return summary.edges.filter((edge) => edge.requests > 0).map((edge) => ({ name: edge.name, hitRatio: edge.hitRatio, byteHitRatio: edge.byteHitRatio }));
}

function curveAt(result: ReturnType<typeof runScenario>, node: string, capacity: number): { hitRatio: number; byteHitRatio: number } {
  const curve = result.curves?.nodes.find((entry) => entry.node === node);
  // The last point at most `capacity`: past its last row a node's curve is flat.
  const point = curve === undefined ? undefined : curvePoints(curve.histogram).findLast((entry) => entry.capacityBytes <= capacity);
  if (point === undefined) throw new Error(`no curve point for ${node} at ${capacity} B`);
  return point;
}

let zeroLatencyRun: ReturnType<typeof runScenario> | undefined;
/** The run with curves at 100 MB and no fetch time, shared by two tests. */
const zeroLatencyCurves = (): ReturnType<typeof runScenario> => (zeroLatencyRun ??= runScenario(parseScenarioText(scenarioText('100MB', '0ms', true), 'curves.yaml')));

describe('hit-ratio curves from one run against runs at each capacity (issue 25 item 2)', () => {
  it('Mattson 1970 inclusion on the clock: with fetches that take no time, every PoP at 31.6 MB, 100 MB and 316 MB within 0.001 (byte hit ratio too)', () => {
    expect(CAPACITIES).toEqual([31_622_777, 100_000_000, 316_227_766]);
    const withCurves = zeroLatencyCurves();
    expect(withCurves.curves?.nodes.map((node) => node.node)).toEqual(['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa']);
    for (const capacity of CAPACITIES) {
      const real = perPop(capacity, '0ms');
      expect(real).toHaveLength(5);
      for (const pop of real) {
        const curve = curveAt(withCurves, pop.name, capacity);
        expect(Math.abs(curve.hitRatio - pop.hitRatio)).toBeLessThan(0.001);
        expect(Math.abs(curve.byteHitRatio - pop.byteHitRatio)).toBeLessThan(0.001);
      }
    }
  });

  it("with a 100 ms origin the curve is the node's own LRU at its capacity (exact) and an estimate elsewhere (docs/curves.md: coalescing)", () => {
    const withCurves = runScenario(parseScenarioText(scenarioText('100MB', '100ms', true), 'curves.yaml'));
    for (const pop of perPop(100_000_000, '100ms')) expect(curveAt(withCurves, pop.name, 100_000_000).hitRatio).toBeCloseTo(pop.hitRatio, 6);
    // Above the run's capacity the misses the curve misses are few; below it, requests that
    // wait for another's fetch are misses the curve counts as hits (up to 0.03 at 31.6 MB).
    for (const pop of perPop(316_227_766, '100ms')) expect(Math.abs(curveAt(withCurves, pop.name, 316_227_766).hitRatio - pop.hitRatio)).toBeLessThan(0.002);
  });

  it('curves.csv: the aggregate first, then each PoP, from its largest object to where its curve is flat', () => {
    const result = zeroLatencyCurves();
    const lines = curvesCsv(result.curves?.nodes ?? []).trimEnd().split('\n');
    expect(lines[0]).toBe('layer,node,capacityBytes,hitRatio,byteHitRatio');
    expect(lines[1].startsWith('edge,all,')).toBe(true);
    const capacities = lines.slice(1).filter((line) => line.startsWith('edge,Europe,')).map((line) => Number(line.split(',')[2]));
    // 10 MB objects at most (content.objectSize.max): the first row holds the largest the PoP stored.
    expect(capacities[0]).toBeLessThanOrEqual(10_000_000 * 1.04);
    expect(capacities.at(-1)).toBeGreaterThan(CAPACITIES[2]);
    const last = lines.filter((line) => line.startsWith('edge,Europe,')).at(-1)?.split(',');
    // Flat from there: every finite distance is a hit, the rest are first references.
    expect(Number(last?.[3])).toBeLessThan(1);
  });

  it('another eviction policy: no curve for its layer, and a sentence saying why', () => {
    const text = scenarioText('100MB', '0ms', true).replace('  requests: 150000\n  warmup: 30000', '  requests: 2000').replace('edge:\n', 'edge:\n  policy: s3fifo\n');
    const result = runScenario(parseScenarioText(text, 'curves.yaml'));
    expect(result.curves?.nodes).toEqual([]);
    expect(result.curves?.unavailable).toEqual([
      'edge.policy is s3fifo: no edge curve (a curve is read off byte stack distances, which give the hits of LRU alone; docs/curves.md). Sweep edge.capacity instead.',
    ]);
  });
});
