import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

/**
 * Full 2Q (Johnson and Shasha, "2Q: a low overhead high performance buffer management
 * replacement algorithm", VLDB 1994, the "full version" with A1in, A1out and Am):
 *
 * - A hit in Am moves the object to Am's head (LRU); a hit in A1in does nothing — a
 *   correlated reference, the point of the FIFO A1in.
 * - A miss on an id remembered in A1out goes to the head of Am; any other miss to the
 *   head of A1in.
 * - reclaimfor: while the new object does not fit, if A1in holds more than Kin the tail of
 *   A1in is evicted and its id enters A1out (dropping A1out's oldest ids beyond Kout);
 *   otherwise the tail of Am is evicted, remembered nowhere.
 *
 * Kin = ⌊capacity/4⌋ and Kout = ⌊capacity/2⌋ (the paper's recommended 25 % and 50 %, in
 * integers as libCacheSim's TwoQ.c). They are charges, like the capacity: entries in count
 * mode; in byte mode A1in's threshold is in bytes and A1out remembers ids whose sizes add
 * up to Kout bytes, as libCacheSim sizes its A1out FIFO. An id leaves A1out when its
 * object comes back (it cannot be in two queues). When the queue the rule names is empty
 * (only possible in byte mode or after removals), the other one gives the victim.
 * Removal (remove(), expiry, re-insertion) is not eviction: nothing enters A1out.
 * Re-insertion of a present key is a new insertion into A1in.
 */
export class TwoQStore extends ListStore {
  readonly policy = 'twoq';
  private readonly a1in: KeyList = this.links.newList();
  private readonly am: KeyList = this.links.newList();
  private readonly a1out: KeyList = this.links.newList();
  private readonly inThreshold: number = Math.floor(this.capacity / 4);
  private readonly outCapacity: number = Math.floor(this.capacity / 2);

  protected onHit(key: number): void {
    if (this.links.listOf(key) === this.am.id) this.links.moveToHead(this.am, key);
  }

  protected admit(key: number, charge: number): boolean {
    const remembered = this.links.listOf(key) === this.a1out.id;
    if (remembered) this.links.unlink(key);
    while (this.entries.used + charge > this.capacity) this.reclaim();
    this.links.pushHead(remembered ? this.am : this.a1in, key, charge);
    return true;
  }

  private reclaim(): void {
    const a1in = this.a1in;
    if (a1in.length > 0 && (a1in.total > this.inThreshold || this.am.length === 0)) {
      const victim = a1in.tail;
      const charge = this.links.weightOf(victim);
      this.forget(victim);
      this.rememberInA1out(victim, charge);
    } else {
      this.forget(this.am.tail);
    }
  }

  private rememberInA1out(key: number, charge: number): void {
    if (charge > this.outCapacity) return;
    const a1out = this.a1out;
    while (a1out.length > 0 && a1out.total + charge > this.outCapacity) this.links.unlink(a1out.tail);
    this.links.pushHead(a1out, key, charge);
  }
}
