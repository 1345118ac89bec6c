import type { CacheStore } from './cacheStore.js';

const EMPTY = -1;
const INITIAL_SLOTS = 1024;
/** Golden-ratio multiplier (Knuth's multiplicative hashing): spreads dense ids over the slots. */
const HASH_MULTIPLIER = 0x9e3779b1;

/**
 * A cache store over a sparse key space. A store sizes its per-key arrays to the largest key
 * id it is given (32 bytes a key for LRU), which is right when one cache sees the whole
 * catalogue and wrong for hundreds of PoPs that each see a part of it: 339 PoPs × 200,000
 * keys × 32 B is 2 GB. This wrapper gives each node local ids, dense in the order the node
 * first stores a key, through an open-addressing table of its own; the inner store's arrays
 * grow with the keys this node has stored, not with the catalogue.
 *
 * A lookup of a key the node never stored is answered from the table alone, without taking
 * a local id. Local ids are never reused: memory is bounded by the distinct keys the node
 * has stored, which is at most the catalogue.
 */
export class SparseKeyStore implements CacheStore {
  private slotKeys: Int32Array;
  private slotLocals: Int32Array;
  private mask: number;
  private shift: number;
  private localCount = 0;

  constructor(private readonly inner: CacheStore) {
    this.slotKeys = new Int32Array(INITIAL_SLOTS).fill(EMPTY);
    this.slotLocals = new Int32Array(INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
    this.shift = 32 - Math.log2(INITIAL_SLOTS);
  }

  get policy(): string {
    return this.inner.policy;
  }
  get capacity(): number {
    return this.inner.capacity;
  }
  get countMode(): boolean {
    return this.inner.countMode;
  }
  get occupancy(): number {
    return this.inner.occupancy;
  }
  get objectCount(): number {
    return this.inner.objectCount;
  }
  /** Distinct keys this node has stored (its local key space). */
  get localKeys(): number {
    return this.localCount;
  }

  /** The local id of `key` while this node holds it, −1 otherwise; no policy state touched. */
  localOf(key: number): number {
    const local = this.find(key);
    return local >= 0 && !Number.isNaN(this.inner.expiryOf(local)) ? local : -1;
  }

  /** A lookup (policy state updated on a hit) that answers the hit's local id, or −1 on a miss: one probe. */
  lookupLocal(key: number, nowMs: number): number {
    const local = this.find(key);
    return local >= 0 && this.inner.lookup(local, nowMs) ? local : -1;
  }

  /** Every local id handed out so far is below this (callers size per-local arrays by it). */
  get localLimit(): number {
    return this.localCount;
  }

  lookup(key: number, nowMs: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.lookup(local, nowMs);
  }

  contains(key: number, nowMs: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.contains(local, nowMs);
  }

  expiryOf(key: number): number {
    const local = this.find(key);
    return local >= 0 ? this.inner.expiryOf(local) : NaN;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    return this.inner.insert(this.localFor(key), size, expiresAtMs);
  }

  remove(key: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.remove(local);
  }

  /** The local id of `key`, or −1 when this node never stored it. */
  private find(key: number): number {
    const keys = this.slotKeys;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    for (;;) {
      const found = keys[slot];
      if (found === key) return this.slotLocals[slot];
      if (found === EMPTY) return -1;
      slot = (slot + 1) & mask;
    }
  }

  private localFor(key: number): number {
    const found = this.find(key);
    if (found >= 0) return found;
    const keys = this.slotKeys;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    while (keys[slot] !== EMPTY) slot = (slot + 1) & mask;
    const local = this.localCount++;
    keys[slot] = key;
    this.slotLocals[slot] = local;
    // Half full at most, so probes stay short.
    if (this.localCount * 2 > keys.length) this.rehash(keys.length * 2);
    return local;
  }

  private rehash(slots: number): void {
    const oldKeys = this.slotKeys;
    const oldLocals = this.slotLocals;
    this.slotKeys = new Int32Array(slots).fill(EMPTY);
    this.slotLocals = new Int32Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i];
      if (key === EMPTY) continue;
      let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
      while (this.slotKeys[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slotKeys[slot] = key;
      this.slotLocals[slot] = oldLocals[i];
    }
  }
}
