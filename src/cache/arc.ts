import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

/**
 * Adaptive Replacement Cache (Megiddo and Modha, "ARC: a self-tuning, low overhead
 * replacement cache", FAST 2003, Figure 4) as libCacheSim's ARC.c defines it, the
 * reference simulator whose numbers the literature quotes. T1 holds objects seen once
 * recently, T2 those seen at least twice; B1 and B2 remember the ids (and sizes) evicted
 * from each. |X| is a sum of charges: bytes, or objects in count mode.
 *
 * - Hit (case I): the object moves to the head of T2.
 * - Ghost hit in B1 (case II): p ← min(p + max(|B2| / |B1|, 1), c); in B2 (case III):
 *   p ← max(p − max(|B1| / |B2|, 1), 0). p and the ratio are real numbers, and p moves by
 *   the ratio alone, in charges: in byte mode a ghost hit moves p by a few bytes, as in
 *   libCacheSim (`arc-size` moves it by the object's size × the ratio). Then, while the
 *   object does not fit, REPLACE; the object enters T2.
 * - Any other miss (case IV), while the object does not fit: if |T1| + |B1| + its charge
 *   > c, B1's oldest id is dropped and REPLACE runs, or, with B1 holding nothing, T1's LRU
 *   object leaves without a ghost; otherwise B2's oldest id is dropped when
 *   |T1| + |T2| + |B1| + |B2| ≥ 2c, and REPLACE runs. The object enters T1.
 * - REPLACE: T1's LRU object goes to B1 if |T1| > 0 and (|T1| > p, or |T1| = p and the
 *   request is a B2 hit), or if |T2| = 0; otherwise T2's LRU object goes to B2.
 *
 * In count mode, without removals or expiry, this is the paper's algorithm step for step:
 * the cache is full exactly when the paper calls REPLACE. Where libCacheSim would read an
 * empty list (only after removals, or with zero-size objects), REPLACE takes from the other
 * list, or does nothing when both are empty; a ratio over an empty ghost list is what C's
 * double arithmetic gives (|B2| / 0 = ∞ moves p to c; 0 / 0 gives 1).
 *
 * Ghost hits are handled when the insert arrives (a lookup miss alone changes nothing).
 * Removal (remove(), expiry, re-insertion) is not eviction: no ghost is made; an existing
 * ghost id outlives remove(). Re-insertion of a present key is a new insertion.
 */
export class ArcStore extends ListStore {
  readonly policy = 'arc';
  private readonly t1: KeyList = this.links.newList();
  private readonly t2: KeyList = this.links.newList();
  private readonly b1: KeyList = this.links.newList();
  private readonly b2: KeyList = this.links.newList();
  /** Target size of T1, in charges (a double, as libCacheSim's). */
  private p = 0;

  /** The adaptive target size of T1 (charges), for tests and reports. */
  get targetT1(): number {
    return this.p;
  }

  /** Case I: a hit in T1 or T2 moves the object to the head of T2. */
  protected onHit(key: number): void {
    this.links.moveToHead(this.t2, key);
  }

  protected admit(key: number, charge: number): boolean {
    const { links, b1, b2 } = this;
    const ghost = links.listOf(key);
    if (ghost === b1.id || ghost === b2.id) {
      const inB2 = ghost === b2.id;
      // Cases II and III: the ratio is taken with the requested id still on its ghost list.
      if (inB2) this.p = Math.max(this.p - ghostRatio(b1.total, b2.total), 0);
      else this.p = Math.min(this.p + ghostRatio(b2.total, b1.total), this.capacity);
      links.unlink(key);
      while (this.entries.used + charge > this.capacity) this.replace(inB2);
      links.pushHead(this.t2, key, charge);
    } else {
      while (this.entries.used + charge > this.capacity) this.makeRoomForNew(charge);
      links.pushHead(this.t1, key, charge);
    }
    return true;
  }

  /** One eviction for a miss on no ghost (case IV; libCacheSim's _ARC_evict_miss_on_all_queues). */
  private makeRoomForNew(charge: number): void {
    const { links, t1, t2, b1, b2 } = this;
    const c = this.capacity;
    if (t1.total + b1.total + charge > c) {
      if (b1.total > 0) {
        links.unlink(b1.tail);
        this.replace(false);
      } else {
        // |T1| > 0 here: |B1| = 0 and charge ≤ c, so |T1| + charge > c needs |T1| > 0.
        this.forget(t1.tail);
      }
    } else {
      if (b2.total > 0 && t1.total + t2.total + b1.total + b2.total >= 2 * c) links.unlink(b2.tail);
      this.replace(false);
    }
  }

  /** The paper's REPLACE: one object leaves the cache, its id enters B1 or B2. */
  private replace(requestInB2: boolean): void {
    const { t1, t2 } = this;
    let fromT1 = (t1.total > 0 && (t1.total > this.p || (t1.total === this.p && requestInB2))) || t2.total === 0;
    if (fromT1 ? t1.length === 0 : t2.length === 0) fromT1 = !fromT1;
    const list = fromT1 ? t1 : t2;
    if (list.length === 0) return;
    const victim = list.tail;
    const weight = this.links.weightOf(victim);
    this.forget(victim);
    this.links.pushHead(fromT1 ? this.b1 : this.b2, victim, weight);
  }
}

/** max(numerator / denominator, 1) with C's double semantics for an empty ghost list (x / 0 = ∞, 0 / 0 → 1). */
function ghostRatio(numerator: number, denominator: number): number {
  if (denominator > 0) return Math.max(numerator / denominator, 1);
  return numerator > 0 ? Infinity : 1;
}
