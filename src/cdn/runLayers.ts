import { EDGE_DECISION, REGIONAL_DECISION } from '../policy/compile.js';

/**
 * The layers of one run, worked out once (docs/topology.md "A run's layers"). A run has up to four
 * layers in the order a request meets them (spec 4.9): the client's browser cache (only with
 * `traffic.clients`), the edge PoP, the regional site (only with a regional tier) and the origin.
 * Three numberings meet here, and this module is the only place that relates them:
 *
 * - the **flow layer**: the index of a layer in `names`, which a finished request's `layer`
 *   holds (the deepest layer that answered it) and which RequestMetrics, the recorder, the
 *   time series and the adaptive controller index by;
 * - the **node kind** (NODE_EDGE, NODE_REGIONAL) of a shared cache node, which is also the
 *   index of that layer's counters in `LayeredFlow.layerActivity` and in `nodeNames`;
 * - the **decision layer**: a node kind's slot in the compiled decision table (CACHE_LAYERS).
 */

/** The flow layer of a layer the run does not have: equal to no request's layer; index arrays with a layer only after checking it is ≥ 0. */
export const ABSENT_LAYER = -1;

/** A shared cache node's layer; also the index of that layer's counters (`LayeredFlow.layerActivity`, `RunLayers.nodeNames`). */
export const NODE_EDGE = 0;
export const NODE_REGIONAL = 1;

/** The layers of a run (a frozen value: build it with `runLayers`). */
export interface RunLayers {
  /** Whether clients have browser caches (traffic.clients). */
  readonly browsers: boolean;
  /** Whether a regional tier stands between the PoPs and the origin. */
  readonly tiered: boolean;
  /** Flow layer of the browser: 0, or ABSENT_LAYER without browser caches. */
  readonly browser: number;
  /** Flow layer of the edge: 1 with browser caches, else 0. Layers below it are the browser's. */
  readonly edge: number;
  /** Flow layer of the regional tier: edge + 1, or ABSENT_LAYER without a tier. */
  readonly regional: number;
  /** Flow layer of the origin: the last one. */
  readonly origin: number;
  /** Layer names by flow layer: browser?, edge, regional?, origin. */
  readonly names: readonly string[];
  /** The layers that cache, browser included (the per-request hit ratios' layers): `names` without the origin. */
  readonly cacheNames: readonly string[];
  /** The CDN's node layers by node kind (edge, regional?): the CDN hit ratio's layers and the keys of summary `cdn.layers`. */
  readonly nodeNames: readonly string[];
}

/** The layers of a run with (or without) browser caches and a regional tier. */
export function runLayers(browsers: boolean, tiered: boolean): RunLayers {
  const nodeNames = tiered ? ['edge', 'regional'] : ['edge'];
  const cacheNames = browsers ? ['browser', ...nodeNames] : nodeNames;
  const names = [...cacheNames, 'origin'];
  const edge = browsers ? 1 : 0;
  return Object.freeze({
    browsers,
    tiered,
    browser: browsers ? 0 : ABSENT_LAYER,
    edge,
    regional: tiered ? edge + 1 : ABSENT_LAYER,
    origin: names.length - 1,
    names: Object.freeze(names),
    cacheNames: Object.freeze(cacheNames),
    nodeNames: Object.freeze(nodeNames),
  });
}

/** The decision layer (compiled decision table slot) of node kind `kind`. Small enough to be inlined on the hot path. */
export function decisionLayerOf(kind: number): number {
  return kind === NODE_EDGE ? EDGE_DECISION : REGIONAL_DECISION;
}
