import { EntryStore } from './entryStore.js';
import { KeyHeap } from './keyHeap.js';
import { growFloat64 } from './typedArrays.js';

/**
 * Greedy-Dual-Size-Frequency (Cherkasova, "Improving WWW proxies performance with
 * Greedy-Dual-Size-Frequency caching policy", HP Labs HPL-98-69R1, 1998). Each object has
 * priority H = L + frequency × cost / size with cost 1 (the hit-ratio variant); the victim
 * is the lowest H, and the inflation value L rises to the victim's H, so objects not
 * requested for a while age out without touching every priority.
 *
 * - size is the object's charge: bytes in byte mode, 1 in count mode (where GDSF becomes
 *   LFU with dynamic aging). A zero-byte object has H = ∞: it takes no space and is never
 *   the victim while anything with a size is cached.
 * - frequency is 1 on insertion and + 1 per hit; a hit recomputes H with the current L.
 *   Frequency is forgotten on eviction; re-insertion of a present key is a new insertion.
 * - Ties on H are broken by least recently set priority (the object whose H was computed
 *   longest ago goes first), which makes the order deterministic.
 * - remove() and expiry take the object out without changing L (only evictions inflate).
 *
 * A binary min-heap on typed arrays with a position index (KeyHeap): O(log n) per
 * operation.
 */
export class GdsfStore extends EntryStore {
  readonly policy = 'gdsf';
  private readonly heap: KeyHeap = new KeyHeap(this.entries.keySpace);
  private frequency: Float64Array = new Float64Array(this.entries.keySpace);
  /** The inflation value L. */
  private inflation = 0;

  /** The inflation value L, for tests and reports. */
  get agingValue(): number {
    return this.inflation;
  }

  protected onHit(key: number): void {
    const frequency = ++this.frequency[key];
    this.heap.update(key, this.inflation + frequency / this.chargeOf(key));
  }

  protected admit(key: number, charge: number): boolean {
    while (this.entries.used + charge > this.capacity) {
      const victim = this.heap.top();
      this.inflation = this.heap.priorityOf(victim);
      this.forget(victim);
    }
    this.frequency[key] = 1;
    this.heap.push(key, this.inflation + 1 / charge);
    return true;
  }

  private chargeOf(key: number): number {
    return this.countMode ? 1 : this.entries.sizes[key];
  }

  protected forget(key: number): void {
    this.heap.remove(key);
    this.entries.drop(key);
  }

  protected growKeys(length: number): void {
    this.heap.growKeys(length);
    this.frequency = growFloat64(this.frequency, length, 0);
  }
}
