import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CacheStore } from '../../src/cache/cacheStore.js';
import { createCacheStore, ONLINE_CACHE_POLICY_NAMES, type OnlineCachePolicyName } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import { RandomStreams } from '../../src/sim/random.js';
import { replayAgainstReference, zipfTrace } from './policyHarness.js';

/** Held (an entry, expired or not) or remembered in a ghost list: when a node must keep the key's local id. */
function referenced(store: CacheStore, key: number): boolean {
  return !Number.isNaN(store.expiryOf(key)) || store.remembers?.(key) === true;
}

describe('SparseKeyStore: local key spaces for PoP caches', () => {
  it('behaves exactly as the store it wraps, for every online policy, on traces of keys up to 60,000 with expiry and removal', () => {
    const operation = fc.record({
      kind: fc.constantFrom('request', 'request', 'request', 'remove'),
      key: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 60_000 })),
      size: fc.integer({ min: 0, max: 400 }),
      ttl: fc.constantFrom(Infinity, 50, 500),
    });
    for (const policy of ONLINE_CACHE_POLICY_NAMES) {
      fc.assert(
        fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
          const dense = createCacheStore(policy, { capacity: 1_000, keySpace: 16 });
          const sparse = new SparseKeyStore(createCacheStore(policy, { capacity: 1_000 }));
          operations.forEach((op, time) => {
            if (op.kind === 'remove') {
              expect(sparse.remove(op.key)).toBe(dense.remove(op.key));
              return;
            }
            const hit = dense.lookup(op.key, time);
            expect(sparse.lookup(op.key, time)).toBe(hit);
            if (!hit) expect(sparse.insert(op.key, op.size, time + op.ttl)).toBe(dense.insert(op.key, op.size, time + op.ttl));
            expect(sparse.expiryOf(op.key)).toBe(dense.expiryOf(op.key));
            expect(sparse.contains(op.key, time)).toBe(dense.contains(op.key, time));
          });
          expect([sparse.occupancy, sparse.objectCount]).toEqual([dense.occupancy, dense.objectCount]);
        }),
        { seed: 42, numRuns: 60 },
      );
    }
  });

  // Heavy churn: many more distinct keys than fit, a sweep every few new keys (sweepFloor 8),
  // so local ids are reused all the time; a hot set of 24 keys comes back as ghost hits.
  const churnOperation = fc.record({
    kind: fc.constantFrom('request', 'request', 'request', 'request', 'remove'),
    key: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 1_000_000 })),
    size: fc.integer({ min: 0, max: 300 }),
    ttl: fc.constantFrom(Infinity, Infinity, 20, 200),
  });
  const modes = [
    { mode: 'count mode, 1–12 objects', countMode: true, capacity: fc.integer({ min: 1, max: 12 }) },
    { mode: 'byte mode, 200–1,500 bytes', countMode: false, capacity: fc.integer({ min: 200, max: 1_500 }) },
  ];
  for (const policy of ONLINE_CACHE_POLICY_NAMES) {
    for (const { mode, countMode, capacity } of modes) {
      it(`${policy}, ${mode}: reusing local ids under churn changes no decision (same hits, inserts, expiries, occupancy as on global ids); a stored key keeps its local id`, () => {
        fc.assert(
          fc.property(capacity, fc.array(churnOperation, { minLength: 50, maxLength: 400 }), (size, operations) => {
            const dense = createCacheStore(policy, { capacity: size, countMode, keySpace: 16 });
            const sparse = new SparseKeyStore(createCacheStore(policy, { capacity: size, countMode }), { sweepFloor: 8 });
            const denseTrace: string[] = [];
            const sparseTrace: string[] = [];
            /** The local id each stored key had when it was stored. */
            const localOfStored = new Map<number, number>();
            let brokenGuarantee = '';
            operations.forEach((op, time) => {
              if (op.kind === 'remove') {
                denseTrace.push(`remove ${dense.remove(op.key)}`);
                sparseTrace.push(`remove ${sparse.remove(op.key)}`);
              } else {
                const hit = dense.lookup(op.key, time);
                denseTrace.push(`hit ${hit}`);
                sparseTrace.push(`hit ${sparse.lookup(op.key, time)}`);
                if (!hit) {
                  denseTrace.push(`insert ${dense.insert(op.key, op.size, time + op.ttl)}`);
                  sparseTrace.push(`insert ${sparse.insert(op.key, op.size, time + op.ttl)}`);
                }
              }
              denseTrace.push(`${dense.expiryOf(op.key)} ${dense.contains(op.key, time)} ${referenced(dense, op.key)} ${dense.occupancy} ${dense.objectCount}`);
              sparseTrace.push(`${sparse.expiryOf(op.key)} ${sparse.contains(op.key, time)} ${sparse.localOf(op.key) >= 0} ${sparse.occupancy} ${sparse.objectCount}`);
              const local = sparse.localOf(op.key);
              if (!Number.isNaN(dense.expiryOf(op.key)) && !localOfStored.has(op.key)) localOfStored.set(op.key, local);
              for (const [key, kept] of localOfStored) {
                if (Number.isNaN(dense.expiryOf(key))) localOfStored.delete(key);
                else if (sparse.localOf(key) !== kept || kept < 0 || kept >= sparse.localLimit) brokenGuarantee ||= `key ${key} had local ${kept}, now ${sparse.localOf(key)} (step ${time})`;
              }
            });
            expect(sparseTrace).toEqual(denseTrace);
            expect(brokenGuarantee).toBe('');
          }),
          { seed: 7, numRuns: 25 },
        );
      });
    }
  }

  describe('seeded Zipf(0.6) traces of 200,000 requests over 100,000 objects, the default sweep floor', () => {
    const trace = zipfTrace('sparse-churn', 200_000, 100_000, 0.6, 2_000);
    const configurations = [
      { name: 'count mode, 300 objects', countMode: true, capacity: 300, ttlMs: Infinity },
      { name: 'count mode, 300 objects, TTL 1–500 ms', countMode: true, capacity: 300, ttlMs: 500 },
      { name: 'byte mode, 1 MB', countMode: false, capacity: 1_000_000, ttlMs: Infinity },
    ];
    for (const policy of ONLINE_CACHE_POLICY_NAMES) {
      for (const { name, countMode, capacity, ttlMs } of configurations) {
        it(`${policy}, ${name}: the same hits, occupancy and object count after every request as on global ids, in ids bounded by what is held`, () => {
          const dense = createCacheStore(policy, { capacity, countMode, keySpace: 100_000 });
          const sparse = new SparseKeyStore(createCacheStore(policy, { capacity, countMode }));
          const result = replayAgainstReference(sparse, dense, trace, ttlMs);
          expect(result.mismatches).toEqual([]);
          expect(result.misses).toBeGreaterThan(100_000);
          // Tens of thousands of distinct keys were stored; the ids stayed near what is held.
          expect(sparse.localLimit).toBeLessThanOrEqual(countMode ? 1_200 : 4_096);
        });
      }
    }
  });

  describe('localLimit is bounded by what a node holds or remembers: max(1024, 2 × the keys held or remembered at once)', () => {
    it('LRU holding at most 100 objects, 1,000,000 requests over 1,000,000 distinct keys: localLimit ≤ max(1024, 2 × 100) = 1024 (the old wrapper: 1,000,000)', () => {
      const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 100, countMode: true }));
      let hits = 0;
      for (let request = 0; request < 1_000_000; request++) {
        const key = Math.imul(request, 2_654_435_761) >>> 1; // 1,000,000 distinct keys, scattered
        if (sparse.lookup(key, request)) hits++;
        else sparse.insert(key, 1, Infinity);
      }
      expect(hits).toBe(0);
      expect(sparse.objectCount).toBe(100);
      expect(sparse.localLimit).toBeLessThanOrEqual(1_024);
    });

    it('LRU holding 10,000 objects over 1,000,000 distinct keys: localLimit ≤ 2 × 10,000 = 20,000', () => {
      const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 10_000, countMode: true }));
      for (let key = 0; key < 1_000_000; key++) if (!sparse.lookup(key, 0)) sparse.insert(key, 1, Infinity);
      expect(sparse.localLimit).toBeGreaterThan(10_000);
      expect(sparse.localLimit).toBeLessThanOrEqual(20_000);
    });

    // 1,000 objects in count mode; what each policy may hold plus remember, doubled:
    // ARC's directory T1+T2+B1+B2 ≤ 2c = 2,000; 2Q: 1,000 + A1out's Kout 500; S3-FIFO:
    // 1,000 + G as large as M (900). 1,000,000 requests, half to 3,000 hot keys (ghost hits).
    const ghostBounds: [OnlineCachePolicyName, number][] = [
      ['arc', 4_000],
      ['twoq', 3_000],
      ['s3fifo', 3_800],
    ];
    for (const [policy, bound] of ghostBounds) {
      it(`${policy} with ghosts, 1,000 objects, 1,000,000 requests (half to 3,000 hot keys): localLimit ≤ ${bound.toLocaleString('en')}`, () => {
        const sparse = new SparseKeyStore(createCacheStore(policy, { capacity: 1_000, countMode: true }));
        const stream = new RandomStreams(`bound-${policy}`).stream('keys');
        let hits = 0;
        for (let request = 0; request < 1_000_000; request++) {
          const key = stream.next() < 0.5 ? stream.int(3_000) : 3_000 + request;
          if (sparse.lookup(key, 0)) hits++;
          else sparse.insert(key, 1, Infinity);
        }
        expect(hits).toBeGreaterThan(100_000);
        expect(sparse.localLimit).toBeLessThanOrEqual(bound);
      });
    }
  });

  it('sweeping deletes from one long probe run that wraps the end of the table (1,024 slots) and loses no key', () => {
    // Keys whose hash homes are the last 4 and first 2 slots: every mapped key sits in one
    // run across the wrap, so each sweep moves keys back over the end of the table.
    const inverse = modularInverse(0x9e3779b1);
    const homes = [1020, 1021, 1022, 1023, 0, 1];
    const chosen = new Set<number>();
    for (let r = 0; chosen.size < 3_000; r++) {
      const key = Math.imul(inverse, ((homes[r % homes.length] << 22) | (r * 2_654_435 + 17) % (1 << 22)) >>> 0) >>> 0;
      if (key < 2 ** 31) chosen.add(key);
    }
    // The dense store sees each key's index in `keys` (its global id), the sparse one the key.
    const keys = [...chosen];
    const dense = createCacheStore('lru', { capacity: 100, countMode: true, keySpace: 16 });
    const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 100, countMode: true }), { sweepFloor: 64 });
    const stream = new RandomStreams('wrap').stream('keys');
    const denseHits: boolean[] = [];
    const sparseHits: boolean[] = [];
    for (let request = 0; request < 30_000; request++) {
      const id = stream.next() < 0.5 ? stream.int(150) : stream.int(keys.length);
      const hit = dense.lookup(id, 0);
      denseHits.push(hit);
      sparseHits.push(sparse.lookup(keys[id], 0));
      if (!hit) {
        dense.insert(id, 1, Infinity);
        sparse.insert(keys[id], 1, Infinity);
      }
    }
    expect(sparseHits).toEqual(denseHits);
    expect(keys.filter((key) => sparse.contains(key, 0))).toEqual(keys.filter((_, id) => dense.contains(id, 0)));
    expect(denseHits.filter(Boolean).length).toBeGreaterThan(5_000);
    expect(sparse.localLimit).toBeLessThanOrEqual(200);
  });

  it('a stored key keeps its local id while thousands of others come, go and have their ids reused', () => {
    const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 50, countMode: true }));
    const hot = 123_456_789;
    sparse.insert(hot, 1, Infinity);
    const local = sparse.localOf(hot);
    expect(local).toBe(0);
    let reusedBy = -1;
    let moved = '';
    for (let key = 0; key < 100_000; key++) {
      if (!sparse.lookup(hot, 0)) moved ||= `the hot key missed at step ${key}`;
      sparse.insert(key, 1, Infinity);
      if (sparse.localOf(hot) !== local) moved ||= `the hot key moved to local ${sparse.localOf(hot)} at step ${key}`;
      // An id below 1,024 given to a key after the first 1,024 is a reused one.
      if (reusedBy < 0 && key > 1_100 && sparse.localOf(key) < 1_024) reusedBy = key;
    }
    expect(moved).toBe('');
    expect(reusedBy).toBeGreaterThan(0);
    expect(sparse.localLimit).toBe(1_024);
  });

  it('localOf is −1 for a key never stored, evicted or removed, and no lookup takes a local id', () => {
    const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 10, countMode: true }));
    for (let key = 0; key < 5_000; key++) expect(sparse.lookup(key * 7_919, 0)).toBe(false);
    expect(sparse.localLimit).toBe(0);
    for (let key = 0; key < 5_000; key++) sparse.insert(key * 7_919, 1, Infinity);
    expect(sparse.objectCount).toBe(10);
    for (let key = 4_990; key < 5_000; key++) {
      expect(sparse.contains(key * 7_919, 0)).toBe(true);
      expect(sparse.localOf(key * 7_919)).toBeGreaterThanOrEqual(0);
    }
    expect(sparse.localOf(4_989 * 7_919)).toBe(-1);
    expect(sparse.localOf(1)).toBe(-1);
    sparse.remove(4_999 * 7_919);
    expect(sparse.localOf(4_999 * 7_919)).toBe(-1);
  });

  it('a ghost keeps its local id while remembered (S3-FIFO G: no other key gets it), and the id is reused once the ghost is dropped', () => {
    const sparse = new SparseKeyStore(createCacheStore('s3fifo', { capacity: 10, countMode: true }), { sweepFloor: 1 });
    sparse.insert(1, 1, Infinity);
    const ghostLocal = sparse.localOf(1);
    let rememberedSteps = 0;
    let reusedAfterForgotten = false;
    for (let key = 100; key < 300; key++) {
      sparse.insert(key, 1, Infinity);
      const remembered = sparse.localOf(1) >= 0 && !sparse.contains(1, 0);
      if (remembered) rememberedSteps++;
      if (sparse.localOf(1) >= 0) expect(sparse.localOf(key)).not.toBe(ghostLocal);
      else if (sparse.localOf(key) === ghostLocal) reusedAfterForgotten = true;
    }
    // Evicted from S after 10 inserts, then in G (9 ids) for 9 more evictions.
    expect(rememberedSteps).toBe(9);
    expect(reusedAfterForgotten).toBe(true);
  });

  it('refuses an offline policy (Belady needs the future per key, which a reused id would mix up)', () => {
    expect(() => new SparseKeyStore(createCacheStore('belady', { capacity: 10 }))).toThrow(/online policy/);
  });
});

/** The inverse of an odd `a` modulo 2^32 (Newton's iteration), for keys with chosen hash homes. */
function modularInverse(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x;
}
