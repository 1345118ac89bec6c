import { ListStore } from './entryStore.js';
import type { KeyList } from './keyLists.js';
import { growUint8 } from './typedArrays.js';

/**
 * CLOCK, in its FIFO-with-reinsertion form (the "second chance" algorithm): a FIFO queue
 * plus one reference bit per object. A hit sets the bit; eviction looks at the oldest
 * entry, and if its bit is set it clears the bit and moves the entry to the newest end
 * instead of evicting it. Equivalent to the circular-buffer CLOCK of Corbató, "A paging
 * experiment with the Multics system", MIT Project MAC MAC-M-384, 1968; the queue form is
 * the one libCacheSim calls FIFO-Reinsertion (Yang et al., "FIFO can be better than LRU:
 * the power of lazy promotion and quick demotion", HotOS 2023).
 *
 * New and re-inserted entries start with the bit clear.
 */
export class ClockStore extends ListStore {
  readonly policy = 'clock';
  private readonly queue: KeyList = this.links.newList();
  private referenced: Uint8Array = new Uint8Array(this.entries.keySpace);

  protected onHit(key: number): void {
    this.referenced[key] = 1;
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) this.evictOne();
    this.referenced[key] = 0;
    this.links.pushHead(this.queue, key, charge);
    return true;
  }

  /** Second chance: terminates within one lap, since every pass clears a bit. */
  private evictOne(): void {
    for (;;) {
      const oldest = this.queue.tail;
      if (this.referenced[oldest] === 0) {
        this.forget(oldest);
        return;
      }
      this.referenced[oldest] = 0;
      this.links.moveToHead(this.queue, oldest);
    }
  }

  protected override growKeys(length: number): void {
    super.growKeys(length);
    this.referenced = growUint8(this.referenced, length);
  }
}
