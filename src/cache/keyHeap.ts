import { NIL } from './keyLists.js';
import { growFloat64, growInt32 } from './typedArrays.js';

/**
 * A binary min-heap of key ids on typed arrays with a position index, so a key's priority
 * can be changed or the key removed in O(log n) without searching (GDSF, Belady).
 *
 * Order: smaller priority first; among equal priorities, the key whose priority was set
 * longest ago first. Every `push`/`update` stamps the key from a counter, which makes the
 * order total and deterministic — the tie-break the policies document ("least recently
 * touched among equals").
 *
 * Layout: priority and stamp are stored per heap slot, beside the key, not per key id, so a
 * sift compares entries of the compact heap arrays instead of chasing key ids across the
 * whole key space (one cache miss per comparison on a large catalogue).
 */
export class KeyHeap {
  /** Key at each heap slot. */
  private keys: Int32Array;
  private priorities: Float64Array;
  private stamps: Float64Array;
  /** Heap slot of each key id, NIL when absent. */
  private position: Int32Array;
  private clock = 0;
  private count = 0;

  constructor(keySpace: number) {
    this.keys = new Int32Array(16);
    this.priorities = new Float64Array(16);
    this.stamps = new Float64Array(16);
    this.position = new Int32Array(keySpace).fill(NIL);
  }

  /** The key that comes first (NIL when empty). */
  top(): number {
    return this.count > 0 ? this.keys[0] : NIL;
  }

  /** Priority of a key in the heap. */
  priorityOf(key: number): number {
    return this.priorities[this.position[key]];
  }

  push(key: number, priority: number): void {
    if (this.count === this.keys.length) this.growSlots();
    const slot = this.count++;
    this.place(slot, key, priority, ++this.clock);
    this.siftUp(slot);
  }

  /** Sets a present key's priority (and stamp) and restores the order. */
  update(key: number, priority: number): void {
    const slot = this.position[key];
    this.priorities[slot] = priority;
    this.stamps[slot] = ++this.clock;
    this.siftDown(this.siftUp(slot));
  }

  remove(key: number): void {
    const slot = this.position[key];
    const last = --this.count;
    this.position[key] = NIL;
    if (slot === last) return;
    this.place(slot, this.keys[last], this.priorities[last], this.stamps[last]);
    this.siftDown(this.siftUp(slot));
  }

  growKeys(length: number): void {
    if (length <= this.position.length) return;
    this.position = growInt32(this.position, length, NIL);
  }

  private growSlots(): void {
    const length = this.keys.length * 2;
    this.keys = growInt32(this.keys, length, 0);
    this.priorities = growFloat64(this.priorities, length, 0);
    this.stamps = growFloat64(this.stamps, length, 0);
  }

  private place(slot: number, key: number, priority: number, stamp: number): void {
    this.keys[slot] = key;
    this.priorities[slot] = priority;
    this.stamps[slot] = stamp;
    this.position[key] = slot;
  }

  /** Whether slot `a` comes before slot `b`. */
  private before(a: number, b: number): boolean {
    const pa = this.priorities[a];
    const pb = this.priorities[b];
    return pa < pb || (pa === pb && this.stamps[a] < this.stamps[b]);
  }

  /** Moves the entry at `slot` up while it comes before its parent; returns its final slot. */
  private siftUp(slot: number): number {
    while (slot > 0) {
      const parent = (slot - 1) >> 1;
      if (!this.before(slot, parent)) break;
      this.swap(slot, parent);
      slot = parent;
    }
    return slot;
  }

  private siftDown(slot: number): void {
    const count = this.count;
    for (;;) {
      let child = 2 * slot + 1;
      if (child >= count) return;
      if (child + 1 < count && this.before(child + 1, child)) child++;
      if (!this.before(child, slot)) return;
      this.swap(slot, child);
      slot = child;
    }
  }

  private swap(a: number, b: number): void {
    const keys = this.keys;
    const priorities = this.priorities;
    const stamps = this.stamps;
    const keyA = keys[a];
    const keyB = keys[b];
    const priorityA = priorities[a];
    const stampA = stamps[a];
    keys[a] = keyB;
    priorities[a] = priorities[b];
    stamps[a] = stamps[b];
    keys[b] = keyA;
    priorities[b] = priorityA;
    stamps[b] = stampA;
    this.position[keyB] = a;
    this.position[keyA] = b;
  }
}
