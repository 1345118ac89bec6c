import { growFloat64 } from './typedArrays.js';

/** "No key" / "no list" in the index-linked structures. */
export const NIL = -1;

/** Int32 slots per key in `links`: prev, next, owner, and one unused (16-byte records never straddle a cache line). */
const STRIDE = 4;
const PREV = 0;
const NEXT = 1;
const OWNER = 2;

/** The head, tail and size of one list; the links themselves live in the shared KeyLists. */
export class KeyList {
  /** Most recently pushed key, or NIL. */
  head = NIL;
  /** Least recently pushed key, or NIL. */
  tail = NIL;
  /** Number of keys on the list. */
  length = 0;
  /** Sum of the weights of the keys on the list. */
  total = 0;

  constructor(readonly id: number) {}
}

/**
 * Several doubly linked lists of key ids threaded through shared typed arrays indexed by
 * key id, as in LruStore. Every policy here keeps each key on at most one list at a time
 * (an object is in exactly one queue, segment, bucket or ghost list), so one set of links
 * serves them all and `listOf` says where a key is in O(1) — ghost lists included, which
 * is how a ghost hit is detected without a hash set.
 *
 * Orientation: the head is the most recently pushed end, and `prev` points toward the head
 * (NIL at the head), `next` toward the tail. Each key carries a weight (its charge: bytes,
 * or 1 in count mode) and each list keeps the sum of its weights, so a policy reads a
 * queue's size without a second tally. O(1) per operation, no allocation once grown.
 *
 * Layout, chosen by measurement (bench: cache-zoo, FIFO on a 100,000-object Zipf trace):
 * a key's prev, next and owner sit side by side in one Int32Array record, so touching a
 * cold key costs one cache miss instead of one per array; and each list's head, tail,
 * length and total are fields of a KeyList object rather than slots of per-list typed
 * arrays. Together they made FIFO about 1.3–1.4× faster than one typed array per field.
 */
export class KeyLists {
  private links: Int32Array;
  private weights: Float64Array;
  private readonly lists: KeyList[] = [];

  constructor(keySpace: number) {
    this.links = newLinks(keySpace);
    this.weights = new Float64Array(keySpace);
  }

  /** A new empty list; ids are 0, 1, 2… in creation order. */
  newList(): KeyList {
    const list = new KeyList(this.lists.length);
    this.lists.push(list);
    return list;
  }

  /** The list with this id. */
  list(id: number): KeyList {
    return this.lists[id];
  }

  /** The id of the list `key` is on, or NIL. */
  listOf(key: number): number {
    return key < this.weights.length ? this.links[key * STRIDE + OWNER] : NIL;
  }

  weightOf(key: number): number {
    return this.weights[key];
  }

  /** The neighbour of `key` on the head side (NIL when `key` is the head). */
  towardHead(key: number): number {
    return this.links[key * STRIDE + PREV];
  }

  /** Links `key` (on no list) at the head of `list`. */
  pushHead(list: KeyList, key: number, weight: number): void {
    const links = this.links;
    const record = key * STRIDE;
    const head = list.head;
    links[record + PREV] = NIL;
    links[record + NEXT] = head;
    links[record + OWNER] = list.id;
    if (head !== NIL) links[head * STRIDE + PREV] = key;
    else list.tail = key;
    list.head = key;
    this.weights[key] = weight;
    list.length++;
    list.total += weight;
  }

  /** Unlinks `key` from whichever list it is on (it must be on one). */
  unlink(key: number): void {
    const links = this.links;
    const record = key * STRIDE;
    const list = this.lists[links[record + OWNER]];
    const before = links[record + PREV];
    const after = links[record + NEXT];
    if (before === NIL) list.head = after;
    else links[before * STRIDE + NEXT] = after;
    if (after === NIL) list.tail = before;
    else links[after * STRIDE + PREV] = before;
    links[record + OWNER] = NIL;
    // An emptied list restarts from an exact 0, so fractional weights leave no residue that
    // would make an empty list look non-empty to a size comparison.
    if (--list.length === 0) list.total = 0;
    else list.total -= this.weights[key];
  }

  /** Moves `key` (on any list) to the head of `list`, keeping its weight. */
  moveToHead(list: KeyList, key: number): void {
    if (list.head === key) return;
    const weight = this.weights[key];
    this.unlink(key);
    this.pushHead(list, key, weight);
  }

  /** Makes room for key ids below `length`. */
  growKeys(length: number): void {
    if (length <= this.weights.length) return;
    const links = newLinks(length);
    links.set(this.links);
    this.links = links;
    this.weights = growFloat64(this.weights, length, 0);
  }
}

/** Link records for `keys` keys, every key on no list. */
function newLinks(keys: number): Int32Array {
  const links = new Int32Array(keys * STRIDE);
  for (let record = OWNER; record < links.length; record += STRIDE) links[record] = NIL;
  return links;
}
