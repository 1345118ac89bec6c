import { CurveLayer, type NodeCurve } from '../cache/hitRatioCurves.js';
import { LruCacheNode } from '../cdn/lruCacheNode.js';
import type { CacheNode } from '../cdn/cacheNode.js';
import type { Scenario } from '../scenario/schema.js';
import type { RunNetwork } from './runNetwork.js';

/** A run's hit-ratio curves (docs/curves.md): one per LRU node, and why a layer has none. */
export interface RunCurves {
  nodes: NodeCurve[];
  /** A sentence per layer without curves (another eviction policy). */
  unavailable: string[];
}

/** The curve layers a run records into, per node layer (edge, regional), null where none. */
export interface CurveSetup {
  layers: [CurveLayer | null, CurveLayer | null];
  unavailable: string[];
}

/**
 * With `run.curves`, hooks a curve layer into every LRU node of the edge and regional layers
 * (their lookups feed it, from the cache-only warm-up on); a layer with another eviction
 * policy gets none, with a sentence saying why: only LRU's hits are read off stack distances.
 */
export function setUpCurves(scenario: Scenario, network: RunNetwork): CurveSetup | null {
  if (!scenario.run.curves) return null;
  const unavailable: string[] = [];
  const layerFor = (name: string, policy: string, nodes: readonly CacheNode[]): CurveLayer | null => {
    if (nodes.length === 0) return null;
    if (!nodes.every((node) => node instanceof LruCacheNode)) {
      unavailable.push(
        `${name}.policy is ${policy}: no ${name} curve (a curve is read off byte stack distances, which give the hits of LRU alone; docs/curves.md). Sweep ${name}.capacity instead.`,
      );
      return null;
    }
    const layer = new CurveLayer(name, nodes.length);
    nodes.forEach((node, i) => (node as LruCacheNode).recordCurve(layer, i));
    return layer;
  };
  return {
    layers: [layerFor('edge', scenario.edge.policy, network.edges), layerFor('regional', scenario.regional.policy, network.regionals)],
    unavailable,
  };
}

/** Each node's histogram, named as summary.json names the node (a PoP's code, a regional site's). */
export function runCurves(setup: CurveSetup, network: RunNetwork): RunCurves {
  const nodes: NodeCurve[] = [];
  const [edge, regional] = setup.layers;
  if (edge !== null) network.edgeNodes.forEach((place, i) => nodes.push({ layer: 'edge', node: place.name, histogram: edge.histogram(i) }));
  if (regional !== null) network.regionalNodes.forEach((place, i) => nodes.push({ layer: 'regional', node: place.name, histogram: regional.histogram(i) }));
  return { nodes, unavailable: setup.unavailable };
}
