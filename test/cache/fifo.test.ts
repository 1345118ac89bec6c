import { describe, expect, it } from 'vitest';
import { FifoStore } from '../../src/cache/fifo.js';
import { LruStore } from '../../src/cache/lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

/** FIFO as the textbook states it: an array in insertion order, evict from the front. */
class ReferenceFifo extends ReferenceStore {
  /** Keys, oldest insertion first. */
  queue: number[] = [];

  protected onHit(): void {}

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) this.evict(this.queue.shift()!);
    this.queue.push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  protected unqueue(key: number): void {
    without(this.queue, key);
  }
}

const fifo = (capacity: number, countMode = true) => new FifoStore({ capacity, countMode });

describeCacheStoreContract('fifo', (options) => new FifoStore(options));

describe('FifoStore: differential tests against a naive reference FIFO', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new FifoStore(options), (capacity, countMode) => new ReferenceFifo(capacity, countMode), { seed: 20240701 });
  });

  describeTraceDifferential('fifo', (options) => new FifoStore(options), (capacity, countMode) => new ReferenceFifo(capacity, countMode));
});

describe('FifoStore: hand-made sequences', () => {
  it("Belady's anomaly (Belady, Nelson and Shedler, CACM 1969): 1 2 3 4 1 2 5 1 2 3 4 5 misses 9 times with 3 slots and 10 times with 4", () => {
    const sequence = [1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5];
    expect(hitMissString(fifo(3), sequence)).toBe('MMMMMMMHHMMH');
    expect(hitMissString(fifo(4), sequence)).toBe('MMMMHHMMMMMM');
  });

  it('a hit does not reorder: 1 2 3 1 4 1 evicts 1 on the 4 and misses it again (LRU would hit)', () => {
    expect(hitMissString(fifo(3), [1, 2, 3, 1, 4, 1])).toBe('MMMHMM');
    expect(hitMissString(new LruStore({ capacity: 3, countMode: true }), [1, 2, 3, 1, 4, 1])).toBe('MMMHMH');
  });

  it('byte mode evicts the oldest insertions until the new object fits (a 600-byte object evicts 2 of 3)', () => {
    const store = new FifoStore({ capacity: 1_000 });
    for (const key of [1, 2, 3]) store.insert(key, 300, Infinity);
    store.lookup(1, 0);
    expect(store.insert(4, 600, Infinity)).toBe(true);
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([3, 4]);
    expect(store.occupancy).toBe(900);
  });

  it('documented: re-inserting a present key is a new insertion at the back of the queue', () => {
    const store = fifo(3);
    for (const key of [1, 2, 3]) store.insert(key, 1, Infinity);
    store.insert(1, 1, Infinity);
    store.insert(4, 1, Infinity);
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([1, 3, 4]);
  });
});
