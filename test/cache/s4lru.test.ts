import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/lru.js';
import { S4LruStore, SegmentedLruStore } from '../../src/cache/s4lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * libCacheSim's SLRU.c transcribed the slow way: n arrays (least recent first), sizes
 * summed on demand, and its one-object-at-a-time recursion `cool` kept as it is (the store
 * moves a segment's whole overflow at once). The one deliberate difference from the C code,
 * kept here too: objects larger than one segment are admitted, and stay in their segment
 * on a hit (s4lru.ts).
 */
class ReferenceSlru extends ReferenceStore {
  segments: number[][];
  readonly share: number;

  constructor(capacity: number, countMode: boolean, segmentCount = 4) {
    super(capacity, countMode);
    this.segments = Array.from({ length: segmentCount }, () => []);
    this.share = Math.floor(capacity / segmentCount);
  }

  private bytes(level: number): number {
    return this.segments[level].reduce((sum, key) => sum + this.chargeOf(this.entries.get(key)!.size), 0);
  }

  /** SLRU_to_evict + SLRU_evict: the LRU object of the lowest segment holding any charge. */
  private evictLowest(): void {
    let level = this.segments.findIndex((_, i) => this.bytes(i) > 0);
    if (level < 0) level = this.segments.findIndex((segment) => segment.length > 0);
    this.evict(this.segments[level].shift()!);
  }

  /** SLRU_cool: one object from segment `level` to the head of the one below; segment 0 evicts. */
  private cool(level: number): void {
    if (level === 0) return this.evictLowest();
    this.segments[level - 1].push(this.segments[level].shift()!);
    while (this.bytes(level - 1) > this.share) this.cool(level - 1);
  }

  protected onHit(key: number): void {
    const top = this.segments.length - 1;
    const level = this.segments.findIndex((segment) => segment.includes(key));
    without(this.segments[level], key);
    if (level === top || this.chargeOf(this.entries.get(key)!.size) > this.share) {
      this.segments[level].push(key);
      return;
    }
    this.segments[level + 1].push(key);
    while (this.bytes(level + 1) > this.share) this.cool(level + 1);
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) this.evictLowest();
    let level = this.segments.findIndex((_, i) => this.bytes(i) + charge <= this.share);
    if (level < 0) level = 0;
    this.segments[level].push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  protected unqueue(key: number): void {
    for (const segment of this.segments) without(segment, key);
  }
}

const s4lru = (capacity: number) => new S4LruStore({ capacity, countMode: true });

describeCacheStoreContract('s4lru', (options) => new S4LruStore(options));

describe('S4LruStore: differential tests against a transcription of libCacheSim’s SLRU.c (four segments)', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new S4LruStore(options), (capacity, countMode) => new ReferenceSlru(capacity, countMode), { seed: 20240706 });
  });

  it('fast-check, five segments (libCacheSim’s test configuration): identical results', () => {
    assertMatchesReference((options) => new SegmentedLruStore(options, 5), (capacity, countMode) => new ReferenceSlru(capacity, countMode, 5), { seed: 20240708, numRuns: 200 });
  });

  describeTraceDifferential('s4lru', (options) => new S4LruStore(options), (capacity, countMode) => new ReferenceSlru(capacity, countMode));
});

describe('SegmentedLruStore against libCacheSim’s own pinned numbers', () => {
  // libCacheSim's test suite (test/test_evictionAlgo.c, test/common.h) runs its SLRU with
  // "n-seg=5" on cloudPhysicsIO.oracleGeneral.bin, byte mode, 128 MiB … 1 GiB in steps of
  // 128 MiB. The same code with four segments is libCacheSim's default, cdnsim's s4lru
  // (its numbers are pinned in test/experiment/replayReference.test.ts).
  const LIBCACHESIM_SLRU5 = {
    missCount: [89624, 86725, 82781, 80203, 75388, 65645, 59035, 56063],
    missBytes: [4123085312, 3915534848, 3690704896, 3493027840, 3174708736, 2661464064, 2507604992, 2439981056],
  };

  it('five segments: identical miss counts and miss bytes at all 8 sizes', () => {
    // oracleGeneral records: u32 time, u64 id, u32 size, i64 next access; an object keeps its first size.
    const trace = readFileSync(resolve(import.meta.dirname, '../fixtures/traces/cloudPhysicsIO.oracleGeneral.bin'));
    const requests = trace.length / 24;
    const keys = new Int32Array(requests);
    const sizes: number[] = [];
    const keyOf = new Map<bigint, number>();
    for (let i = 0; i < requests; i++) {
      const id = trace.readBigUInt64LE(i * 24 + 4);
      let key = keyOf.get(id);
      if (key === undefined) {
        key = sizes.length;
        keyOf.set(id, key);
        sizes.push(trace.readUInt32LE(i * 24 + 12));
      }
      keys[i] = key;
    }
    expect([requests, sizes.length]).toEqual([113_872, 48_974]);
    const missCount: number[] = [];
    const missBytes: number[] = [];
    for (let step = 1; step <= 8; step++) {
      const store = new SegmentedLruStore({ capacity: step * 128 * 1024 * 1024, keySpace: sizes.length }, 5);
      let misses = 0;
      let bytes = 0;
      for (const key of keys) {
        if (store.lookup(key, 0)) continue;
        misses++;
        bytes += sizes[key];
        store.insert(key, sizes[key], Infinity);
      }
      missCount.push(misses);
      missBytes.push(bytes);
    }
    expect({ missCount, missBytes }).toEqual(LIBCACHESIM_SLRU5);
  });

  it('names itself after its segment count; a count below 1 is refused', () => {
    expect(new SegmentedLruStore({ capacity: 10 }, 5).policy).toBe('s5lru');
    expect(new S4LruStore({ capacity: 10 }).policy).toBe('s4lru');
    expect(() => new SegmentedLruStore({ capacity: 10 }, 0)).toThrow('segment count must be an integer ≥ 1, got 0');
  });
});

describe('S4LruStore: hand-made sequences (Huang et al., "An analysis of Facebook photo caching", SOSP 2013; libCacheSim’s SLRU.c)', () => {
  // 8 slots: each segment's quarter is 2. Segments below are head first.
  // 1–8 fill the cold cache bottom up: s0 = [2 1], s1 = [4 3], s2 = [6 5], s3 = [8 7].
  // 1: s0 → s1 = [1 4 3], over its quarter: 3 goes down, s0 = [3 2]. 1: s1 → s2 = [1 6 5]: 5 goes down, s1 = [5 4].
  // 2: s0 → s1 = [2 5 4]: 4 down, s0 = [4 3]. 3: s1 = [3 2 5]: 5 down, s0 = [5 4]. 4: s1 = [4 3 2]: 2 down, s0 = [2 5].
  const warm = [...range(1, 8), 1, 1, 2, 3, 4];
  const scan = range(9, 13);

  it('objects hit more often sit in higher segments and outlive a scan: 1, 3 and 4 survive five new objects, 2 (demoted to segment 0) does not (LRU keeps 2 and loses 1)', () => {
    expect(hitMissString(s4lru(8), [...warm, ...scan, 1, 3, 4, 2])).toBe(`${'M'.repeat(8)}HHHHH${'M'.repeat(5)}HHHM`);
    expect(hitMissString(new LruStore({ capacity: 8, countMode: true }), [...warm, ...scan, 1, 3, 4, 2])).toBe(`${'M'.repeat(8)}HHHHH${'M'.repeat(5)}MHHM`);
  });

  it('misses evict from segment 0 only: the scan takes 5 and 2, then its own objects; segments 1–3 keep 1, 3, 4, 6, 7, 8', () => {
    const store = s4lru(8);
    hitMissString(store, warm);
    hitMissString(store, [9, 10]); // evict 5, then 2 (s0's LRU end); each newcomer enters s0, the lowest segment with room
    expect(cachedKeys(store, range(1, 10))).toEqual([1, 3, 4, 6, 7, 8, 9, 10]);
    hitMissString(store, [11, 12, 13]); // evict 9, 10, 11
    expect(cachedKeys(store, range(1, 13))).toEqual([1, 3, 4, 6, 7, 8, 12, 13]);
  });

  it('libCacheSim: a miss enters the lowest segment with room, so a cold cache fills every segment and its first objects sit highest', () => {
    const store = s4lru(8);
    hitMissString(store, range(1, 8));
    expect(store.objectCount).toBe(8);
    // A scan of 6 new objects flushes segment 0 (1, 2, then the newcomers); 3–8, never hit, stay in segments 1–3.
    hitMissString(store, range(9, 14));
    expect(cachedKeys(store, range(1, 14))).toEqual([3, 4, 5, 6, 7, 8, 13, 14]);
  });

  it('byte mode: the victim comes from the lowest segment holding any bytes, and segment 0 may hold more than its quarter after an insert', () => {
    const store = new S4LruStore({ capacity: 400 }); // quarters of 100 bytes
    store.insert(1, 100, Infinity); // s0 = [1]
    store.lookup(1, 0); // s1 = [1]
    store.insert(2, 50, Infinity); // s0 = [2]
    store.lookup(2, 0); // s1 = [2 1] = 150 > 100: 1 (its LRU) goes down to s0
    expect(store.insert(3, 300, Infinity)).toBe(true); // 150 + 300 > 400: s0's 1 goes; 300 fits no quarter: s0 = [3], 300 bytes
    expect(cachedKeys(store, [1, 2, 3])).toEqual([2, 3]);
    store.lookup(2, 0); // s2 = [2]; nothing comes down to s0, so s0 keeps its 300 bytes
    expect(cachedKeys(store, [2, 3])).toEqual([2, 3]);
    expect(store.insert(4, 380, Infinity)).toBe(true); // 350 + 380 > 400: 3 (s0) goes, then 2 (s2, the lowest holding bytes)
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([4]);
  });

  it('byte mode: an object larger than a quarter is admitted into segment 0 and, on a hit, stays there (libCacheSim refuses it)', () => {
    const store = new S4LruStore({ capacity: 100 }); // quarters of 25 bytes
    expect(store.insert(1, 40, Infinity)).toBe(true);
    expect([store.lookup(1, 0), store.lookup(1, 0)]).toEqual([true, true]); // moved up, it would fall back and evict itself
    expect(store.insert(2, 20, Infinity)).toBe(true); // s0 = [2 1]
    expect(store.lookup(2, 0)).toBe(true); // s1 = [2]: nothing comes down, so s0's 40 bytes stay
    expect(cachedKeys(store, [1, 2])).toEqual([1, 2]);
  });

  it('byte mode: a hit can evict — an object demoted into an over-full segment 0 pushes out its LRU object', () => {
    const store = new S4LruStore({ capacity: 400 }); // quarters of 100 bytes
    for (const key of [1, 2, 3, 4]) store.insert(key, 90, Infinity); // one per segment: s0 = [1], s1 = [2], s2 = [3], s3 = [4]
    store.insert(5, 40, Infinity); // 400 bytes fit; no quarter has 40 bytes free: s0 = [5 1], 130 bytes
    expect(store.objectCount).toBe(5);
    expect(store.lookup(5, 0)).toBe(true); // s1 = [5 2] = 130 > 100: 2 goes down, s0 = [2 1] = 180 > 100: 1 is evicted
    expect(cachedKeys(store, [1, 2, 3, 4, 5])).toEqual([2, 3, 4, 5]);
    expect([store.occupancy, store.objectCount]).toEqual([310, 4]);
  });
});
