import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import { TIMES_RESPONSE_AT, TIMES_VERSION_AT, type CacheNode } from '../../src/cdn/cacheNode.js';
import { createCacheNode } from '../../src/cdn/createCacheNode.js';
import { LruCacheNode } from '../../src/cdn/lruCacheNode.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import type { KeyId } from '../../src/sim/ids.js';

/** What a node answers for `key` now: −1, or its entry's fields (the handle itself may differ between nodes). */
function entryOf(node: CacheNode, local: number): number[] | null {
  return local < 0 ? null : [node.responseAtOf(local), node.versionAtOf(local), node.versionOf(local), node.statusOf(local), node.errorUntilOf(local)];
}

const reference = (capacity: number) => new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity })), 0);

describe('LruCacheNode: an LRU node in one table (spec 4.9 layers 2–3)', () => {
  it('decides exactly as SharedCacheNode over LruStore: hits, entries, evictions, refusals, removals, renewals, with the table growing past 1,024 slots', () => {
    const operation = fc.record({
      kind: fc.constantFrom('request', 'request', 'request', 'stored', 'remove', 'renew', 'hold', 'answer'),
      key: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
      size: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(5_000)),
      version: fc.integer({ min: 0, max: 3 }),
      status: fc.constantFrom(200, 200, 500),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3_000 }), fc.array(operation, { maxLength: 2_500 }), (capacity, operations) => {
        const slotted = new LruCacheNode(capacity, 0);
        const shared = reference(capacity);
        operations.forEach((op, time) => {
          if (op.kind === 'remove') {
            slotted.remove(op.key);
            shared.remove(op.key);
          } else if (op.kind === 'stored') {
            expect(entryOf(slotted, slotted.store.storedLocalOf(op.key))).toEqual(entryOf(shared, shared.store.storedLocalOf(op.key)));
          } else if (op.kind === 'hold') {
            // spec 7.1: an error held beside the copy survives moves of the slot, ends with renew or put.
            const mine = slotted.store.storedLocalOf(op.key);
            const theirs = shared.store.storedLocalOf(op.key);
            if (mine >= 0) slotted.holdError(mine, time + 5);
            if (theirs >= 0) shared.holdError(theirs, time + 5);
          } else if (op.kind === 'answer') {
            // A fetch's answer as the flow stores it: what the node holds, then the new copy (issue 27: the put starts from that probe).
            expect(entryOf(slotted, slotted.store.storedLocalOf(op.key))).toEqual(entryOf(shared, shared.store.storedLocalOf(op.key)));
            const put = (node: CacheNode) => node.put(op.key as KeyId, op.size, time, time - 1, op.version, op.status);
            expect(entryOf(slotted, put(slotted))).toEqual(entryOf(shared, put(shared)));
          } else if (op.kind === 'renew') {
            const mine = slotted.store.storedLocalOf(op.key);
            const theirs = shared.store.storedLocalOf(op.key);
            expect(mine < 0).toBe(theirs < 0);
            if (mine >= 0) {
              slotted.renew(mine, time);
              shared.renew(theirs, time);
            }
          } else {
            const mine = slotted.lookup(op.key, time);
            const theirs = shared.lookup(op.key, time);
            expect(entryOf(slotted, mine)).toEqual(entryOf(shared, theirs));
            if (mine < 0) {
              const put = (node: CacheNode) => node.put(op.key as KeyId, op.size, time, time - 1, op.version, op.status);
              expect(entryOf(slotted, put(slotted))).toEqual(entryOf(shared, put(shared)));
            }
          }
          expect([slotted.store.occupancy, slotted.store.objectCount]).toEqual([shared.store.occupancy, shared.store.objectCount]);
        });
      }),
      { seed: 7, numRuns: 40 },
    );
  });

  it('issue 27 (fourth round): a put starts from storedLocalOf\'s probe of the same key, and searches again when a removal or an eviction moved the index\'s slots in between', () => {
    // Three keys with one home slot in a fresh 1,024-slot index (the top 10 bits of key × 0x9e3779b1).
    const home = (key: number) => Math.imul(key, 0x9e3779b1) >>> 22;
    const [a, b, c] = Array.from({ length: 200_000 }, (_, key) => key).filter((key) => home(key) === home(1)).slice(0, 3);
    // The flow's order when an answer arrives: storedLocalOf, then put of that key; nothing moves in between.
    const byProbe = new LruCacheNode(100, 0);
    for (const key of [a, b, c]) {
      expect(byProbe.store.storedLocalOf(key)).toBe(-1);
      byProbe.put(key as KeyId, 1, 0, 0, 0, 200);
    }
    expect([a, b, c].map((key) => byProbe.store.storedLocalOf(key))).toEqual([0, 1, 2]);
    // c's search ends at the slot after b; removing a moves b back into a's slot, so c must go to b's old one.
    const afterRemoval = new LruCacheNode(100, 0);
    afterRemoval.put(a as KeyId, 1, 0, 0, 0, 200);
    afterRemoval.put(b as KeyId, 1, 0, 0, 0, 200);
    expect(afterRemoval.store.storedLocalOf(c)).toBe(-1);
    afterRemoval.remove(a);
    afterRemoval.put(c as KeyId, 1, 0, 0, 0, 200);
    expect([afterRemoval.store.storedLocalOf(b) >= 0, afterRemoval.lookup(c as KeyId, 1) >= 0, afterRemoval.store.objectCount]).toEqual([true, true, 2]);
    // The same through an eviction inside the put: 2 bytes, a and b held, storing c evicts a (least recent).
    const afterEviction = new LruCacheNode(2, 0);
    afterEviction.put(a as KeyId, 1, 0, 0, 0, 200);
    afterEviction.put(b as KeyId, 1, 0, 0, 0, 200);
    expect(afterEviction.store.storedLocalOf(c)).toBe(-1);
    afterEviction.put(c as KeyId, 1, 0, 0, 0, 200);
    expect([afterEviction.store.storedLocalOf(a), afterEviction.store.storedLocalOf(b) >= 0, afterEviction.lookup(c as KeyId, 1) >= 0]).toEqual([-1, true, true]);
  });

  it('evicts the least recently used first: capacity 3 bytes, keys 1, 2, 3 stored, 1 requested, 4 stored → 2 is gone', () => {
    const node = new LruCacheNode(3, 0);
    for (const key of [1, 2, 3]) node.put(key, 1, 0, 0, 1, 200);
    expect(node.lookup(1, 1)).toBeGreaterThanOrEqual(0);
    node.put(4, 1, 2, 2, 1, 200);
    expect([1, 2, 3, 4].map((key) => node.store.storedLocalOf(key) >= 0)).toEqual([true, false, true, true]);
    expect([node.occupancy, node.objectCount]).toEqual([3, 3]);
  });

  it('refuses an object larger than the cache, and drops the older version it replaced', () => {
    const node = new LruCacheNode(100, 0);
    node.put(9, 40, 0, 0, 1, 200);
    expect(node.put(9, 101, 1, 1, 2, 200)).toBe(-1);
    expect(node.store.storedLocalOf(9)).toBe(-1);
    expect([node.occupancy, node.objectCount]).toEqual([0, 0]);
  });

  it('keeps 100,000 objects in order through growth and evictions: the 60,000 most recent stay, and each keeps its fields', () => {
    const node = new LruCacheNode(60_000, 0);
    for (let key = 0; key < 100_000; key++) node.put(key * 7919, 1, key, key - 5, key % 9, 200);
    expect(node.objectCount).toBe(60_000);
    expect(node.store.storedLocalOf(39_999 * 7919)).toBe(-1);
    const local = node.store.storedLocalOf(40_000 * 7919);
    expect([node.responseAtOf(local), node.versionAtOf(local), node.versionOf(local), node.statusOf(local)]).toEqual([39_995, 40_000, 4, 200]);
  });

  it('issue 27: an entry keeps its handle while stored: key 5 stored first keeps handle 0 through 10,000 more puts (the index doubling four times past 1,024 slots) and gets it back after one eviction frees it', () => {
    const node = new LruCacheNode(10_001, 0);
    const first = node.put(5, 1, 1, 2, 7, 200);
    expect(first).toBe(0); // the arena's first entry
    for (let key = 1; key <= 10_000; key++) node.put(1_000 + key, 1, key, key, 1, 200);
    expect(node.objectCount).toBe(10_001);
    expect(node.store.storedLocalOf(5)).toBe(first);
    expect(entryOf(node, first)).toEqual([2, 1, 7, 200, -Infinity]);
    // Full (10,001 bytes): one more evicts the least recent, key 5, and its entry is the next one handed out.
    expect(node.put(99_999, 1, 0, 0, 2, 200)).toBe(first);
    expect(node.store.storedLocalOf(5)).toBe(-1);
  });

  it('issue 27: a node stamps uses instead of relinking a list; the first eviction orders its entries by stamp: keys 1-4 stored (4 bytes, full), used 3, 1, 4, 2: storing 5 and 6 evicts 3 then 1; after a hit on 4, storing 7 evicts 2', () => {
    const node = new LruCacheNode(4, 0);
    for (const key of [1, 2, 3, 4]) node.put(key, 1, 0, 0, 1, 200);
    for (const key of [3, 1, 4, 2]) expect(node.lookup(key, 0)).toBeGreaterThanOrEqual(0);
    const held = () => [1, 2, 3, 4, 5, 6, 7].filter((key) => node.store.storedLocalOf(key) >= 0);
    node.put(5, 1, 0, 0, 1, 200);
    expect(held()).toEqual([1, 2, 4, 5]);
    node.put(6, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 4, 5, 6]);
    // A hit restamps, so 4 (used before 2) goes next only after 2 is used again.
    expect(node.lookup(4, 0)).toBeGreaterThanOrEqual(0);
    node.put(7, 1, 0, 0, 1, 200);
    expect(held()).toEqual([4, 5, 6, 7]);
  });

  it('issue 28 (cost): the first eviction links 5,000 entries by stamp (a table by stamp, no comparator): keys 0-4,999 stored, used 4,999 down to 0; 2,500 new keys evict 4,999 … 2,500, the least recently used, and keep 0 … 2,499', () => {
    const node = new LruCacheNode(5_000, 0);
    for (let key = 0; key < 5_000; key++) node.put(key, 1, 0, 0, 1, 200);
    for (let key = 4_999; key >= 0; key--) node.lookup(key, 0);
    node.put(5_000, 1, 0, 0, 1, 200);
    expect(node.store.storedLocalOf(4_999)).toBe(-1);
    expect(node.store.storedLocalOf(4_998)).toBeGreaterThanOrEqual(0);
    for (let key = 5_001; key < 7_500; key++) node.put(key, 1, 0, 0, 1, 200);
    let held = 0;
    for (let key = 0; key < 2_500; key++) if (node.store.storedLocalOf(key) >= 0) held++;
    let evicted = 0;
    for (let key = 2_500; key < 5_000; key++) if (node.store.storedLocalOf(key) < 0) evicted++;
    expect([held, evicted]).toEqual([2_500, 2_500]);
  });

  it('issue 27 (warm-up speed): the first eviction orders the entries by a table of stamps, leaving out a freed entry: keys 1-5 stored, 2 used, 3 replaced, 4 and 1 removed, 6 stored (takes 1\'s entry); storing 9 (3 bytes) evicts 5 then 2, storing 10 evicts 3, and after a hit on 6 storing 11 evicts 9', () => {
    const node = new LruCacheNode(5, 0);
    // Stamps 0-4 on entries 0-4; 2 is used (stamp 5); 3 is stored again in its own freed entry (stamp 6).
    for (const key of [1, 2, 3, 4, 5]) node.put(key, 1, 0, 0, 1, 200);
    expect(node.lookup(2, 0)).toBe(1);
    expect(node.put(3, 1, 0, 0, 1, 200)).toBe(2);
    // 4's entry (stamp 3) and 1's (stamp 0) go on the free list; 6 takes 1's (stamp 7), 4's stays free with its stamp.
    node.remove(4);
    node.remove(1);
    expect(node.put(6, 1, 0, 0, 1, 200)).toBe(0);
    const held = () => [1, 2, 3, 4, 5, 6, 9, 10, 11].filter((key) => node.store.storedLocalOf(key) >= 0);
    // Least recent first: 5 (stamp 4), 2 (5), 3 (6), 6 (7); 9 needs 3 bytes of the 1 free.
    node.put(9, 3, 0, 0, 1, 200);
    expect(held()).toEqual([3, 6, 9]);
    node.put(10, 1, 0, 0, 1, 200);
    expect(held()).toEqual([6, 9, 10]);
    expect(node.lookup(6, 0)).toBeGreaterThanOrEqual(0);
    node.put(11, 1, 0, 0, 1, 200);
    expect(held()).toEqual([6, 10, 11]);
    expect([node.objectCount, node.occupancy]).toEqual([3, 3]);
  });

  it('issue 27: a node whose stamps span more than 8 an entry and 1,024 at its first eviction orders them by sorting: keys 1-3 stored, then 1,200 hits cycling 1, 2, 3 and one on 2; storing 4 evicts 1, storing 5 evicts 3', () => {
    const node = new LruCacheNode(3, 0);
    for (const key of [1, 2, 3]) node.put(key, 1, 0, 0, 1, 200);
    for (let i = 0; i < 1_200; i++) node.lookup(1 + (i % 3), 0);
    node.lookup(2, 0);
    const held = () => [1, 2, 3, 4, 5].filter((key) => node.store.storedLocalOf(key) >= 0);
    node.put(4, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 3, 4]);
    node.put(5, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 4, 5]);
  });

  it('issue 27 (warm-up speed): an eviction passes over queued entries used since the queue was made, and a spent queue is made again: keys 1-3 stored, 4 evicts 1; after a hit on 2, 5 evicts 3, 6 evicts 4 (a new queue: 4, 2, 5), 7 evicts 2', () => {
    const node = new LruCacheNode(3, 0);
    for (const key of [1, 2, 3]) node.put(key, 1, 0, 0, 1, 200);
    const held = () => [1, 2, 3, 4, 5, 6, 7].filter((key) => node.store.storedLocalOf(key) >= 0);
    node.put(4, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 3, 4]);
    expect(node.lookup(2, 0)).toBeGreaterThanOrEqual(0);
    node.put(5, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 4, 5]);
    node.put(6, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 5, 6]);
    node.put(7, 1, 0, 0, 1, 200);
    expect(held()).toEqual([5, 6, 7]);
  });

  it('issue 27: a node whose stamps reach 2^31 − 2 numbers them afresh in recency order and keeps evicting the least recent: keys 1-3 stored, hits on 3 and 1 at 2^31 − 4 and 2^31 − 3, a hit on 2 renumbers; storing 4 evicts 3, storing 5 evicts 1', () => {
    const node = new LruCacheNode(3, 0);
    for (const key of [1, 2, 3]) node.put(key, 1, 0, 0, 1, 200);
    // The stamp count, a private field, set near its limit: 2^31 uses take minutes to reach.
    const stamps = node as unknown as { uses: number };
    stamps.uses = 2 ** 31 - 4;
    node.lookup(3, 0);
    node.lookup(1, 0);
    node.lookup(2, 0);
    // Numbered afresh: 2 (stamp 1 before), 3, 1 become 0, 1, 2, and the hit on 2 takes 3.
    expect(stamps.uses).toBe(4);
    const held = () => [1, 2, 3, 4, 5].filter((key) => node.store.storedLocalOf(key) >= 0);
    node.put(4, 1, 0, 0, 1, 200);
    expect(held()).toEqual([1, 2, 4]);
    node.put(5, 1, 0, 0, 1, 200);
    expect(held()).toEqual([2, 4, 5]);
  });

  it('issue 27: a node of more than 2^22 entries whose stamps span nearly 2^31 orders them by a comparator sort (the key sort would not be exact): 4,194,305 keys stored, stamps set near 2^31, a hit on 2; storing evicts 1, then 3, then (stamps numbered afresh) 4', () => {
    const entries = 2 ** 22 + 1;
    const node = new LruCacheNode(entries, 0);
    for (let key = 1; key <= entries; key++) node.put(key, 1, 0, 0, 1, 200);
    // The stamp count, a private field, set near its limit: 2^31 uses take minutes to reach.
    const stamps = node as unknown as { uses: number };
    stamps.uses = 2 ** 31 - 4;
    expect(node.lookup(2, 0)).toBeGreaterThanOrEqual(0);
    const stored = (key: number) => node.store.storedLocalOf(key) >= 0;
    // The first eviction orders 4,194,305 stamps spanning 2^31 − 3: (2^31 − 3) × 4,194,305 ≥ 2^53.
    node.put(entries + 1, 1, 0, 0, 1, 200);
    expect([stored(1), stored(2), stored(3)]).toEqual([false, true, true]);
    // The next eviction takes the queue's second entry; the store after it numbers the
    // 4,194,304 entries then held 0 … 4,194,303 and takes the next stamp itself.
    node.put(entries + 2, 1, 0, 0, 1, 200);
    expect([stored(2), stored(3), stored(4)]).toEqual([true, false, true]);
    expect(stamps.uses).toBe(entries);
    node.put(entries + 3, 1, 0, 0, 1, 200);
    expect([stored(2), stored(4), stored(5), stored(entries + 1), stored(entries + 2), stored(entries + 3)]).toEqual([true, false, true, true, true, true]);
  }, 60_000);

  it('spec 7.1, issue 27: a held error sits beside its 48-byte entry and leaves with it: held on key 1 until 5,000 ms, renew ends it; held again, key 1 evicted, its handle goes to key 3 with no error held', () => {
    const node = new LruCacheNode(2, 0);
    const one = node.put(1, 1, 0, 0, 1, 200);
    node.put(2, 1, 0, 0, 1, 200);
    node.holdError(one, 5_000);
    expect(node.errorUntilOf(one)).toBe(5_000);
    node.renew(one, 100);
    expect([node.errorUntilOf(one), node.responseAtOf(one)]).toEqual([-Infinity, 100]);
    node.holdError(one, 6_000);
    expect(node.lookup(2, 0)).toBeGreaterThanOrEqual(0);
    // Full (2 bytes): key 3 evicts key 1, the least recent, and takes its freed entry.
    expect(node.put(3, 1, 0, 0, 1, 200)).toBe(one);
    expect(node.store.storedLocalOf(1)).toBe(-1);
    expect(node.errorUntilOf(one)).toBe(-Infinity);
  });

  it('issue 27 (sixth round): setTimes gives a stored entry the two times put takes, on either kind of node: key 7 put with times 0, then set to 1,234.5 and 1,500.25 ms, reads as the same put with those times', () => {
    const times = new Float64Array(2);
    times[TIMES_VERSION_AT] = 1_234.5;
    times[TIMES_RESPONSE_AT] = 1_500.25;
    for (const [node, direct] of [
      [new LruCacheNode(100, 0), new LruCacheNode(100, 0)],
      [reference(100), reference(100)],
    ] as const) {
      const local = node.put(7 as KeyId, 10, 0, 0, 2, 200);
      node.setTimes(local, times);
      expect(entryOf(node, local)).toEqual([1_500.25, 1_234.5, 2, 200, -Infinity]);
      expect(entryOf(node, local)).toEqual(entryOf(direct, direct.put(7 as KeyId, 10, 1_234.5, 1_500.25, 2, 200)));
    }
  });

  it('createCacheNode builds LRU nodes as LruCacheNode and other policies over SparseKeyStore', () => {
    expect(createCacheNode('lru', 10, 3)).toBeInstanceOf(LruCacheNode);
    const s3fifo = createCacheNode('s3fifo', 10, 4);
    expect(s3fifo).toBeInstanceOf(SharedCacheNode);
    expect([s3fifo.store.policy, s3fifo.store.capacity, s3fifo.id]).toEqual(['s3fifo', 10, 4]);
  });
});
