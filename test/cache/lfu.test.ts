import { describe, expect, it } from 'vitest';
import { LfuStore } from '../../src/cache/lfu.js';
import { LruStore } from '../../src/cache/lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString } from './policyHarness.js';

/**
 * LFU by definition, with a linear scan: each entry has a frequency (1 on insertion, + 1
 * per hit) and the time of its last access; the victim has the lowest frequency, and among
 * those the oldest last access.
 */
class ReferenceLfu extends ReferenceStore {
  frequency = new Map<number, number>();
  lastAccess = new Map<number, number>();
  private clock = 0;

  protected onHit(key: number): void {
    this.frequency.set(key, this.frequency.get(key)! + 1);
    this.lastAccess.set(key, ++this.clock);
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) {
      let victim = -1;
      for (const candidate of this.entries.keys()) {
        if (
          victim < 0 ||
          this.frequency.get(candidate)! < this.frequency.get(victim)! ||
          (this.frequency.get(candidate) === this.frequency.get(victim) && this.lastAccess.get(candidate)! < this.lastAccess.get(victim)!)
        ) {
          victim = candidate;
        }
      }
      this.unqueue(victim);
      this.evict(victim);
    }
    this.frequency.set(key, 1);
    this.lastAccess.set(key, ++this.clock);
    this.store(key, size, expiresAtMs);
    return true;
  }

  protected unqueue(key: number): void {
    this.frequency.delete(key);
    this.lastAccess.delete(key);
  }
}

const lfu = (capacity: number) => new LfuStore({ capacity, countMode: true });

describeCacheStoreContract('lfu', (options) => new LfuStore(options));

describe('LfuStore: differential tests against a linear-scan LFU', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new LfuStore(options), (capacity, countMode) => new ReferenceLfu(capacity, countMode), { seed: 20240708 });
  });

  describeTraceDifferential('lfu', (options) => new LfuStore(options), (capacity, countMode) => new ReferenceLfu(capacity, countMode));

  it('frequency buckets stay consistent through long runs of hits on a few keys (frequencies in the thousands) and churn', () => {
    const store = new LfuStore({ capacity: 5, countMode: true, keySpace: 16 });
    const reference = new ReferenceLfu(5, true);
    for (let i = 0; i < 20_000; i++) {
      const key = i % 3 === 0 ? i % 7 : 100 + (i % 53);
      const hit = store.lookup(key, 0);
      expect(hit).toBe(reference.lookup(key, 0));
      if (!hit) expect(store.insert(key, 1, Infinity)).toBe(reference.insert(key, 1, Infinity));
    }
    expect(cachedKeys(store, [0, 1, 2, 3, 4, 5, 6])).toEqual(cachedKeys(reference, [0, 1, 2, 3, 4, 5, 6]));
  });
});

describe('LfuStore: hand-made sequences (Shah, Mitra and Matani, "An O(1) algorithm for implementing the LFU cache eviction scheme", 2010)', () => {
  it('the least frequently used object goes, not the least recent: 1 1 2 3 1 2 keeps 1 (LRU loses it)', () => {
    expect(hitMissString(lfu(2), [1, 1, 2, 3, 1, 2])).toBe('MHMMHM');
    expect(hitMissString(new LruStore({ capacity: 2, countMode: true }), [1, 1, 2, 3, 1, 2])).toBe('MHMMMM');
  });

  it('ties are broken by least recent use: with 1 and 2 both at frequency 2, the one requested longer ago (2) goes', () => {
    const store = lfu(2);
    expect(hitMissString(store, [1, 2, 2, 1, 3, 1, 2])).toBe('MMHHMHM');
  });

  it('documented: frequency is forgotten on eviction — 1 returns at frequency 1, so it loses to 2 (frequency 4) and is evicted again', () => {
    // 1 reaches 3, 2 reaches 4; 3 evicts 1; 1 returns (frequency 1) evicting 3; 3 evicts 1 again.
    expect(hitMissString(lfu(2), [1, 1, 1, 2, 2, 2, 2, 3, 1, 3, 1])).toBe('MHHMHHHMMMM');
  });

  it('documented: re-inserting a present key is a new insertion at frequency 1', () => {
    const store = lfu(2);
    hitMissString(store, [1, 1, 1, 2]);
    store.insert(1, 1, Infinity); // 1 back at frequency 1, and more recent than 2
    store.insert(3, 1, Infinity); // both at 1: 2, the less recent, goes
    expect(cachedKeys(store, [1, 2, 3])).toEqual([1, 3]);
    store.insert(4, 1, Infinity); // 1 and 3 at 1: 1 (older) goes — its three requests were forgotten
    expect(cachedKeys(store, [1, 3, 4])).toEqual([3, 4]);
  });
});
