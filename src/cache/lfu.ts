import type { CacheStoreOptions } from './cacheStore.js';
import { ListStore } from './entryStore.js';
import { NIL } from './keyLists.js';
import { growFloat64, growInt32 } from './typedArrays.js';

/**
 * Least-frequently-used eviction in O(1) (Shah, Mitra and Matani, "An O(1) algorithm for
 * implementing the LFU cache eviction scheme", 2010): a doubly linked list of frequency
 * buckets in increasing frequency, each bucket holding the objects of that frequency in
 * a linked list. A hit moves the object into the bucket for frequency + 1 (created next
 * to its bucket if missing; an emptied bucket is freed), so nothing is ever searched.
 *
 * - Frequency counts requests while cached: 1 on insertion, + 1 per hit. It is forgotten
 *   on eviction, removal and expiry (no history), and re-insertion of a present key is a
 *   new insertion at frequency 1.
 * - Ties are broken by least recent use: within a bucket objects are ordered by when they
 *   entered it, which is their last access, and the victim is the least recent object of
 *   the lowest-frequency bucket.
 *
 * Buckets are a pool of ids on typed arrays (frequency, prev/next bucket, a free stack);
 * each bucket's objects are one KeyList of a shared KeyLists, the list id being the bucket id.
 */
export class LfuStore extends ListStore {
  readonly policy = 'lfu';
  private bucketFrequency: Float64Array = new Float64Array(0);
  private bucketPrev: Int32Array = new Int32Array(0);
  private bucketNext: Int32Array = new Int32Array(0);
  private freeBuckets: Int32Array = new Int32Array(0);
  private freeCount = 0;
  /** The lowest-frequency bucket, where victims come from. */
  private lowest = NIL;

  constructor(options: CacheStoreOptions) {
    super(options);
    this.growBuckets(64);
  }

  /** Into the bucket for frequency + 1, the most recent of it. */
  protected onHit(key: number): void {
    const links = this.links;
    const bucket = links.listOf(key);
    const frequency = this.bucketFrequency[bucket] + 1;
    let target = this.bucketNext[bucket];
    if (target === NIL || this.bucketFrequency[target] !== frequency) target = this.newBucketAfter(bucket, frequency);
    links.moveToHead(links.list(target), key);
    if (links.list(bucket).length === 0) this.freeBucket(bucket);
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.forget(this.links.list(this.lowest).tail);
    let bucket = this.lowest;
    if (bucket === NIL || this.bucketFrequency[bucket] !== 1) bucket = this.newBucketAfter(NIL, 1);
    this.links.pushHead(this.links.list(bucket), key, charge);
    return true;
  }

  /** A bucket its last object leaves is freed, so the lowest bucket is never empty. */
  protected override forget(key: number): void {
    const bucket = this.links.listOf(key);
    this.links.unlink(key);
    this.entries.drop(key);
    if (this.links.list(bucket).length === 0) this.freeBucket(bucket);
  }

  /** A new empty bucket linked right after `previous` (NIL: at the front). */
  private newBucketAfter(previous: number, frequency: number): number {
    if (this.freeCount === 0) this.growBuckets(this.bucketFrequency.length * 2);
    const bucket = this.freeBuckets[--this.freeCount];
    const following = previous === NIL ? this.lowest : this.bucketNext[previous];
    this.bucketFrequency[bucket] = frequency;
    this.bucketPrev[bucket] = previous;
    this.bucketNext[bucket] = following;
    if (following !== NIL) this.bucketPrev[following] = bucket;
    if (previous === NIL) this.lowest = bucket;
    else this.bucketNext[previous] = bucket;
    return bucket;
  }

  private freeBucket(bucket: number): void {
    const before = this.bucketPrev[bucket];
    const after = this.bucketNext[bucket];
    if (before === NIL) this.lowest = after;
    else this.bucketNext[before] = after;
    if (after !== NIL) this.bucketPrev[after] = before;
    this.freeBuckets[this.freeCount++] = bucket;
  }

  /** At most objectCount + 1 buckets are live at once, so this runs rarely (and allocates only then). */
  private growBuckets(length: number): void {
    const old = this.bucketFrequency.length;
    this.bucketFrequency = growFloat64(this.bucketFrequency, length, 0);
    this.bucketPrev = growInt32(this.bucketPrev, length, 0);
    this.bucketNext = growInt32(this.bucketNext, length, 0);
    this.freeBuckets = growInt32(this.freeBuckets, length, 0);
    for (let id = old; id < length; id++) this.links.newList(); // list id = bucket id
    for (let id = length - 1; id >= old; id--) this.freeBuckets[this.freeCount++] = id;
  }
}
