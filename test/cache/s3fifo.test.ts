import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/lru.js';
import { S3FifoStore } from '../../src/cache/s3fifo.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * S3-FIFO from Algorithm 1 of Yang et al., SOSP 2023, with libCacheSim S3FIFOv0.c's choices
 * (see s3fifo.ts): arrays oldest-first for S, M and the ghost G; sizes summed by scanning.
 */
class ReferenceS3Fifo extends ReferenceStore {
  small: number[] = [];
  main: number[] = [];
  ghost: { key: number; charge: number }[] = [];
  freq = new Map<number, number>();
  readonly mainCapacity = this.capacity - Math.floor(this.capacity / 10);

  private bytes(queue: number[]): number {
    return queue.reduce((sum, key) => sum + this.chargeOf(this.entries.get(key)!.size), 0);
  }

  protected onHit(key: number): void {
    this.freq.set(key, Math.min(this.freq.get(key)! + 1, 3));
  }

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    const inGhost = this.ghost.findIndex((entry) => entry.key === key);
    if (inGhost >= 0) this.ghost.splice(inGhost, 1);
    while (!this.fits(charge)) {
      if (this.bytes(this.main) > this.mainCapacity || this.small.length === 0) this.evictM();
      else this.evictS();
    }
    (inGhost >= 0 ? this.main : this.small).push(key);
    this.freq.set(key, 0);
    this.store(key, size, expiresAtMs);
    return true;
  }

  private evictS(): void {
    while (this.small.length > 0) {
      const tail = this.small.shift()!;
      if (this.freq.get(tail)! > 1) {
        this.main.push(tail);
        this.freq.set(tail, 0);
      } else {
        const charge = this.chargeOf(this.entries.get(tail)!.size);
        this.evict(tail);
        if (charge <= this.mainCapacity) {
          const ghostBytes = () => this.ghost.reduce((sum, entry) => sum + entry.charge, 0);
          while (this.ghost.length > 0 && ghostBytes() + charge > this.mainCapacity) this.ghost.shift();
          this.ghost.push({ key: tail, charge });
        }
        return;
      }
    }
  }

  private evictM(): void {
    while (this.main.length > 0) {
      const tail = this.main.shift()!;
      const freq = this.freq.get(tail)!;
      if (freq > 0) {
        this.main.push(tail);
        this.freq.set(tail, freq - 1);
      } else {
        this.evict(tail);
        return;
      }
    }
  }

  protected unqueue(key: number): void {
    if (!without(this.small, key)) without(this.main, key);
  }
}

const s3fifo = (capacity: number) => new S3FifoStore({ capacity, countMode: true });

describeCacheStoreContract('s3fifo', (options) => new S3FifoStore(options));

describe('S3FifoStore: differential tests against a naive Algorithm-1 reference', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new S3FifoStore(options), (capacity, countMode) => new ReferenceS3Fifo(capacity, countMode), { seed: 20240704 });
  });

  describeTraceDifferential('s3fifo', (options) => new S3FifoStore(options), (capacity, countMode) => new ReferenceS3Fifo(capacity, countMode));
});

describe('S3FifoStore: hand-made sequences (Yang et al., "FIFO queues are all you need for cache eviction", SOSP 2023)', () => {
  it('quick demotion: an object evicted from S unrequested leaves its id in the ghost, and its next miss goes to M, where a scan of 14 new objects cannot reach it (LRU loses it)', () => {
    // 10 slots: S 1, M 9. 1–10 fill S; 11 evicts 1 into the ghost; 1 returns into M; 12–25 churn through S only.
    const sequence = [...range(1, 11), 1, ...range(12, 25), 1];
    expect(hitMissString(s3fifo(10), sequence)).toBe(`${'M'.repeat(26)}H`);
    expect(hitMissString(new LruStore({ capacity: 10, countMode: true }), sequence)).toBe(`${'M'.repeat(26)}M`);
  });

  it('promotion from S needs freq > 1 (Algorithm 1, line "if t.freq > 1"; libCacheSim move-to-main threshold 2): one hit in S is not enough, two are', () => {
    expect(hitMissString(s3fifo(10), [...range(1, 10), 1, 11, 1])).toBe(`${'M'.repeat(10)}HMM`);
    expect(hitMissString(s3fifo(10), [...range(1, 10), 1, 1, 11, 1])).toBe(`${'M'.repeat(10)}HHMH`);
  });

  it('M is a FIFO with a 2-bit clock: when M is over its share its tail is reinserted while its counter lasts (counter − 1), the first at 0 goes', () => {
    // 10 slots: S 1, M 9, ghost 9.
    const store = s3fifo(10);
    hitMissString(store, range(1, 19)); // 1–10 fill S; 11–19 push 1–9 out of S into the ghost
    hitMissString(store, range(1, 9)); // each is a ghost hit: back into M, which now holds 1–9 (9 of 9)
    expect(cachedKeys(store, range(1, 9))).toEqual(range(1, 9));
    hitMissString(store, [1, 1, 1, 1, 1, 2]); // freq(1) capped at 3, freq(2) = 1
    // New objects churn through S only: M is not over its share.
    hitMissString(store, range(100, 120)); // the ghost ends with 111–119
    expect(cachedKeys(store, range(1, 9))).toEqual(range(1, 9));
    expect(hitMissString(store, [119])).toBe('M'); // a ghost hit: into M, which now holds 10 > 9
    // The next eviction takes from M: 1 (3 → 2) and 2 (1 → 0) are reinserted at M's head, 3 (0) goes.
    expect(hitMissString(store, [300])).toBe('M');
    expect(cachedKeys(store, range(1, 9))).toEqual([1, 2, 4, 5, 6, 7, 8, 9]);
  });

  it('documented: remove(), expiry and re-insertion are not evictions — no ghost entry, so the object comes back through S, not M', () => {
    const store = s3fifo(10);
    hitMissString(store, range(1, 10));
    store.remove(1);
    store.insert(2, 1, 5); // re-insertion: a new insertion into S, expiring at 5 ms
    expect(store.lookup(2, 5)).toBe(false); // expired: removed
    hitMissString(store, [1, 2]); // both return into S (a ghost entry would have sent them to M)
    hitMissString(store, range(11, 20)); // ten newcomers push S's ten oldest out: 3–10, then 1 and 2
    expect(cachedKeys(store, [1, 2])).toEqual([]);
  });
});
