import { describe, expect, it } from 'vitest';
import { ArcStore } from '../../src/cache/arc.js';
import { LruStore } from '../../src/cache/lru.js';
import { RandomStreams } from '../../src/sim/random.js';
import { ReferenceStore, assertMatchesReference, cachedKeys, describeCacheStoreContract, describeTraceDifferential, hitMissString, without } from './policyHarness.js';

/**
 * What both transcriptions of ARC keep: the four lists (LRU first; ghosts with the charge
 * they had), the target p, their sizes, and case I of the paper (a hit moves x to T2's MRU end).
 */
abstract class ArcLists extends ReferenceStore {
  t1: number[] = [];
  t2: number[] = [];
  b1: { key: number; charge: number }[] = [];
  b2: { key: number; charge: number }[] = [];
  p = 0;

  protected cached(list: number[]): number {
    return list.reduce((sum, key) => sum + this.chargeOf(this.entries.get(key)!.size), 0);
  }

  protected ghost(list: { charge: number }[]): number {
    return list.reduce((sum, entry) => sum + entry.charge, 0);
  }

  /** Case I: x ∈ T1 ∪ T2 — move x to the MRU position in T2. */
  protected onHit(key: number): void {
    if (!without(this.t1, key)) without(this.t2, key);
    this.t2.push(key);
  }
}

/**
 * ARC(c) transcribed from Figure 4 of Megiddo and Modha, FAST 2003, in count mode (the
 * paper counts pages). Lists are arrays, LRU first. REPLACE runs only while the new object
 * does not fit, which in the paper's setting (no removals) is exactly when the paper calls
 * it. Used only where libCacheSim's ARC and the paper must agree: count mode, requests only.
 */
class PaperArc extends ArcLists {

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    const c = this.capacity;
    const inB1 = this.b1.findIndex((entry) => entry.key === key);
    const inB2 = this.b2.findIndex((entry) => entry.key === key);
    if (inB1 >= 0) {
      // Case II: δ1 = 1 if |B1| ≥ |B2|, else |B2|/|B1|; p ← min(p + δ1, c).
      const b1 = this.ghost(this.b1);
      const b2 = this.ghost(this.b2);
      const delta = b1 > 0 ? (b1 >= b2 ? 1 : b2 / b1) : 1;
      this.p = Math.min(this.p + delta, c);
      this.b1.splice(inB1, 1);
    } else if (inB2 >= 0) {
      // Case III: δ2 = 1 if |B2| ≥ |B1|, else |B1|/|B2|; p ← max(p − δ2, 0).
      const b1 = this.ghost(this.b1);
      const b2 = this.ghost(this.b2);
      const delta = b2 > 0 ? (b2 >= b1 ? 1 : b1 / b2) : 1;
      this.p = Math.max(this.p - delta, 0);
      this.b2.splice(inB2, 1);
    } else if (this.cached(this.t1) + this.ghost(this.b1) + charge > c) {
      // Case IV.A: L1 has c pages. If |T1| < c delete B1's LRU, else (B1 empty) delete T1's LRU from the cache.
      while (this.cached(this.t1) + this.ghost(this.b1) + charge > c) {
        if (this.b1.length > 0) this.b1.shift();
        else this.evict(this.t1.shift()!);
      }
    } else {
      // Case IV.B: if the directory holds 2c, delete B2's LRU.
      const directory = () => this.cached(this.t1) + this.cached(this.t2) + this.ghost(this.b1) + this.ghost(this.b2);
      while (this.b2.length > 0 && directory() + charge > 2 * c) this.b2.shift();
    }
    while (!this.fits(charge)) this.replace(inB2 >= 0);
    (inB1 >= 0 || inB2 >= 0 ? this.t2 : this.t1).push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  /** REPLACE(x, p): if |T1| ≥ 1 and ((x ∈ B2 and |T1| = p) or |T1| > p), T1's LRU goes to B1, else T2's LRU to B2. */
  private replace(requestInB2: boolean): void {
    const t1 = this.cached(this.t1);
    const fromT1 = this.t1.length >= 1 && ((requestInB2 && t1 === this.p) || t1 > this.p || this.t2.length === 0);
    const victim = (fromT1 ? this.t1 : this.t2).shift()!;
    (fromT1 ? this.b1 : this.b2).push({ key: victim, charge: this.chargeOf(this.entries.get(victim)!.size) });
    this.evict(victim);
  }

  protected unqueue(key: number): void {
    if (!without(this.t1, key)) without(this.t2, key);
  }
}

/**
 * libCacheSim's ARC.c transcribed the slow way: four arrays, LRU first, |X| summed on
 * demand (charges: bytes, or 1 per object in count mode). ARC_find adjusts p on a ghost
 * hit; cache_get_base evicts (ARC_evict) while the new object does not fit; ARC_insert puts
 * a ghost hit into T2, anything else into T1. ARC_evict is _ARC_replace after a ghost hit,
 * otherwise _ARC_evict_miss_on_all_queues (case IV).
 */
class ReferenceArc extends ArcLists {

  protected admit(key: number, size: number, charge: number, expiresAtMs: number): boolean {
    const c = this.capacity;
    const inB1 = this.b1.findIndex((entry) => entry.key === key);
    const inB2 = this.b2.findIndex((entry) => entry.key === key);
    // C doubles: x / 0 is ∞ for x > 0; MAX(NaN, 1) is 1.
    const ratio = (a: number, b: number) => (b > 0 ? Math.max(a / b, 1) : a > 0 ? Infinity : 1);
    if (inB1 >= 0) {
      this.p = Math.min(this.p + ratio(this.ghost(this.b2), this.ghost(this.b1)), c);
      this.b1.splice(inB1, 1);
    } else if (inB2 >= 0) {
      this.p = Math.max(this.p - ratio(this.ghost(this.b1), this.ghost(this.b2)), 0);
      this.b2.splice(inB2, 1);
    }
    while (!this.fits(charge)) {
      if (inB1 >= 0 || inB2 >= 0) this.replace(inB2 >= 0);
      else if (this.cached(this.t1) + this.ghost(this.b1) + charge > c) {
        if (this.ghost(this.b1) > 0) {
          this.b1.shift();
          this.replace(false);
        } else {
          this.evict(this.t1.shift()!);
        }
      } else {
        const directory = this.cached(this.t1) + this.cached(this.t2) + this.ghost(this.b1) + this.ghost(this.b2);
        if (directory >= 2 * c && this.ghost(this.b2) > 0) this.b2.shift();
        this.replace(false);
      }
    }
    (inB1 >= 0 || inB2 >= 0 ? this.t2 : this.t1).push(key);
    this.store(key, size, expiresAtMs);
    return true;
  }

  /** _ARC_replace: T1's LRU to B1 if |T1| > 0 and (|T1| > p or (|T1| = p and x ∈ B2)), or if |T2| = 0; else T2's LRU to B2. */
  private replace(requestInB2: boolean): void {
    const t1 = this.cached(this.t1);
    let fromT1 = (t1 > 0 && (t1 > this.p || (t1 === this.p && requestInB2))) || this.cached(this.t2) === 0;
    // Where C would dereference an empty list (after removals, or zero-size objects only): the other list.
    if ((fromT1 ? this.t1 : this.t2).length === 0) fromT1 = !fromT1;
    const list = fromT1 ? this.t1 : this.t2;
    if (list.length === 0) return;
    const victim = list.shift()!;
    (fromT1 ? this.b1 : this.b2).push({ key: victim, charge: this.chargeOf(this.entries.get(victim)!.size) });
    this.evict(victim);
  }

  protected unqueue(key: number): void {
    if (!without(this.t1, key)) without(this.t2, key);
  }
}

const arc = (capacity: number) => new ArcStore({ capacity, countMode: true });

describeCacheStoreContract('arc', (options) => new ArcStore(options));

describe('ArcStore: differential tests against a transcription of libCacheSim’s ARC.c', () => {
  it('fast-check: requests, lookups, inserts, removes, TTLs and sizes 0 to oversized give identical results in byte and count mode', () => {
    assertMatchesReference((options) => new ArcStore(options), (capacity, countMode) => new ReferenceArc(capacity, countMode), { seed: 20240707 });
  });

  describeTraceDifferential('arc', (options) => new ArcStore(options), (capacity, countMode) => new ReferenceArc(capacity, countMode));
});

describe('ArcStore in count mode without removals is the paper’s algorithm (Megiddo and Modha, FAST 2003, Figure 4)', () => {
  it('40 seeded skewed sequences: identical hits and the same p after every request as a transcription of Figure 4', () => {
    // Requests only, so every REPLACE of the paper happens, and at the same moment.
    for (let seed = 1; seed <= 40; seed++) {
      const capacity = 1 + (seed % 7);
      const store = new ArcStore({ capacity, countMode: true, keySpace: 16 });
      const paper = new PaperArc(capacity, true);
      const stream = new RandomStreams(`arc-exact-${seed}`).stream('keys');
      for (let i = 0; i < 400; i++) {
        // Skewed over 3c ids: enough reuse for T2 and both ghosts to matter.
        const key = Math.floor(stream.next() ** 2 * capacity * 3);
        const hit = store.lookup(key, 0);
        expect(hit, `seed ${seed} request ${i}`).toBe(paper.lookup(key, 0));
        if (!hit) {
          store.insert(key, 1, Infinity);
          paper.insert(key, 1, Infinity);
        }
        expect(store.targetT1).toBe(paper.p);
      }
    }
  });
});

describe('ArcStore: hand-made sequence traced through the paper’s cases (Megiddo and Modha, FAST 2003)', () => {
  // c = 3. Each step below is worked by hand from Figure 4 (T lists MRU first):
  //  1 2: case IV.B into T1; second requests (case I) move 1 and 2 to T2 = [2 1].
  //  3: IV.B, cache full. 4 5: IV.B with |directory| ≥ c: REPLACE sends 3, then 4 to B1 (|T1| = 1 > p = 0).
  //  6: IV.A (|T1| + |B1| = 3): drop B1's LRU 3, REPLACE sends 5 to B1 = [5 4]. T2 = [2 1] survived the scan.
  //  1 2: case I. 4: case II, p = 1; REPLACE (|T1| = 1 = p, not a B2 hit) sends T2's LRU 1 to B2.
  //  1: case III, p = 0; REPLACE sends 6 to B1. 2: hit. 6: case II, p = 1; T1 empty, so 4 → B2.
  //  4: case III, p = 0; 1 → B2. 5: case II, p = 1; 2 → B2 = [2 1]. 7: IV.B, 6 → B2.
  //  8: IV.B with a full directory (2c = 6): drop B2's LRU 1, REPLACE (|T1| = 1 = p) sends 4 → B2.
  //  5 7: hits; 7 moves from T1 to T2.
  const sequence = [1, 1, 2, 2, 3, 4, 5, 6, 1, 2, 4, 1, 2, 6, 4, 5, 7, 8, 5, 7];

  it('hits, misses, final contents and p follow the paper step by step', () => {
    const store = arc(3);
    expect(hitMissString(store, sequence)).toBe('MHMHMMMMHHMMHMMMMMHH');
    expect(cachedKeys(store, [1, 2, 3, 4, 5, 6, 7, 8])).toEqual([5, 7, 8]);
    expect(store.targetT1).toBe(1);
  });

  it('scan resistance: objects requested twice (T2) survive a scan of new objects that flushes LRU', () => {
    expect(hitMissString(arc(3), sequence.slice(0, 10))).toBe('MHMHMMMMHH');
    expect(hitMissString(new LruStore({ capacity: 3, countMode: true }), sequence.slice(0, 10))).toBe('MHMHMMMMMM');
  });

  it('documented: remove() and expiry make no ghost entry, so a removed object returns into T1 (and p does not move)', () => {
    const store = arc(3);
    hitMissString(store, [1, 1, 2, 3]); // T1 = [3 2], T2 = [1]
    store.remove(1);
    store.insert(1, 1, Infinity); // not a ghost hit: case IV into T1
    expect(store.targetT1).toBe(0);
    hitMissString(store, [4, 5]); // case IV.A with T1 = c and B1 empty: T1's LRU objects leave without a ghost, 2 then 3
    expect(cachedKeys(store, [1, 2, 3, 4, 5])).toEqual([1, 4, 5]);
    hitMissString(store, [6]); // 1 is T1's LRU now (a T2 object would have stayed)
    expect(cachedKeys(store, [1, 4, 5, 6])).toEqual([4, 5, 6]);
  });

  it('byte mode, as libCacheSim: a B1 hit moves p by max(|B2|/|B1|, 1) bytes, not by the object’s size', () => {
    const store = new ArcStore({ capacity: 1_000 });
    store.insert(1, 400, Infinity);
    store.lookup(1, 0); // T2 = [1]
    store.insert(2, 400, Infinity); // T1 = [2]
    store.insert(3, 400, Infinity); // 1200 > 1000; case IV, |T1| + |B1| + 400 = 800 ≤ c: REPLACE (|T1| = 400 > p = 0) sends 2 (400 B) to B1
    expect(cachedKeys(store, [1, 2, 3])).toEqual([1, 3]);
    store.insert(2, 300, Infinity); // case II: p = min(0 + max(0/400, 1), 1000) = 1 byte; 1100 > 1000: REPLACE (400 > 1) sends 3 to B1
    expect(store.targetT1).toBe(1);
    expect(cachedKeys(store, [1, 2, 3])).toEqual([1, 2]);
  });

  it('byte mode, case IV: with B1 empty T1’s LRU object leaves with no ghost; otherwise B1’s oldest id is dropped and REPLACE runs, once per object that has to go', () => {
    // 1000 bytes; T lists and B1 head first.
    const store = new ArcStore({ capacity: 1_000 });
    for (const key of [1, 2, 3, 4]) store.insert(key, 250, Infinity); // T1 = [4 3 2 1], full
    store.insert(5, 250, Infinity); // |T1| + |B1| + 250 > c and |B1| = 0: 1 leaves with no ghost
    expect(store.remembers(1)).toBe(false);
    store.lookup(5, 0); // T2 = [5], T1 = [4 3 2]
    store.insert(6, 500, Infinity);
    // 750 + 0 + 500 > c, |B1| = 0: 2 leaves with no ghost. Still no room; 500 + 0 + 500 = c is not > c:
    // case IV.B, REPLACE (|T1| = 500 > p = 0) sends 3 to B1.
    expect([store.remembers(2), store.remembers(3)]).toEqual([false, true]);
    expect(cachedKeys(store, [1, 2, 3, 4, 5, 6])).toEqual([4, 5, 6]);
    store.insert(7, 500, Infinity);
    // T1 = [6 4] (750) + B1 [3] (250) + 500 > c: drop ghost 3, REPLACE sends 4 to B1; again 500 + 250 + 500 > c:
    // drop ghost 4, REPLACE sends 6 to B1.
    expect([store.remembers(3), store.remembers(4), store.remembers(6)]).toEqual([false, false, true]);
    expect(cachedKeys(store, [4, 5, 6, 7])).toEqual([5, 7]);
    store.insert(8, 250, Infinity); // 750 + 250 fits: no eviction step at all, though |T1| + |B1| + 250 > c
    expect(cachedKeys(store, [5, 7, 8])).toEqual([5, 7, 8]);
    store.insert(9, 250, Infinity); // 750 + 500 + 250 > c: drop ghost 6, REPLACE sends 7 (500 B) to B1
    expect([store.remembers(6), store.remembers(7)]).toEqual([false, true]);
    expect(cachedKeys(store, [5, 7, 8, 9])).toEqual([5, 8, 9]);
    store.insert(10, 500, Infinity); // 500 + 500 + 500 > c: drop ghost 7, REPLACE sends 8 to B1; 1000 fits
    expect([store.remembers(7), store.remembers(8), store.remembers(9)]).toEqual([false, true, false]);
    expect(cachedKeys(store, [5, 8, 9, 10])).toEqual([5, 9, 10]);
    expect(store.targetT1).toBe(0);
  });
});
