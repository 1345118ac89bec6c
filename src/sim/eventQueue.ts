/**
 * A priority queue of simulation events on typed arrays.
 *
 * Events are ordered by (time, sequence number): two events at the same simulated time
 * come out in the order they were scheduled, which is what makes runs deterministic.
 * Each event carries a small integer `kind` and two numeric arguments; there are no
 * per-event objects, so scheduling costs no allocation once the arrays have grown.
 *
 * Layout: event data live in slots (parallel typed arrays); the binary heap orders slot
 * indices, so a sift moves one int instead of five fields.
 */
export class EventQueue {
  private times: Float64Array;
  private seqs: Float64Array;
  private kinds: Int32Array;
  private args0: Float64Array;
  private args1: Float64Array;
  /** heap[i] is a slot index; heap[0] is the earliest event. */
  private heap: Int32Array;
  private freeSlots: Int32Array;
  private freeCount = 0;
  private slotHighWater = 0;
  private count = 0;
  private nextSeq = 0;

  // The fields of the event popped last; read them right after pop().
  poppedTime = 0;
  poppedKind = 0;
  poppedArg0 = 0;
  poppedArg1 = 0;

  constructor(initialCapacity = 1024) {
    const capacity = Math.max(16, initialCapacity | 0);
    this.times = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.kinds = new Int32Array(capacity);
    this.args0 = new Float64Array(capacity);
    this.args1 = new Float64Array(capacity);
    this.heap = new Int32Array(capacity);
    this.freeSlots = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Time of the earliest event, or +Infinity when the queue is empty. */
  peekTime(): number {
    return this.count === 0 ? Infinity : this.times[this.heap[0]];
  }

  push(time: number, kind: number, arg0 = 0, arg1 = 0): void {
    if (!(time === time)) throw new RangeError('event time is NaN');
    let slot: number;
    if (this.freeCount > 0) {
      slot = this.freeSlots[--this.freeCount];
    } else {
      if (this.slotHighWater === this.times.length) this.grow();
      slot = this.slotHighWater++;
    }
    this.times[slot] = time;
    this.seqs[slot] = this.nextSeq++;
    this.kinds[slot] = kind;
    this.args0[slot] = arg0;
    this.args1[slot] = arg1;
    this.siftUp(this.count++, slot);
  }

  /** Removes the earliest event into the popped* fields; returns false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    const heap = this.heap;
    const top = heap[0];
    this.poppedTime = this.times[top];
    this.poppedKind = this.kinds[top];
    this.poppedArg0 = this.args0[top];
    this.poppedArg1 = this.args1[top];
    this.freeSlots[this.freeCount++] = top;
    const last = heap[--this.count];
    if (this.count > 0) this.siftDown(0, last);
    return true;
  }

  clear(): void {
    this.count = 0;
    this.freeCount = 0;
    this.slotHighWater = 0;
  }

  private before(slotA: number, slotB: number): boolean {
    const ta = this.times[slotA];
    const tb = this.times[slotB];
    return ta < tb || (ta === tb && this.seqs[slotA] < this.seqs[slotB]);
  }

  private siftUp(position: number, slot: number): void {
    const heap = this.heap;
    let i = position;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentSlot = heap[parent];
      if (!this.before(slot, parentSlot)) break;
      heap[i] = parentSlot;
      i = parent;
    }
    heap[i] = slot;
  }

  private siftDown(position: number, slot: number): void {
    const heap = this.heap;
    const n = this.count;
    let i = position;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && this.before(heap[right], heap[child])) child = right;
      if (!this.before(heap[child], slot)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = slot;
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const growF64 = (old: Float64Array): Float64Array => {
      const next = new Float64Array(capacity);
      next.set(old);
      return next;
    };
    const growI32 = (old: Int32Array): Int32Array => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    this.times = growF64(this.times);
    this.seqs = growF64(this.seqs);
    this.args0 = growF64(this.args0);
    this.args1 = growF64(this.args1);
    this.kinds = growI32(this.kinds);
    this.heap = growI32(this.heap);
    this.freeSlots = growI32(this.freeSlots);
  }
}
