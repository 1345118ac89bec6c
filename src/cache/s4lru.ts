import type { CacheStoreOptions } from './cacheStore.js';
import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

/**
 * Segmented LRU as libCacheSim's SLRU.c defines it: n LRU segments 0 … n − 1 of
 * ⌊capacity/n⌋ charges each (bytes, or objects in count mode).
 *
 * - A miss first evicts, while the new object does not fit the cache, the LRU object of the
 *   lowest segment holding any charge; then the object enters the head of the lowest
 *   segment with room for it, or of segment 0 when none has (segment 0 may then exceed its
 *   share). So a cold cache fills segment 0, then 1, 2, ….
 * - A hit in the top segment moves the object to that segment's head; a hit lower down
 *   moves it to the head of the next segment up. A segment over its share passes its LRU
 *   object to the head of the segment below, cascading down; segment 0 over its share
 *   after receiving one evicts its LRU objects. A hit can therefore evict.
 *
 * One difference, at the edge: libCacheSim refuses an object larger than one segment;
 * here every object up to the whole capacity is admitted (the CacheStore contract), into
 * segment 0, and a hit moves it to the head of its own segment instead of up (moved up, it
 * would come straight back down into segment 0 and evict itself). No object of the
 * CloudPhysics reference trace is that large at the sizes it is pinned at. Re-insertion of
 * a present key is a new insertion.
 *
 * The registry's `s4lru` is this with four segments (libCacheSim's default, its
 * "S4LRU(25:25:25:25)"); libCacheSim's own test suite pins five (`n-seg=5`), which the
 * tests reproduce with this class.
 */
export class SegmentedLruStore extends ListStore {
  readonly policy: string;
  /** Segments 0 … n − 1; a segment's list id is its level. */
  private readonly segments: KeyList[];
  private readonly top: number;
  private readonly segmentCapacity: number;

  constructor(options: CacheStoreOptions, segmentCount: number) {
    super(options);
    if (!Number.isInteger(segmentCount) || segmentCount < 1) throw new RangeError(`segment count must be an integer ≥ 1, got ${segmentCount}`);
    this.policy = `s${segmentCount}lru`;
    this.segments = Array.from({ length: segmentCount }, () => this.links.newList());
    this.top = segmentCount - 1;
    this.segmentCapacity = Math.floor(this.capacity / segmentCount);
  }

  protected onHit(key: number): void {
    const segments = this.segments;
    const level = this.links.listOf(key);
    // An object larger than a segment (never admitted by libCacheSim) cannot move up: it
    // would only bounce back down and evict itself.
    if (level === this.top || this.links.weightOf(key) > this.segmentCapacity) {
      this.links.moveToHead(segments[level], key);
      return;
    }
    this.links.moveToHead(segments[level + 1], key);
    // Only the segments above 0 that received an object can be over their share (an
    // insert never overfills them), so the cascade starts where the object entered. Moving
    // all of a segment's overflow before the next segment's gives the same objects in the
    // same order as libCacheSim's one-at-a-time recursion: each level gives up the shortest
    // run of its LRU end that brings it within its share.
    let demotedToBottom = false;
    for (let upper = level + 1; upper >= 1; upper--) {
      const segment = segments[upper];
      while (segment.total > this.segmentCapacity) {
        this.links.moveToHead(segments[upper - 1], segment.tail);
        if (upper === 1) demotedToBottom = true;
      }
    }
    // Segment 0 may be over its share since an insert (see admit); libCacheSim trims it
    // only when an object is demoted into it.
    if (!demotedToBottom) return;
    const bottom = segments[0];
    while (bottom.total > this.segmentCapacity) this.forget(bottom.tail);
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.evictOne();
    const segments = this.segments;
    let level = 0;
    while (level <= this.top && segments[level].total + charge > this.segmentCapacity) level++;
    this.links.pushHead(segments[level > this.top ? 0 : level], key, charge);
    return true;
  }

  /** The LRU object of the lowest segment holding any charge (libCacheSim's SLRU_to_evict). */
  private evictOne(): void {
    const segments = this.segments;
    let level = 0;
    while (level < this.top && segments[level].total <= 0) level++;
    // Only zero-size objects below, and the top empty too (possible only through a
    // rounding residue of fractional sizes): take the lowest non-empty segment.
    if (segments[level].length === 0) {
      level = 0;
      while (segments[level].length === 0) level++;
    }
    this.forget(segments[level].tail);
  }
}

/**
 * Quadruply-segmented LRU, S4LRU (Huang, Wang, Tang, Saroiu, Kumar and Li, "An analysis of
 * Facebook photo caching", SOSP 2013, §5.1), as libCacheSim defines it: SegmentedLruStore
 * with four segments of a quarter each.
 */
export class S4LruStore extends SegmentedLruStore {
  override readonly policy = 's4lru';

  constructor(options: CacheStoreOptions) {
    super(options, 4);
  }
}
