import { EventHeap } from './eventHeap.js';

/** Fewest buckets the wheel shrinks to. */
const MIN_BUCKETS = 16;
/**
 * Bucket width in mean gaps between consecutive pops: about this many events of the near
 * future share a bucket, so a pop rarely steps over empty buckets and an insert rarely walks
 * past more than a couple of events (Brown 1988 found 3 the best).
 */
const GAPS_PER_BUCKET = Number(process.env.CDNSIM_GAPS ?? 3);
/** Pops between two checks of the bucket width against the measured gap (at least). */
const MIN_CALIBRATION_POPS = 64;
/**
 * Bucket numbers stay below this in magnitude, so that b + 1 is exact and a bucket number
 * fits a double with room; a width is never narrower than |time| × 2^-40 for that reason.
 */
const MAX_BUCKET_NUMBER = 2 ** 50;
const MIN_RELATIVE_WIDTH = 2 ** -40;
/** Times sampled from the contents to guess a width before any pop has measured one. */
const WIDTH_SAMPLE = 64;
/** Bytes of one event's record (8 doubles). */
const RECORD_BYTES = 64;
/** int32 offsets in a record (slot × 16 + …): kind, next slot, previous slot. */
const KIND = 8;
const NEXT = 9;
const PREV = 10;

/**
 * The simulation's event queue: events ordered by (time, sequence number), so two events at
 * the same simulated time come out in the order they were scheduled, which is what makes runs
 * deterministic. Each event carries a small integer `kind` and two numeric arguments, kept in
 * typed arrays (no per-event objects).
 *
 * Layout: a calendar queue (R. Brown, "Calendar queues", CACM 31(10), 1988) for the near
 * future, a binary heap (EventHeap) for the far future.
 * - Time is cut into buckets of `width` ms; bucket number b = floor(time / width). The wheel
 *   holds the events of the `bucketCount` consecutive bucket numbers from `windowStart` on,
 *   one list per bucket, sorted by (time, sequence). Because floor(time × (1/width)) never
 *   decreases as time grows, every event of a lower bucket number comes before every event
 *   of a higher one, and the head of the lowest non-empty bucket is the earliest event.
 * - Events at or beyond windowStart + bucketCount wait in the heap and move into the wheel
 *   when the window reaches them (each once). The flow's queue holds a few thousand events
 *   tens of ms ahead and, as many again, timers seconds ahead: those stay out of the lists.
 * - The width follows the measured mean gap between pops (GAPS_PER_BUCKET of them), checked
 *   every max(64, bucketCount) pops; the bucket count doubles when the queue holds more than
 *   twice as many events and halves below half. Both rebuild the wheel, O(n) now and then.
 * A pop takes the head of the current bucket and steps to the next non-empty one; a push
 * links the event into its bucket's list, walking from the tail (a new event usually comes
 * last among its bucket's, and an equal time always does when its sequence is the newest).
 *
 * The order is exactly the (time, sequence) order of a sort, whatever the width: the width
 * only decides where the lists are cut.
 */
export class EventQueue {
  // Wheel events by slot, one 64-byte record each (a pop or a link touches one cache line
  // per event, not one per field): doubles time, seq, arg0, arg1 at slot × 8 + 0..3 in
  // `records`; int32 kind, next and previous slot of the bucket's list at slot × 16 + 8..10
  // in `links`, a view of the same memory.
  private records: Float64Array;
  private links: Int32Array;
  private capacity: number;
  /** Free slots, linked through their records' next slot. */
  private freeHead = -1;
  private slotHighWater = 0;

  private bucketCount = MIN_BUCKETS;
  private mask = MIN_BUCKETS - 1;
  private width = 1;
  private inverseWidth = 1;
  /** First and last slot of each bucket's list at 2i and 2i + 1, -1 when empty; bucket number b lives at i = b & mask. */
  private buckets: Int32Array;
  private wheelCount = 0;
  /** Events in the wheel and the far heap. */
  private count = 0;
  /** Lowest bucket number the wheel holds; it holds windowStart .. windowStart + bucketCount - 1. */
  private windowStart = 0;
  /** No wheel event has a bucket number below this (windowStart ≤ scanBucket). */
  private scanBucket = 0;
  /** Events beyond the wheel's window. */
  private readonly far = new EventHeap(16);

  // The earliest event, once found (headKnown): in the wheel at headSlot, or the far heap's top.
  private headKnown = false;
  private headInWheel = false;
  private headSlot = -1;
  private headTime = Infinity;
  private headSeq = Infinity;

  // Width calibration: pops and the time spanned since the period began.
  private calibrationPops = -1;
  private calibrationStart = 0;
  /** Mean gap between pops over the last full period; 0 before one has ended. */
  private measuredGap = 0;

  private nextSeq = 0;

  // The fields of the event popped last; read them right after pop().
  poppedTime = 0;
  poppedKind = 0;
  poppedArg0 = 0;
  poppedArg1 = 0;

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(16, initialCapacity | 0);
    const memory = new ArrayBuffer(this.capacity * RECORD_BYTES);
    this.records = new Float64Array(memory);
    this.links = new Int32Array(memory);
    this.buckets = new Int32Array(2 * MIN_BUCKETS).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  /** Time of the earliest event, or +Infinity when the queue is empty. */
  peekTime(): number {
    if (!this.headKnown) this.findHead();
    return this.headTime;
  }

  /** Sequence number of the earliest event (ties in time go by it), or +Infinity when the queue is empty. */
  peekSeq(): number {
    if (!this.headKnown) this.findHead();
    return this.headSeq;
  }

  push(time: number, kind: number, arg0 = 0, arg1 = 0): void {
    this.pushSequenced(time, this.nextSeq++, kind, arg0, arg1);
  }

  /**
   * push() with the sequence number given by the caller, for queues that share one counter
   * (the Simulation's two queues): equal times come out in the order of `seq`.
   */
  pushSequenced(time: number, seq: number, kind: number, arg0 = 0, arg1 = 0): void {
    if (!(time === time)) throw new RangeError('event time is NaN');
    if (time === Infinity || time === -Infinity) throw new RangeError(`event time must be finite, got ${time}`);
    let bucket = Math.floor(time * this.inverseWidth);
    if (!(bucket < MAX_BUCKET_NUMBER && bucket > -MAX_BUCKET_NUMBER)) {
      this.rebuild(this.bucketCount, Math.abs(time) * MIN_RELATIVE_WIDTH * 2);
      bucket = Math.floor(time * this.inverseWidth);
    }
    if (this.count === 0) {
      this.windowStart = bucket;
      this.scanBucket = bucket;
    } else if (bucket < this.windowStart) {
      this.retreat(bucket);
    }
    if (bucket < this.windowStart + this.bucketCount) {
      this.link(time, seq, kind, arg0, arg1, bucket);
      if (bucket < this.scanBucket) this.scanBucket = bucket;
    } else {
      this.far.pushSequenced(time, seq, kind, arg0, arg1);
    }
    if (this.headKnown && (time < this.headTime || (time === this.headTime && seq < this.headSeq))) this.headKnown = false;
    if (++this.count > 2 * this.bucketCount) this.rebuild(this.bucketCount * 2, this.estimateWidth());
  }

  /** Removes the earliest event into the popped* fields; returns false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    this.count--;
    if (!this.headKnown) this.findHead();
    this.headKnown = false;
    let bucket: number;
    if (this.headInWheel) {
      const records = this.records;
      const links = this.links;
      const buckets = this.buckets;
      const slot = this.headSlot;
      bucket = this.scanBucket;
      const index = (bucket & this.mask) << 1;
      const following = links[(slot << 4) + NEXT];
      buckets[index] = following;
      if (following >= 0) links[(following << 4) + PREV] = -1;
      else buckets[index + 1] = -1;
      const base = slot << 3;
      this.poppedTime = records[base];
      this.poppedArg0 = records[base + 2];
      this.poppedArg1 = records[base + 3];
      this.poppedKind = links[(slot << 4) + KIND];
      links[(slot << 4) + NEXT] = this.freeHead;
      this.freeHead = slot;
      this.wheelCount--;
    } else {
      const far = this.far;
      far.pop();
      this.poppedTime = far.poppedTime;
      this.poppedKind = far.poppedKind;
      this.poppedArg0 = far.poppedArg0;
      this.poppedArg1 = far.poppedArg1;
      bucket = Math.floor(far.poppedTime * this.inverseWidth);
    }
    if (bucket > this.windowStart) {
      // Nothing left below the popped event, and nothing new will be (a simulation schedules
      // at or after its clock): the window starts at its bucket and takes in what it reaches.
      this.windowStart = bucket;
      this.scanBucket = bucket;
      this.admitFar();
    }
    this.calibrate();
    if (this.count < this.bucketCount >> 1 && this.bucketCount > MIN_BUCKETS) {
      this.rebuild(this.bucketCount >> 1, this.estimateWidth());
    }
    return true;
  }

  clear(): void {
    this.buckets.fill(-1);
    this.wheelCount = 0;
    this.count = 0;
    this.far.clear();
    this.freeHead = -1;
    this.slotHighWater = 0;
    this.headKnown = false;
    this.calibrationPops = -1;
  }

  /** Finds the earliest event: the head of the first non-empty bucket, or the far heap's top. */
  private findHead(): void {
    this.headKnown = true;
    if (this.wheelCount > 0) {
      const buckets = this.buckets;
      const mask = this.mask;
      let bucket = this.scanBucket;
      let slot = buckets[(bucket & mask) << 1];
      while (slot < 0) slot = buckets[(++bucket & mask) << 1];
      this.scanBucket = bucket;
      this.headInWheel = true;
      this.headSlot = slot;
      this.headTime = this.records[slot << 3];
      this.headSeq = this.records[(slot << 3) + 1];
    } else {
      this.headInWheel = false;
      this.headTime = this.far.peekTime();
      this.headSeq = this.far.peekSeq();
    }
  }

  /** Links an event into the list of `bucket` (inside the window), keeping it sorted by (time, seq). */
  private link(time: number, seq: number, kind: number, arg0: number, arg1: number, bucket: number): void {
    let slot = this.freeHead;
    if (slot >= 0) {
      this.freeHead = this.links[(slot << 4) + NEXT];
    } else {
      if (this.slotHighWater === this.capacity) this.grow();
      slot = this.slotHighWater++;
    }
    const records = this.records;
    const links = this.links;
    const buckets = this.buckets;
    const base = slot << 3;
    records[base] = time;
    records[base + 1] = seq;
    records[base + 2] = arg0;
    records[base + 3] = arg1;
    const linkBase = slot << 4;
    links[linkBase + KIND] = kind;
    const index = (bucket & this.mask) << 1;
    let before = buckets[index + 1];
    while (before >= 0) {
      const beforeTime = records[before << 3];
      if (beforeTime < time || (beforeTime === time && records[(before << 3) + 1] < seq)) break;
      before = links[(before << 4) + PREV];
    }
    if (before < 0) {
      const first = buckets[index];
      links[linkBase + NEXT] = first;
      links[linkBase + PREV] = -1;
      buckets[index] = slot;
      if (first >= 0) links[(first << 4) + PREV] = slot;
      else buckets[index + 1] = slot;
    } else {
      const following = links[(before << 4) + NEXT];
      links[linkBase + NEXT] = following;
      links[linkBase + PREV] = before;
      links[(before << 4) + NEXT] = slot;
      if (following >= 0) links[(following << 4) + PREV] = slot;
      else buckets[index + 1] = slot;
    }
    this.wheelCount++;
  }

  /** Moves far events whose bucket the window now reaches into the wheel. */
  private admitFar(): void {
    const far = this.far;
    const end = this.windowStart + this.bucketCount;
    for (;;) {
      // An empty heap's top time is +Infinity, in no bucket of the window.
      const bucket = Math.floor(far.peekTime() * this.inverseWidth);
      if (!(bucket < end)) return;
      far.pop();
      this.link(far.poppedTime, far.poppedSeq, far.poppedKind, far.poppedArg0, far.poppedArg1, bucket);
    }
  }

  /**
   * An event before the window (a caller outside a simulation may push into the past): the
   * window moves back to it, and the buckets that fall off its end go to the far heap.
   */
  private retreat(bucket: number): void {
    const shift = this.windowStart - bucket;
    const end = this.windowStart + this.bucketCount;
    const from = shift >= this.bucketCount ? this.windowStart : end - shift;
    if (this.wheelCount > 0) {
      for (let b = from; b < end; b++) this.unloadBucket(b & this.mask);
    }
    this.windowStart = bucket;
    this.headKnown = false;
  }

  /** Moves one bucket's events to the far heap. */
  private unloadBucket(index: number): void {
    const records = this.records;
    const links = this.links;
    for (let slot = this.buckets[index << 1]; slot >= 0; ) {
      const following = links[(slot << 4) + NEXT];
      const base = slot << 3;
      this.far.pushSequenced(records[base], records[base + 1], links[(slot << 4) + KIND], records[base + 2], records[base + 3]);
      links[(slot << 4) + NEXT] = this.freeHead;
      this.freeHead = slot;
      this.wheelCount--;
      slot = following;
    }
    this.buckets[index << 1] = -1;
    this.buckets[(index << 1) + 1] = -1;
  }

  /** Every max(64, bucketCount) pops: re-cuts the wheel when the width is off its target by more than ×2. */
  private calibrate(): void {
    if (this.calibrationPops < 0) {
      this.calibrationPops = 0;
      this.calibrationStart = this.poppedTime;
      return;
    }
    if (++this.calibrationPops < Math.max(MIN_CALIBRATION_POPS, this.bucketCount)) return;
    const gap = (this.poppedTime - this.calibrationStart) / this.calibrationPops;
    this.calibrationPops = 0;
    this.calibrationStart = this.poppedTime;
    if (!(gap > 0)) return;
    this.measuredGap = gap;
    const target = GAPS_PER_BUCKET * gap;
    if (target > 2 * this.width || target < 0.5 * this.width) this.rebuild(this.bucketCount, target);
  }

  /**
   * The width for a rebuild: from the measured gap between pops, or before any, from the
   * spread of the lowest quarter of a sample of the pending times.
   */
  private estimateWidth(): number {
    if (this.measuredGap > 0) return GAPS_PER_BUCKET * this.measuredGap;
    const total = this.wheelCount + this.far.size;
    const sample: number[] = [];
    const stride = Math.max(1, Math.floor(total / WIDTH_SAMPLE));
    let taken = 0;
    // Every stride-th event: the wheel's by bucket, then the far heap's.
    for (let b = 0, seen = 0; b < this.bucketCount && this.wheelCount > 0; b++) {
      for (let slot = this.buckets[b << 1]; slot >= 0; slot = this.links[(slot << 4) + NEXT], seen++) {
        if (seen % stride === 0) sample[taken++] = this.records[slot << 3];
      }
    }
    for (let i = 0; i < this.far.size; i += stride) sample[taken++] = this.far.timeAt(i);
    if (taken < 8) return this.width;
    sample.sort((a, b) => a - b);
    const quarter = taken >> 2;
    const spread = sample[quarter] - sample[0];
    if (!(spread > 0)) return this.width;
    // `quarter` sample steps stand for about quarter × (total / taken) events.
    return (GAPS_PER_BUCKET * spread * taken) / (quarter * total);
  }

  /**
   * Re-cuts the queue with `bucketCount` buckets of `width` ms (kept wide enough for bucket
   * numbers to stay exact): the window starts at the earliest of the pending events and the
   * last popped time, so a simulation's next events (at or after its clock) land inside it.
   */
  private rebuild(bucketCount: number, width: number): void {
    const total = this.wheelCount + this.far.size;
    // The wheel's events, from the scan position on: the lists' order, so relinking mostly appends.
    const wheelSlots = new Int32Array(this.wheelCount);
    let gathered = 0;
    let maxAbsTime = 0;
    if (this.wheelCount > 0) {
      for (let b = this.scanBucket; gathered < this.wheelCount; b++) {
        for (let slot = this.buckets[(b & this.mask) << 1]; slot >= 0; slot = this.links[(slot << 4) + NEXT]) {
          wheelSlots[gathered++] = slot;
          maxAbsTime = Math.max(maxAbsTime, Math.abs(this.records[slot << 3]));
        }
      }
    }
    for (let i = 0; i < this.far.size; i++) maxAbsTime = Math.max(maxAbsTime, Math.abs(this.far.timeAt(i)));
    let start = total > 0 ? this.peekTime() : 0;
    if (this.calibrationPops >= 0 && this.poppedTime < start) start = this.poppedTime;
    maxAbsTime = Math.max(maxAbsTime, Math.abs(start), 1);
    this.width = Math.max(width > 0 ? width : this.width, maxAbsTime * MIN_RELATIVE_WIDTH);
    this.inverseWidth = 1 / this.width;
    if (bucketCount !== this.bucketCount) {
      this.bucketCount = bucketCount;
      this.mask = bucketCount - 1;
      this.buckets = new Int32Array(2 * bucketCount);
    }
    this.buckets.fill(-1);
    this.windowStart = Math.floor(start * this.inverseWidth);
    this.scanBucket = this.windowStart;
    this.headKnown = false;
    // Relink into fresh lists: the slots are freed and taken again in the same order.
    this.wheelCount = 0;
    const end = this.windowStart + this.bucketCount;
    for (let i = gathered - 1; i >= 0; i--) {
      const slot = wheelSlots[i];
      this.links[(slot << 4) + NEXT] = this.freeHead;
      this.freeHead = slot;
    }
    for (let i = 0; i < gathered; i++) {
      const slot = wheelSlots[i];
      const base = slot << 3;
      const time = this.records[base];
      const seq = this.records[base + 1];
      const kind = this.links[(slot << 4) + KIND];
      const bucket = Math.floor(time * this.inverseWidth);
      if (bucket < end) this.link(time, seq, kind, this.records[base + 2], this.records[base + 3], bucket);
      else this.far.pushSequenced(time, seq, kind, this.records[base + 2], this.records[base + 3]);
    }
    this.admitFar();
  }

  private grow(): void {
    this.capacity *= 2;
    const memory = new ArrayBuffer(this.capacity * RECORD_BYTES);
    const records = new Float64Array(memory);
    records.set(this.records);
    this.records = records;
    this.links = new Int32Array(memory);
  }
}
