import { BROWSER_DECISION, EDGE_DECISION, FLAG_STORE, REGIONAL_DECISION, type CompiledDecisionTable } from '../policy/compile.js';
import { browserKeyOf, type ClientRequest } from '../workload/request.js';
import type { FlowWiring } from './flowWiring.js';
import { pieceBytes } from './layeredFlow.js';
import { ORIGIN_REFUSED, STATUS_OK } from './origin.js';
import type { CacheNode } from './cacheNode.js';
import { purgedByVersion, purgeReachedDeployMs } from './purge.js';
import { answersFromStore, errorLifetimeMs, freshUntilMs, REUSE_CACHED_ERROR, REUSE_FRESH, REUSE_STALE_WHILE_REVALIDATE, reuseVerdictOf, storedAnswersFailure, storedIsFresh } from './reuseRule.js';
import type { KeyId, SimMs } from '../sim/ids.js';

/** What answered one piece of a request: a node of the CDN, or the origin. */
const SERVED_EDGE = 0;
const SERVED_REGIONAL = 1;
const SERVED_ORIGIN = 2;

/** The same wiring as the layered flow's (one object in runScenario): the warm-up acts on the caches the run measures. */
export type CacheWarmerOptions = FlowWiring;

/** Counts of the requests warmed since the last `resetCounts`. */
export interface WarmCounts {
  /** Requests handed to `warm`. */
  requests: number;
  /** Those that reached the edge (not answered by the browser). */
  atEdge: number;
  /** Those an edge or regional cache answered: the CDN hit ratio's numerator (spec 1.1). */
  cdnHits: number;
  /** Those answered with an error: an origin 5xx, passed on or cached (spec 7.1), or a refused connection. */
  errors: number;
  /** Those the edge answered alone: the edge hit ratio's numerator (spec 1.1). */
  edgeHits: number;
}

/**
 * The cache-only warm-up: a client request applied straight to the caches it would pass,
 * at its arrival time, in no simulated time (spec 4.9's layers with every hop taking 0 ms).
 * Each layer does what `LayeredFlow` does with the answer it gets, by the same compiled
 * policy decisions: a fresh copy answers (its lookup counts for the eviction policy); a
 * miss, an expired copy or a copy that must be revalidated asks the next layer, and the
 * answer is stored with the layer's lifetime counted from when the origin made it
 * (RFC 9111 §4.2.3); a stale copy inside stale-while-revalidate answers and is renewed
 * at once (RFC 5861 §3: the background revalidation, which here takes no time); a 304
 * renews the stored copy (RFC 9111 §4.3.4). An origin 5xx is cached 5 s (spec 7.1), or,
 * where the stored copy may answer in its place (RFC 5861 §4, RFC 9111 §4.2.4), held beside
 * that copy for 5 s, during which the copy answers and nothing goes upstream; a refused
 * connection is answered from the last good copy (spec 4.7 row 1) and stores nothing.
 *
 * No events, no latency, no metrics: only the stores (and the browsers, spec 4.9 layer 1)
 * change, so the measured run that follows starts from caches in the state the same
 * traffic would have left. What it cannot reproduce is time inside the CDN: no request
 * waits for a fetch in flight (coalescing), and a response is stored the moment it is
 * asked for instead of a round trip later.
 */
export class CacheWarmer {
  readonly counts: WarmCounts = { requests: 0, atEdge: 0, cdnHits: 0, edgeHits: 0, errors: 0 };
  /** The answer of the last `fromNode`/`fromOrigin`: the version served, when the origin read it (purges, spec 1.2 item 6) and when it made it. */
  private version = 0;
  private versionAtMs = 0;
  private responseAtMs = 0;
  private status = STATUS_OK;
  /** …and until when the answering node holds an origin error beside that copy (spec 7.1; −∞: none). */
  private errorUntilMs = -Infinity;

  constructor(private readonly options: CacheWarmerOptions) {}

  resetCounts(): void {
    this.counts.requests = 0;
    this.counts.atEdge = 0;
    this.counts.cdnHits = 0;
    this.counts.errors = 0;
    this.counts.edgeHits = 0;
  }

  /** Applies one client request, sent at `request.timeMs`, to the caches. */
  warm(request: ClientRequest): void {
    const { options, counts } = this;
    const nowMs = request.timeMs as SimMs;
    const c = options.classOf === null ? 0 : options.classOf[request.objectId];
    const client = request.clientSlot;
    counts.requests++;
    const browsers = options.browsers;
    // spec 4.9 layer 1, as LayeredFlow.serve: ranges bypass the browser.
    const browserKey = browsers !== null && client >= 0 && request.firstChunk < 0 ? browserKeyOf(request) : -1;
    if (browsers !== null && browserKey >= 0) {
      if (request.newClient === 1) browsers.clear(client);
      if (browsers.lookup(client, browserKey, nowMs)) return;
    }
    counts.atEdge++;
    if (!options.cdnEnabled) return;
    const edge = options.network.popOf(request);
    let deepest = SERVED_EDGE;
    let oldestResponseAtMs = Infinity;
    let ok = true;
    for (let i = 0; i < request.pieces; i++) {
      const served = this.fromNode(options.edges[edge], EDGE_DECISION, edge, (request.key + i) as KeyId, request.objectId, pieceBytes(request, i), c, nowMs);
      if (served > deepest) deepest = served;
      if (this.responseAtMs < oldestResponseAtMs) oldestResponseAtMs = this.responseAtMs;
      if (this.status !== STATUS_OK) ok = false;
    }
    if (deepest < SERVED_ORIGIN) counts.cdnHits++;
    if (!ok) counts.errors++;
    if (deepest === SERVED_EDGE) counts.edgeHits++;
    // The browser keeps the response for its lifetime less the age it arrives with (RFC 9111 §4.2.3).
    if (browsers !== null && browserKey >= 0 && ok && options.decisions.stores(c, BROWSER_DECISION)) {
      const expiresAtMs = freshUntilMs(oldestResponseAtMs, options.decisions.ttlMsOf(c, BROWSER_DECISION));
      if (expiresAtMs > nowMs) browsers.insert(client, browserKey, expiresAtMs);
    }
  }

  /**
   * `key` asked of `node` (an edge at decision layer EDGE_DECISION, or a regional site):
   * returns which layer answered and leaves the answer's version, time and status in fields.
   */
  private fromNode(node: CacheNode, decisionLayer: number, edge: number, key: KeyId, objectId: number, bytes: number, c: number, nowMs: SimMs): number {
    const { decisions, errorClassOf } = this.options;
    const served = decisionLayer === EDGE_DECISION ? SERVED_EDGE : SERVED_REGIONAL;
    // spec 1.2 item 6, by version, as LayeredFlow: once a purge has reached the node, a copy
    // the origin read before its deploy goes on lookup, and an answer read before it is not
    // stored (here, with no time between the hops, every answer is read now, so none is).
    const purgeDeployMs = purgeReachedDeployMs(this.options.origin, c, nowMs, this.options.purgeDelayMs);
    let local = node.lookup(key, nowMs);
    if (local >= 0 && purgedByVersion(node.versionAtOf(local), purgeDeployMs)) {
      node.remove(key);
      local = -1;
    }
    // The reuse rule (src/cdn/reuseRule.ts), as LayeredFlow.lookedUp asks it.
    let staleServed = false;
    let staleVersion = 0;
    let staleVersionAtMs = 0;
    let staleResponseAtMs = 0;
    let staleErrorUntilMs = -Infinity;
    if (local >= 0) {
      const status = node.statusOf(local);
      const responseAtMs = node.responseAtOf(local);
      // The common case first, as the flow's fast path: a fresh copy answers.
      if (storedIsFresh(decisions, c, decisionLayer, status, responseAtMs, nowMs)) return this.answered(node, local, served, -Infinity);
      const errorUntilMs = node.errorUntilOf(local);
      const verdict = reuseVerdictOf(decisions, errorClassOf, c, decisionLayer, status, responseAtMs, errorUntilMs, nowMs);
      if (verdict === REUSE_STALE_WHILE_REVALIDATE) {
        // RFC 5861 §3: the stale copy answers; the background revalidation (no time here) goes upstream now.
        staleServed = true;
        staleVersion = node.versionOf(local);
        staleVersionAtMs = node.versionAtOf(local);
        staleResponseAtMs = node.responseAtOf(local);
        staleErrorUntilMs = errorUntilMs;
      } else if (answersFromStore(verdict)) {
        // Fresh, a cached error (spec 7.1), or a stale copy while an error is held beside it: nothing goes upstream.
        return this.answered(node, local, served, verdict === REUSE_FRESH || verdict === REUSE_CACHED_ERROR ? -Infinity : errorUntilMs);
      }
    }
    const upstream =
      decisionLayer === EDGE_DECISION && this.options.regionals.length > 0
        ? this.fromNode(this.options.regionals[this.options.network.regionalOf(edge)], REGIONAL_DECISION, edge, key, objectId, bytes, c, nowMs)
        : this.fromOrigin(objectId, c, nowMs);
    // Purged on arrival: never here, with hops of 0 ms, but both paths read alike.
    const storable = !purgedByVersion(this.versionAtMs, purgeDeployMs);
    if (this.status === STATUS_OK) {
      if ((decisions.flagsOf(c, decisionLayer) & FLAG_STORE) !== 0) {
        if (storable) {
          let stored = local;
          if (local >= 0 && node.statusOf(local) === STATUS_OK && node.versionOf(local) === this.version) node.renew(local, this.responseAtMs);
          else stored = node.put(key, bytes, this.versionAtMs, this.responseAtMs, this.version, STATUS_OK);
          // The next layer's copy in place of an error it holds: held here too (spec 7.1).
          if (this.errorUntilMs > nowMs && stored >= 0) node.holdError(stored, this.errorUntilMs);
        }
      } else if (local >= 0) {
        node.remove(key);
      }
      return staleServed ? this.answeredStale(served, staleVersion, staleVersionAtMs, staleResponseAtMs, staleErrorUntilMs) : upstream;
    }
    // spec 4.7 row 1, RFC 5861 §4: the last good copy instead of the error, when the rule allows it
    // (a 5xx: explicit permission only, RFC 9111 §4.2.4).
    const usable = local >= 0 && storedAnswersFailure(decisions, c, decisionLayer, node.statusOf(local), node.responseAtOf(local), this.status, nowMs);
    // spec 7.1: an origin error without explicit freshness is cached 5 s from when it was made, or held beside a usable copy.
    const errorLifetime = errorLifetimeMs(decisions, errorClassOf, this.status, decisionLayer);
    if (usable) {
      let errorUntilMs = -Infinity;
      if (errorLifetime >= 0) {
        errorUntilMs = freshUntilMs(this.responseAtMs, errorLifetime);
        node.holdError(local, errorUntilMs);
      }
      // Inside stale-while-revalidate the copy answered before its revalidation failed (as in the
      // flow), so it carries down only what was held then, not the error just heard (spec 7.1).
      return staleServed ? this.answeredStale(served, staleVersion, staleVersionAtMs, staleResponseAtMs, staleErrorUntilMs) : this.answered(node, local, served, errorUntilMs);
    }
    if (errorLifetime >= 0 && storable) node.put(key, 0, this.versionAtMs, this.responseAtMs, this.version, this.status);
    // Inside stale-while-revalidate the stale copy was the answer whatever the revalidation heard.
    return staleServed ? this.answeredStale(served, staleVersion, staleVersionAtMs, staleResponseAtMs, staleErrorUntilMs) : upstream;
  }

  /** `node`'s entry answered, carrying `errorUntilMs`: the error held beside it, as the flow passes it down (−∞: none). */
  private answered(node: CacheNode, local: number, served: number, errorUntilMs: number): number {
    this.version = node.versionOf(local);
    this.versionAtMs = node.versionAtOf(local);
    this.responseAtMs = node.responseAtOf(local);
    this.status = node.statusOf(local);
    this.errorUntilMs = errorUntilMs;
    return served;
  }

  /** A stale copy read before the node's store changed answered (stale-while-revalidate, RFC 5861 §3). */
  private answeredStale(served: number, version: number, versionAtMs: number, responseAtMs: number, errorUntilMs: number): number {
    this.version = version;
    this.versionAtMs = versionAtMs;
    this.responseAtMs = responseAtMs;
    this.status = STATUS_OK;
    this.errorUntilMs = errorUntilMs;
    return served;
  }

  private fromOrigin(objectId: number, c: number, nowMs: number): number {
    const origin = this.options.origin;
    this.status = origin.statusAt(nowMs);
    this.version = origin.versionAt(objectId, c, nowMs);
    this.versionAtMs = nowMs;
    this.responseAtMs = nowMs;
    this.errorUntilMs = -Infinity;
    return SERVED_ORIGIN;
  }
}
