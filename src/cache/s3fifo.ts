import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';
import { growUint8 } from './typedArrays.js';

/**
 * S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO queues are all you need for cache
 * eviction", SOSP 2023, Algorithm 1), following libCacheSim's S3FIFOv0.c — the code behind
 * the paper's numbers — where the pseudocode leaves room:
 *
 * - Queues: small FIFO S (⌊capacity/10⌋), main FIFO M (the rest), ghost FIFO G of key ids
 *   only, as large as M. All three are measured in charges: objects in count mode (G then
 *   holds as many entries as M, as in the paper), bytes in byte mode (G remembers ids
 *   whose sizes add up to M's capacity, as libCacheSim sizes its ghost FIFO).
 * - Each object has a frequency counter capped at 3: a hit adds one; insertion sets 0.
 * - A miss on an id in G (checked and removed when the insert arrives) inserts into M,
 *   otherwise into S. Objects larger than S are still admitted into S (libCacheSim
 *   rejects them; the CacheStore contract admits anything up to the whole capacity).
 * - Eviction (repeated until the new object fits): from M when M is over its share or S is
 *   empty, otherwise from S — libCacheSim's rule; in count mode it equals the paper's
 *   "S ≥ 10 % → evict S" whenever the cache is full. Evicting from S: the tail moves to M
 *   (counter reset to 0) if its counter is > 1 (the pseudocode's `t.freq > 1`, libCacheSim's
 *   move-to-main threshold 2), else it is evicted and its id enters G. M does not evict
 *   inside that step (the paper's "if M is full then evictM()"): the outer loop evicts
 *   from M next if M is then over its share, so no more is evicted than needed.
 *   Evicting from M: a tail with counter > 0 is reinserted at M's head with counter − 1,
 *   the first with 0 is evicted.
 * - Removal (remove(), expiry, re-insertion of a present key) is not eviction: no ghost
 *   entry is made, and an existing ghost entry outlives remove(). Re-insertion is a new
 *   insertion.
 */
export class S3FifoStore extends ListStore {
  readonly policy = 's3fifo';
  private readonly small: KeyList = this.links.newList();
  private readonly main: KeyList = this.links.newList();
  private readonly ghost: KeyList = this.links.newList();
  private readonly mainCapacity: number = this.capacity - Math.floor(this.capacity / 10);
  private readonly ghostCapacity: number = this.mainCapacity;
  private frequency: Uint8Array = new Uint8Array(this.entries.keySpace);

  protected onHit(key: number): void {
    if (this.frequency[key] < 3) this.frequency[key]++;
  }

  protected admit(key: number, charge: number): boolean {
    const ghostHit = this.links.listOf(key) === this.ghost.id;
    if (ghostHit) this.links.unlink(key);
    while (this.entries.used + charge > this.capacity) this.evict();
    this.frequency[key] = 0;
    this.links.pushHead(ghostHit ? this.main : this.small, key, charge);
    return true;
  }

  private evict(): void {
    if (this.small.length === 0 || (this.main.length > 0 && this.main.total > this.mainCapacity)) this.evictMain();
    else this.evictSmall();
  }

  /** Moves frequently hit tails to M until one tail is evicted (or S runs empty). */
  private evictSmall(): void {
    while (this.small.length > 0) {
      const tail = this.small.tail;
      if (this.frequency[tail] > 1) {
        this.frequency[tail] = 0;
        this.links.moveToHead(this.main, tail);
      } else {
        const charge = this.links.weightOf(tail);
        this.forget(tail);
        this.rememberInGhost(tail, charge);
        return;
      }
    }
  }

  /** FIFO with a 2-bit clock: reinsert while the counter lasts, evict the first at 0. */
  private evictMain(): void {
    while (this.main.length > 0) {
      const tail = this.main.tail;
      if (this.frequency[tail] > 0) {
        this.frequency[tail]--;
        this.links.moveToHead(this.main, tail);
      } else {
        this.forget(tail);
        return;
      }
    }
  }

  /** The ghost is a FIFO cache of ids: make room by dropping its oldest ids, never exceed it. */
  private rememberInGhost(key: number, charge: number): void {
    if (charge > this.ghostCapacity) return;
    const ghost = this.ghost;
    while (ghost.length > 0 && ghost.total + charge > this.ghostCapacity) this.links.unlink(ghost.tail);
    this.links.pushHead(ghost, key, charge);
  }

  protected override growKeys(length: number): void {
    super.growKeys(length);
    this.frequency = growUint8(this.frequency, length);
  }
}
