import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/lru.js';
import { S4LruStore } from '../../src/cache/s4lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * S4LRU as Huang et al. (SOSP 2013, §5.1) describe it: four LRU arrays (least recent
 * first); a miss enters segment 0, a hit moves up one segment, an overfull segment passes
 * its LRU object down; objects leave from the bottom (see s4lru.ts for the free-space rule).
 */
class ReferenceS4Lru extends ReferenceStore {
  segments: number[][] = [[], [], [], []];
  readonly quarter = Math.floor(this.capacity / 4);

  private size(segment: number[]): number {
    return segment.reduce((sum, key) => sum + this.chargeOf(this.entries.get(key)!.size), 0);
  }

  protected onHit(key: number): void {
    const from = this.segments.findIndex((segment) => segment.includes(key));
    without(this.segments[from], key);
    const to = Math.min(from + 1, 3);
    this.segments[to].push(key);
    for (let level = to; level >= 1; level--) {
      while (this.size(this.segments[level]) > this.quarter) this.segments[level - 1].push(this.segments[level].shift()!);
    }
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) {
      const lowest = this.segments.find((segment) => segment.length > 0)!;
      this.evict(lowest.shift()!);
    }
    this.segments[0].push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  protected unqueue(key: number): void {
    for (const segment of this.segments) without(segment, key);
  }
}

const s4lru = (capacity: number) => new S4LruStore({ capacity, countMode: true });

describeCacheStoreContract('s4lru', (options) => new S4LruStore(options));

describe('S4LruStore: differential tests against a naive four-segment reference', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new S4LruStore(options), (capacity, countMode) => new ReferenceS4Lru(capacity, countMode), { seed: 20240706 });
  });

  describeTraceDifferential('s4lru', (options) => new S4LruStore(options), (capacity, countMode) => new ReferenceS4Lru(capacity, countMode));
});

describe('S4LruStore: hand-made sequences (Huang et al., "An analysis of Facebook photo caching", SOSP 2013)', () => {
  // 8 slots: each segment's quarter is 2.
  const warm = [...range(1, 8), 1, 1, 2, 3, 4]; // 1 climbs to segment 2; 2, 3, 4 to segment 1, which overflows and demotes 2
  const scan = range(9, 13);

  it('objects hit more often sit in higher segments and outlive a scan: 1, 3 and 4 survive five new objects, the demoted 2 does not (LRU keeps 2 and loses 1)', () => {
    expect(hitMissString(s4lru(8), [...warm, ...scan, 1, 3, 4, 2])).toBe(`${'M'.repeat(8)}HHHHH${'M'.repeat(5)}HHHM`);
    expect(hitMissString(new LruStore({ capacity: 8, countMode: true }), [...warm, ...scan, 1, 3, 4, 2])).toBe(`${'M'.repeat(8)}HHHHH${'M'.repeat(5)}MHHM`);
  });

  it('an overfull segment demotes its LRU object to the head of the segment below: 2 goes back to segment 0, in front of 5–8', () => {
    const store = s4lru(8);
    hitMissString(store, warm);
    hitMissString(store, [9, 10, 11, 12]); // evict 5, 6, 7, 8 from segment 0's tail; 2 is next
    expect(cachedKeys(store, range(1, 8))).toEqual([1, 2, 3, 4]);
    hitMissString(store, [13]);
    expect(cachedKeys(store, range(1, 8))).toEqual([1, 3, 4]);
  });

  it('documented: segment 0 uses the space the upper segments leave free, so a cold cache fills to capacity', () => {
    const store = s4lru(8);
    hitMissString(store, range(1, 8));
    expect(store.objectCount).toBe(8);
    expect(cachedKeys(store, range(1, 8))).toEqual(range(1, 8));
  });

  it('documented: the victim comes from the lowest non-empty segment when segment 0 is empty (byte mode)', () => {
    const store = new S4LruStore({ capacity: 400 }); // quarters of 100 bytes
    store.insert(1, 100, Infinity);
    store.lookup(1, 0); // segment 1
    store.insert(2, 50, Infinity);
    store.lookup(2, 0); // segment 1 now 150 > 100: 1 (its LRU) is demoted to segment 0
    expect(store.insert(3, 300, Infinity)).toBe(true); // 150 + 300 > 400: segment 0 (1) goes first
    expect(cachedKeys(store, [1, 2, 3])).toEqual([2, 3]);
    store.lookup(2, 0); // segment 2
    expect(store.insert(4, 380, Infinity)).toBe(true); // segment 0 (3) is not enough: 2 goes from segment 2
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([4]);
  });
});
