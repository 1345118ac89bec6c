/**
 * Byte stack distances of one LRU cache's references (Mattson, Gecsei, Slutz, Traiger,
 * "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2), 1970), so that
 * one run gives the cache's hit ratio at every capacity (docs/curves.md).
 *
 * A reference's byte stack distance is the total size of the distinct keys referenced since
 * this key's previous reference, plus its own size; infinite on a first reference. An LRU
 * that evicts from the tail until the new object fits holds the longest prefix of its recency
 * stack that fits, so at capacity C it hits exactly the references whose distance is ≤ C
 * (for C at least the largest object: the project's LRU refuses an object larger than the
 * cache, see docs/curves.md and test/cache/stackDistance.test.ts).
 *
 * On the simulated clock a fetch takes time, and the node's LRU moves a missed key to the
 * head when the answer is stored, not when it was looked up: the recorder follows the node's
 * own moves (a lookup it hit, a store), so at the node's capacity it is the node's LRU itself
 * and elsewhere it is an estimate; without fetch time (cache-only warm-up, zero latency) both
 * orders are one and the curve is exact at every capacity (docs/curves.md).
 *
 * Method: every move takes the next slot of a time axis; a Fenwick tree over the axis
 * holds each key's size at the slot of its last reference, so the distance is the sum over
 * the slots after the key's previous one (O(log n)). When the axis fills, the live keys are
 * renumbered in order (compaction, amortised O(1)). Typed arrays only: no allocation per
 * reference once the arrays have grown to the node's distinct keys.
 */

const EMPTY_KEY = -1;
const INITIAL_SLOTS = 1024;
const HASH_MULTIPLIER = 0x9e3779b1;

export class StackDistanceRecorder {
  /** Fenwick tree over time slots (1-based inside): the size of the key last referenced at each slot. */
  private tree: Float64Array;
  /** Per time slot: the key last referenced there, or EMPTY_KEY when that key has moved on. */
  private keyAt: Int32Array;
  /** Per time slot: that key's size; −1 while unknown (referenced, never stored: its distance stays infinite). */
  private sizeAt: Float64Array;
  /** The next free time slot. */
  private clock = 0;
  private live = 0;
  /** Sum of every live key's (known) size. */
  private total = 0;
  /** Open-addressing map key → time slot (keys and slots side by side); EMPTY_KEY marks a free entry. */
  private map: Int32Array;
  private mapMask: number;
  private mapShift: number;
  /** The last reference's old slot (−1: an infinite distance), its size, and its distance when summed before a compaction. */
  private pendingSlot = -1;
  private pendingSize = 0;
  private pendingReady = false;
  private pendingDistance = 0;
  /** The largest size stored so far (the curve is exact from this capacity up). */
  largestBytes = 0;

  constructor() {
    this.tree = new Float64Array(INITIAL_SLOTS + 1);
    this.keyAt = new Int32Array(INITIAL_SLOTS).fill(EMPTY_KEY);
    this.sizeAt = new Float64Array(INITIAL_SLOTS);
    this.map = new Int32Array(2 * INITIAL_SLOTS).fill(EMPTY_KEY);
    this.mapMask = INITIAL_SLOTS - 1;
    this.mapShift = 32 - Math.log2(INITIAL_SLOTS);
  }

  /** Distinct keys the recorder tracks. */
  get keys(): number {
    return this.live;
  }

  /**
   * `key` is looked up now; `lastDistance` then gives its byte stack distance (Infinity on a
   * first lookup or while its size is unknown). `touch`: the lookup moves it to the top of the
   * stack, as an LRU hit does; a lookup the node missed does not (the key moves up when it
   * is stored). The distance is summed only when asked for: most lookups (a warm-up's) are
   * not counted, and the move leaves the sum over later slots as it was.
   */
  reference(key: number, touch = true): void {
    const entry = this.entryOf(key);
    if (entry < 0) {
      this.pendingSlot = -1;
      if (touch) this.moveToTop(-1, key, -1);
      return;
    }
    const slot = this.map[2 * entry + 1];
    const size = this.sizeAt[slot];
    this.pendingSlot = size < 0 ? -1 : slot;
    this.pendingSize = size;
    this.pendingReady = false;
    if (!touch) return;
    // A compaction renumbers the slots: the distance is summed before it.
    if (size >= 0 && this.clock === this.keyAt.length) {
      this.pendingDistance = this.total - this.prefix(slot + 1) + size;
      this.pendingReady = true;
    }
    this.moveToTop(entry, key, size);
  }

  /**
   * The byte stack distance of the last `reference` (before any other call): the sizes after
   * its slot, plus its own, whether the key has moved to the top since (the same sum) or not.
   */
  lastDistance(): number {
    const slot = this.pendingSlot;
    if (slot < 0) return Infinity;
    if (this.pendingReady) return this.pendingDistance;
    // Moved: the old slot holds 0 and the top slot its size; not moved: the old slot holds it.
    return this.keyAt[slot] === EMPTY_KEY ? this.total - this.prefix(slot + 1) : this.total - this.prefix(slot + 1) + this.pendingSize;
  }

  /** The cache stores `bytes` for `key` now: its size from now on, and the top of the stack (an LRU links what it stores at the head). */
  stored(key: number, bytes: number): void {
    this.moveToTop(this.entryOf(key), key, bytes);
    if (bytes > this.largestBytes) this.largestBytes = bytes;
  }

  /**
   * Starts this (new) recorder from a recency stack instead of an empty one: `keys[0 … count)`
   * most recent first, with their sizes, as if each had been stored in turn from the last to
   * the first (a stationary start's whole order, docs/curves.md "A stationary start"). Built
   * in one pass (a linear Fenwick build), not by `count` moves.
   */
  seed(keys: Int32Array, sizes: Float64Array, count: number): void {
    if (this.live !== 0 || this.clock !== 0) throw new Error('a stack distance recorder is seeded before its first reference');
    const length = Math.max(INITIAL_SLOTS, 2 * (count + 1));
    const keyAt = new Int32Array(length).fill(EMPTY_KEY);
    const sizeAt = new Float64Array(length);
    // The map sized for `count` keys at once: insertEntry, which counts `live`, grows it only past that.
    while (count > (this.mapMask + 1) * 0.75) this.growMap();
    let slot = 0;
    let total = 0;
    // Least recent at slot 0: a distance sums the slots after a key's own.
    for (let k = count - 1; k >= 0; k--) {
      const key = keys[k];
      if (this.entryOf(key) >= 0) continue;
      const size = sizes[k];
      keyAt[slot] = key;
      sizeAt[slot] = size;
      total += size;
      if (size > this.largestBytes) this.largestBytes = size;
      this.insertEntry(key, slot);
      slot++;
    }
    this.keyAt = keyAt;
    this.sizeAt = sizeAt;
    this.tree = this.builtTree(length, slot);
    this.total = total;
    this.live = slot;
    this.clock = slot;
  }

  /** `key` (map entry `entry`, or −1 when new) takes the next time slot with `size` (−1: unknown). */
  private moveToTop(entry: number, key: number, size: number): void {
    if (entry >= 0) {
      const old = this.map[2 * entry + 1];
      if (this.sizeAt[old] > 0) this.add(old, -this.sizeAt[old]);
      this.keyAt[old] = EMPTY_KEY;
      this.live--;
    }
    if (this.clock === this.keyAt.length) this.compact();
    const slot = this.clock++;
    this.keyAt[slot] = key;
    this.sizeAt[slot] = size;
    if (size > 0) this.add(slot, size);
    this.live++;
    if (entry >= 0) this.map[2 * entry + 1] = slot;
    else this.insertEntry(key, slot);
  }

  /** Sum of the sizes at slots 0 … count − 1. */
  private prefix(count: number): number {
    const tree = this.tree;
    let sum = 0;
    for (let i = count; i > 0; i -= i & -i) sum += tree[i];
    return sum;
  }

  private add(slot: number, delta: number): void {
    const tree = this.tree;
    const n = tree.length;
    for (let i = slot + 1; i < n; i += i & -i) tree[i] += delta;
    this.total += delta;
  }

  /**
   * The time axis is full: the live keys move to slots 0 … live − 1 in the same order, on an
   * axis twice as long as they need (so the next compaction is at least `live` references away).
   */
  private compact(): void {
    const oldKeys = this.keyAt;
    const oldSizes = this.sizeAt;
    const length = Math.max(INITIAL_SLOTS, 2 * (this.live + 1));
    const keyAt = length === oldKeys.length ? oldKeys : new Int32Array(length);
    const sizeAt = length === oldSizes.length ? oldSizes : new Float64Array(length);
    let next = 0;
    for (let slot = 0; slot < this.clock; slot++) {
      const key = oldKeys[slot];
      if (key === EMPTY_KEY) continue;
      // In place, next ≤ slot: an entry is moved before its slot is reused.
      keyAt[next] = key;
      sizeAt[next] = oldSizes[slot];
      this.map[2 * this.entryOf(key) + 1] = next;
      next++;
    }
    keyAt.fill(EMPTY_KEY, next);
    this.keyAt = keyAt;
    this.sizeAt = sizeAt;
    this.clock = next;
    this.tree = this.builtTree(length, next);
  }

  /**
   * The Fenwick tree of an axis of `length` slots whose first `used` hold `sizeAt`'s sizes (a
   * compaction's or a seed's), built in one linear pass: each node passes its sum to its parent.
   * The old tree is reused when it has that length.
   */
  private builtTree(length: number, used: number): Float64Array {
    const sizeAt = this.sizeAt;
    const tree = length + 1 === this.tree.length ? this.tree.fill(0) : new Float64Array(length + 1);
    for (let slot = 0; slot < used; slot++) if (sizeAt[slot] > 0) tree[slot + 1] = sizeAt[slot];
    for (let i = 1; i <= length; i++) {
      const parent = i + (i & -i);
      if (parent <= length) tree[parent] += tree[i];
    }
    return tree;
  }

  /** The map entry of `key`, or −1. */
  private entryOf(key: number): number {
    const map = this.map;
    const mask = this.mapMask;
    let entry = Math.imul(key, HASH_MULTIPLIER) >>> this.mapShift;
    for (;;) {
      const found = map[2 * entry];
      if (found === key) return entry;
      if (found === EMPTY_KEY) return -1;
      entry = (entry + 1) & mask;
    }
  }

  private insertEntry(key: number, slot: number): void {
    // Keys are never removed from the map (an LRU stack keeps every key it has seen), so the load only grows.
    if (this.live > (this.mapMask + 1) * 0.75) this.growMap();
    const map = this.map;
    const mask = this.mapMask;
    let entry = Math.imul(key, HASH_MULTIPLIER) >>> this.mapShift;
    while (map[2 * entry] !== EMPTY_KEY) entry = (entry + 1) & mask;
    map[2 * entry] = key;
    map[2 * entry + 1] = slot;
  }

  private growMap(): void {
    const old = this.map;
    const entries = 2 * (this.mapMask + 1);
    this.map = new Int32Array(2 * entries).fill(EMPTY_KEY);
    this.mapMask = entries - 1;
    this.mapShift = 32 - Math.log2(entries);
    for (let e = 0; e < old.length; e += 2) if (old[e] !== EMPTY_KEY) this.insertEntry(old[e], old[e + 1]);
  }
}
