import type { Scenario } from '../scenario/schema.js';
import { REGIONS } from '../topology/regions.js';
import { capacityFor, curveBucketOf, curvePoints, CURVE_BUCKETS, CURVE_GRID_BYTES, type NodeCurveHistogram } from '../cache/hitRatioCurves.js';

const isRegion = (name: string): boolean => (REGIONS as readonly string[]).includes(name);

/**
 * `cdnsim plan` (issue 25 item 3, docs/plan.md): each node of a cache layer sized from its
 * own hit-ratio curve (Sundarrajan et al., CoNEXT 2017), against one size for all that meets
 * the same target. Pure functions of the curves; the command runs and confirms them.
 */

/** One node of a layer as the plan reads it: its code, region and measured lookups' curve. */
export interface PlanNodeInput {
  code: string;
  region?: string;
  histogram: NodeCurveHistogram;
}

/** What the plan gives a node. */
export interface PlannedNode {
  code: string;
  region?: string;
  /** Measured lookups at the node (the curve's requests). */
  lookups: number;
  /** The hit ratio of an unbounded cache: 1 − the share of first lookups (and distances beyond 10 PB). */
  maxHitRatio: number;
  /**
   * `met`: the smallest grid capacity reaching the target; `unreachable`: the target is above
   * its maximum, and it gets the smallest capacity giving that maximum; `idle`: no measured
   * lookup, and it gets the smallest capacity of a node with lookups (it has nothing to hold).
   */
  status: 'met' | 'unreachable' | 'idle';
  capacityBytes: number;
  /** The curve's hit ratio at capacityBytes. */
  predictedHitRatio: number;
  /** The curve's hit ratio at the uniform capacity (null without one). */
  uniformHitRatio: number | null;
}

/** Storage of the plan and of one size for all, in a region or in all. */
export interface StorageTotals {
  region: string;
  nodes: number;
  plannedBytes: number;
  uniformBytes: number;
}

export interface LayerPlan {
  target: number;
  nodes: PlannedNode[];
  /** The smallest capacity at which every node with lookups that can meet the target meets it (the largest planned one); null when none can. */
  uniformCapacityBytes: number | null;
  /** Per region (in first-appearance order), then nothing else: `all` is `total`. */
  byRegion: StorageTotals[];
  total: StorageTotals;
  /** The layer's per-lookup hit ratio on the curves: with the plan, with the uniform capacity. */
  layerHitRatio: { planned: number; uniform: number | null };
}

/** Lookups of a histogram, and those hitting at `capacityBytes` (distances ≤ it; exact at a grid capacity). */
export function hitRatioAt(histogram: NodeCurveHistogram, capacityBytes: number): { lookups: number; hits: number } {
  const last = curveBucketOf(capacityBytes);
  let lookups = 0;
  let hits = 0;
  for (let b = 0; b < CURVE_BUCKETS; b++) {
    lookups += histogram.requests[b];
    // A capacity between two grid capacities counts only the buckets wholly within it.
    if (b < last || (b === last && CURVE_GRID_BYTES[b] <= capacityBytes)) hits += histogram.requests[b];
  }
  return { lookups, hits };
}

const ratio = (part: { lookups: number; hits: number }): number => (part.lookups === 0 ? 0 : part.hits / part.lookups);

/** The smallest grid capacity at which the curve gives its maximum (where it turns flat). */
function flatCapacity(histogram: NodeCurveHistogram): number {
  const points = curvePoints(histogram);
  const top = points[points.length - 1].hitRatio;
  return points.find((point) => point.hitRatio >= top)!.capacityBytes;
}

/**
 * Sizes each node for `target` (a hit ratio per lookup): the smallest grid capacity reaching
 * it (capacityFor); a node whose maximum is below the target gets the size of its maximum; a
 * node without lookups the smallest size of a node with lookups. The uniform capacity
 * is the largest planned one among those that met it: one size for all must be that large for
 * each of them to meet it, and is then enough for all (curves only rise).
 */
export function planLayer(inputs: readonly PlanNodeInput[], target: number): LayerPlan {
  const sized = inputs.map((input) => {
    const answer = capacityFor(input.histogram, target);
    const lookups = hitRatioAt(input.histogram, Infinity).lookups;
    if (lookups === 0) return { input, lookups, maxHitRatio: 0, status: 'idle' as const, capacityBytes: 0 };
    if (answer.reached) {
      // No finite target is above every ratio: the answer is the unbounded cache's.
      const max = capacityFor(input.histogram, Infinity);
      return { input, lookups, maxHitRatio: max.reached ? 1 : max.maxHitRatio, status: 'met' as const, capacityBytes: answer.capacityBytes };
    }
    return { input, lookups, maxHitRatio: answer.maxHitRatio, status: 'unreachable' as const, capacityBytes: flatCapacity(input.histogram) };
  });
  const metSizes = sized.filter((node) => node.status === 'met').map((node) => node.capacityBytes);
  const uniform = metSizes.length === 0 ? null : Math.max(...metSizes);
  const busySizes = sized.filter((node) => node.status !== 'idle').map((node) => node.capacityBytes);
  const smallest = busySizes.length === 0 ? CURVE_GRID_BYTES[0] : Math.min(...busySizes);
  const nodes: PlannedNode[] = sized.map((node) => {
    const capacityBytes = node.status === 'idle' ? smallest : node.capacityBytes;
    return {
      code: node.input.code,
      ...(node.input.region === undefined ? {} : { region: node.input.region }),
      lookups: node.lookups,
      maxHitRatio: node.maxHitRatio,
      status: node.status,
      capacityBytes,
      predictedHitRatio: ratio(hitRatioAt(node.input.histogram, capacityBytes)),
      uniformHitRatio: uniform === null ? null : ratio(hitRatioAt(node.input.histogram, uniform)),
    };
  });
  const totals = (region: string, of: readonly PlannedNode[]): StorageTotals => ({
    region,
    nodes: of.length,
    plannedBytes: of.reduce((sum, node) => sum + node.capacityBytes, 0),
    uniformBytes: uniform === null ? 0 : uniform * of.length,
  });
  const regions = [...new Set(nodes.map((node) => node.region ?? ''))];
  const layerAt = (capacityOf: (i: number) => number) => {
    let lookups = 0;
    let hits = 0;
    inputs.forEach((input, i) => {
      const part = hitRatioAt(input.histogram, capacityOf(i));
      lookups += part.lookups;
      hits += part.hits;
    });
    return ratio({ lookups, hits });
  };
  return {
    target,
    nodes,
    uniformCapacityBytes: uniform,
    byRegion: regions.map((region) => totals(region, nodes.filter((node) => (node.region ?? '') === region))),
    total: totals('all', nodes),
    layerHitRatio: { planned: layerAt((i) => nodes[i].capacityBytes), uniform: uniform === null ? null : layerAt(() => uniform) },
  };
}

/** The highest maximum over the nodes with lookups (what an unbounded cache gives the best of them), 0 without lookups. */
export function highestMaxHitRatio(plan: LayerPlan): number {
  return plan.nodes.reduce((best, node) => (node.status === 'idle' ? best : Math.max(best, node.maxHitRatio)), 0);
}

/** One point of the storage-against-target chart: both plans' total storage for a target. */
export interface StoragePoint {
  target: number;
  plannedBytes: number;
  uniformBytes: number;
}

/**
 * Total storage of per-node and of uniform sizing against the target every node with lookups
 * meets, for targets from `from` in steps of `step` up to the highest a node can reach.
 */
export function storageByTarget(inputs: readonly PlanNodeInput[], from = 0.5, step = 0.01): StoragePoint[] {
  const points: StoragePoint[] = [];
  for (let k = 0; ; k++) {
    const target = Math.round((from + k * step) * 1e6) / 1e6;
    if (target > 1) break;
    const plan = planLayer(inputs, target);
    if (plan.uniformCapacityBytes === null) break;
    points.push({ target, plannedBytes: plan.total.plannedBytes, uniformBytes: plan.total.uniformBytes });
  }
  return points;
}

/**
 * The scenario with the plan's capacities: every node named in capacityByPop (capacityBySite),
 * the layer's `capacity` the uniform size (delete the per-node mapping to run one size for all).
 */
export function withPlannedCapacities(scenario: Scenario, layer: 'edge' | 'regional', plan: LayerPlan): Scenario {
  const byNode = Object.fromEntries(plan.nodes.map((node) => [node.code, node.capacityBytes]));
  const capacity = plan.uniformCapacityBytes ?? scenario[layer].capacity;
  if (layer === 'edge') {
    const { capacityByRegion: _dropped, ...edge } = scenario.edge;
    if (scenario.topology.model === 'pops') return { ...scenario, edge: { ...edge, capacity, capacityByPop: byNode } };
    // The regions model: an edge per region is sized by region; its single global edge by `capacity` alone.
    if (plan.nodes.length === 1 && !isRegion(plan.nodes[0].code)) return { ...scenario, edge: { ...edge, capacity: plan.nodes[0].capacityBytes } };
    return { ...scenario, edge: { ...edge, capacity, capacityByRegion: byNode } };
  }
  const { capacityByRegion: _dropped, ...regional } = scenario.regional;
  return { ...scenario, regional: { ...regional, capacity, capacityBySite: byNode } };
}
