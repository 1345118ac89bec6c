import { EventHeap } from './eventHeap.js';

/** Fewest buckets the wheel shrinks to. */
const MIN_BUCKETS = 16;
/**
 * Bucket width in mean gaps between consecutive pops: about this many events of the near
 * future share a bucket, so a pop rarely steps over empty buckets and an insert rarely walks
 * past more than a couple of events (Brown 1988 found 3 the best; on bench/run.ts's kernel.arrivals
 * 3 and 4 beat 1, 1.5, 2, 6 and 8).
 */
const GAPS_PER_BUCKET = 3;
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
/** The tail entry of a bucket whose list a rebuild left unsorted (see sortBucket). */
const UNSORTED = -2;
/** Longest bucket list sorted by insertion sort. */
const INSERTION_SORT_MAX = 32;
/**
 * Bytes of one event's record: its time (a double) and six int32 words, two records to a
 * 64-byte cache line (issue 27, sixth round: half the memory a link's walk and a pop read).
 */
const RECORD_BYTES = 32;
/** int32 offsets in a record (slot × 8 + …; words 0–1 are the time): kind, next slot, previous slot, live, the two arguments. */
const KIND = 2;
const NEXT = 3;
const PREV = 4;
/**
 * FREE while the slot holds no event (a rebuild reads the slots in memory order); NARROW while
 * it holds one whose two arguments are int32 values, kept in ARG0 and ARG1; WIDE while it
 * holds one with another argument (a fraction, -0, beyond int32), kept as doubles in `wideArgs`.
 */
const LIVE = 5;
const ARG0 = 6;
const ARG1 = 7;
const FREE = 0;
const NARROW = 1;
const WIDE = 2;

/**
 * The simulation's event queue: events ordered by (time, sequence number), so two events at
 * the same simulated time come out in the order they were scheduled, which is what makes runs
 * deterministic. Each event carries a small integer `kind` and two numeric arguments, kept in
 * typed arrays (no per-event objects).
 *
 * Layout: a calendar queue (R. Brown, "Calendar queues", CACM 31(10), 1988) for the near
 * future, a binary heap (EventHeap) for the far future.
 * - Time is cut into buckets of `width` ms; bucket number b = floor(time × (1/width)). The
 *   wheel holds the events of the `bucketCount` consecutive bucket numbers from `windowStart`
 *   on, one list per bucket, sorted by (time, sequence). Because a rounded product never
 *   decreases as time grows, every event of a lower bucket number comes before every event
 *   of a higher one, and the head of the lowest non-empty bucket is the earliest event.
 * - Events at or beyond windowStart + bucketCount wait in the heap and move into the wheel
 *   when the window reaches them (each once). The flow's queue holds a few thousand events
 *   tens of ms ahead and, as many again, timers seconds ahead: those stay out of the lists.
 * - The width follows the measured mean gap between pops (GAPS_PER_BUCKET of them), checked
 *   every max(64, bucketCount) pops; the bucket count doubles when the queue holds more than
 *   twice as many events and halves below half. Both rebuild the wheel, O(n) now and then:
 *   the slots are read in memory order and dropped into their buckets unsorted, and a bucket
 *   is sorted when the pops reach it (filling a queue of a million costs no more than a heap's).
 * A pop takes the head of the current bucket and steps to the next non-empty one; a push
 * links the event into its bucket's list, walking from the tail (a new event usually comes
 * last among its bucket's, and an equal time always does when its sequence is the newest).
 *
 * The order is exactly the (time, sequence) order of a sort, whatever the width: the width
 * only decides where the lists are cut.
 */
export class EventQueue {
  // Wheel events by slot, one 32-byte record each (a pop or a link touches one cache line
  // per event, not one per field): the time, a double at slot × 4 in `records`; int32 kind,
  // next and previous slot of the bucket's list, live, arg0 and arg1 at slot × 8 + 2..7 in
  // `links`, a view of the same memory. The flow's events carry small integers (a fetch's or
  // an arrival process's number), so their arguments fit int32 words; any other number goes
  // to `wideArgs`.
  private records: Float64Array;
  private links: Int32Array;
  /**
   * Sequence numbers by slot, beside the records: read only when two times tie (a link's walk,
   * a bucket's sort, peekSeq), which in a flow of drawn delays is rare, so a pop or a link
   * reads one record's line and writes this one word.
   */
  private seqs: Float64Array;
  /** Arguments of WIDE events by slot (arg0 at 2 × slot, arg1 after it); made on the first. */
  private wideArgs: Float64Array | null = null;
  private capacity: number;
  /** Free slots, linked through their records' next slot. */
  private freeHead = -1;
  private slotHighWater = 0;

  private bucketCount = MIN_BUCKETS;
  private mask = MIN_BUCKETS - 1;
  private width = 1;
  private inverseWidth = 1;
  /**
   * Bucket number b lives at i = b & mask: the first slot of its list at 2i (-1 when empty),
   * and at 2i + 1 the last slot, -1 when empty, UNSORTED after a rebuild until sorted.
   */
  private buckets: Int32Array;
  private sortScratch: Int32Array = new Int32Array(64);
  private wheelCount = 0;
  /** Events in the wheel and the far heap. */
  private count = 0;
  /** Lowest bucket number the wheel holds; it holds windowStart .. windowStart + bucketCount - 1. */
  private windowStart = 0;
  /** No wheel event has a bucket number below this (windowStart ≤ scanBucket). */
  private scanBucket = 0;
  /** Bucket number of the far heap's earliest event, +Infinity when it is empty. */
  private farStart = Infinity;
  /** The counts at which the wheel doubles and halves. */
  private growAbove = 2 * MIN_BUCKETS;
  private shrinkBelow = 0;

  // The earliest event, once found (headKnown): in the wheel at headSlot, or the far heap's top.
  private headKnown = false;
  private headInWheel = false;
  private headSlot = -1;
  private headTime = Infinity;
  /** The far heap's top's sequence number while it is the head; a wheel head's is seqs[headSlot]. */
  private headSeq = Infinity;

  // Width calibration: pops and the time spanned since the period began (NaN: not yet).
  private calibrationPops = 0;
  private calibrationPeriod = MIN_CALIBRATION_POPS;
  private calibrationStart = NaN;
  private havePopped = false;
  /** Mean gap between pops over the last full period; 0 before one has ended. */
  private measuredGap = 0;

  private nextSeq = 0;
  /** The time of the event pushParked adds (the far heap shares it). */
  private readonly parked: Float64Array;
  private readonly far: EventHeap;

  // The fields of the event popped last; read them right after pop().
  poppedTime = 0;
  poppedKind = 0;
  poppedArg0 = 0;
  poppedArg1 = 0;

  /** `parked`: where pushParked's callers write an event's time (a Float64Array of one or more; index 0). */
  constructor(initialCapacity = 1024, parked: Float64Array = new Float64Array(1)) {
    this.parked = parked;
    /** Events beyond the wheel's window. */
    this.far = new EventHeap(16, parked);
    this.capacity = Math.max(16, initialCapacity | 0);
    const memory = new ArrayBuffer(this.capacity * RECORD_BYTES);
    this.records = new Float64Array(memory);
    this.links = new Int32Array(memory);
    this.seqs = new Float64Array(this.capacity);
    this.buckets = new Int32Array(2 * MIN_BUCKETS).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  /** How the queue is cut now: buckets in the wheel, their width, and the events waiting in the far heap (for tests and benchmarks). */
  get layout(): { buckets: number; widthMs: number; farEvents: number } {
    return { buckets: this.bucketCount, widthMs: this.width, farEvents: this.far.size };
  }

  /** Time of the earliest event, or +Infinity when the queue is empty. */
  peekTime(): number {
    if (!this.headKnown) this.findHead();
    return this.headTime;
  }

  /** Sequence number of the earliest event (ties in time go by it), or +Infinity when the queue is empty. */
  peekSeq(): number {
    if (!this.headKnown) this.findHead();
    return this.knownHeadSeq();
  }

  /** The head's sequence number while the head is known: a wheel head's is beside its record, the far heap's top's in headSeq. */
  private knownHeadSeq(): number {
    return this.headInWheel ? this.seqs[this.headSlot] : this.headSeq;
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
   * pushSequenced() with the event's time in `parked[0]`, written there by the caller. Issue 27:
   * a double passed to a call the optimiser does not inline is a newly allocated heap number,
   * and this routine is too large to inline; a time read from a typed array is not one. So
   * nothing below passes the time as an argument either (link reads it from `parked`).
   */
  pushParked(seq: number, kind: number, arg0 = 0, arg1 = 0): void {
    const parked = this.parked;
    const time = parked[0];
    if (!(time === time)) throw new RangeError('event time is NaN');
    if (time === Infinity || time === -Infinity) throw new RangeError(`event time must be finite, got ${time}`);
    let bucket = Math.floor(time * this.inverseWidth);
    if (!(bucket < MAX_BUCKET_NUMBER && bucket > -MAX_BUCKET_NUMBER)) {
      this.rebuild(this.bucketCount, Math.abs(time) * MIN_RELATIVE_WIDTH * 2);
      parked[0] = time; // the rebuild's admitFar parks the times it links
      bucket = Math.floor(time * this.inverseWidth);
    }
    if (this.count === 0) {
      this.windowStart = bucket;
      this.scanBucket = bucket;
    } else if (bucket < this.windowStart) {
      this.retreat(bucket);
      parked[0] = time; // as after the rebuild: the events it moves to the far heap pass through `parked`
    }
    if (bucket < this.windowStart + this.bucketCount) {
      this.link(seq, kind, arg0, arg1, bucket);
      if (bucket < this.scanBucket) this.scanBucket = bucket;
    } else {
      this.far.pushParked(seq, kind, arg0, arg1);
      if (bucket < this.farStart) this.farStart = bucket;
    }
    if (this.headKnown && (time < this.headTime || (time === this.headTime && seq < this.knownHeadSeq()))) this.headKnown = false;
    if (++this.count > this.growAbove) this.rebuild(this.bucketCount * 2, 0);
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
      const linkBase = slot << 3;
      const following = links[linkBase + NEXT];
      buckets[index] = following;
      if (following >= 0) links[(following << 3) + PREV] = -1;
      else buckets[index + 1] = -1;
      this.poppedTime = records[slot << 2];
      if (links[linkBase + LIVE] === NARROW) {
        this.poppedArg0 = links[linkBase + ARG0];
        this.poppedArg1 = links[linkBase + ARG1];
      } else this.popWideArgs(slot);
      this.poppedKind = links[linkBase + KIND];
      links[linkBase + LIVE] = FREE;
      links[linkBase + NEXT] = this.freeHead;
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
      this.farStart = Math.floor(far.peekTime() * this.inverseWidth);
    }
    this.havePopped = true;
    if (bucket > this.windowStart) {
      // Nothing left below the popped event, and nothing new will be (a simulation schedules
      // at or after its clock): the window starts at its bucket and takes in what it reaches.
      this.windowStart = bucket;
      this.scanBucket = bucket;
      if (this.farStart < bucket + this.bucketCount) this.admitFar();
    }
    if (++this.calibrationPops >= this.calibrationPeriod) this.calibrate();
    if (this.count < this.shrinkBelow) this.rebuild(this.bucketCount >> 1, 0);
    return true;
  }

  clear(): void {
    this.buckets.fill(-1);
    this.wheelCount = 0;
    this.count = 0;
    this.far.clear();
    this.farStart = Infinity;
    this.freeHead = -1;
    this.slotHighWater = 0;
    this.headKnown = false;
    this.calibrationPops = 0;
    this.calibrationStart = NaN;
    this.havePopped = false;
  }

  /** Finds the earliest event: the head of the first non-empty bucket (sorted now if it is not yet), or the far heap's top. */
  private findHead(): void {
    this.headKnown = true;
    if (this.wheelCount > 0) {
      const buckets = this.buckets;
      const mask = this.mask;
      let bucket = this.scanBucket;
      let slot = buckets[(bucket & mask) << 1];
      while (slot < 0) slot = buckets[(++bucket & mask) << 1];
      this.scanBucket = bucket;
      if (buckets[((bucket & mask) << 1) + 1] === UNSORTED) slot = this.sortBucket((bucket & mask) << 1);
      this.headInWheel = true;
      this.headSlot = slot;
      this.headTime = this.records[slot << 2];
    } else {
      this.headInWheel = false;
      this.headTime = this.far.peekTime();
      this.headSeq = this.far.peekSeq();
    }
  }

  /**
   * Links the event at time `parked[0]` into the list of `bucket` (inside the window): after the last event
   * before it, looked for from the tail. An UNSORTED list takes it in front, touching no
   * other event; sortBucket orders it when the pops reach it.
   */
  private link(seq: number, kind: number, arg0: number, arg1: number, bucket: number): void {
    const time = this.parked[0];
    let slot = this.freeHead;
    if (slot >= 0) {
      this.freeHead = this.links[(slot << 3) + NEXT];
    } else {
      if (this.slotHighWater === this.capacity) this.grow();
      slot = this.slotHighWater++;
    }
    const records = this.records;
    const links = this.links;
    const buckets = this.buckets;
    const seqs = this.seqs;
    records[slot << 2] = time;
    seqs[slot] = seq;
    const linkBase = slot << 3;
    links[linkBase + KIND] = kind;
    // -0 is not an int32 word's value: 0 would come back.
    if ((arg0 | 0) === arg0 && (arg1 | 0) === arg1 && (arg0 !== 0 || 1 / arg0 > 0) && (arg1 !== 0 || 1 / arg1 > 0)) {
      links[linkBase + ARG0] = arg0;
      links[linkBase + ARG1] = arg1;
      links[linkBase + LIVE] = NARROW;
    } else this.keepWideArgs(slot, arg0, arg1);
    this.wheelCount++;
    const index = (bucket & this.mask) << 1;
    let before = buckets[index + 1];
    if (before === UNSORTED) {
      links[linkBase + NEXT] = buckets[index];
      buckets[index] = slot;
      return;
    }
    while (before >= 0) {
      const beforeTime = records[before << 2];
      if (beforeTime < time || (beforeTime === time && seqs[before] < seq)) break;
      before = links[(before << 3) + PREV];
    }
    if (before < 0) {
      const first = buckets[index];
      links[linkBase + NEXT] = first;
      links[linkBase + PREV] = -1;
      buckets[index] = slot;
      if (first >= 0) links[(first << 3) + PREV] = slot;
      else buckets[index + 1] = slot;
    } else {
      const following = links[(before << 3) + NEXT];
      links[linkBase + NEXT] = following;
      links[linkBase + PREV] = before;
      links[(before << 3) + NEXT] = slot;
      if (following >= 0) links[(following << 3) + PREV] = slot;
      else buckets[index + 1] = slot;
    }
  }

  /**
   * Sorts the unsorted list at bucket array index `index` by (time, seq), links it both ways
   * and marks it sorted (its tail set); returns its head. Its events were put in front one by
   * one, so the list read backwards is the order they came in: by slot, then as scheduled,
   * and insertion sort on a few events is cheap. Long lists (many equal times) go through
   * the built-in sort instead.
   */
  private sortBucket(index: number): number {
    const records = this.records;
    const links = this.links;
    const seqs = this.seqs;
    let order = this.sortScratch;
    let count = 0;
    for (let slot = this.buckets[index]; slot >= 0; slot = links[(slot << 3) + NEXT]) {
      if (count === order.length) order = this.sortScratch = growInt32(order);
      order[count++] = slot;
    }
    for (let i = 0, j = count - 1; i < j; i++, j--) {
      const swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    if (count <= INSERTION_SORT_MAX) {
      for (let i = 1; i < count; i++) {
        const slot = order[i];
        const time = records[slot << 2];
        const seq = seqs[slot];
        let j = i - 1;
        for (; j >= 0; j--) {
          const other = order[j];
          const otherTime = records[other << 2];
          if (otherTime < time || (otherTime === time && seqs[other] < seq)) break;
          order[j + 1] = other;
        }
        order[j + 1] = slot;
      }
    } else {
      const sorted = Array.from(order.subarray(0, count)).sort(
        (a, b) => records[a << 2] - records[b << 2] || seqs[a] - seqs[b],
      );
      order.set(sorted);
    }
    let previous = -1;
    for (let i = 0; i < count; i++) {
      const slot = order[i];
      links[(slot << 3) + PREV] = previous;
      if (previous >= 0) links[(previous << 3) + NEXT] = slot;
      previous = slot;
    }
    links[(previous << 3) + NEXT] = -1;
    this.buckets[index] = order[0];
    this.buckets[index + 1] = previous;
    return order[0];
  }

  /** Moves far events whose bucket the window now reaches into the wheel. */
  private admitFar(): void {
    const far = this.far;
    const end = this.windowStart + this.bucketCount;
    for (;;) {
      // An empty heap's top time is +Infinity, in no bucket of the window.
      const bucket = Math.floor(far.peekTime() * this.inverseWidth);
      if (!(bucket < end)) {
        this.farStart = bucket;
        return;
      }
      far.pop();
      this.parked[0] = far.poppedTime;
      this.link(far.poppedSeq, far.poppedKind, far.poppedArg0, far.poppedArg1, bucket);
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
    this.farStart = Math.floor(this.far.peekTime() * this.inverseWidth);
    this.headKnown = false;
  }

  /** Moves one bucket's events to the far heap. */
  private unloadBucket(index: number): void {
    const links = this.links;
    for (let slot = this.buckets[index << 1]; slot >= 0; ) {
      const following = links[(slot << 3) + NEXT];
      this.moveToFar(slot);
      slot = following;
    }
    this.buckets[index << 1] = -1;
    this.buckets[(index << 1) + 1] = -1;
  }

  /** Moves the event in wheel slot `slot` to the far heap and frees the slot (its list is rebuilt or emptied by the caller). */
  private moveToFar(slot: number): void {
    const links = this.links;
    const linkBase = slot << 3;
    this.parked[0] = this.records[slot << 2];
    if (links[linkBase + LIVE] === NARROW) this.far.pushParked(this.seqs[slot], links[linkBase + KIND], links[linkBase + ARG0], links[linkBase + ARG1]);
    else {
      const wideArgs = this.wideArgs as Float64Array;
      this.far.pushParked(this.seqs[slot], links[linkBase + KIND], wideArgs[2 * slot], wideArgs[2 * slot + 1]);
    }
    links[linkBase + LIVE] = FREE;
    links[linkBase + NEXT] = this.freeHead;
    this.freeHead = slot;
    this.wheelCount--;
  }

  /** Every calibration period (max(64, bucketCount) pops): re-cuts the wheel when the width is off its target by more than ×2. */
  private calibrate(): void {
    const gap = (this.poppedTime - this.calibrationStart) / this.calibrationPops;
    this.calibrationPops = 0;
    this.calibrationStart = this.poppedTime;
    if (!(gap > 0)) return;
    this.measuredGap = gap;
    const target = GAPS_PER_BUCKET * gap;
    if (target > 2 * this.width || target < 0.5 * this.width) this.rebuild(this.bucketCount, target);
  }

  /**
   * Re-cuts the queue with `bucketCount` buckets of `width` ms (0: estimated here), kept wide
   * enough for bucket numbers to stay exact. The window starts at the earliest of the pending
   * events and the last popped time, so a simulation's next events (at or after its clock)
   * land inside it. Every list comes out unsorted; the slots are read in memory order.
   */
  private rebuild(bucketCount: number, width: number): void {
    const records = this.records;
    const links = this.links;
    const far = this.far;
    const high = this.slotHighWater;
    // Every stride-th pending time, for a width guess when no pops have measured the gap yet.
    const stride = Math.max(1, Math.floor(this.count / WIDTH_SAMPLE));
    const sample: number[] = [];
    let countdown = 1;
    let maxAbsTime = 1;
    for (let slot = 0; slot < high; slot++) {
      if (links[(slot << 3) + LIVE] === FREE) continue;
      const time = records[slot << 2];
      maxAbsTime = Math.max(maxAbsTime, Math.abs(time));
      if (--countdown === 0) {
        sample.push(time);
        countdown = stride;
      }
    }
    for (let i = 0; i < far.size; i++) {
      const time = far.timeAt(i);
      maxAbsTime = Math.max(maxAbsTime, Math.abs(time));
      if (--countdown === 0) {
        sample.push(time);
        countdown = stride;
      }
    }
    let start = this.count > 0 ? this.peekTime() : 0;
    if (this.havePopped && this.poppedTime < start) start = this.poppedTime;
    maxAbsTime = Math.max(maxAbsTime, Math.abs(start));
    if (!(width > 0)) width = this.measuredGap > 0 ? GAPS_PER_BUCKET * this.measuredGap : widthFromSample(sample, this.count, this.width);
    this.width = Math.max(width, maxAbsTime * MIN_RELATIVE_WIDTH);
    this.inverseWidth = 1 / this.width;
    if (bucketCount !== this.bucketCount) {
      this.bucketCount = bucketCount;
      this.mask = bucketCount - 1;
      this.buckets = new Int32Array(2 * bucketCount);
      this.growAbove = 2 * bucketCount;
      this.shrinkBelow = bucketCount > MIN_BUCKETS ? bucketCount >> 1 : 0;
      this.calibrationPeriod = Math.max(MIN_CALIBRATION_POPS, bucketCount);
    }
    const buckets = this.buckets;
    buckets.fill(-1);
    this.windowStart = Math.floor(start * this.inverseWidth);
    this.scanBucket = this.windowStart;
    this.headKnown = false;
    const end = this.windowStart + bucketCount;
    const mask = this.mask;
    for (let slot = 0; slot < high; slot++) {
      if (links[(slot << 3) + LIVE] === FREE) continue;
      const bucket = Math.floor(records[slot << 2] * this.inverseWidth);
      if (bucket < end) {
        const index = (bucket & mask) << 1;
        links[(slot << 3) + NEXT] = buckets[index];
        buckets[index] = slot;
        buckets[index + 1] = UNSORTED;
      } else {
        this.moveToFar(slot);
      }
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
    const seqs = new Float64Array(this.capacity);
    seqs.set(this.seqs);
    this.seqs = seqs;
    if (this.wideArgs !== null) {
      const wideArgs = new Float64Array(2 * this.capacity);
      wideArgs.set(this.wideArgs);
      this.wideArgs = wideArgs;
    }
  }

  /** link()'s path for arguments an int32 word does not hold: kept as doubles beside the records. */
  private keepWideArgs(slot: number, arg0: number, arg1: number): void {
    let wideArgs = this.wideArgs;
    if (wideArgs === null) wideArgs = this.wideArgs = new Float64Array(2 * this.capacity);
    wideArgs[2 * slot] = arg0;
    wideArgs[2 * slot + 1] = arg1;
    this.links[(slot << 3) + LIVE] = WIDE;
  }

  /** pop()'s path for a WIDE event's arguments. */
  private popWideArgs(slot: number): void {
    const wideArgs = this.wideArgs as Float64Array;
    this.poppedArg0 = wideArgs[2 * slot];
    this.poppedArg1 = wideArgs[2 * slot + 1];
  }
}

function growInt32(old: Int32Array): Int32Array {
  const next = new Int32Array(old.length * 2);
  next.set(old);
  return next;
}

/**
 * A bucket width from a sample of pending times standing for `total` events: GAPS_PER_BUCKET
 * mean gaps of the lowest quarter (the near future, which the wheel serves; far timers would
 * stretch a mean over all); `fallback` when the sample is too small or all one time.
 */
function widthFromSample(sample: number[], total: number, fallback: number): number {
  if (sample.length < 8) return fallback;
  sample.sort((a, b) => a - b);
  const quarter = sample.length >> 2;
  const spread = sample[quarter] - sample[0];
  if (!(spread > 0)) return fallback;
  // `quarter` sample steps stand for about quarter × (total / sample.length) events.
  return (GAPS_PER_BUCKET * spread * sample.length) / (quarter * total);
}
