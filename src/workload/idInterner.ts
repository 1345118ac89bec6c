import { mix32 } from './mix32.js';

/**
 * Maps arbitrary 64-bit object ids (as two u32 halves, the way trace readers decode them) to
 * dense ids 0, 1, 2, … in order of first appearance, so caches see small integers only
 * (DESIGN "Hot path"), and keeps one number per id (the replay keeps the object's
 * first-seen size there). Open addressing with linear probing, doubling at half load; a
 * slot's id halves and dense id share one cache line. Values live in an array indexed by
 * dense id, so popular objects (seen early) share a small, warm region. No Map, no BigInt,
 * no allocation per lookup.
 */
/** Marks a slot whose value is not a u32 below this (kept in `values` only). */
const INLINE_NONE = 0xffffffff;

export class IdInterner {
  /**
   * Four u32 words per slot, in one cache line: id low half, high half, dense id + 1 (0:
   * empty), and the value when it is a whole number below 2^32 − 1 (INLINE_NONE: look in
   * `values`), so that the common case — trace sizes are u32 — reads one line.
   */
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  private values: Float64Array<ArrayBuffer> = new Float64Array(1 << 16);
  /** The value stored with the id that `intern` returned last. */
  value = 0;

  constructor(expectedIds = 1 << 16) {
    let capacity = 16;
    while (capacity < expectedIds * 2) capacity *= 2;
    this.table = new Uint32Array(capacity * 4);
    this.mask = capacity - 1;
  }

  /** Distinct ids seen so far (the next dense id). */
  get size(): number {
    return this.count;
  }

  /**
   * The dense id of (low, high), assigning the next one on first sight. `value` is stored
   * with a new id and ignored for a known one; `this.value` holds the stored value after.
   */
  intern(low: number, high: number, value = 0): number {
    let slot = mix(low, high) & this.mask;
    for (;;) {
      const stored = this.table[slot * 4 + 2];
      if (stored === 0) break;
      if (this.table[slot * 4] === low && this.table[slot * 4 + 1] === high) {
        this.value = this.values[stored - 1];
        return stored - 1;
      }
      slot = (slot + 1) & this.mask;
    }
    this.value = value;
    return this.add(slot, low, high, value);
  }

  /**
   * `intern` for a whole batch: each dense id goes to `ids`, its stored value to `values`.
   * The replay's path: ids above 2^30 passed one by one as arguments are boxed into heap
   * numbers by V8; read here straight from the typed arrays they stay unboxed.
   */
  internBatch(lows: Uint32Array, highs: Uint32Array, newValues: Float64Array, count: number, ids: Int32Array, values: Float64Array): void {
    // Fields in locals: the loop reads them per request; only add() changes them.
    let table = this.table;
    let mask = this.mask;
    let stored = this.values;
    for (let j = 0; j < count; j++) {
      const low = lows[j];
      const high = highs[j];
      // mix(), written out: a call with ids above 2^30 as arguments would box them.
      let hash = (low ^ Math.imul(high ^ (high >>> 16), 0x85ebca6b)) >>> 0;
      hash ^= hash >>> 16;
      hash = Math.imul(hash, 0x85ebca6b);
      hash ^= hash >>> 13;
      hash = Math.imul(hash, 0xc2b2ae35);
      hash ^= hash >>> 16;
      let slot = hash & mask;
      let id = -1;
      for (;;) {
        const base = slot * 4;
        const entry = table[base + 2];
        if (entry === 0) break;
        if (table[base] === low && table[base + 1] === high) {
          id = entry - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (id < 0) {
        id = this.add(slot, low, high, newValues[j]);
        table = this.table;
        mask = this.mask;
        stored = this.values;
        values[j] = stored[id];
      } else {
        const inline = table[slot * 4 + 3];
        values[j] = inline === INLINE_NONE ? stored[id] : inline;
      }
      ids[j] = id;
    }
  }

  /** The dense id of (low, high), or -1 when it has not been seen. */
  find(low: number, high: number): number {
    let slot = mix(low, high) & this.mask;
    for (;;) {
      const stored = this.table[slot * 4 + 2];
      if (stored === 0) return -1;
      if (this.table[slot * 4] === low && this.table[slot * 4 + 1] === high) return stored - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Puts a new id into the empty `slot` its probe ended at. */
  private add(slot: number, low: number, high: number, value: number): number {
    const id = this.count++;
    this.table[slot * 4] = low;
    this.table[slot * 4 + 1] = high;
    this.table[slot * 4 + 2] = id + 1;
    this.table[slot * 4 + 3] = Number.isInteger(value) && value >= 0 && value < INLINE_NONE ? value : INLINE_NONE;
    if (id >= this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[id] = value;
    if (this.count * 2 > this.mask + 1) this.grow();
    return id;
  }

  private grow(): void {
    const old = this.table;
    const capacity = (this.mask + 1) * 2;
    this.table = new Uint32Array(capacity * 4);
    this.mask = capacity - 1;
    for (let from = 0; from < old.length; from += 4) {
      if (old[from + 2] === 0) continue;
      let slot = mix(old[from], old[from + 1]) & this.mask;
      while (this.table[slot * 4 + 2] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot * 4] = old[from];
      this.table[slot * 4 + 1] = old[from + 1];
      this.table[slot * 4 + 2] = old[from + 2];
      this.table[slot * 4 + 3] = old[from + 3];
    }
  }
}

/**
 * Ids hash with mix32 over their two halves: sequential ids, ids differing only in their
 * high half, and block numbers with common low bits all spread over the table. internBatch
 * repeats it inline.
 */
const mix = mix32;
