import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/lru.js';
import { TwoQStore } from '../../src/cache/twoq.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

/**
 * Full 2Q from the paper's pseudocode (Johnson and Shasha, VLDB 1994, Figure "2Q, full
 * version"): arrays oldest/least-recent first for A1in, Am and the A1out ids.
 */
class ReferenceTwoQ extends ReferenceStore {
  a1in: number[] = [];
  am: number[] = [];
  a1out: { key: number; charge: number }[] = [];
  readonly kin = Math.floor(this.capacity / 4);
  readonly kout = Math.floor(this.capacity / 2);

  private size(queue: number[]): number {
    return queue.reduce((sum, key) => sum + this.chargeOf(this.entries.get(key)!.size), 0);
  }

  /** "if X is in Am: move X to the head of Am; else if X is in A1in: do nothing". */
  protected onHit(key: number): void {
    if (without(this.am, key)) this.am.push(key);
  }

  /** "if X is in A1out: reclaimfor(X), add X to the head of Am; else reclaimfor(X), add X to the head of A1in". */
  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    const remembered = this.a1out.findIndex((entry) => entry.key === key);
    if (remembered >= 0) this.a1out.splice(remembered, 1);
    while (!this.fits(charge)) this.reclaimOne();
    (remembered >= 0 ? this.am : this.a1in).push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  /** reclaimfor: "if |A1in| > Kin: page out the tail of A1in, add its id to A1out's head (trim A1out to Kout); else page out the tail of Am". */
  private reclaimOne(): void {
    if (this.a1in.length > 0 && (this.size(this.a1in) > this.kin || this.am.length === 0)) {
      const victim = this.a1in.shift()!;
      const charge = this.chargeOf(this.entries.get(victim)!.size);
      this.evict(victim);
      if (charge <= this.kout) {
        const remembered = () => this.a1out.reduce((sum, entry) => sum + entry.charge, 0);
        while (this.a1out.length > 0 && remembered() + charge > this.kout) this.a1out.shift();
        this.a1out.push({ key: victim, charge });
      }
    } else {
      this.evict(this.am.shift()!);
    }
  }

  protected unqueue(key: number): void {
    if (!without(this.a1in, key)) without(this.am, key);
  }
}

const twoq = (capacity: number) => new TwoQStore({ capacity, countMode: true });

describeCacheStoreContract('twoq', (options) => new TwoQStore(options));

describe('TwoQStore: differential tests against the paper-pseudocode reference', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new TwoQStore(options), (capacity, countMode) => new ReferenceTwoQ(capacity, countMode), { seed: 20240705 });
  });

  describeTraceDifferential('twoq', (options) => new TwoQStore(options), (capacity, countMode) => new ReferenceTwoQ(capacity, countMode));
});

describe('TwoQStore: hand-made sequences (Johnson and Shasha, "2Q", VLDB 1994)', () => {
  // 4 slots: Kin = 1, Kout = 2.
  const sequence = [1, 2, 3, 4, 5, 1, 2, 6, 7, 1, 2, 7, 8, 9, 7, 8, 1];

  it('second requests after eviction from A1in go to Am (1, 2), a hit in A1in is a correlated reference that promotes nothing (7), A1out forgets beyond Kout, Am victims are not remembered (1 at the end)', () => {
    const store = twoq(4);
    expect(hitMissString(store, sequence)).toBe('MMMMMMMMMHHHMMMMM');
    expect(cachedKeys(store, [1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual([1, 7, 8, 9]);
    expect(hitMissString(new LruStore({ capacity: 4, countMode: true }), sequence.slice(0, 15))).toBe('MMMMMMMMMHHHMMH');
  });

  it('a scan of new objects passes through A1in and leaves Am (the hot set) alone, where LRU is flushed', () => {
    const hot = [1, 2, 3, 4, 5, 1, 2]; // 1 and 2 end up in Am
    const scan = [10, 11, 12, 13, 14, 15, 16, 17];
    expect(hitMissString(twoq(4), [...hot, ...scan, 1, 2])).toBe(`${'M'.repeat(15)}HH`);
    expect(hitMissString(new LruStore({ capacity: 4, countMode: true }), [...hot, ...scan, 1, 2])).toBe(`${'M'.repeat(17)}`);
  });

  it('documented: remove() makes no A1out entry, so a removed object comes back into A1in, not Am', () => {
    const store = twoq(4);
    hitMissString(store, [1, 2, 3, 4]);
    store.remove(1);
    hitMissString(store, [1, 10, 11, 12, 13]); // 1 is new again: A1in (at the head); four newcomers push it out of A1in
    expect(store.contains(1, 0)).toBe(false);
  });
});
