/**
 * A priority queue of simulation events on typed arrays, as a binary heap.
 *
 * Events are ordered by (time, sequence number): two events at the same simulated time
 * come out in the order they were scheduled, which is what makes runs deterministic.
 * Each event carries a small integer `kind` and two numeric arguments; there are no
 * per-event objects, so scheduling costs no allocation once the arrays have grown.
 *
 * Layout: a binary heap whose entries keep their ordering key (time, sequence) inline in
 * two parallel arrays, so a sift compares neighbouring memory instead of chasing slot
 * indices; the payload (kind, arguments) lives in slots that never move.
 *
 * O(log n) a push or pop at any depth and any spread of times, with nothing to tune: the
 * Simulation keeps its few arrival events here, and the calendar queue (eventQueue.ts) its
 * far-future events.
 */
export class EventHeap {
  // Heap order, position 0 the earliest: the key inline, plus the payload's slot.
  private heapTimes: Float64Array;
  private heapSeqs: Float64Array;
  private heapSlots: Int32Array;
  // Payload by slot.
  private kinds: Int32Array;
  private args0: Float64Array;
  private args1: Float64Array;
  private freeSlots: Int32Array;
  private freeCount = 0;
  private slotHighWater = 0;
  private count = 0;
  private nextSeq = 0;
  /** Where pushParked's callers write the event's time (index 0). */
  private readonly parked: Float64Array;

  // The fields of the event popped last; read them right after pop().
  poppedTime = 0;
  poppedSeq = 0;
  poppedKind = 0;
  poppedArg0 = 0;
  poppedArg1 = 0;

  /** `parked`: where pushParked's callers write an event's time (index 0). */
  constructor(initialCapacity = 1024, parked: Float64Array = new Float64Array(1)) {
    this.parked = parked;
    const capacity = Math.max(16, initialCapacity | 0);
    this.heapTimes = new Float64Array(capacity);
    this.heapSeqs = new Float64Array(capacity);
    this.heapSlots = new Int32Array(capacity);
    this.kinds = new Int32Array(capacity);
    this.args0 = new Float64Array(capacity);
    this.args1 = new Float64Array(capacity);
    this.freeSlots = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Time of the earliest event, or +Infinity when the queue is empty. */
  peekTime(): number {
    return this.count === 0 ? Infinity : this.heapTimes[0];
  }

  /** Sequence number of the earliest event (ties in time go by it), or +Infinity when the queue is empty. */
  peekSeq(): number {
    return this.count === 0 ? Infinity : this.heapSeqs[0];
  }

  push(time: number, kind: number, arg0 = 0, arg1 = 0): void {
    this.pushSequenced(time, this.nextSeq++, kind, arg0, arg1);
  }

  /**
   * push() with the sequence number given by the caller, for queues that share one counter
   * (the Simulation's two queues): equal times come out in the order of `seq`.
   */
  pushSequenced(time: number, seq: number, kind: number, arg0 = 0, arg1 = 0): void {
    this.parked[0] = time;
    this.pushParked(seq, kind, arg0, arg1);
  }

  /**
   * pushSequenced() with the event's time in `parked[0]`, written there by the caller: a time
   * passed to a call the optimiser does not inline is a newly allocated heap number (issue 27).
   */
  pushParked(seq: number, kind: number, arg0 = 0, arg1 = 0): void {
    const time = this.parked[0];
    if (!(time === time)) throw new RangeError('event time is NaN');
    let slot: number;
    if (this.freeCount > 0) {
      slot = this.freeSlots[--this.freeCount];
    } else {
      if (this.slotHighWater === this.kinds.length) this.grow();
      slot = this.slotHighWater++;
    }
    this.kinds[slot] = kind;
    this.args0[slot] = arg0;
    this.args1[slot] = arg1;
    this.siftUp(this.count++, time, seq, slot);
  }

  /** Removes the earliest event into the popped* fields; returns false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    const slot = this.heapSlots[0];
    this.poppedTime = this.heapTimes[0];
    this.poppedSeq = this.heapSeqs[0];
    this.poppedKind = this.kinds[slot];
    this.poppedArg0 = this.args0[slot];
    this.poppedArg1 = this.args1[slot];
    this.freeSlots[this.freeCount++] = slot;
    const last = --this.count;
    if (last > 0) this.siftDown(this.heapTimes[last], this.heapSeqs[last], this.heapSlots[last]);
    return true;
  }

  /** Time of the event at heap position `index` (0 ≤ index < size), in no particular order: for sampling the spread of times. */
  timeAt(index: number): number {
    return this.heapTimes[index];
  }

  clear(): void {
    this.count = 0;
    this.freeCount = 0;
    this.slotHighWater = 0;
  }

  private siftUp(position: number, time: number, seq: number, slot: number): void {
    const times = this.heapTimes;
    const seqs = this.heapSeqs;
    const slots = this.heapSlots;
    let i = position;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentTime = times[parent];
      if (time > parentTime || (time === parentTime && seq > seqs[parent])) break;
      times[i] = parentTime;
      seqs[i] = seqs[parent];
      slots[i] = slots[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
    slots[i] = slot;
  }

  /** Places (time, seq, slot) from the root down; the heap has `count` entries. */
  private siftDown(time: number, seq: number, slot: number): void {
    const times = this.heapTimes;
    const seqs = this.heapSeqs;
    const slots = this.heapSlots;
    const n = this.count;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      let childTime = times[child];
      const right = child + 1;
      if (right < n) {
        const rightTime = times[right];
        if (rightTime < childTime || (rightTime === childTime && seqs[right] < seqs[child])) {
          child = right;
          childTime = rightTime;
        }
      }
      if (childTime > time || (childTime === time && seqs[child] > seq)) break;
      times[i] = childTime;
      seqs[i] = seqs[child];
      slots[i] = slots[child];
      i = child;
    }
    times[i] = time;
    seqs[i] = seq;
    slots[i] = slot;
  }

  private grow(): void {
    const capacity = this.kinds.length * 2;
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
    this.heapTimes = growF64(this.heapTimes);
    this.heapSeqs = growF64(this.heapSeqs);
    this.heapSlots = growI32(this.heapSlots);
    this.kinds = growI32(this.kinds);
    this.args0 = growF64(this.args0);
    this.args1 = growF64(this.args1);
    this.freeSlots = growI32(this.freeSlots);
  }
}
