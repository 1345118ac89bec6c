import type { CacheStoreOptions } from './cacheStore.js';
import { growFloat64 } from './typedArrays.js';

/**
 * What every store keeps whatever its policy: each key's size and expiry, and exact
 * occupancy and object count. EntryStore (entryStore.ts) composes one of these with each
 * policy's own queues or heap and writes the CacheStore contract (charges, TTL,
 * replacement) on top; its methods see a single class and stay monomorphic even when all
 * policies run in one process.
 */
export class EntryTable {
  readonly capacity: number;
  readonly countMode: boolean;
  /** Bytes (or objects in count mode) held now. */
  used = 0;
  /** Objects held now. */
  count = 0;
  /** Entry size in bytes (Float64: objects may exceed 4 GiB); -1 marks an absent key. */
  sizes: Float64Array;
  expiries: Float64Array;

  constructor(options: CacheStoreOptions) {
    if (!(options.capacity >= 0)) throw new RangeError(`cache capacity must be ≥ 0, got ${options.capacity}`);
    this.capacity = options.capacity;
    this.countMode = options.countMode ?? false;
    const keySpace = Math.max(16, options.keySpace ?? 1024);
    this.sizes = new Float64Array(keySpace).fill(-1);
    this.expiries = new Float64Array(keySpace);
  }

  /** Length of the per-key arrays; keys at or beyond it are absent until `grow`. */
  get keySpace(): number {
    return this.sizes.length;
  }

  /** What an object of `size` bytes costs: its size, or 1 in count mode. Throws on a bad size. */
  chargeFor(size: number): number {
    if (!(size >= 0)) throw new RangeError(`object size must be ≥ 0 bytes, got ${size}`);
    return this.countMode ? 1 : size;
  }

  has(key: number): boolean {
    return key < this.sizes.length && this.sizes[key] >= 0;
  }

  /** Present and not expired at `nowMs` (expiry is exclusive: at `expiresAtMs` it is stale). */
  isFresh(key: number, nowMs: number): boolean {
    return key < this.sizes.length && this.sizes[key] >= 0 && this.expiries[key] > nowMs;
  }

  add(key: number, size: number, charge: number, expiresAtMs: number): void {
    this.sizes[key] = size;
    this.expiries[key] = expiresAtMs;
    this.used += charge;
    this.count++;
  }

  /** Forgets a present key's entry (its queue links are the policy's business). */
  drop(key: number): void {
    // An empty cache restarts from an exact 0 (no residue from fractional sizes).
    if (--this.count === 0) this.used = 0;
    else this.used -= this.countMode ? 1 : this.sizes[key];
    this.sizes[key] = -1;
  }

  grow(length: number): void {
    this.sizes = growFloat64(this.sizes, length, -1);
    this.expiries = growFloat64(this.expiries, length, 0);
  }
}
