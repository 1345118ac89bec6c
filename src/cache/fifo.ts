import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';

/**
 * First-in first-out eviction: one queue in insertion order; a hit changes nothing, the
 * oldest insertion goes first. The baseline the FIFO-family papers improve on (and the
 * subject of Belady's anomaly: Belady, Nelson and Shedler, "An anomaly in space-time
 * characteristics of certain programs running in a paging machine", CACM 12(6), 1969).
 *
 * Re-inserting a present key is a new insertion: it goes to the back of the queue.
 */
export class FifoStore extends ListStore {
  readonly policy = 'fifo';
  private readonly queue: KeyList = this.links.newList();

  /** Insertion order is all FIFO keeps, so a hit changes nothing. */
  protected onHit(): void {}

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.forget(this.queue.tail);
    this.links.pushHead(this.queue, key, charge);
    return true;
  }
}
