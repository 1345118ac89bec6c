import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { EntryTable } from './entryTable.js';
import { KeyLists, type KeyList } from './keyLists.js';
import { growUint8, grownLength } from './typedArrays.js';

/**
 * S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO queues are all you need for cache
 * eviction", SOSP 2023, Algorithm 1), following libCacheSim's S3FIFOv0.c — the code behind
 * the paper's numbers — where the pseudocode leaves room:
 *
 * - Queues: small FIFO S (⌊capacity/10⌋), main FIFO M (the rest), ghost FIFO G of key ids
 *   only, as large as M. All three are measured in charges: objects in count mode (G then
 *   holds as many entries as M, as in the paper), bytes in byte mode (G remembers ids
 *   whose sizes add up to M's capacity, as libCacheSim sizes its ghost FIFO).
 * - Each object has a frequency counter capped at 3: a hit adds one; insertion sets 0.
 * - A miss on an id in G (checked and removed when the insert arrives) inserts into M,
 *   otherwise into S. Objects larger than S are still admitted into S (libCacheSim
 *   rejects them; the CacheStore contract admits anything up to the whole capacity).
 * - Eviction (repeated until the new object fits): from M when M is over its share or S is
 *   empty, otherwise from S — libCacheSim's rule; in count mode it equals the paper's
 *   "S ≥ 10 % → evict S" whenever the cache is full. Evicting from S: the tail moves to M
 *   (counter reset to 0) if its counter is > 1 (the pseudocode's `t.freq > 1`, libCacheSim's
 *   move-to-main threshold 2), else it is evicted and its id enters G. M does not evict
 *   inside that step (the paper's "if M is full then evictM()"): the outer loop evicts
 *   from M next if M is then over its share, so no more is evicted than needed.
 *   Evicting from M: a tail with counter > 0 is reinserted at M's head with counter − 1,
 *   the first with 0 is evicted.
 * - Removal (remove(), expiry, re-insertion of a present key) is not eviction: no ghost
 *   entry is made, and an existing ghost entry outlives remove(). Re-insertion is a new
 *   insertion.
 */
export class S3FifoStore implements CacheStore {
  readonly policy = 's3fifo';
  readonly capacity: number;
  readonly countMode: boolean;
  private readonly entries: EntryTable;
  private readonly links: KeyLists;
  private readonly small: KeyList;
  private readonly main: KeyList;
  private readonly ghost: KeyList;
  private readonly mainCapacity: number;
  private readonly ghostCapacity: number;
  private frequency: Uint8Array;

  constructor(options: CacheStoreOptions) {
    this.entries = new EntryTable(options);
    this.capacity = this.entries.capacity;
    this.countMode = this.entries.countMode;
    this.mainCapacity = this.capacity - Math.floor(this.capacity / 10);
    this.ghostCapacity = this.mainCapacity;
    this.links = new KeyLists(this.entries.keySpace);
    this.small = this.links.newList();
    this.main = this.links.newList();
    this.ghost = this.links.newList();
    this.frequency = new Uint8Array(this.entries.keySpace);
  }

  get occupancy(): number {
    return this.entries.used;
  }

  get objectCount(): number {
    return this.entries.count;
  }

  lookup(key: number, nowMs: number): boolean {
    if (!this.entries.has(key)) return false;
    if (this.entries.expiries[key] <= nowMs) {
      this.forget(key);
      return false;
    }
    if (this.frequency[key] < 3) this.frequency[key]++;
    return true;
  }

  contains(key: number, nowMs: number): boolean {
    return this.entries.isFresh(key, nowMs);
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    const charge = this.entries.chargeFor(size);
    if (key >= this.entries.keySpace) this.grow(key + 1);
    if (this.entries.has(key)) this.forget(key);
    if (charge > this.capacity) return false;
    const ghostHit = this.links.listOf(key) === this.ghost.id;
    if (ghostHit) this.links.unlink(key);
    while (this.entries.used + charge > this.capacity) this.evict();
    this.entries.add(key, size, charge, expiresAtMs);
    this.frequency[key] = 0;
    this.links.pushHead(ghostHit ? this.main : this.small, key, charge);
    return true;
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.forget(key);
    return true;
  }

  private evict(): void {
    if (this.small.length === 0 || (this.main.length > 0 && this.main.total > this.mainCapacity)) this.evictMain();
    else this.evictSmall();
  }

  /** Moves frequently hit tails to M until one tail is evicted (or S runs empty). */
  private evictSmall(): void {
    while (this.small.length > 0) {
      const tail = this.small.tail;
      if (this.frequency[tail] > 1) {
        this.frequency[tail] = 0;
        this.links.moveToHead(this.main, tail);
      } else {
        const charge = this.links.weightOf(tail);
        this.forget(tail);
        this.rememberInGhost(tail, charge);
        return;
      }
    }
  }

  /** FIFO with a 2-bit clock: reinsert while the counter lasts, evict the first at 0. */
  private evictMain(): void {
    while (this.main.length > 0) {
      const tail = this.main.tail;
      if (this.frequency[tail] > 0) {
        this.frequency[tail]--;
        this.links.moveToHead(this.main, tail);
      } else {
        this.forget(tail);
        return;
      }
    }
  }

  /** The ghost is a FIFO cache of ids: make room by dropping its oldest ids, never exceed it. */
  private rememberInGhost(key: number, charge: number): void {
    if (charge > this.ghostCapacity) return;
    const ghost = this.ghost;
    while (ghost.length > 0 && ghost.total + charge > this.ghostCapacity) this.links.unlink(ghost.tail);
    this.links.pushHead(ghost, key, charge);
  }

  private forget(key: number): void {
    this.links.unlink(key);
    this.entries.drop(key);
  }

  private grow(minimum: number): void {
    const length = grownLength(this.entries.keySpace, minimum);
    this.entries.grow(length);
    this.links.growKeys(length);
    this.frequency = growUint8(this.frequency, length);
  }
}
