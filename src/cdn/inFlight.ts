/**
 * The records a layered flow keeps while requests are in flight, in typed arrays with free
 * lists (no object per request, DESIGN "Hot path"):
 * - a pending client request: when it was sent, what it asked for, how many of its pieces
 *   (5 MB chunks, spec 4.8) are still to come, and the worst of what they got so far;
 * - a fetch: one node asking the next layer for one key, with the requests and downstream
 *   fetches waiting for it (request coalescing) and, once answered, the response it carries.
 */
import { addColumns, column, growColumns, newColumns, type Columns } from '../sim/columns.js';
import type { ClassId, FetchId, KeyId, NodeIndex, ObjectId, SimMs } from '../sim/ids.js';

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

/** Flow layers a request can be served from, at most: browser, edge, regional, origin (spec 4.9). */
export const LAYER_SLOTS = 4;

/** The columns of PendingRequests, one row per client request in flight (each declared here only). */
export const PENDING_REQUEST_COLUMNS = {
  sendMs: column<SimMs>(Float64Array),
  clientLegMs: column(Float64Array),
  /** When the last piece reached the PoP on its way back. */
  doneAtMs: column(Float64Array),
  /** Earliest moment the pieces' ages count from (their age-zero moment at the PoP, RFC 9111 §4.2.3). */
  responseAtMs: column(Float64Array),
  seq: column(Float64Array),
  sizeBytes: column(Float64Array),
  objectId: column<ObjectId>(Int32Array),
  /** The browser's key for the request (spec 4.9 layer 1: the URL as the client spelled it), −1 for none. */
  key: column(Int32Array),
  classId: column<ClassId>(Int32Array),
  edge: column<NodeIndex>(Int32Array),
  clientSlot: column(Int32Array),
  piecesLeft: column(Int32Array),
  /** Lowest content version among the pieces. */
  version: column(Int32Array),
  /** Deepest flow layer that answered a piece. */
  layer: column(Int32Array),
  /** OUTCOME_* bits of all pieces. */
  outcome: column(Int32Array),
  /** 200, or the error status a piece got. */
  status: column(Int16Array),
  region: column(Uint8Array),
  /** The request's first key (piece i is key + i) and the first byte of its range, −1 for a whole object: what each piece's share of the client's bytes is computed from (spec 4.8). */
  firstKey: column<KeyId>(Int32Array),
  rangeStart: column(Float64Array),
  /** Client bytes per flow layer, LAYER_SLOTS per request: each piece's share credited to the layer that served it. */
  servedBytes: column(Float64Array, LAYER_SLOTS),
};

/** The fields below are PENDING_REQUEST_COLUMNS' (declaration merging: the class holds them, the spec lists them). */
export interface PendingRequests extends Columns<typeof PENDING_REQUEST_COLUMNS> {}

/** Client requests in flight: sent, not yet answered. */
export class PendingRequests {
  private readonly ids = new IdPool(256);

  constructor() {
    addColumns(this, PENDING_REQUEST_COLUMNS, this.ids.capacity);
  }

  get inFlight(): number {
    return this.ids.live;
  }

  take(): number {
    return this.ids.take(this.growTo);
  }

  /** Made once: a closure built at each take() would be an allocation per request. */
  private readonly growTo = (n: number): void => growColumns(this, PENDING_REQUEST_COLUMNS, n);

  release(id: number): void {
    this.ids.release(id);
  }
}

/** The columns of FetchTable, one row per fetch in flight (each declared here only). */
export const FETCH_COLUMNS = {
  /** NODE_EDGE or NODE_REGIONAL: the layer of the node that fetches. */
  nodeKind: column(Uint8Array),
  node: column<NodeIndex>(Int32Array),
  key: column<KeyId>(Int32Array),
  objectId: column<ObjectId>(Int32Array),
  classId: column<ClassId>(Int32Array),
  bytes: column(Float64Array),
  /** One way of the hop to the next layer, ms: the response takes as long to come back. */
  halfHopMs: column(Float64Array),
  /** The version the fetching node holds and validates (a conditional request), −1 for none. */
  haveVersion: column(Int32Array),
  /** When the fetching node sent it: its request_time (RFC 9111 §4.2.3). */
  sentAtMs: column<SimMs>(Float64Array),
  waiterHead: column(Int32Array),
  // The response, once the next layer has answered.
  status: column(Int16Array),
  version: column(Int32Array),
  /** When the origin read that version (the request reached it): spec 1.2 item 6's purges compare it with their deploy. */
  versionAtMs: column(Float64Array),
  /** The answer's age when the next layer sent it, ms: 0 from the origin, the stored copy's age from a cache (its Age, RFC 9111 §5.1). */
  ageMs: column(Float64Array),
  /** The flow layer that answered. */
  servedLayer: column(Int32Array),
  /** OUTCOME_* bits the answer carries (stale served upstream, a cached error, …). */
  outcome: column(Int32Array),
  /** Why the node fetches (ORIGIN_CAUSE_* of layeredFlow.ts): what an origin request is counted under. */
  cause: column(Uint8Array),
  /** 1 when a measured request caused the fetch (its seq ≥ the flow's measuredFromSeq): only those are counted. */
  measured: column(Uint8Array),
  /** Until when the answering node holds an origin error beside the copy it sent (spec 7.1; −∞: none): the fetching node holds it too. */
  errorUntilMs: column(Float64Array),
};

/** The waiter list cells of FetchTable: a waiter and the next cell of its fetch's list. */
export const WAITER_COLUMNS = {
  waiterTarget: column(Int32Array),
  waiterNext: column(Int32Array),
};

/** The fields below are FETCH_COLUMNS' (declaration merging: the class holds them, the spec lists them). */
export interface FetchTable extends Columns<typeof FETCH_COLUMNS> {}

/**
 * Fetches in flight and who waits for each. A waiter is a pending request (encoded −1 − id)
 * or a downstream fetch (its id ≥ 0): an edge's fetch waiting on its regional site's.
 */
export class FetchTable {
  private readonly ids = new IdPool(256);
  private readonly waiterIds = new IdPool(1024);
  private readonly waiters = newColumns(WAITER_COLUMNS, this.waiterIds.capacity);
  private readonly growWaitersTo = (n: number): void => growColumns(this.waiters, WAITER_COLUMNS, n);

  constructor() {
    addColumns(this, FETCH_COLUMNS, this.ids.capacity);
  }

  get inFlight(): number {
    return this.ids.live;
  }

  take(): FetchId {
    const id = this.ids.take(this.growTo) as FetchId;
    this.waiterHead[id] = -1;
    this.outcome[id] = 0;
    this.errorUntilMs[id] = -Infinity;
    return id;
  }

  /** Made once: a closure built at each take() would be an allocation per fetch. */
  private readonly growTo = (n: number): void => growColumns(this, FETCH_COLUMNS, n);

  /** Adds a waiter (−1 − request id, or a fetch id) to fetch `id`. Waiters are answered in the order they came. */
  addWaiter(id: number, waiter: number): void {
    const w = this.waiterIds.take(this.growWaitersTo);
    this.waiters.waiterTarget[w] = waiter;
    // Prepended here; takeWaiters reverses the list, so the first to come is answered first.
    this.waiters.waiterNext[w] = this.waiterHead[id];
    this.waiterHead[id] = w;
  }

  /**
   * Detaches the waiters of fetch `id` in arrival order: returns the first list cell (−1
   * for none); read each with `waiterOf` and step with `nextWaiter`, which frees the cell.
   */
  takeWaiters(id: number): number {
    let previous = -1;
    let cell = this.waiterHead[id];
    const waiterNext = this.waiters.waiterNext;
    while (cell !== -1) {
      const next = waiterNext[cell];
      waiterNext[cell] = previous;
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
    return this.waiters.waiterNext[cell];
  }

  waiterOf(cell: number): number {
    return this.waiters.waiterTarget[cell];
  }

  nextWaiter(cell: number): number {
    const next = this.waiters.waiterNext[cell];
    this.waiterIds.release(cell);
    return next;
  }

  release(id: number): void {
    this.ids.release(id);
  }
}
