import { describe, expect, it } from 'vitest';
import { ClockStore } from '../../src/cache/clock.js';
import { SieveStore } from '../../src/cache/sieve.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString } from './policyHarness.js';

/**
 * SIEVE from the paper's pseudocode (Zhang et al., NSDI 2024, Figure 2): the queue is an
 * array from tail (index 0, oldest) to head (newest); the hand is a key or null.
 */
class ReferenceSieve extends ReferenceStore {
  queue: number[] = [];
  visited = new Map<number, boolean>();
  hand: number | null = null;

  protected onHit(key: number): void {
    this.visited.set(key, true);
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) {
      // obj ← hand (or the tail); while obj.visited: clear it, obj ← obj.prev (or the tail).
      let index = this.hand === null ? 0 : this.queue.indexOf(this.hand);
      while (this.visited.get(this.queue[index])) {
        this.visited.set(this.queue[index], false);
        index = index + 1 < this.queue.length ? index + 1 : 0;
      }
      // hand ← obj.prev; evict obj.
      const victim = this.queue[index];
      this.hand = index + 1 < this.queue.length ? this.queue[index + 1] : null;
      this.queue.splice(index, 1);
      this.evict(victim);
    }
    this.queue.push(key);
    this.visited.set(key, false);
    this.store(key, size, expiresAtMs);
    return true;
  }

  /** Removing the object under the hand moves the hand one step toward the head. */
  protected unqueue(key: number): void {
    const index = this.queue.indexOf(key);
    if (this.hand === key) this.hand = index + 1 < this.queue.length ? this.queue[index + 1] : null;
    this.queue.splice(index, 1);
  }
}

const sieve = (capacity: number) => new SieveStore({ capacity, countMode: true });

describeCacheStoreContract('sieve', (options) => new SieveStore(options));

describe('SieveStore: differential tests against the paper-pseudocode reference', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new SieveStore(options), (capacity, countMode) => new ReferenceSieve(capacity, countMode), { seed: 20240703 });
  });

  describeTraceDifferential('sieve', (options) => new SieveStore(options), (capacity, countMode) => new ReferenceSieve(capacity, countMode));
});

describe('SieveStore: hand-made sequences (Zhang et al., "SIEVE is Simpler than LRU", NSDI 2024)', () => {
  it('the hand does not move objects: after 1 2 3 1 4 5 6 the retained 1 is still at the tail, behind the hand, so 1 hits where CLOCK misses', () => {
    const sequence = [1, 2, 3, 1, 4, 5, 6, 1];
    const store = sieve(3);
    expect(hitMissString(store, sequence)).toBe('MMMHMMMH');
    expect(cachedKeys(store, [1, 2, 3, 4, 5, 6])).toEqual([1, 5, 6]);
    // CLOCK moved 1 to the head on its second chance, so it aged out with 4 and 5.
    expect(hitMissString(new ClockStore({ capacity: 3, countMode: true }), sequence)).toBe('MMMHMMMM');
  });

  it('new objects go to the head while the hand keeps its place: the victims after the first eviction are 3 then 4, not the new arrivals', () => {
    const store = sieve(3);
    hitMissString(store, [1, 2, 3, 1, 4]); // evicts 2, hand now at 3
    store.insert(5, 1, Infinity); // hand at 3 (unvisited): evicts 3, hand at 4
    expect(cachedKeys(store, [1, 2, 3, 4, 5])).toEqual([1, 4, 5]);
    store.insert(6, 1, Infinity); // evicts 4, hand at 5
    expect(cachedKeys(store, [1, 4, 5, 6])).toEqual([1, 5, 6]);
  });

  it('when every object is visited the hand clears them all, wraps past the head to the tail and evicts the oldest', () => {
    const store = sieve(3);
    expect(hitMissString(store, [1, 2, 3, 1, 2, 3, 4, 5])).toBe('MMMHHHMM');
    expect(cachedKeys(store, [1, 2, 3, 4, 5])).toEqual([3, 4, 5]);
  });

  it('documented: removing the object under the hand moves the hand toward the head (libCacheSim Sieve.c)', () => {
    const store = sieve(3);
    hitMissString(store, [1, 2, 3, 1, 4]); // queue tail→head 1 3 4, hand at 3, every bit clear
    store.lookup(4, 0); // 4 visited
    expect(store.remove(3)).toBe(true); // hand moves to 4
    store.insert(5, 1, Infinity); // room: no eviction
    store.insert(6, 1, Infinity); // hand at 4 (visited → cleared), then 5 (unvisited): evicts 5
    expect(cachedKeys(store, [1, 4, 5, 6])).toEqual([1, 4, 6]);
  });
});
