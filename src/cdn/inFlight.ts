/**
 * The records a layered flow keeps while requests are in flight, in typed arrays with free
 * lists (no object per request, DESIGN "Hot path"):
 * - a pending client request: when it was sent, what it asked for, how many of its pieces
 *   (5 MB chunks, spec 4.8) are still to come, and the worst of what they got so far;
 * - a fetch: one node asking the next layer for one key, with the requests and downstream
 *   fetches waiting for it (request coalescing) and, once answered, the response it carries.
 */

/** Doubles a typed array to at least `length`, keeping its contents. */
function grown<T extends Float64Array | Int32Array | Int16Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}

/** Ids with a free list: `take` an id, `release` it; `capacity` grows by doubling. */
class IdPool {
  private free = new Int32Array(64);
  private freeCount = 0;
  private highWater = 0;
  live = 0;

  constructor(public capacity: number) {}

  /** A free id; `grow` is called first when the pool must grow. */
  take(grow: (capacity: number) => void): number {
    this.live++;
    if (this.freeCount > 0) return this.free[--this.freeCount];
    if (this.highWater === this.capacity) {
      this.capacity *= 2;
      grow(this.capacity);
    }
    return this.highWater++;
  }

  release(id: number): void {
    this.live--;
    if (this.freeCount === this.free.length) this.free = grown(this.free, this.free.length * 2);
    this.free[this.freeCount++] = id;
  }
}

/** Client requests in flight: sent, not yet answered. */
export class PendingRequests {
  private readonly ids = new IdPool(256);
  sendMs = new Float64Array(256);
  clientLegMs = new Float64Array(256);
  /** When the last piece reached the PoP on its way back. */
  doneAtMs = new Float64Array(256);
  /** Oldest origin response time among the pieces (RFC 9111 §4.2.3 age). */
  responseAtMs = new Float64Array(256);
  seq = new Float64Array(256);
  sizeBytes = new Float64Array(256);
  objectId = new Int32Array(256);
  key = new Int32Array(256);
  classId = new Int32Array(256);
  edge = new Int32Array(256);
  clientSlot = new Int32Array(256);
  piecesLeft = new Int32Array(256);
  /** Lowest content version among the pieces. */
  version = new Int32Array(256);
  /** Deepest flow layer that answered a piece. */
  layer = new Int32Array(256);
  /** OUTCOME_* bits of all pieces. */
  outcome = new Int32Array(256);
  /** 200, or the error status a piece got. */
  status = new Int16Array(256);
  region = new Uint8Array(256);

  get inFlight(): number {
    return this.ids.live;
  }

  take(): number {
    return this.ids.take(this.growTo);
  }

  /** Made once: a closure built at each take() would be an allocation per request. */
  private readonly growTo = (n: number): void => {
    this.sendMs = grown(this.sendMs, n);
    this.clientLegMs = grown(this.clientLegMs, n);
    this.doneAtMs = grown(this.doneAtMs, n);
    this.responseAtMs = grown(this.responseAtMs, n);
    this.seq = grown(this.seq, n);
    this.sizeBytes = grown(this.sizeBytes, n);
    this.objectId = grown(this.objectId, n);
    this.key = grown(this.key, n);
    this.classId = grown(this.classId, n);
    this.edge = grown(this.edge, n);
    this.clientSlot = grown(this.clientSlot, n);
    this.piecesLeft = grown(this.piecesLeft, n);
    this.version = grown(this.version, n);
    this.layer = grown(this.layer, n);
    this.outcome = grown(this.outcome, n);
    this.status = grown(this.status, n);
    this.region = grown(this.region, n);
  };

  release(id: number): void {
    this.ids.release(id);
  }
}

/** FetchTable.stage: a free slot; sent and travelling up; arrived at the next layer (waiting, or answered without a body); answered with a body travelling back. */
export const FETCH_FREE = 0;
export const FETCH_SENT = 1;
export const FETCH_ARRIVED = 2;
export const FETCH_BODY_RETURNING = 3;

/**
 * Fetches in flight and who waits for each. A waiter is a pending request (encoded −1 − id)
 * or a downstream fetch (its id ≥ 0): an edge's fetch waiting on its regional site's.
 */
export class FetchTable {
  private readonly ids = new IdPool(256);
  /** NODE_EDGE or NODE_REGIONAL: the layer of the node that fetches. */
  nodeKind = new Uint8Array(256);
  node = new Int32Array(256);
  key = new Int32Array(256);
  objectId = new Int32Array(256);
  classId = new Int32Array(256);
  bytes = new Float64Array(256);
  /** One way of the hop to the next layer, ms: the response takes as long to come back. */
  halfHopMs = new Float64Array(256);
  /** The version the fetching node holds and validates (a conditional request), −1 for none. */
  haveVersion = new Int32Array(256);
  waiterHead = new Int32Array(256);
  // The response, once the next layer has answered.
  status = new Int16Array(256);
  version = new Int32Array(256);
  responseAtMs = new Float64Array(256);
  /** The flow layer that answered. */
  servedLayer = new Int32Array(256);
  /** OUTCOME_* bits the answer carries (stale served upstream, a cached error, …). */
  outcome = new Int32Array(256);
  /** FETCH_* stage: where the fetch is on its way, for the conservation counts of what is underway (docs/conservation.md). */
  stage = new Uint8Array(256);

  private waiterTarget = new Int32Array(1024);
  private waiterNext = new Int32Array(1024);
  private readonly waiterIds = new IdPool(1024);
  private readonly growWaitersTo = (n: number): void => {
    this.waiterTarget = grown(this.waiterTarget, n);
    this.waiterNext = grown(this.waiterNext, n);
  };

  get inFlight(): number {
    return this.ids.live;
  }

  take(): number {
    const id = this.ids.take(this.growTo);
    this.waiterHead[id] = -1;
    this.outcome[id] = 0;
    this.stage[id] = FETCH_SENT;
    return id;
  }

  /** Made once: a closure built at each take() would be an allocation per fetch. */
  private readonly growTo = (n: number): void => {
    this.nodeKind = grown(this.nodeKind, n);
    this.node = grown(this.node, n);
    this.key = grown(this.key, n);
    this.objectId = grown(this.objectId, n);
    this.classId = grown(this.classId, n);
    this.bytes = grown(this.bytes, n);
    this.halfHopMs = grown(this.halfHopMs, n);
    this.haveVersion = grown(this.haveVersion, n);
    this.waiterHead = grown(this.waiterHead, n);
    this.status = grown(this.status, n);
    this.version = grown(this.version, n);
    this.responseAtMs = grown(this.responseAtMs, n);
    this.servedLayer = grown(this.servedLayer, n);
    this.outcome = grown(this.outcome, n);
    this.stage = grown(this.stage, n);
  };

  /** Adds a waiter (−1 − request id, or a fetch id) to fetch `id`. Waiters are answered in the order they came. */
  addWaiter(id: number, waiter: number): void {
    const w = this.waiterIds.take(this.growWaitersTo);
    this.waiterTarget[w] = waiter;
    // Prepended here; takeWaiters reverses the list, so the first to come is answered first.
    this.waiterNext[w] = this.waiterHead[id];
    this.waiterHead[id] = w;
  }

  /**
   * Detaches the waiters of fetch `id` in arrival order: returns the first list cell (−1
   * for none); read each with `waiterOf` and step with `nextWaiter`, which frees the cell.
   */
  takeWaiters(id: number): number {
    let previous = -1;
    let cell = this.waiterHead[id];
    while (cell !== -1) {
      const next = this.waiterNext[cell];
      this.waiterNext[cell] = previous;
      previous = cell;
      cell = next;
    }
    this.waiterHead[id] = -1;
    return previous;
  }

  /** The first waiter cell of fetch `id`, without detaching the list (−1 for none); step with `peekNext`. */
  firstWaiter(id: number): number {
    return this.waiterHead[id];
  }

  peekNext(cell: number): number {
    return this.waiterNext[cell];
  }

  waiterOf(cell: number): number {
    return this.waiterTarget[cell];
  }

  nextWaiter(cell: number): number {
    const next = this.waiterNext[cell];
    this.waiterIds.release(cell);
    return next;
  }

  release(id: number): void {
    this.stage[id] = FETCH_FREE;
    this.ids.release(id);
  }

  /**
   * Per node kind, the fetches travelling up (sent, not yet at the next layer) and the body
   * bytes travelling down (answered with a body, not yet back): what a counter on one side
   * of a hop has counted and the other not yet, at the moment measuring starts or the run
   * ends. A scan of the table, twice a run.
   */
  underway(fetches: Float64Array, bytes: Float64Array): void {
    const { stage, nodeKind } = this;
    for (let id = 0; id < stage.length; id++) {
      if (stage[id] === FETCH_SENT) fetches[nodeKind[id]]++;
      else if (stage[id] === FETCH_BODY_RETURNING) bytes[nodeKind[id]] += this.bytes[id];
    }
  }
}
