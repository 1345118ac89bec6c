import { describe, expect, it } from 'vitest';
import { ClockStore } from '../../src/cache/clock.js';
import { FifoStore } from '../../src/cache/fifo.js';
import { LruStore } from '../../src/cache/lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

/**
 * Second chance as Corbató describes it: look at the oldest page; if its reference bit is
 * set, clear it and give the page another lap (to the newest end), else evict it.
 */
class ReferenceClock extends ReferenceStore {
  /** Keys, oldest first. */
  queue: number[] = [];
  referenced = new Map<number, boolean>();

  protected onHit(key: number): void {
    this.referenced.set(key, true);
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) {
      const oldest = this.queue.shift()!;
      if (this.referenced.get(oldest)) {
        this.referenced.set(oldest, false);
        this.queue.push(oldest);
      } else {
        this.evict(oldest);
      }
    }
    this.queue.push(key);
    this.referenced.set(key, false);
    this.store(key, size, expiresAtMs);
    return true;
  }

  protected unqueue(key: number): void {
    without(this.queue, key);
  }
}

const clock = (capacity: number) => new ClockStore({ capacity, countMode: true });

describeCacheStoreContract('clock', (options) => new ClockStore(options));

describe('ClockStore: differential tests against a naive second-chance reference', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new ClockStore(options), (capacity, countMode) => new ReferenceClock(capacity, countMode), { seed: 20240702 });
  });

  describeTraceDifferential('clock', (options) => new ClockStore(options), (capacity, countMode) => new ReferenceClock(capacity, countMode));
});

describe('ClockStore: hand-made sequences (Corbató 1968; FIFO-Reinsertion in Yang et al., HotOS 2023)', () => {
  const sequence = [1, 2, 3, 1, 4, 1, 2, 3, 4, 1];

  it('a set bit buys a second lap: 1 2 3 1 4 1 2 3 4 1 with 3 slots keeps 1 to the end, where FIFO and LRU lose it', () => {
    expect(hitMissString(clock(3), sequence)).toBe('MMMHMHMMMH');
    expect(hitMissString(new FifoStore({ capacity: 3, countMode: true }), sequence)).toBe('MMMHMMMMMM');
    expect(hitMissString(new LruStore({ capacity: 3, countMode: true }), sequence)).toBe('MMMHMHMMMM');
  });

  it('the second chance moves the entry to the newest end and clears its bit: after 1 2 3 1 4 the next victims are 3, then 1', () => {
    const store = clock(3);
    expect(hitMissString(store, [1, 2, 3, 1, 4])).toBe('MMMHM');
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([1, 3, 4]);
    store.insert(5, 1, Infinity);
    expect(cachedKeys(store, [1, 3, 4, 5])).toEqual([1, 4, 5]);
    store.insert(6, 1, Infinity);
    expect(cachedKeys(store, [1, 4, 5, 6])).toEqual([4, 5, 6]);
  });

  it('when every bit is set, one full lap clears them and the oldest goes (FIFO order); 2 and 3 then earn new laps', () => {
    // After 4: oldest→newest 2 3 4, bits clear. 2 and 3 hit; 1's insert passes over them and evicts 4.
    const store = clock(3);
    expect(hitMissString(store, [1, 2, 3, 3, 2, 1, 4, 2, 3, 1])).toBe('MMMHHHMHHM');
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([1, 2, 3]);
  });

  it('documented: a re-inserted key starts with its bit clear', () => {
    const store = clock(2);
    store.insert(1, 1, Infinity);
    store.insert(2, 1, Infinity);
    store.lookup(1, 0);
    store.insert(1, 1, Infinity); // replaces: newest, bit clear
    store.insert(3, 1, Infinity); // evicts 2 (oldest, clear)
    store.insert(4, 1, Infinity); // evicts 1: its hit was forgotten by the re-insertion
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([3, 4]);
  });
});
