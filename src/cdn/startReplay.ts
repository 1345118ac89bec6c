import { EDGE_DECISION, FLAG_STORE, REGIONAL_DECISION } from '../policy/compile.js';
import type { FlowWiring } from './flowWiring.js';
import { LruCacheNode } from './lruCacheNode.js';
import { STATUS_OK } from './origin.js';
import { storedIsFresh } from './reuseRule.js';

/**
 * A model class's stacks through the caches before the run (docs/traffic-models.md, "The
 * model's warm-up in a run"), with what they leave derived instead of simulated: the same
 * caches, byte for byte and in the same recency order, as `CacheWarmer.warm` leaves them
 * request by request, without the requests' lookups, origin answers, stores and evictions
 * (3.42 M stack objects on the baseline with eu-2, most of them stored and evicted again).
 *
 * Why the outcome is known. At time 0, from empty LRU caches, each PoP's requests are its
 * stacks' objects, each once (a stack holds an object once; classes' ids are disjoint), so
 * every edge lookup misses and every request reaches the PoP's regional site; the origin
 * answers 200 with the version it holds at time 0 and every copy carries the same times, so
 * an entry's fields do not depend on where its answer came from. An LRU cache of capacity C
 * that starts empty and only looks up and stores (nothing removed) always holds the longest
 * run of its most recently used objects, newest first, whose bytes fit in C, objects larger
 * than C left out (a store evicts the least recent until the new object fits; a hit only
 * reorders what it holds). So each cache's final contents are read off its request
 * sequence backwards, and stored oldest first, with no eviction.
 *
 * When the outcome is not that one, `applies` says no and the caller replays request by
 * request: another eviction policy, a cache not empty, curves recording every lookup
 * (docs/curves.md), an origin that may fail or purge (spec 4.7, 7.1, 1.2 item 6), a model
 * class not stored at a layer or not fresh at age 0 at the regional tier (a stale copy is
 * revalidated, spec 4.9). Requests must come to their PoP's edge without misrouting, which
 * the caller checks.
 */
export class LruStartReplay {
  private readonly edges: LruCacheNode[];
  private readonly regionals: LruCacheNode[];
  /** Per edge, its regional site (−1: no regional tier). */
  private readonly regionalOfEdge: Int32Array;
  /** The requests in order: edge, object, bytes, content class. */
  private readonly edgeAt: Int32Array;
  private readonly idAt: Int32Array;
  private readonly bytesAt: Float64Array;
  private readonly classAt: Uint8Array;
  private count = 0;

  /**
   * Whether the derivation gives what request-by-request warming would, for requests of
   * classes `classIds` at time 0 (see the class comment); `recordsCurves`: curves are on.
   */
  static applies(wiring: FlowWiring, classIds: readonly number[], recordsCurves: boolean): boolean {
    if (recordsCurves || !wiring.cdnEnabled || wiring.origin.mayFail) return false;
    const nodes = [...wiring.edges, ...wiring.regionals];
    if (!nodes.every((node) => node instanceof LruCacheNode && node.objectCount === 0)) return false;
    const tiered = wiring.regionals.length > 0;
    if (tiered && !wiring.edges.every((_, edge) => wiring.network.regionalOf(edge) >= 0)) return false;
    const decisions = wiring.decisions;
    // Without a class table every object is class 0 (CacheWarmer.warm).
    for (const c of wiring.classOf === null ? [0] : classIds) {
      if ((decisions.flagsOf(c, EDGE_DECISION) & FLAG_STORE) === 0) return false;
      if (!tiered) continue;
      if ((decisions.flagsOf(c, REGIONAL_DECISION) & FLAG_STORE) === 0) return false;
      if (!storedIsFresh(decisions, c, REGIONAL_DECISION, STATUS_OK, 0, 0)) return false;
    }
    return true;
  }

  constructor(
    private readonly wiring: FlowWiring,
    /** Requests that will be added. */
    requests: number,
  ) {
    this.edges = wiring.edges as LruCacheNode[];
    this.regionals = wiring.regionals as LruCacheNode[];
    this.regionalOfEdge = Int32Array.from(this.edges, (_, edge) => (this.regionals.length > 0 ? wiring.network.regionalOf(edge) : -1));
    this.edgeAt = new Int32Array(requests);
    this.idAt = new Int32Array(requests);
    this.bytesAt = new Float64Array(requests);
    this.classAt = new Uint8Array(requests);
  }

  /**
   * The next request at time 0: the whole of `objectId` at `edge` (the edge its PoP routes
   * to), of content class `classIndex` (the flow's `classOf` of the id; 0 without a class table).
   */
  add(edge: number, objectId: number, sizeBytes: number, classIndex: number): void {
    const i = this.count++;
    this.edgeAt[i] = edge;
    this.idAt[i] = objectId;
    this.bytesAt[i] = sizeBytes;
    this.classAt[i] = classIndex;
  }

  /** Stores in each cache what the requests added leave in it, oldest first. */
  install(): void {
    const kept = new Uint8Array(this.count);
    this.keepEdgeTops(kept);
    if (this.regionals.length > 0) this.keepRegionalTops(kept);
    this.store(kept);
  }

  /** Per edge, its last requests whose bytes fit (each object once: every edge request misses). */
  private keepEdgeTops(kept: Uint8Array): void {
    const edges = this.edges;
    const used = new Float64Array(edges.length);
    const full = new Uint8Array(edges.length);
    for (let i = this.count - 1; i >= 0; i--) {
      const edge = this.edgeAt[i];
      if (full[edge] === 1) continue;
      const bytes = this.bytesAt[i];
      const capacity = edges[edge].capacity;
      // Larger than the cache: never stored, and it evicts nothing (LruCacheNode.put).
      if (bytes > capacity) continue;
      if (used[edge] + bytes > capacity) full[edge] = 1;
      else {
        used[edge] += bytes;
        kept[i] |= KEPT_AT_EDGE;
      }
    }
  }

  /**
   * Per regional site, its distinct objects by their last request, newest first, while
   * their bytes fit: every edge request misses, so a site's requests are all its PoPs'.
   */
  private keepRegionalTops(kept: Uint8Array): void {
    const sites = this.regionals.length;
    // The requests of each site, in order (a counting sort by site).
    const start = new Int32Array(sites + 1);
    let lowest = Infinity;
    let highest = -Infinity;
    for (let i = 0; i < this.count; i++) {
      start[this.regionalOfEdge[this.edgeAt[i]] + 1]++;
      const id = this.idAt[i];
      if (id < lowest) lowest = id;
      if (id > highest) highest = id;
    }
    if (this.count === 0) return;
    for (let r = 0; r < sites; r++) start[r + 1] += start[r];
    const order = new Int32Array(this.count);
    const next = start.slice(0, sites);
    for (let i = 0; i < this.count; i++) order[next[this.regionalOfEdge[this.edgeAt[i]]]++] = i;
    // The site that last saw an object (1 + its number), over the ids the requests span.
    const seenBy = new Int32Array(highest - lowest + 1);
    for (let r = 0; r < sites; r++) {
      const capacity = this.regionals[r].capacity;
      let used = 0;
      for (let k = start[r + 1] - 1; k >= start[r]; k--) {
        const i = order[k];
        const at = this.idAt[i] - lowest;
        // An earlier request of an object already counted is a hit its later one moved up.
        if (seenBy[at] === r + 1) continue;
        seenBy[at] = r + 1;
        const bytes = this.bytesAt[i];
        if (bytes > capacity) continue;
        if (used + bytes > capacity) break;
        used += bytes;
        kept[i] |= KEPT_AT_REGIONAL;
      }
    }
  }

  /**
   * The kept objects stored oldest first (the recency order), node by node, each node grown
   * once beforehand: a node's entries and index stay in the processor's caches while it
   * fills (stored in request order, every store would reach another of 238 nodes).
   */
  private store(kept: Uint8Array): void {
    const { edges, regionals, regionalOfEdge, edgeAt } = this;
    const nodes = edges.length + regionals.length;
    // Node n: edge n, or regional site n − edges; its kept requests in order (a counting sort by node).
    const start = new Int32Array(nodes + 1);
    for (let i = 0; i < this.count; i++) {
      if ((kept[i] & KEPT_AT_EDGE) !== 0) start[edgeAt[i] + 1]++;
      if ((kept[i] & KEPT_AT_REGIONAL) !== 0) start[edges.length + regionalOfEdge[edgeAt[i]] + 1]++;
    }
    for (let n = 0; n < nodes; n++) start[n + 1] += start[n];
    const order = new Int32Array(start[nodes]);
    const next = start.slice(0, nodes);
    for (let i = 0; i < this.count; i++) {
      if ((kept[i] & KEPT_AT_EDGE) !== 0) order[next[edgeAt[i]]++] = i;
      if ((kept[i] & KEPT_AT_REGIONAL) !== 0) order[next[edges.length + regionalOfEdge[edgeAt[i]]]++] = i;
    }
    const { origin, classOf } = this.wiring;
    for (let n = 0; n < nodes; n++) {
      const node = n < edges.length ? edges[n] : regionals[n - edges.length];
      node.reserve(start[n + 1] - start[n]);
      for (let k = start[n]; k < start[n + 1]; k++) {
        const i = order[k];
        const id = this.idAt[i];
        // What the origin sent at time 0, read then (CacheWarmer's fromOrigin): the copy every layer stores.
        // The class as added, not classOf[id]: a read over the catalogue's 16.7 M reserved ids a store.
        node.put(id, this.bytesAt[i], 0, 0, origin.versionAt(id, classOf === null ? 0 : this.classAt[i], 0), STATUS_OK);
      }
    }
  }
}

const KEPT_AT_EDGE = 1;
const KEPT_AT_REGIONAL = 2;
