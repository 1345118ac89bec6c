import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

const SEGMENTS = 4;
const TOP = SEGMENTS - 1;

/**
 * Quadruply-segmented LRU, S4LRU (Huang, Wang, Tang, Saroiu, Kumar and Li, "An analysis of
 * Facebook photo caching", SOSP 2013, §5.1): four LRU segments 0–3. A miss enters at the
 * head of segment 0; a hit moves the object to the head of the next segment up (segment 3
 * stays in 3). A segment over its quarter of the capacity (⌊capacity/4⌋ charges, as
 * libCacheSim's SLRU.c) demotes its tail to the head of the segment below, cascading down;
 * objects leave the cache only from the bottom.
 *
 * Choice: segment 0 may also use the space segments 1–3 leave free (eviction happens only
 * when the whole cache is full), so a cold cache fills to capacity instead of to a quarter;
 * once the upper segments are full, segment 0 gets exactly its quarter. The victim is the
 * tail of the lowest non-empty segment (segment 0 unless the new object needs more than
 * segment 0 holds). Re-insertion is a new insertion into segment 0.
 */
export class S4LruStore extends ListStore {
  readonly policy = 's4lru';
  /** Segments 0–3; a segment's list id is its level. */
  private readonly segments: KeyList[] = Array.from({ length: SEGMENTS }, () => this.links.newList());
  private readonly segmentCapacity: number = Math.floor(this.capacity / SEGMENTS);

  protected onHit(key: number): void {
    const segments = this.segments;
    const level = this.links.listOf(key);
    if (level === TOP) {
      this.links.moveToHead(segments[TOP], key);
      return;
    }
    this.links.moveToHead(segments[level + 1], key);
    // In count mode one demotion restores the sizes; in byte mode it may cascade further.
    for (let upper = level + 1; upper >= 1; upper--) {
      const segment = segments[upper];
      while (segment.length > 0 && segment.total > this.segmentCapacity) this.links.moveToHead(segments[upper - 1], segment.tail);
    }
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.evictOne();
    this.links.pushHead(this.segments[0], key, charge);
    return true;
  }

  private evictOne(): void {
    let level = 0;
    while (this.segments[level].length === 0) level++;
    this.forget(this.segments[level].tail);
  }
}
