import { EntryStore } from './entryStore.js';
import { KeyHeap } from './keyHeap.js';
import { growFloat64 } from './typedArrays.js';

/**
 * Belady's offline optimum (Belady, "A study of replacement algorithms for a virtual-storage
 * computer", IBM Systems Journal 5(2), 1966; MIN): evict the object whose next request is
 * farthest in the future. It needs the future, so a replay driver calls `setNextAccess`
 * before the lookup/insert of every request with the index of the key's next request
 * (-1 or Infinity: never again — the `next_access` field of oracleGeneral traces). Keys
 * never given one count as never requested again. Not for scenario files: the registry
 * keeps it out of ONLINE_CACHE_POLICY_NAMES.
 *
 * - Bypass (what makes it optimal when admission is optional): an object never requested
 *   again is never admitted, and when admitting needs an eviction, an object whose next
 *   request is no nearer than that of every cached object is not admitted either. insert
 *   then returns false (any older entry of the key is still removed, as the contract says).
 * - Victims come farthest-first; ties (several never-again objects) go least recently
 *   updated first (KeyHeap's stamp order).
 * - Count mode is optimal: its hit count is the maximum any policy can reach on the trace.
 * - Byte mode runs the same rules (bypass if no nearer than the first victim, then evict
 *   farthest-first until the object fits). That is a heuristic bound, not the optimum and
 *   not a guaranteed upper bound: with variable sizes optimal offline caching is NP-hard
 *   (Chrobak, Woeginger, Makino and Xu, "Caching is hard — even in the fault model",
 *   Algorithmica 63, 2012), and an online policy may beat this rule on some traces.
 *
 * A max-heap on the next-access index (a KeyHeap on its negation), O(log n) per operation.
 */
export class BeladyStore extends EntryStore {
  readonly policy = 'belady';
  private readonly heap: KeyHeap = new KeyHeap(this.entries.keySpace);
  /** Index of each key's next request; Infinity: never again (or not told). */
  private nextAccess: Float64Array = new Float64Array(this.entries.keySpace).fill(Infinity);

  setNextAccess(key: number, nextAccessIndex: number): void {
    const next = nextAccessIndex >= 0 ? nextAccessIndex : Infinity;
    if (key >= this.entries.keySpace) this.grow(key + 1);
    this.nextAccess[key] = next;
    if (this.entries.has(key)) this.heap.update(key, -next);
  }

  /** Nothing to update on a hit: the driver has already told us the key's next access. */
  protected onHit(): void {}

  protected admit(key: number, charge: number): boolean {
    const next = this.nextAccess[key];
    if (next === Infinity) return false;
    if (this.entries.used + charge > this.capacity) {
      // heap.top() is the farthest cached object; -priority is its next access.
      if (-this.heap.priorityOf(this.heap.top()) <= next) return false;
      do this.forget(this.heap.top());
      while (this.entries.used + charge > this.capacity);
    }
    this.heap.push(key, -next);
    return true;
  }

  protected forget(key: number): void {
    this.heap.remove(key);
    this.entries.drop(key);
  }

  protected growKeys(length: number): void {
    this.heap.growKeys(length);
    this.nextAccess = growFloat64(this.nextAccess, length, Infinity);
  }
}
