import { describe, expect, it } from 'vitest';
import { capacityFor, CURVE_BUCKETS, CURVE_GRID_BYTES, type NodeCurveHistogram } from '../../src/cache/hitRatioCurves.js';
import { planLayer, storageByTarget, withPlannedCapacities, type PlanNodeInput } from '../../src/experiment/capacityPlan.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const BEYOND = CURVE_BUCKETS - 1;

/** A histogram of lookups per bucket (no bytes needed by the plan; the largest object fits the first bucket). */
function histogram(lookups: Record<number, number>): NodeCurveHistogram {
  const requests = new Float64Array(CURVE_BUCKETS);
  for (const [bucket, count] of Object.entries(lookups)) requests[Number(bucket)] = count;
  return { requests, bytes: new Float64Array(CURVE_BUCKETS), largestBytes: 0 };
}

/**
 * Four nodes, by hand (grid[0] = 1 KB, grid[64] = 10 KB, grid[128] = 100 KB):
 * A: 5 lookups within 1 KB, 3 within 10 KB, 2 first lookups: 80 % at 10 KB, at most 80 %.
 * B: 9 within 1 KB, 1 first: 90 % at 1 KB. C: 5 within 100 KB, 5 first: at most 50 %.
 * D: no lookups.
 */
const NODES: PlanNodeInput[] = [
  { code: 'AAA', region: 'Europe', histogram: histogram({ 0: 5, 64: 3, [BEYOND]: 2 }) },
  { code: 'BBB', region: 'Europe', histogram: histogram({ 0: 9, [BEYOND]: 1 }) },
  { code: 'CCC', region: 'Africa', histogram: histogram({ 128: 5, [BEYOND]: 5 }) },
  { code: 'DDD', region: 'Africa', histogram: histogram({}) },
];

describe('capacity plan (docs/plan.md, issue 25 item 3): each node from its own curve', () => {
  it('the grid the hand figures use', () => {
    expect([CURVE_GRID_BYTES[0], CURVE_GRID_BYTES[64], CURVE_GRID_BYTES[128]]).toEqual([1_000, 10_000, 100_000]);
  });

  it('a node meeting the target gets capacityFor\'s answer; unreachable: where its curve turns flat; idle: the smallest size of a node with lookups', () => {
    const plan = planLayer(NODES, 0.8);
    expect(plan.nodes.map((node) => [node.code, node.status, node.capacityBytes, node.maxHitRatio, node.predictedHitRatio])).toEqual([
      ['AAA', 'met', 10_000, 0.8, 0.8],
      ['BBB', 'met', 1_000, 0.9, 0.9],
      ['CCC', 'unreachable', 100_000, 0.5, 0.5],
      ['DDD', 'idle', 1_000, 0, 0],
    ]);
    for (const node of NODES.slice(0, 2)) expect(capacityFor(node.histogram, 0.8)).toMatchObject({ reached: true, capacityBytes: plan.nodes.find((n) => n.code === node.code)!.capacityBytes });
  });

  it('an idle node gets the smallest size of any node with lookups, an unreachable one included (it has nothing to hold)', () => {
    // E: one hit within 1 KB, nine first lookups: at most 10 %, flat from 1 KB.
    const plan = planLayer([NODES[0], { code: 'EEE', histogram: histogram({ 0: 1, [BEYOND]: 9 }) }, NODES[3]], 0.8);
    expect(plan.nodes.map((node) => [node.code, node.status, node.capacityBytes])).toEqual([
      ['AAA', 'met', 10_000],
      ['EEE', 'unreachable', 1_000],
      ['DDD', 'idle', 1_000],
    ]);
  });

  it('one size for all is the largest size a node that meets the target needs (10 KB): at it, every such node meets it', () => {
    const plan = planLayer(NODES, 0.8);
    expect(plan.uniformCapacityBytes).toBe(10_000);
    expect(plan.nodes.map((node) => node.uniformHitRatio)).toEqual([0.8, 0.9, 0, 0]);
  });

  it('totals: the per-region sums add up to the whole, planned and uniform (identity), and the hit ratios over the layer', () => {
    const plan = planLayer(NODES, 0.8);
    expect(plan.byRegion).toEqual([
      { region: 'Europe', nodes: 2, plannedBytes: 11_000, uniformBytes: 20_000 },
      { region: 'Africa', nodes: 2, plannedBytes: 101_000, uniformBytes: 20_000 },
    ]);
    expect(plan.total).toEqual({ region: 'all', nodes: 4, plannedBytes: 112_000, uniformBytes: 40_000 });
    expect(plan.byRegion.reduce((sum, region) => sum + region.plannedBytes, 0)).toBe(plan.total.plannedBytes);
    expect(plan.byRegion.reduce((sum, region) => sum + region.uniformBytes, 0)).toBe(plan.total.uniformBytes);
    expect(plan.total.plannedBytes).toBe(plan.nodes.reduce((sum, node) => sum + node.capacityBytes, 0));
    // 8 + 9 + 5 of 30 lookups with the plan; 8 + 9 + 0 at 10 KB for all.
    expect(plan.layerHitRatio.planned).toBeCloseTo(22 / 30, 12);
    expect(plan.layerHitRatio.uniform).toBeCloseTo(17 / 30, 12);
  });

  it('a target above every node\'s maximum leaves no uniform size (the command\'s exit 2)', () => {
    const plan = planLayer(NODES, 0.95);
    expect(plan.uniformCapacityBytes).toBeNull();
    expect(plan.nodes.map((node) => node.status)).toEqual(['unreachable', 'unreachable', 'unreachable', 'idle']);
  });

  it('storage against the target: both ways, up to the highest target a node reaches (90 %)', () => {
    const points = storageByTarget(NODES, 0.8, 0.05);
    expect(points.map((point) => point.target)).toEqual([0.8, 0.85, 0.9]);
    // At 85 % and 90 % only B meets it (1 KB): A and C are sized flat (10 KB, 100 KB), D as B.
    expect(points[1]).toEqual({ target: 0.85, plannedBytes: 10_000 + 1_000 + 100_000 + 1_000, uniformBytes: 4_000 });
  });
});

/**
 * The plan on a small topology and its confirmation (issue 25 item 3's test): the regions
 * model's five edges with very different rates (Europe 70 %, North America 25 %, Africa 5 %,
 * none elsewhere), immutable content (spec 8.1 row 1: no expiry in the run), fetches that take
 * no time (originLatency 0ms), the same seed. Then every lookup of the confirmation is the
 * first run's, no request waits for a fetch, and an LRU at capacity C hits exactly the lookups
 * whose byte stack distance is at most C (docs/curves.md), from the largest object up, where
 * capacityFor starts. So each edge's confirmed hit ratio is its predicted one: the tolerance is
 * summary.json's rounding to 6 decimals, 5e-7.
 */
function smallTopology(extra = ''): string {
  return `
name: plan-check
seed: 9
run: { requests: 120000, warmup: 30000 }
traffic:
  rate: 20k/s
  regions: { Europe: 70%, North America: 25%, Africa: 5% }
content:
  objects: 20000
  zipfExponent: 0.8
  objectSize: { median: 32KB, sigma: 1, min: 100B, max: 10MB }
  headers: { profile: guidance-static-assets }
edge:
  capacity: 300MB
${extra}
topology:
  model: regions
  edgeSites: per-region
  originLatency: 0ms
`;
}

describe('plan and confirmation on a small topology (spec 8.1 row 1 content; RFC 9111 4.2: fresh for the whole run)', () => {
  it('capacities are capacityFor\'s on each curve, and the confirmation meets the target at each edge with traffic, as predicted', () => {
    const scenario = parseScenarioText(smallTopology(), 'plan-check.yaml');
    const first = runScenario({ ...scenario, run: { ...scenario.run, curves: true } });
    const curves = first.curves!.nodes.filter((curve) => curve.layer === 'edge');
    const target = 0.45;
    const plan = planLayer(
      curves.map((curve) => ({ code: curve.node, region: curve.node, histogram: curve.histogram })),
      target,
    );
    const busy = plan.nodes.filter((node) => node.status !== 'idle');
    expect(busy.map((node) => node.code)).toEqual(['North America', 'Europe', 'Africa']);
    for (const node of busy) {
      const answer = capacityFor(curves.find((curve) => curve.node === node.code)!.histogram, target);
      expect(answer.reached).toBe(true);
      if (answer.reached) expect(node.capacityBytes).toBe(answer.capacityBytes);
    }
    // The rates differ 14-fold; Africa's 5 % sees the most first lookups (its maximum is 48 %), so it needs the most room per hit.
    const planned = withPlannedCapacities(scenario, 'edge', plan);
    expect(planned.edge.capacity).toBe(plan.uniformCapacityBytes);
    const confirmation = buildSummary(runScenario(planned));
    for (const node of busy) {
      const edge = confirmation.edges.find((row) => row.name === node.code)!;
      expect(edge.capacityBytes ?? planned.edge.capacity).toBe(node.capacityBytes);
      expect(Math.abs(edge.hitRatio - node.predictedHitRatio)).toBeLessThanOrEqual(5e-7);
      expect(edge.hitRatio).toBeGreaterThanOrEqual(target - 5e-7);
    }
  }, 120_000);
});
