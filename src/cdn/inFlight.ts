/**
 * The records a layered flow keeps while requests are in flight, in typed arrays with free
 * lists (no object per request, DESIGN "Hot path"):
 * - a pending client request: when it was sent, what it asked for, how many of its pieces
 *   (5 MB chunks, spec 4.8) are still to come, and the worst of what they got so far;
 * - a fetch: one node asking the next layer for one key, with the requests and downstream
 *   fetches waiting for it (request coalescing) and, once answered, the response it carries.
 */
import { column, growColumns } from '../sim/columns.js';
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

  /** A free id; `grow` is called first when the pool must grow (from its capacity to twice that). */
  take(grow: (fromRows: number, toRows: number) => void): number {
    this.live++;
    if (this.freeCount > 0) return this.free[--this.freeCount];
    if (this.highWater === this.capacity) {
      this.capacity *= 2;
      grow(this.capacity / 2, this.capacity);
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

/**
 * Client requests in flight: sent, not yet answered. Every typed array it holds is a column,
 * declared once below and grown by growColumns (src/sim/columns.ts).
 */
export class PendingRequests {
  private readonly ids = new IdPool(256);
  sendMs = column<SimMs>(Float64Array, 256);
  clientLegMs = new Float64Array(256);
  /** When the last piece reached the PoP on its way back. */
  doneAtMs = new Float64Array(256);
  /** Earliest moment the pieces' ages count from (their age-zero moment at the PoP, RFC 9111 §4.2.3). */
  responseAtMs = new Float64Array(256);
  seq = new Float64Array(256);
  sizeBytes = new Float64Array(256);
  objectId = column<ObjectId>(Int32Array, 256);
  /** The browser's key for the request (spec 4.9 layer 1: the URL as the client spelled it), −1 for none. */
  key = new Int32Array(256);
  classId = column<ClassId>(Int32Array, 256);
  edge = column<NodeIndex>(Int32Array, 256);
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
  /** The request's first key (piece i is key + i) and the first byte of its range, −1 for a whole object: what each piece's share of the client's bytes is computed from (spec 4.8). */
  firstKey = column<KeyId>(Int32Array, 256);
  rangeStart = new Float64Array(256);
  /** Client bytes per flow layer, LAYER_SLOTS per request: each piece's share credited to the layer that served it. */
  servedBytes = new Float64Array(256 * LAYER_SLOTS);

  get inFlight(): number {
    return this.ids.live;
  }

  take(): number {
    return this.ids.take(this.growTo);
  }

  /** Made once: a closure built at each take() would be an allocation per request. */
  private readonly growTo = (fromRows: number, toRows: number): void => growColumns(this, fromRows, toRows);

  release(id: number): void {
    this.ids.release(id);
  }
}

/**
 * Fetches in flight and who waits for each. A waiter is a pending request (encoded −1 − id)
 * or a downstream fetch (its id ≥ 0): an edge's fetch waiting on its regional site's.
 * Every typed array it holds is a column, declared once below and grown by growColumns
 * (src/sim/columns.ts); the waiter cells, counted apart, are a table of their own.
 */
export class FetchTable {
  private readonly ids = new IdPool(256);
  /** NODE_EDGE or NODE_REGIONAL: the layer of the node that fetches. */
  nodeKind = new Uint8Array(256);
  node = column<NodeIndex>(Int32Array, 256);
  key = column<KeyId>(Int32Array, 256);
  objectId = column<ObjectId>(Int32Array, 256);
  classId = column<ClassId>(Int32Array, 256);
  bytes = new Float64Array(256);
  /** One way of the hop to the next layer, ms: the response takes as long to come back. */
  halfHopMs = new Float64Array(256);
  /** The version the fetching node holds and validates (a conditional request), −1 for none. */
  haveVersion = new Int32Array(256);
  /** When the fetching node sent it: its request_time (RFC 9111 §4.2.3). */
  sentAtMs = column<SimMs>(Float64Array, 256);
  waiterHead = new Int32Array(256);
  // The response, once the next layer has answered.
  status = new Int16Array(256);
  version = new Int32Array(256);
  /** When the origin read that version (the request reached it): spec 1.2 item 6's purges compare it with their deploy. */
  versionAtMs = new Float64Array(256);
  /** The answer's age when the next layer sent it, ms: 0 from the origin, the stored copy's age from a cache (its Age, RFC 9111 §5.1). */
  ageMs = new Float64Array(256);
  /** The flow layer that answered. */
  servedLayer = new Int32Array(256);
  /** OUTCOME_* bits the answer carries (stale served upstream, a cached error, …). */
  outcome = new Int32Array(256);
  /** Why the node fetches (ORIGIN_CAUSE_* of layeredFlow.ts): what an origin request is counted under. */
  cause = new Uint8Array(256);
  /** 1 when a measured request caused the fetch (its seq ≥ the flow's measuredFromSeq): only those are counted. */
  measured = new Uint8Array(256);
  /** Until when the answering node holds an origin error beside the copy it sent (spec 7.1; −∞: none): the fetching node holds it too. */
  errorUntilMs = new Float64Array(256);

  private readonly waiters = new WaiterCells();
  private readonly waiterIds = new IdPool(1024);
  private readonly growWaitersTo = (fromRows: number, toRows: number): void => growColumns(this.waiters, fromRows, toRows);

  get inFlight(): number {
    return this.ids.live;
  }

  take(): FetchId {
    const id = this.ids.take(this.growTo) as FetchId;
    this.waiterHead[id] = -1;
    this.outcome[id] = 0;
    // errorUntilMs is set by the flow, and only in runs whose origin may fail (issue 27: a column fewer a fetch otherwise).
    return id;
  }

  /** Made once: a closure built at each take() would be an allocation per fetch. */
  private readonly growTo = (fromRows: number, toRows: number): void => growColumns(this, fromRows, toRows);

  /** Adds a waiter (−1 − request id, or a fetch id) to fetch `id`. Waiters are answered in the order they came. */
  addWaiter(id: number, waiter: number): void {
    const w = this.waiterIds.take(this.growWaitersTo);
    this.waiters.target[w] = waiter;
    // Prepended here; takeWaiters reverses the list, so the first to come is answered first.
    this.waiters.next[w] = this.waiterHead[id];
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
      const next = this.waiters.next[cell];
      this.waiters.next[cell] = previous;
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
    return this.waiters.next[cell];
  }

  waiterOf(cell: number): number {
    return this.waiters.target[cell];
  }

  nextWaiter(cell: number): number {
    const next = this.waiters.next[cell];
    this.waiterIds.release(cell);
    return next;
  }

  release(id: number): void {
    this.ids.release(id);
  }
}

/** The cells of FetchTable's waiter lists, one row per waiter: who waits, and the next cell of its fetch's list. */
class WaiterCells {
  target = new Int32Array(1024);
  next = new Int32Array(1024);
}
