import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCacheStore, ONLINE_CACHE_POLICY_NAMES } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';

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

  it('a lookup of a key never stored takes no local id; each stored key takes one, kept across eviction (the table doubles past half full)', () => {
    const sparse = new SparseKeyStore(createCacheStore('lru', { capacity: 10, countMode: true }));
    for (let key = 0; key < 5_000; key++) expect(sparse.lookup(key * 7_919, 0)).toBe(false);
    expect(sparse.localKeys).toBe(0);
    for (let key = 0; key < 5_000; key++) sparse.insert(key * 7_919, 1, Infinity);
    expect(sparse.localKeys).toBe(5_000);
    expect(sparse.objectCount).toBe(10);
    // The last ten inserted are the ten held.
    for (let key = 4_990; key < 5_000; key++) expect(sparse.contains(key * 7_919, 0)).toBe(true);
    expect(sparse.contains(4_989 * 7_919, 0)).toBe(false);
    sparse.insert(0, 1, Infinity);
    expect(sparse.localKeys).toBe(5_000);
  });
});
