/**
 * The records a layered flow keeps while requests are in flight, in typed arrays with free
 * lists (no object per request, DESIGN "Hot path"):
 * - a pending client request: when it was sent, what it asked for, how many of its pieces
 *   (5 MB chunks, spec 4.8) are still to come, and the worst of what they got so far;
 * - a fetch: one node asking the next layer for one key, with the requests and downstream
 *   fetches waiting for it (request coalescing) and, once answered, the response it carries.
 */
import type { ClassId, FetchId, KeyId, NodeIndex, ObjectId, SimMs } from '../sim/ids.js';

/** A copy of a typed array at `length` elements (its contents first, zeros after). */
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
 * A table of rows of `doubles` 8-byte slots each, in one buffer read both as doubles
 * (`numbers`) and as 32-bit words (`words`, two to a slot): a record in flight is one or two
 * cache lines, not a line per field (issue 27: with a column per field, a request's or a
 * fetch's first read of each field after the caches' random reads was a cache miss of its
 * own). Growth copies the whole buffer, so no field can be left behind at an earlier size
 * (issue 24).
 */
class RowTable {
  private readonly ids = new IdPool(256);
  numbers: Float64Array;
  words: Int32Array;

  constructor(private readonly doubles: number) {
    this.numbers = new Float64Array(256 * doubles);
    this.words = new Int32Array(this.numbers.buffer);
  }

  get inFlight(): number {
    return this.ids.live;
  }

  /** A free row; the arrays are replaced when the table grows, so read them after this. */
  takeRow(): number {
    return this.ids.take(this.growTo);
  }

  release(id: number): void {
    this.ids.release(id);
  }

  /** Made once: a closure built at each take() would be an allocation per request. */
  private readonly growTo = (fromRows: number, toRows: number): void => this.grow(fromRows, toRows);

  protected grow(fromRows: number, toRows: number): void {
    this.numbers = grown(this.numbers.subarray(0, fromRows * this.doubles), toRows * this.doubles);
    this.words = new Int32Array(this.numbers.buffer);
  }
}

/**
 * A pending request's row: 16 doubles (128 bytes). Doubles (index in `numbers`, row × 16 + …):
 * P_SEND_MS … P_RESPONSE_AT_MS; 32-bit words (index in `words`, row × 32 + …): P_OBJECT_ID …
 * The fields a baseline request reads come first.
 */
export const PENDING_DOUBLES = 16;
export const PENDING_WORDS = 2 * PENDING_DOUBLES;
export const P_SEND_MS = 0;
export const P_CLIENT_LEG_MS = 1;
/** When the last piece reached the PoP on its way back. */
export const P_DONE_AT_MS = 2;
export const P_SEQ = 3;
export const P_SIZE_BYTES = 4;
/** The first byte of the request's range, −1 for a whole object (spec 4.8). */
export const P_RANGE_START = 5;
/** Earliest moment the pieces' ages count from (their age-zero moment at the PoP, RFC 9111 §4.2.3). */
export const P_RESPONSE_AT_MS = 6;
export const P_OBJECT_ID = 14;
export const P_CLASS_ID = 15;
export const P_EDGE = 16;
export const P_PIECES_LEFT = 17;
/** Deepest flow layer that answered a piece. */
export const P_LAYER = 18;
/** OUTCOME_* bits of all pieces. */
export const P_OUTCOME = 19;
/** 200, or the error status a piece got. */
export const P_STATUS = 20;
export const P_REGION = 21;
/** Lowest content version among the pieces. */
export const P_VERSION = 22;
/** The browser's key for the request (spec 4.9 layer 1: the URL as the client spelled it), −1 for none. */
export const P_KEY = 23;
export const P_CLIENT_SLOT = 24;
/** The request's first key (piece i is key + i): what each piece's share of the client's bytes is computed from (spec 4.8). */
export const P_FIRST_KEY = 25;

/** Client requests in flight: sent, not yet answered; one row each (fields P_*). */
export class PendingRequests extends RowTable {
  /** Client bytes per flow layer, LAYER_SLOTS per request (ranges only): each piece's share credited to the layer that served it. */
  servedBytes = new Float64Array(256 * LAYER_SLOTS);

  constructor() {
    super(PENDING_DOUBLES);
  }

  take(): number {
    return this.takeRow();
  }

  edgeOf(r: number): NodeIndex {
    return this.words[r * PENDING_WORDS + P_EDGE] as NodeIndex;
  }

  firstKeyOf(r: number): KeyId {
    return this.words[r * PENDING_WORDS + P_FIRST_KEY] as KeyId;
  }

  protected override grow(fromRows: number, toRows: number): void {
    super.grow(fromRows, toRows);
    this.servedBytes = grown(this.servedBytes, toRows * LAYER_SLOTS);
  }
}

/**
 * A fetch's row: 16 doubles (128 bytes). Doubles (row × 16 + …): F_BYTES … F_ERROR_UNTIL_MS;
 * 32-bit words (row × 32 + …): F_KEY … The fields fetchDone reads in a baseline run come first.
 */
export const FETCH_DOUBLES = 16;
export const FETCH_WORDS = 2 * FETCH_DOUBLES;
export const F_BYTES = 0;
/** When the fetching node sent it: its request_time (RFC 9111 §4.2.3). */
export const F_SENT_AT_MS = 1;
/** The answer's age when the next layer sent it, ms: 0 from the origin, the stored copy's age from a cache (its Age, RFC 9111 §5.1). */
export const F_AGE_MS = 2;
/** When the origin read the answer's version (the request reached it): spec 1.2 item 6's purges compare it with their deploy. */
export const F_VERSION_AT_MS = 3;
/** One way of the hop to the next layer, ms: the response takes as long to come back. */
export const F_HALF_HOP_MS = 4;
/** Until when the answering node holds an origin error beside the copy it sent (spec 7.1; −∞: none): the fetching node holds it too. */
export const F_ERROR_UNTIL_MS = 5;
export const F_KEY = 12;
export const F_NODE = 13;
export const F_CLASS_ID = 14;
/** The answer's status, once the next layer has answered. */
export const F_STATUS = 15;
/** The flow layer that answered. */
export const F_SERVED_LAYER = 16;
/** OUTCOME_* bits the answer carries (stale served upstream, a cached error, …). */
export const F_OUTCOME = 17;
/** The version the fetching node holds and validates (a conditional request), −1 for none. */
export const F_HAVE_VERSION = 18;
/** The first cell of the list of the fetch's later waiters, −1 for none (FetchTable's own). */
const F_WAITER_HEAD = 19;
/** NODE_EDGE or NODE_REGIONAL: the layer of the node that fetches. */
export const F_NODE_KIND = 20;
/** Why the node fetches (ORIGIN_CAUSE_* of layeredFlow.ts): what an origin request is counted under. */
export const F_CAUSE = 21;
/** 1 when a measured request caused the fetch (its seq ≥ the flow's measuredFromSeq): only those are counted. */
export const F_MEASURED = 22;
export const F_OBJECT_ID = 23;
/** The answer's version. */
export const F_VERSION = 24;
/** The fetch's first waiter, NO_WAITER for none (FetchTable's own). */
const F_FIRST_WAITER = 25;

/** No waiter: a fetch's first-waiter word when nobody waits (a background revalidation, spec 4.7 row 2). */
export const NO_WAITER = -(2 ** 31);

/**
 * Fetches in flight and who waits for each; one row each (fields F_*). A waiter is a pending
 * request (encoded −1 − id) or a downstream fetch (its id ≥ 0): an edge's fetch waiting on
 * its regional site's. The first waiter sits in the fetch's row: most fetches have one, so
 * their answer reads no list cell (issue 27); later ones (coalesced requests) go in a list of
 * cells, a table of their own.
 */
export class FetchTable extends RowTable {
  private readonly waiters = new WaiterCells();
  private readonly waiterIds = new IdPool(1024);
  private readonly growWaitersTo = (fromRows: number, toRows: number): void => this.waiters.grow(toRows);

  constructor() {
    super(FETCH_DOUBLES);
  }

  take(): FetchId {
    const id = this.takeRow() as FetchId;
    const at = id * FETCH_WORDS;
    this.words[at + F_FIRST_WAITER] = NO_WAITER;
    this.words[at + F_WAITER_HEAD] = -1;
    this.words[at + F_OUTCOME] = 0;
    // F_ERROR_UNTIL_MS is set by the flow, and only in runs whose origin may fail (issue 27: a field fewer a fetch otherwise).
    return id;
  }

  keyOf(f: number): KeyId {
    return this.words[f * FETCH_WORDS + F_KEY] as KeyId;
  }

  nodeOf(f: number): NodeIndex {
    return this.words[f * FETCH_WORDS + F_NODE] as NodeIndex;
  }

  classOf(f: number): ClassId {
    return this.words[f * FETCH_WORDS + F_CLASS_ID] as ClassId;
  }

  objectOf(f: number): ObjectId {
    return this.words[f * FETCH_WORDS + F_OBJECT_ID] as ObjectId;
  }

  sentAtOf(f: number): SimMs {
    return this.numbers[f * FETCH_DOUBLES + F_SENT_AT_MS] as SimMs;
  }

  /** Adds a waiter (−1 − request id, or a fetch id) to fetch `id`. Waiters are answered in the order they came. */
  addWaiter(id: number, waiter: number): void {
    const first = id * FETCH_WORDS + F_FIRST_WAITER;
    if (this.words[first] === NO_WAITER) {
      this.words[first] = waiter;
      return;
    }
    const w = this.waiterIds.take(this.growWaitersTo);
    const cells = this.waiters.cells;
    const head = id * FETCH_WORDS + F_WAITER_HEAD;
    cells[2 * w] = waiter;
    // Prepended here; takeWaiters reverses the list, so the first to come is answered first.
    cells[2 * w + 1] = this.words[head];
    this.words[head] = w;
  }

  /** The first waiter of fetch `id` (NO_WAITER for none); the later ones are in its list. */
  firstWaiterOf(id: number): number {
    return this.words[id * FETCH_WORDS + F_FIRST_WAITER];
  }

  /**
   * Detaches the later waiters of fetch `id` (after firstWaiterOf) in arrival order: returns
   * the first list cell (−1 for none); read each with `waiterOf` and step with `nextWaiter`,
   * which frees the cell.
   */
  takeWaiters(id: number): number {
    const cells = this.waiters.cells;
    const head = id * FETCH_WORDS + F_WAITER_HEAD;
    let previous = -1;
    let cell = this.words[head];
    while (cell !== -1) {
      const next = cells[2 * cell + 1];
      cells[2 * cell + 1] = previous;
      previous = cell;
      cell = next;
    }
    this.words[head] = -1;
    return previous;
  }

  /** The first cell of fetch `id`'s later waiters, without detaching the list (−1 for none); step with `peekNext`. */
  firstWaiterCell(id: number): number {
    return this.words[id * FETCH_WORDS + F_WAITER_HEAD];
  }

  peekNext(cell: number): number {
    return this.waiters.cells[2 * cell + 1];
  }

  waiterOf(cell: number): number {
    return this.waiters.cells[2 * cell];
  }

  nextWaiter(cell: number): number {
    const next = this.waiters.cells[2 * cell + 1];
    this.waiterIds.release(cell);
    return next;
  }
}

/** The cells of FetchTable's waiter lists, two words per waiter side by side: who waits, and the next cell of its fetch's list. */
class WaiterCells {
  cells = new Int32Array(2 * 1024);

  grow(toRows: number): void {
    this.cells = grown(this.cells, 2 * toRows);
  }
}
