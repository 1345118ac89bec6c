import type { CacheStore } from '../src/cache/cacheStore.js';

const EMPTY = -1;
const INITIAL_SLOTS = 1024;
/** Golden-ratio multiplier (Knuth's multiplicative hashing): spreads dense ids over the slots. */
const HASH_MULTIPLIER = 0x9e3779b1;

/**
 * The SparseKeyStore as it was before local ids were reused (kept only for the bench:
 * `sparse.memory` and `sparse.speed` compare it with src/cache/sparseKeyStore.ts in the
 * same run). Its local ids are never reused, so its memory follows every key a node has
 * ever stored.
 */
export class LegacySparseKeyStore implements CacheStore {
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
