import type { CacheStore, CacheStoreOptions } from './cacheStore.js';

const NIL = -1;
const RECORD_BYTES = 32;

/**
 * Least-recently-used eviction on typed arrays: a doubly linked list threaded through
 * `prev`/`next` arrays indexed by key id, with the most recent entry at the head.
 * Every operation is O(1) and allocation-free once the arrays have grown to the key space.
 *
 * Reference: the policy is classic (Mattson et al., "Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 9(2), 1970); its hit ratio under IRM traffic is
 * predicted by Che, Tung and Wang, "Hierarchical Web caching systems: modeling, design and
 * experimental results", IEEE JSAC 20(7), 2002 (see che.ts).
 */
export class LruStore implements CacheStore {
  readonly policy = 'lru';
  readonly capacity: number;
  readonly countMode: boolean;
  private used = 0;
  private count = 0;
  private head = NIL;
  private tail = NIL;
  /**
   * One 32-byte record per key id, so that a lookup, an unlink and a relink each touch one
   * cache line per key: i32 words [8k] prev, [8k+1] next; f64 slots [4k+1] size (-1 marks an
   * absent key; Float64 since objects may exceed 4 GiB) and [4k+2] expiry.
   */
  private links: Int32Array;
  private numbers: Float64Array;
  private keySpace: number;

  constructor(options: CacheStoreOptions) {
    if (!(options.capacity >= 0)) throw new RangeError(`cache capacity must be ≥ 0, got ${options.capacity}`);
    this.capacity = options.capacity;
    this.countMode = options.countMode ?? false;
    this.keySpace = Math.max(16, options.keySpace ?? 1024);
    const buffer = new ArrayBuffer(this.keySpace * RECORD_BYTES);
    this.links = new Int32Array(buffer);
    this.numbers = new Float64Array(buffer);
    for (let key = 0; key < this.keySpace; key++) this.numbers[key * 4 + 1] = -1;
  }

  get occupancy(): number {
    return this.used;
  }

  get objectCount(): number {
    return this.count;
  }

  lookup(key: number, nowMs: number): boolean {
    if (key >= this.keySpace) return false;
    const slot = key * 4;
    if (this.numbers[slot + 1] < 0) return false;
    if (this.numbers[slot + 2] <= nowMs) {
      this.unlinkAndForget(key);
      return false;
    }
    if (this.head !== key) {
      this.unlink(key);
      this.linkAtHead(key);
    }
    return true;
  }

  contains(key: number, nowMs: number): boolean {
    return key < this.keySpace && this.numbers[key * 4 + 1] >= 0 && this.numbers[key * 4 + 2] > nowMs;
  }

  expiryOf(key: number): number {
    return key < this.keySpace && this.numbers[key * 4 + 1] >= 0 ? this.numbers[key * 4 + 2] : NaN;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    if (!(size >= 0)) throw new RangeError(`object size must be ≥ 0 bytes, got ${size}`);
    const charge = this.countMode ? 1 : size;
    if (key >= this.keySpace) this.grow(key + 1);
    if (this.numbers[key * 4 + 1] >= 0) this.unlinkAndForget(key);
    if (charge > this.capacity) return false;
    while (this.used + charge > this.capacity) this.unlinkAndForget(this.tail);
    this.numbers[key * 4 + 1] = size;
    this.numbers[key * 4 + 2] = expiresAtMs;
    this.used += charge;
    this.count++;
    this.linkAtHead(key);
    return true;
  }

  remove(key: number): boolean {
    if (key >= this.keySpace || this.numbers[key * 4 + 1] < 0) return false;
    this.unlinkAndForget(key);
    return true;
  }

  private unlinkAndForget(key: number): void {
    this.unlink(key);
    this.used -= this.countMode ? 1 : this.numbers[key * 4 + 1];
    this.count--;
    this.numbers[key * 4 + 1] = -1;
  }

  private unlink(key: number): void {
    const links = this.links;
    const before = links[key * 8];
    const after = links[key * 8 + 1];
    if (before === NIL) this.head = after;
    else links[before * 8 + 1] = after;
    if (after === NIL) this.tail = before;
    else links[after * 8] = before;
  }

  private linkAtHead(key: number): void {
    const links = this.links;
    links[key * 8] = NIL;
    links[key * 8 + 1] = this.head;
    if (this.head !== NIL) links[this.head * 8] = key;
    this.head = key;
    if (this.tail === NIL) this.tail = key;
  }

  private grow(minimum: number): void {
    let length = this.keySpace;
    while (length < minimum) length *= 2;
    const buffer = new ArrayBuffer(length * RECORD_BYTES);
    new Uint8Array(buffer).set(new Uint8Array(this.links.buffer));
    this.links = new Int32Array(buffer);
    this.numbers = new Float64Array(buffer);
    for (let key = this.keySpace; key < length; key++) this.numbers[key * 4 + 1] = -1;
    this.keySpace = length;
  }
}
