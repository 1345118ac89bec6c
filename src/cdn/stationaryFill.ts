import { cheApproximation, type CheResult } from '../cache/che.js';
import type { CurveLayer } from '../cache/hitRatioCurves.js';
import { StationaryScratch, stationaryLruOrder, weightBuckets, type WeightBuckets, type WholeStationaryOrder } from '../cache/lruStationary.js';
import { EDGE_DECISION, REGIONAL_DECISION } from '../policy/compile.js';
import type { RandomStream } from '../sim/random.js';
import type { KeyId } from '../sim/ids.js';
import type { CacheNode } from './cacheNode.js';
import type { FlowWiring } from './flowWiring.js';
import { STATUS_OK } from './origin.js';

/** What the fill needs of the catalogue: each object's request probability at the start and its bytes. */
export interface FillCatalogue {
  readonly popularity: Float64Array;
  readonly objectSizes: Float64Array;
}

/**
 * The cache key of an object's whole-object entry the fill places, or −1 to leave the object
 * out (its entries are found by the simulated blocks): with `traffic.clients`, objects read in
 * chunks are left out and the others get their first variant's key.
 */
export type FillKeyOf = (objectId: number) => number;

/** Objects and bytes the fill placed in one layer's caches. */
export interface FillLayerFacts {
  caches: number;
  objects: number;
  bytes: number;
  /** Che's hit ratio of one cache of the layer, on the requests that reach it (the fill's own expectation). */
  cheHitRatio: number;
}

export interface FillFacts {
  edge: FillLayerFacts;
  regional?: FillLayerFacts;
}

/**
 * The hit-ratio curves' recorders a stationary start seeds (docs/curves.md, "A stationary
 * start"): per node layer (edge, regional) the curve layer or null, and the stream that draws
 * the keys the fill itself does not need (past the caches' capacity).
 */
export interface FillCurves {
  readonly layers: readonly (CurveLayer | null)[];
  readonly stream: RandomStream;
}

/**
 * The stationary start of the cache-only warm-up (docs/warmup.md, "A stationary start"):
 * every edge and regional cache filled, through its own `put`, with one draw of LRU's
 * stationary contents under the independent reference model (src/cache/lruStationary.ts).
 *
 * - Edge: the objects' request probabilities are the catalogue's (share × Zipf per class);
 *   every PoP sees the same ones, whatever its rate, so each edge is one independent draw.
 *   An edge that normal routing sends no request (`routedEdges`: nobody's nearest PoP, nor a
 *   misrouting alternate) is empty in its steady state and is left so; only an incident's
 *   rerouting reaches it, and then it starts cold, as it would.
 * - Regional: its requests are the PoPs' misses. With equal edge capacities Che gives every
 *   PoP the same miss probability e^{−p_i x} for object i, so a regional site is asked for
 *   object i in proportion to p_i·e^{−p_i x}, whatever its PoPs' rates; it is filled the same way.
 * - A class a layer does not store has weight 0 there (and passes its requests on whole).
 * - Each entry is stored least recent first, so the cache's eviction order is the drawn
 *   recency order; other eviction policies take the same contents, an approximation.
 * - Ages: an entry's response time is drawn uniformly within its lifetime before the start
 *   (entries renewed at random moments), the version is the origin's at the start. Browsers
 *   start empty. The simulated blocks that follow correct what this leaves out.
 *
 * - Curves (`curves`): each node's stack-distance recorder starts from the whole recency order
 *   its cache's prefix was cut from: every object the layer stores, the same draw continued
 *   past the capacity, so a curve above the node's capacity does not count an object the
 *   cache would hold as a first request (docs/curves.md, "A stationary start").
 *
 * Draws come from `stream` alone (its own name), so the run's other streams are untouched;
 * the recorders' extra draws from `curves.stream`, so the caches are the same with or without.
 */
export function fillStationary(
  wiring: FlowWiring,
  catalogue: FillCatalogue,
  keyOf: FillKeyOf,
  stream: RandomStream,
  curves: FillCurves | null = null,
  routedEdges: Uint8Array | null = null,
): FillFacts {
  const { popularity, objectSizes } = catalogue;
  const n = popularity.length;
  const classOf = wiring.classOf;
  const decisions = wiring.decisions;
  const scratch = new StationaryScratch();
  const out = { ids: new Int32Array(1024) };
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) keys[i] = keyOf(i);

  const edgeWeights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = classOf === null ? 0 : classOf[i];
    if (keys[i] >= 0 && decisions.stores(c, EDGE_DECISION)) edgeWeights[i] = popularity[i];
  }
  const edgeCapacity = maxCapacity(wiring.edges);
  const edgeBuckets = weightBuckets(edgeWeights, objectSizes, edgeCapacity);
  const edgeChe = cheOf(edgeBuckets, edgeCapacity);
  const edgeX = edgeChe.characteristicTime;
  const edge = fillLayer(wiring.edges, edgeBuckets, edgeChe, EDGE_DECISION, wiring, keys, stream, scratch, out, curveOf(curves, 0), routedEdges);
  if (wiring.regionals.length === 0) return { edge };

  // The PoPs' misses: p_i·e^{−p_i x} for what the edge stores, all of p_i for what it passes on.
  const regionalWeights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = classOf === null ? 0 : classOf[i];
    if (keys[i] < 0 || !decisions.stores(c, REGIONAL_DECISION)) continue;
    const p = popularity[i];
    regionalWeights[i] = edgeWeights[i] > 0 && objectSizes[i] <= edgeCapacity ? (edgeX === Infinity ? 0 : p * Math.exp(-p * edgeX)) : p;
  }
  const regionalCapacity = maxCapacity(wiring.regionals);
  const regionalBuckets = weightBuckets(regionalWeights, objectSizes, regionalCapacity);
  const regional = fillLayer(wiring.regionals, regionalBuckets, cheOf(regionalBuckets, regionalCapacity), REGIONAL_DECISION, wiring, keys, stream, scratch, out, curveOf(curves, 1), null);
  return { edge, regional };
}

/** Che's solution for a layer's caches, over the objects they can store (the buckets' ids: weight > 0, size ≤ capacity). */
function cheOf(buckets: WeightBuckets, capacity: number): CheResult {
  return cheApproximation(buckets.idWeights, buckets.idSizes, capacity);
}

function curveOf(curves: FillCurves | null, layer: number): { layer: CurveLayer; stream: RandomStream } | null {
  const curve = curves?.layers[layer] ?? null;
  return curves === null || curve === null ? null : { layer: curve, stream: curves.stream };
}

/** The layer's caches share one capacity (runNetwork builds them alike); the largest is used for all if not. */
function maxCapacity(nodes: readonly CacheNode[]): number {
  let capacity = 0;
  for (const node of nodes) capacity = Math.max(capacity, node.store.capacity);
  return capacity;
}

function fillLayer(
  nodes: readonly CacheNode[],
  buckets: WeightBuckets,
  che: CheResult,
  decisionLayer: number,
  wiring: FlowWiring,
  keys: Int32Array,
  stream: RandomStream,
  scratch: StationaryScratch,
  out: { ids: Int32Array },
  curve: { layer: CurveLayer; stream: RandomStream } | null,
  routed: Uint8Array | null,
): FillLayerFacts {
  const { classOf, decisions, origin } = wiring;
  let objects = 0;
  let bytes = 0;
  const whole: WholeStationaryOrder | undefined = curve === null ? undefined : { stream: curve.stream, ids: new Int32Array(0), count: 0 };
  const seedKeys = new Int32Array(curve === null ? 0 : buckets.ids.length);
  const seedSizes = new Float64Array(curve === null ? 0 : buckets.ids.length);
  let caches = 0;
  for (let j = 0; j < nodes.length; j++) {
    // An edge no client reaches is empty in its steady state (and its curve has no lookups).
    if (routed !== null && routed[j] === 0) continue;
    caches++;
    const node = nodes[j];
    const held = stationaryLruOrder(buckets, node.store.capacity, che.characteristicTime, stream, scratch, out, whole);
    if (curve !== null && whole !== undefined) {
      // Before the puts: they then move the held prefix to the top in the same order (a no-op on the order).
      for (let k = 0; k < whole.count; k++) {
        seedKeys[k] = keys[whole.ids[k]];
        seedSizes[k] = buckets.sizes[whole.ids[k]];
      }
      curve.layer.seed(j, seedKeys, seedSizes, whole.count);
    }
    node.reserve?.(held);
    // Least recent first: each put goes to the front, so the most recent ends there.
    for (let k = held - 1; k >= 0; k--) {
      const i = out.ids[k];
      const c = classOf === null ? 0 : classOf[i];
      const lifetimeMs = decisions.ttlMsOf(c, decisionLayer);
      const responseAtMs = lifetimeMs > 0 && Number.isFinite(lifetimeMs) ? -stream.next() * lifetimeMs : 0;
      const size = buckets.sizes[i];
      const stored = node.put(keys[i] as KeyId, size, responseAtMs, responseAtMs, origin.versionAt(i, c, 0), STATUS_OK);
      if (stored >= 0) {
        objects++;
        bytes += size;
      }
    }
  }
  return { caches, objects, bytes, cheHitRatio: che.hitRatio };
}
