import { describe, expect, it } from 'vitest';
import { GdsfStore } from '../../src/cache/gdsf.js';
import { LfuStore } from '../../src/cache/lfu.js';
import { LruStore } from '../../src/cache/lru.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString } from './policyHarness.js';

/**
 * GDSF from Cherkasova (HPL-98-69R1, 1998), with a linear scan for the minimum:
 * H(f) = L + Fr(f) × Cost / Size(f), Cost = 1; evict the minimum H and set L to it.
 * Ties: the entry whose H was set longest ago (gdsf.ts).
 */
class ReferenceGdsf extends ReferenceStore {
  priority = new Map<number, number>();
  frequency = new Map<number, number>();
  setAt = new Map<number, number>();
  L = 0;
  private clock = 0;

  private sizeOf(key: number): number {
    return this.chargeOf(this.entries.get(key)!.size);
  }

  protected onHit(key: number): void {
    const frequency = this.frequency.get(key)! + 1;
    this.frequency.set(key, frequency);
    this.priority.set(key, this.L + frequency / this.sizeOf(key));
    this.setAt.set(key, ++this.clock);
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    while (!this.fits(charge)) {
      let victim = -1;
      for (const candidate of this.entries.keys()) {
        const h = this.priority.get(candidate)!;
        if (victim < 0 || h < this.priority.get(victim)! || (h === this.priority.get(victim) && this.setAt.get(candidate)! < this.setAt.get(victim)!)) victim = candidate;
      }
      this.L = this.priority.get(victim)!;
      this.unqueue(victim);
      this.evict(victim);
    }
    this.store(key, size, expiresAtMs);
    this.frequency.set(key, 1);
    this.priority.set(key, this.L + 1 / charge);
    this.setAt.set(key, ++this.clock);
    return true;
  }

  protected unqueue(key: number): void {
    this.priority.delete(key);
    this.frequency.delete(key);
    this.setAt.delete(key);
  }
}

describeCacheStoreContract('gdsf', (options) => new GdsfStore(options));

describe('GdsfStore: differential tests against a linear-scan GDSF', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new GdsfStore(options), (capacity, countMode) => new ReferenceGdsf(capacity, countMode), { seed: 20240709 });
  });

  describeTraceDifferential('gdsf', (options) => new GdsfStore(options), (capacity, countMode) => new ReferenceGdsf(capacity, countMode));
});

describe('GdsfStore: hand-made sequences (Cherkasova, "Improving WWW proxies performance with Greedy-Dual-Size-Frequency caching policy", 1998)', () => {
  const sizes: Record<number, number> = { 1: 50, 2: 10, 3: 40, 4: 30 };

  it('small objects are worth more per byte: in 100 bytes, the 10-byte object survives while larger ones cycle (LRU evicts it)', () => {
    // H = L + 1/size: 1 → 0.02, 2 → 0.1, 3 → 0.025. 4 evicts 1 (L = 0.02); 1 evicts 3 (L = 0.025);
    // 3 evicts 1 (H = 0.045, L = 0.045); 2 is still there.
    const store = new GdsfStore({ capacity: 100 });
    expect(hitMissString(store, [1, 2, 3, 4, 1, 3, 2], (key) => sizes[key])).toBe('MMMMMMH');
    expect(store.agingValue).toBeCloseTo(0.045, 12);
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([2, 3, 4]);
    expect(hitMissString(new LruStore({ capacity: 100 }), [1, 2, 3, 4, 1, 3, 2], (key) => sizes[key])).toBe('MMMMMMM');
  });

  it('aging: L rises with every eviction until a once-popular object (5 requests) loses to newcomers; LFU without aging keeps it forever', () => {
    // Count mode, 2 slots: H(1) = 5. Each newcomer evicts the previous one and lifts L by 1, until L + 1 = 5 ties with H(1);
    // the tie goes to the older priority (1's), so 7 evicts 1.
    const sequence = [1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 1];
    const store = new GdsfStore({ capacity: 2, countMode: true });
    expect(hitMissString(store, sequence)).toBe('MHHHHMMMMMMM');
    expect(store.agingValue).toBe(5);
    expect(hitMissString(new LfuStore({ capacity: 2, countMode: true }), sequence)).toBe('MHHHHMMMMMMH');
  });

  it('a hit recomputes H with the current L and the new frequency: H = L + frequency / size', () => {
    const store = new GdsfStore({ capacity: 2, countMode: true });
    hitMissString(store, [1, 2, 3]); // 3 evicts 1 (tie at H = 1, older), L = 1, H(3) = 2
    expect(store.agingValue).toBe(1);
    store.lookup(2, 0); // H(2) = 1 + 2 = 3
    store.insert(4, 1, Infinity); // evicts 3 (H 2), L = 2
    expect(store.agingValue).toBe(2);
    expect(cachedKeys(store, [1, 2, 3, 4])).toEqual([2, 4]);
  });

  it('documented: a zero-byte object has infinite priority and is never the victim; remove() does not change L', () => {
    const store = new GdsfStore({ capacity: 100 });
    store.insert(1, 0, Infinity);
    store.insert(2, 60, Infinity);
    store.insert(3, 60, Infinity); // evicts 2 (H 1/60), not the zero-byte 1
    expect(cachedKeys(store, [1, 2, 3])).toEqual([1, 3]);
    const before = store.agingValue;
    store.remove(3);
    expect(store.agingValue).toBe(before);
  });
});
