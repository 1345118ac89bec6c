import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

/**
 * Adaptive Replacement Cache (Megiddo and Modha, "ARC: a self-tuning, low overhead
 * replacement cache", FAST 2003, Figure 4). T1 holds objects seen once recently, T2 those
 * seen at least twice; B1 and B2 remember the ids evicted from each. The target size p of
 * T1 grows on a B1 hit by δ1 = max(|B2|/|B1|, 1) (capped at c) and shrinks on a B2 hit by
 * δ2 = max(|B1|/|B2|, 1) (floored at 0); p is real-valued, as in the paper's δ definitions
 * (libCacheSim's ARC.c also uses a double). REPLACE evicts T1's LRU into B1 when
 * |T1| > p, or |T1| = p and the request is a B2 hit, otherwise T2's LRU into B2.
 *
 * Count mode is the paper's algorithm, cases I–IV, exactly for any trace without removals
 * or expiry: REPLACE runs only when the cache is full, which in the paper's setting is
 * every time it calls REPLACE (once full, an ARC cache stays full). Removals make room
 * without eviction, so then the bookkeeping of case IV (trimming B1 or B2) still runs but
 * REPLACE waits until room is needed.
 *
 * Byte mode (our adaptation, close to libCacheSim's): every "number of pages" becomes a sum
 * of charges — |T1|, |B1|, c, p are bytes, a ghost id remembers its object's size — and a
 * ghost hit moves p by the requested object's size × the paper's ratio (in count mode the
 * size is 1, so this is the paper's δ; libCacheSim moves p by the ratio alone, which in
 * bytes barely moves it). Case IV's "L1 has c pages" becomes "|T1| + |B1| + the new
 * object's size > c": B1's LRU ids are dropped (or, with B1 empty, T1's LRU objects evicted
 * without a ghost) until it is not; "the directory has 2c pages" likewise drops B2's LRU
 * ids. When REPLACE's chosen list is empty (possible only in byte mode or after removals)
 * it takes from the other, as libCacheSim does.
 *
 * Ghost hits are handled when the insert arrives (a lookup miss alone changes nothing).
 * Removal (remove(), expiry, re-insertion) is not eviction: no ghost is made; an existing
 * ghost id outlives remove(). Re-insertion of a present key is a new insertion (case IV).
 */
export class ArcStore extends ListStore {
  readonly policy = 'arc';
  private readonly t1: KeyList = this.links.newList();
  private readonly t2: KeyList = this.links.newList();
  private readonly b1: KeyList = this.links.newList();
  private readonly b2: KeyList = this.links.newList();
  /** Target size of T1, in charges. */
  private p = 0;

  /** The adaptive target size of T1 (charges), for tests and reports. */
  get targetT1(): number {
    return this.p;
  }

  /** Case I: a hit in T1 or T2 moves the object to the MRU end of T2. */
  protected onHit(key: number): void {
    this.links.moveToHead(this.t2, key);
  }

  protected admit(key: number, charge: number): boolean {
    const { links, t1, t2, b1, b2 } = this;
    const c = this.capacity;
    const ghost = links.listOf(key);
    const inB1 = ghost === b1.id;
    const inB2 = ghost === b2.id;
    if (inB1) {
      // Case II. B1 holds this id, so |B1| ≥ charge > 0 unless sizes changed; then ratio 1.
      const ratio = b1.total > 0 ? Math.max(b2.total / b1.total, 1) : 1;
      this.p = Math.min(this.p + charge * ratio, c);
      links.unlink(key);
    } else if (inB2) {
      // Case III.
      const ratio = b2.total > 0 ? Math.max(b1.total / b2.total, 1) : 1;
      this.p = Math.max(this.p - charge * ratio, 0);
      links.unlink(key);
    } else if (t1.total + b1.total + charge > c) {
      // Case IV.A: L1 = T1 ∪ B1 is full. In count mode exactly one step runs.
      while (t1.total + b1.total + charge > c) {
        if (b1.length > 0) links.unlink(b1.tail);
        else this.forget(t1.tail);
      }
    } else {
      // Case IV.B: keep the whole directory within 2c.
      while (b2.length > 0 && t1.total + t2.total + b1.total + b2.total + charge > 2 * c) links.unlink(b2.tail);
    }
    while (this.entries.used + charge > c) this.replace(inB2);
    links.pushHead(inB1 || inB2 ? t2 : t1, key, charge);
    return true;
  }

  /** The paper's REPLACE(x, p): one object leaves the cache, its id enters B1 or B2. */
  private replace(requestInB2: boolean): void {
    const { t1, t2 } = this;
    const fromT1 = t1.length > 0 && (t1.total > this.p || (requestInB2 && t1.total === this.p) || t2.length === 0);
    const victim = fromT1 ? t1.tail : t2.tail;
    const charge = this.links.weightOf(victim);
    this.forget(victim);
    this.links.pushHead(fromT1 ? this.b1 : this.b2, victim, charge);
  }
}
