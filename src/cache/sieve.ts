import { ListStore } from './entryStore.js';
import { NIL, type KeyList } from './keyLists.js';
import { growUint8 } from './typedArrays.js';

/**
 * SIEVE (Zhang, Yang, Yue, Vigfusson and Rashmi, "SIEVE is Simpler than LRU: an Efficient
 * Turn-Key Eviction Algorithm for Web Caches", NSDI 2024). One queue with new objects at
 * the head and a visited bit per object; a hit only sets the bit. A hand walks from the
 * tail toward the head: a visited object has its bit cleared and is passed over *in place*
 * (unlike CLOCK, nothing moves), the first unvisited one is evicted, and the hand stays
 * just head-side of it. Past the head the hand wraps to the tail.
 *
 * Removing the object under the hand (remove(), expiry, re-insertion) moves the hand one
 * step toward the head, as libCacheSim's Sieve.c does. Re-insertion is a new insertion: at
 * the head, unvisited.
 */
export class SieveStore extends ListStore {
  readonly policy = 'sieve';
  private readonly queue: KeyList = this.links.newList();
  private visited: Uint8Array = new Uint8Array(this.entries.keySpace);
  private hand = NIL;

  protected onHit(key: number): void {
    this.visited[key] = 1;
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.evictOne();
    this.visited[key] = 0;
    this.links.pushHead(this.queue, key, charge);
    return true;
  }

  /** The paper's Evict procedure; ends within one lap since each pass clears a bit. */
  private evictOne(): void {
    let candidate = this.hand !== NIL ? this.hand : this.queue.tail;
    while (this.visited[candidate] === 1) {
      this.visited[candidate] = 0;
      const headSide = this.links.towardHead(candidate);
      candidate = headSide !== NIL ? headSide : this.queue.tail;
    }
    this.hand = this.links.towardHead(candidate);
    this.forget(candidate);
  }

  /** Whatever takes the key under the hand away, the hand steps toward the head first. */
  protected override forget(key: number): void {
    if (key === this.hand) this.hand = this.links.towardHead(key);
    this.links.unlink(key);
    this.entries.drop(key);
  }

  protected override growKeys(length: number): void {
    super.growKeys(length);
    this.visited = growUint8(this.visited, length);
  }
}
