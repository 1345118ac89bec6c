import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LruStore } from '../../src/cache/lru.js';
import { CACHE_POLICY_NAMES, createCacheStore } from '../../src/cache/registry.js';
import { RandomStreams, type RandomStream } from '../../src/sim/random.js';

/**
 * A deliberately naive LRU: an array ordered by recency (index 0 is the least recent),
 * linear scans, byte (or object) capacity. Semantics written from the CacheStore contract:
 * an expired entry is a miss and is removed by lookup; re-inserting a key replaces its
 * entry; an object larger than the capacity is never admitted; eviction goes from the
 * least-recent end until the new object fits.
 */
class ReferenceLru {
  entries: { key: number; size: number; expiresAtMs: number }[] = [];

  constructor(
    readonly capacity: number,
    readonly countMode = false,
  ) {}

  private charge(size: number): number {
    return this.countMode ? 1 : size;
  }

  get occupancy(): number {
    let used = 0;
    for (const entry of this.entries) used += this.charge(entry.size);
    return used;
  }

  get objectCount(): number {
    return this.entries.length;
  }

  private indexOf(key: number): number {
    for (let i = 0; i < this.entries.length; i++) if (this.entries[i].key === key) return i;
    return -1;
  }

  lookup(key: number, nowMs: number): boolean {
    const i = this.indexOf(key);
    if (i < 0) return false;
    const [entry] = this.entries.splice(i, 1);
    if (entry.expiresAtMs <= nowMs) return false;
    this.entries.push(entry);
    return true;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    const i = this.indexOf(key);
    if (i >= 0) this.entries.splice(i, 1);
    const charge = this.charge(size);
    if (charge > this.capacity) return false;
    while (this.occupancy + charge > this.capacity) this.entries.shift();
    this.entries.push({ key, size, expiresAtMs });
    return true;
  }

  remove(key: number): boolean {
    const i = this.indexOf(key);
    if (i < 0) return false;
    this.entries.splice(i, 1);
    return true;
  }

  keysLeastRecentFirst(): number[] {
    return this.entries.map((entry) => entry.key);
  }
}

/** Zipf(0.8)-like key sampler over `n` ids by inverse CDF with a binary search (test-local). */
function zipfKeySampler(n: number, exponent: number): (u: number) => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += Math.pow(i + 1, -exponent);
    cdf[i] = total;
  }
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

interface TraceResult {
  hits: number;
  misses: number;
  mismatches: string[];
  /** Sizes of the objects of the requests that hit. */
  hitSizes: Set<number>;
}

/** Replays a generated trace against LruStore and the reference, request by request. */
function replay(stream: RandomStream, options: { capacity: number; countMode: boolean; requests: number; ttlMs: number }): TraceResult {
  const ids = 300;
  const pick = zipfKeySampler(ids, 0.8);
  // One size per object (as a catalogue gives), lognormal around 2 kB, 0 to ~200 kB.
  const sizes = Array.from({ length: ids }, () => Math.round(stream.lognormal(2_000, 1.5)));
  sizes[7] = 0;
  const store = new LruStore({ capacity: options.capacity, countMode: options.countMode, keySpace: 64 });
  const reference = new ReferenceLru(options.capacity, options.countMode);
  const result: TraceResult = { hits: 0, misses: 0, mismatches: [], hitSizes: new Set() };
  let now = 0;
  for (let i = 0; i < options.requests && result.mismatches.length < 5; i++) {
    now += stream.int(3);
    const key = pick(stream.next());
    const expiresAt = options.ttlMs === Infinity ? Infinity : now + 1 + stream.int(options.ttlMs);
    const hit = store.lookup(key, now);
    const expectedHit = reference.lookup(key, now);
    if (!hit) store.insert(key, sizes[key], expiresAt);
    if (!expectedHit) reference.insert(key, sizes[key], expiresAt);
    if (hit) {
      result.hits++;
      result.hitSizes.add(sizes[key]);
    } else result.misses++;
    if (hit !== expectedHit || store.occupancy !== reference.occupancy || store.objectCount !== reference.objectCount) {
      result.mismatches.push(
        `request ${i} key ${key}: hit ${hit} vs ${expectedHit}, occupancy ${store.occupancy} vs ${reference.occupancy}, count ${store.objectCount} vs ${reference.objectCount}`,
      );
    }
    if (store.occupancy > options.capacity) result.mismatches.push(`request ${i}: occupancy ${store.occupancy} > capacity ${options.capacity}`);
  }
  return result;
}

describe('LruStore: differential test against a naive reference LRU', () => {
  const configurations = [
    { name: 'bytes, capacity 0', capacity: 0, countMode: false },
    { name: 'bytes, capacity 5 kB (smaller than many objects)', capacity: 5_000, countMode: false },
    { name: 'bytes, capacity 50 kB', capacity: 50_000, countMode: false },
    { name: 'bytes, capacity 300 kB', capacity: 300_000, countMode: false },
    { name: 'bytes, capacity 10 MB (holds everything)', capacity: 10_000_000, countMode: false },
    { name: 'count mode, capacity 1', capacity: 1, countMode: true },
    { name: 'count mode, capacity 25', capacity: 25, countMode: true },
    { name: 'count mode, capacity 120', capacity: 120, countMode: true },
  ];

  for (const config of configurations) {
    it(`${config.name}: identical hit/miss sequence, occupancy and objectCount over 20,000 requests (no expiry)`, () => {
      const stream = new RandomStreams(`lru-diff-${config.name}`).stream('trace');
      const result = replay(stream, { ...config, requests: 20_000, ttlMs: Infinity });
      expect(result.mismatches).toEqual([]);
      expect(result.hits + result.misses).toBe(20_000);
    });
  }

  it('the traces exercise the interesting regimes: capacity 0 hits only 0-byte objects, 10 MB misses at most 300 times, 50 kB is in between', () => {
    const run = (capacity: number, countMode = false) =>
      replay(new RandomStreams('lru-regimes').stream('trace'), { capacity, countMode, requests: 20_000, ttlMs: Infinity });
    const zero = run(0);
    expect(zero.hits).toBeGreaterThan(0);
    expect([...zero.hitSizes]).toEqual([0]);
    expect(run(0, true).hits).toBe(0);
    // Each of the 300 ids misses once (first request) and never again, if it was requested at all.
    expect(run(10_000_000).misses).toBeLessThanOrEqual(300);
    const middle = run(50_000);
    expect(middle.hits).toBeGreaterThan(2_000);
    expect(middle.misses).toBeGreaterThan(2_000);
  });

  for (const config of [
    { name: 'bytes, capacity 50 kB', capacity: 50_000, countMode: false },
    { name: 'count mode, capacity 40', capacity: 40, countMode: true },
  ]) {
    it(`${config.name}: identical sequences with expiring entries (TTL 1–200 ms, clock +0–2 ms per request)`, () => {
      const stream = new RandomStreams(`lru-ttl-${config.name}`).stream('trace');
      const result = replay(stream, { ...config, requests: 20_000, ttlMs: 200 });
      expect(result.mismatches).toEqual([]);
      // Expiry must actually bite: a noticeable share of misses beyond cold misses.
      expect(result.misses).toBeGreaterThan(1_000);
    });
  }
});

type Op = { kind: 'lookup'; key: number } | { kind: 'insert'; key: number; size: number; ttl: number } | { kind: 'remove'; key: number } | { kind: 'tick'; ms: number };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('lookup' as const), key: fc.nat(40) }),
  fc.record({
    kind: fc.constant('insert' as const),
    key: fc.nat(40),
    size: fc.oneof(fc.nat(300), fc.constant(0)),
    ttl: fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 50 })),
  }),
  fc.record({ kind: fc.constant('remove' as const), key: fc.nat(40) }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(20) }),
);

describe('LruStore: properties on random operation sequences (fast-check)', () => {
  it('without expiry: occupancy ≤ capacity and equals the sum of the sizes (or count) of the contained keys, after every op', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000 }), fc.boolean(), fc.array(opArbitrary, { maxLength: 200 }), (capacity, countMode, ops) => {
        const store = new LruStore({ capacity: countMode ? Math.floor(capacity / 50) : capacity, countMode, keySpace: 16 });
        const lastSize = new Map<number, number>();
        for (const op of ops) {
          if (op.kind === 'lookup') store.lookup(op.key, 0);
          else if (op.kind === 'remove') store.remove(op.key);
          else if (op.kind === 'insert') {
            store.insert(op.key, op.size, Infinity);
            lastSize.set(op.key, op.size);
          }
          let expectedOccupancy = 0;
          let expectedCount = 0;
          for (let key = 0; key <= 40; key++) {
            if (store.contains(key, 0)) {
              expectedOccupancy += countMode ? 1 : lastSize.get(key)!;
              expectedCount++;
            }
          }
          if (store.occupancy > store.capacity) return false;
          if (store.occupancy !== expectedOccupancy || store.objectCount !== expectedCount) return false;
        }
        return true;
      }),
      { numRuns: 500, seed: 20240601 },
    );
  });

  it('with expiry and a moving clock: every return value, occupancy, objectCount and the eviction order match the reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000 }), fc.boolean(), fc.array(opArbitrary, { maxLength: 200 }), (capacity, countMode, ops) => {
        const cap = countMode ? Math.floor(capacity / 50) : capacity;
        const store = new LruStore({ capacity: cap, countMode, keySpace: 16 });
        const reference = new ReferenceLru(cap, countMode);
        let now = 0;
        for (const op of ops) {
          let actual: boolean | undefined;
          let expected: boolean | undefined;
          if (op.kind === 'tick') now += op.ms;
          else if (op.kind === 'lookup') {
            actual = store.lookup(op.key, now);
            expected = reference.lookup(op.key, now);
          } else if (op.kind === 'remove') {
            actual = store.remove(op.key);
            expected = reference.remove(op.key);
          } else {
            actual = store.insert(op.key, op.size, now + op.ttl);
            expected = reference.insert(op.key, op.size, now + op.ttl);
          }
          if (actual !== expected) return false;
          if (store.occupancy !== reference.occupancy || store.objectCount !== reference.objectCount) return false;
          if (store.occupancy > cap) return false;
          for (let key = 0; key <= 40; key++) {
            const entry = reference.entries.find((e) => e.key === key);
            if (store.contains(key, now) !== (entry !== undefined && entry.expiresAtMs > now)) return false;
          }
        }
        // Eviction order: filling with fresh keys evicts in the reference's least-recent-first order.
        const order = reference.keysLeastRecentFirst().filter((key) => store.contains(key, now));
        const evicted: number[] = [];
        for (let fresh = 100; fresh < 100 + order.length + 5; fresh++) {
          const before = order.filter((key) => store.contains(key, now));
          store.insert(fresh, countMode ? 1 : Math.max(1, Math.ceil(cap / 4)), Infinity);
          for (const key of before) if (!store.contains(key, now)) evicted.push(key);
        }
        const evictedOrder = order.filter((key) => evicted.includes(key));
        return evicted.join(',') === evictedOrder.join(',');
      }),
      { numRuns: 300, seed: 20240602 },
    );
  });
});

describe('LruStore: edge cases', () => {
  it('an object larger than the whole cache is not admitted: insert returns false and nothing is evicted', () => {
    const store = new LruStore({ capacity: 1_000 });
    expect(store.insert(1, 400, Infinity)).toBe(true);
    expect(store.insert(2, 500, Infinity)).toBe(true);
    expect(store.insert(3, 1_001, Infinity)).toBe(false);
    expect(store.occupancy).toBe(900);
    expect(store.objectCount).toBe(2);
    expect(store.contains(1, 0)).toBe(true);
    expect(store.contains(2, 0)).toBe(true);
    expect(store.contains(3, 0)).toBe(false);
    expect(store.lookup(3, 0)).toBe(false);
  });

  it('an object of exactly the capacity is admitted and evicts everything else', () => {
    const store = new LruStore({ capacity: 1_000 });
    store.insert(1, 400, Infinity);
    store.insert(2, 500, Infinity);
    store.insert(3, 100, Infinity);
    expect(store.occupancy).toBe(1_000);
    expect(store.insert(4, 1_000, Infinity)).toBe(true);
    expect(store.occupancy).toBe(1_000);
    expect(store.objectCount).toBe(1);
    expect([1, 2, 3, 4].map((key) => store.contains(key, 0))).toEqual([false, false, false, true]);
  });

  it('zero-size objects are admitted, counted in objectCount, and take no bytes (even in a 0-byte cache)', () => {
    const store = new LruStore({ capacity: 100 });
    store.insert(1, 100, Infinity);
    expect(store.insert(2, 0, Infinity)).toBe(true);
    expect(store.insert(3, 0, Infinity)).toBe(true);
    expect(store.occupancy).toBe(100);
    expect(store.objectCount).toBe(3);
    expect(store.lookup(2, 0)).toBe(true);

    const empty = new LruStore({ capacity: 0 });
    expect(empty.insert(5, 0, Infinity)).toBe(true);
    expect(empty.insert(6, 1, Infinity)).toBe(false);
    expect(empty.objectCount).toBe(1);
    expect(empty.occupancy).toBe(0);
  });

  it('re-inserting a key with another size replaces the entry: occupancy reflects the new size, count unchanged', () => {
    const store = new LruStore({ capacity: 1_000 });
    store.insert(1, 300, Infinity);
    store.insert(2, 200, Infinity);
    expect(store.occupancy).toBe(500);
    expect(store.insert(1, 700, Infinity)).toBe(true);
    expect(store.occupancy).toBe(900);
    expect(store.objectCount).toBe(2);
    expect(store.insert(1, 50, Infinity)).toBe(true);
    expect(store.occupancy).toBe(250);
    expect(store.objectCount).toBe(2);
    // Key 1 grown to 900 no longer fits beside key 2 (200 + 900 > 1000): key 2, the least recent, is evicted.
    expect(store.insert(1, 900, Infinity)).toBe(true);
    expect(store.contains(2, 0)).toBe(false);
    expect(store.occupancy).toBe(900);
    expect(store.objectCount).toBe(1);
  });

  it('re-inserting a key also makes it the most recent', () => {
    const store = new LruStore({ capacity: 3, countMode: true });
    store.insert(1, 10, Infinity);
    store.insert(2, 10, Infinity);
    store.insert(3, 10, Infinity);
    store.insert(1, 20, Infinity);
    store.insert(4, 10, Infinity);
    expect([1, 2, 3, 4].map((key) => store.contains(key, 0))).toEqual([true, false, true, true]);
  });

  it('TTL: an entry with expiresAtMs = 100 is a hit at 99 and a miss at 100; the miss removes it', () => {
    const store = new LruStore({ capacity: 1_000 });
    store.insert(1, 250, 100);
    store.insert(2, 50, Infinity);
    expect(store.contains(1, 99)).toBe(true);
    expect(store.lookup(1, 99)).toBe(true);
    expect(store.contains(1, 100)).toBe(false);
    // contains() on an expired entry does not remove it.
    expect(store.objectCount).toBe(2);
    expect(store.occupancy).toBe(300);
    expect(store.lookup(1, 100)).toBe(false);
    expect(store.objectCount).toBe(1);
    expect(store.occupancy).toBe(50);
    expect(store.remove(1)).toBe(false);
    expect(store.lookup(1, 0)).toBe(false);
  });

  it('hits do not extend expiry: hit at 10 and 99, miss at 100', () => {
    const store = new LruStore({ capacity: 1_000 });
    store.insert(1, 10, 100);
    expect(store.lookup(1, 10)).toBe(true);
    expect(store.lookup(1, 99)).toBe(true);
    expect(store.lookup(1, 100)).toBe(false);
    expect(store.objectCount).toBe(0);
  });

  it('contains() does not change recency; lookup() does (observed through eviction order)', () => {
    const withContains = new LruStore({ capacity: 3, countMode: true });
    const withLookup = new LruStore({ capacity: 3, countMode: true });
    for (const store of [withContains, withLookup]) for (const key of [1, 2, 3]) store.insert(key, 100, Infinity);
    expect(withContains.contains(1, 0)).toBe(true);
    expect(withLookup.lookup(1, 0)).toBe(true);
    withContains.insert(4, 100, Infinity);
    withLookup.insert(4, 100, Infinity);
    // Key 1 stayed least recent under contains() and is evicted; after lookup() key 2 is.
    expect([1, 2, 3, 4].map((key) => withContains.contains(key, 0))).toEqual([false, true, true, true]);
    expect([1, 2, 3, 4].map((key) => withLookup.contains(key, 0))).toEqual([true, false, true, true]);
  });

  it('byte mode evicts least-recent first until the new object fits (evicts 2 of 3 for a 600-byte object)', () => {
    const store = new LruStore({ capacity: 1_000 });
    store.insert(1, 300, Infinity);
    store.insert(2, 300, Infinity);
    store.insert(3, 300, Infinity);
    store.lookup(1, 0); // order now 2, 3, 1 (least recent first)
    expect(store.insert(4, 600, Infinity)).toBe(true);
    expect([1, 2, 3, 4].map((key) => store.contains(key, 0))).toEqual([true, false, false, true]);
    expect(store.occupancy).toBe(900);
  });

  it('count mode charges 1 per object whatever its size', () => {
    const store = new LruStore({ capacity: 3, countMode: true });
    expect(store.countMode).toBe(true);
    expect(store.insert(1, 5_000_000_000, Infinity)).toBe(true);
    expect(store.insert(2, 0, Infinity)).toBe(true);
    expect(store.insert(3, 17, Infinity)).toBe(true);
    expect(store.occupancy).toBe(3);
    expect(store.objectCount).toBe(3);
    expect(store.insert(4, 1, Infinity)).toBe(true);
    expect(store.occupancy).toBe(3);
    expect(store.contains(1, 0)).toBe(false);
    store.remove(3);
    expect(store.occupancy).toBe(2);
    expect(store.objectCount).toBe(2);
  });

  it('keys beyond the initial keySpace grow the arrays: key 100000 in a store built with keySpace 16, older entries and their order intact', () => {
    const store = new LruStore({ capacity: 20, countMode: true, keySpace: 16 });
    for (let key = 0; key < 16; key++) store.insert(key, 1, Infinity);
    expect(store.lookup(100_000, 0)).toBe(false);
    expect(store.remove(100_000)).toBe(false);
    expect(store.contains(100_000, 0)).toBe(false);
    expect(store.insert(100_000, 1, Infinity)).toBe(true);
    expect(store.objectCount).toBe(17);
    expect(store.lookup(100_000, 0)).toBe(true);
    for (let key = 0; key < 16; key++) expect(store.contains(key, 0)).toBe(true);
    // Three more fresh keys fill the cache to 20; a fourth evicts key 0, the least recent.
    for (const key of [16, 17, 18]) store.insert(key, 1, Infinity);
    expect(store.objectCount).toBe(20);
    store.insert(50_000, 1, Infinity);
    expect(store.contains(0, 0)).toBe(false);
    expect(store.contains(1, 0)).toBe(true);
    expect(store.contains(100_000, 0)).toBe(true);
    expect(store.remove(100_000)).toBe(true);
    expect(store.objectCount).toBe(19);
  });

  it('a negative or NaN capacity is rejected', () => {
    expect(() => new LruStore({ capacity: -1 })).toThrow('cache capacity must be ≥ 0, got -1');
    expect(() => new LruStore({ capacity: NaN })).toThrow('cache capacity must be ≥ 0, got NaN');
  });
});

describe('cache registry', () => {
  it("createCacheStore('lru', …) returns an empty LruStore with policy 'lru' and the given options", () => {
    const store = createCacheStore('lru', { capacity: 4_096, keySpace: 8 });
    expect(store).toBeInstanceOf(LruStore);
    expect(store.policy).toBe('lru');
    expect(store.capacity).toBe(4_096);
    expect(store.countMode).toBe(false);
    expect(store.occupancy).toBe(0);
    expect(store.objectCount).toBe(0);
    const counting = createCacheStore('lru', { capacity: 10, countMode: true });
    expect(counting.countMode).toBe(true);
    expect(CACHE_POLICY_NAMES).toContain('lru');
  });
});

describe('LruStore: input checks', () => {
  it('a negative or NaN size is a programming error and throws', () => {
    const store = new LruStore({ capacity: 100 });
    expect(() => store.insert(1, -5, Infinity)).toThrow(new RangeError('object size must be ≥ 0 bytes, got -5'));
    expect(() => store.insert(1, NaN, Infinity)).toThrow(RangeError);
    expect(store.occupancy).toBe(0);
  });

  it('re-inserting a present key with a size above the capacity drops the old entry and admits nothing', () => {
    const store = new LruStore({ capacity: 10 });
    store.insert(1, 5, Infinity);
    expect(store.insert(1, 11, Infinity)).toBe(false);
    expect(store.objectCount).toBe(0);
    expect(store.occupancy).toBe(0);
  });
});
