import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue } from '../../src/sim/eventQueue.js';
import { mulberry32 } from '../support/mulberry32.js';

/**
 * The calendar queue (EventQueue) against a reference: the (time, sequence) order of a sort,
 * through bucket-count doublings and halvings, width re-calibrations, the far heap and pushes
 * behind the window. eventQueue.test.ts holds the contract both queue structures share.
 */

/** Pending events of the reference model, kept sorted by (time, seq). */
class SortedModel {
  readonly events: { time: number; seq: number }[] = [];
  insert(time: number, seq: number): void {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = this.events[mid];
      if (e.time < time || (e.time === time && e.seq < seq)) lo = mid + 1;
      else hi = mid;
    }
    this.events.splice(lo, 0, { time, seq });
  }
  shift(): { time: number; seq: number } | undefined {
    return this.events.shift();
  }
}

/** Pops one event from both and checks they agree (time, and seq carried in arg0). */
function popBoth(queue: EventQueue, model: SortedModel): boolean {
  const expected = model.shift();
  if (!queue.pop()) return expected === undefined;
  return expected !== undefined && queue.poppedTime === expected.time && queue.poppedArg0 === expected.seq;
}

/**
 * The order check for simulation-like use, where nothing is pushed before the last popped
 * time: the queue is right exactly when its pops never go back in (time, seq) and every pushed
 * event comes out (an event popped too early would be followed by an earlier one). Cheap
 * enough for queues of 50,000.
 */
class PopOrder {
  private seq = 0;
  private lastTime = -Infinity;
  private lastSeq = -Infinity;
  private popped = 0;
  private readonly seen = new Set<number>();
  push(queue: EventQueue, time: number): void {
    queue.push(time, 0, this.seq++);
  }
  pop(queue: EventQueue): void {
    if (!queue.pop()) throw new Error('the queue ran dry early');
    const time = queue.poppedTime;
    const seq = queue.poppedArg0;
    if (time < this.lastTime || (time === this.lastTime && seq <= this.lastSeq)) {
      throw new Error(`popped (${time}, ${seq}) after (${this.lastTime}, ${this.lastSeq})`);
    }
    this.lastTime = time;
    this.lastSeq = seq;
    this.seen.add(seq);
    this.popped++;
  }
  expectAllPoppedInOrder(): void {
    expect(this.popped).toBe(this.seq);
    expect(this.seen.size).toBe(this.seq);
  }
}

type Op = { kind: 'push'; offset: number; burst: number; far: boolean } | { kind: 'pop'; count: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('push' as const),
    // Quarter-ms steps from 0: equal times are common; bursts of one time many times over.
    offset: fc.integer({ min: 0, max: 40 }).map((q) => q / 4),
    burst: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 60 })),
    far: fc.boolean(), // half of the pushes: 5,000 steps ahead, beyond the wheel
  }),
  fc.record({ kind: fc.constant('pop' as const), count: fc.integer({ min: 1, max: 80 }) }),
);

describe('EventQueue as a calendar queue: the order is exactly a sort by (time, sequence)', () => {
  it('property: simulation-like pushes (never before the last popped time), bursts of equal times, far events, growth and shrinkage', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 0, max: 3 }), (ops, scale) => {
        // Time scales from 1 µs to 1 s steps, so the width is calibrated for each.
        const unit = 10 ** (scale * 2 - 3);
        const queue = new EventQueue(16);
        const model = new SortedModel();
        let seq = 0;
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            const time = now + (o.far ? 5000 + o.offset : o.offset) * unit;
            for (let i = 0; i < o.burst; i++) {
              queue.push(time, 0, seq);
              model.insert(time, seq++);
            }
          } else {
            for (let i = 0; i < o.count; i++) {
              const head = model.events[0];
              if (!popBoth(queue, model)) return false;
              if (head !== undefined) now = head.time;
            }
          }
          if (queue.size !== model.events.length) return false;
          if (queue.peekTime() !== (model.events[0]?.time ?? Infinity)) return false;
          if (queue.peekSeq() !== (model.events[0]?.seq ?? Infinity)) return false;
        }
        while (model.events.length > 0) if (!popBoth(queue, model)) return false;
        return queue.size === 0 && !queue.pop();
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });

  it('property: pushes anywhere, before the window too (a caller outside a simulation may push into the past)', () => {
    const anyOp = fc.oneof(
      fc.record({ push: fc.constant(true as const), time: fc.integer({ min: -2000, max: 2000 }).map((t) => t / 8), burst: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ push: fc.constant(false as const), count: fc.integer({ min: 1, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(anyOp, { maxLength: 150 }), (ops) => {
        const queue = new EventQueue(16);
        const model = new SortedModel();
        let seq = 0;
        for (const o of ops) {
          if (o.push) {
            for (let i = 0; i < o.burst; i++) {
              queue.push(o.time, 0, seq);
              model.insert(o.time, seq++);
            }
          } else {
            for (let i = 0; i < o.count; i++) if (!popBoth(queue, model)) return false;
          }
          if (queue.size !== model.events.length) return false;
          if (queue.peekTime() !== (model.events[0]?.time ?? Infinity)) return false;
        }
        while (model.events.length > 0) if (!popBoth(queue, model)) return false;
        return true;
      }),
      { numRuns: 300, seed: 424242 },
    );
  });

  it('grows from 16 buckets to 32,768 for 50,000 pending events and shrinks back to 16 as they drain, in order throughout', () => {
    const random = mulberry32(99);
    const queue = new EventQueue(16);
    const order = new PopOrder();
    expect(queue.layout.buckets).toBe(16);
    // A hold model filling up: pop one, push two, until 50,000 are pending.
    for (let i = 0; i < 2000; i++) order.push(queue, -Math.log(1 - random()));
    while (queue.size < 50_000) {
      order.pop(queue);
      for (let k = 0; k < 2; k++) order.push(queue, queue.poppedTime - Math.log(1 - random()));
    }
    expect(queue.layout.buckets).toBe(32_768);
    let largest = queue.layout.buckets;
    while (queue.size > 0) {
      order.pop(queue);
      largest = Math.max(largest, queue.layout.buckets);
    }
    expect(largest).toBe(32_768);
    expect(queue.layout.buckets).toBe(16);
    order.expectAllPoppedInOrder();
  });

  it('follows the time scale: the bucket width tracks the gap between pops from 1 µs to 1 s', () => {
    const queue = new EventQueue(16);
    const order = new PopOrder();
    const widths: number[] = [];
    let last = 0;
    for (const gap of [1e-3, 1, 1000]) {
      // 1,000 pending events a gap apart after the last one, a hold model at that spacing, then drained.
      for (let i = 1; i <= 1000; i++) order.push(queue, last + i * gap);
      for (let i = 0; i < 20_000; i++) {
        order.pop(queue);
        order.push(queue, queue.poppedTime + 1000 * gap);
      }
      widths.push(queue.layout.widthMs);
      while (queue.size > 0) order.pop(queue);
      last = queue.poppedTime;
    }
    // Three gaps per bucket, within the ×2 the calibration allows.
    expect(widths[0]).toBeGreaterThan(1.5e-3);
    expect(widths[0]).toBeLessThan(6e-3);
    expect(widths[1]).toBeGreaterThan(1.5);
    expect(widths[1]).toBeLessThan(6);
    expect(widths[2]).toBeGreaterThan(1500);
    expect(widths[2]).toBeLessThan(6000);
    order.expectAllPoppedInOrder();
  });

  it('timers far ahead wait in the far heap and come out exactly when due, between the near events', () => {
    const queue = new EventQueue(16);
    const model = new SortedModel();
    let seq = 0;
    let farSeen = 0;
    // A flow-like mix: each pop schedules one event 1–4 ms ahead; every 20th also a timer 5 s ahead.
    for (let i = 0; i < 200; i++) {
      queue.push(i * 0.05, 0, seq);
      model.insert(i * 0.05, seq++);
    }
    for (let i = 0; i < 20_000; i++) {
      expect(popBoth(queue, model)).toBe(true);
      const now = queue.poppedTime;
      queue.push(now + 1 + (i % 7) * 0.5, 0, seq);
      model.insert(now + 1 + (i % 7) * 0.5, seq++);
      if (i % 20 === 0) {
        queue.push(now + 5000, 0, seq);
        model.insert(now + 5000, seq++);
      }
      farSeen = Math.max(farSeen, queue.layout.farEvents);
    }
    expect(farSeen).toBeGreaterThan(100);
    while (model.events.length > 0) expect(popBoth(queue, model)).toBe(true);
  });

  it('10,000 events at one time come out in push order, and events pushed at that time while popping come after them', () => {
    const queue = new EventQueue(16);
    for (let i = 0; i < 10_000; i++) queue.push(7, 0, i);
    queue.push(7.5, 0, -1);
    const order: number[] = [];
    for (let i = 0; i < 5000; i++) {
      queue.pop();
      order.push(queue.poppedArg0);
    }
    queue.push(7, 0, 10_000);
    while (queue.pop()) order.push(queue.poppedArg0);
    expect(order).toEqual([...Array.from({ length: 10_001 }, (_, i) => i), -1]);
  });

  it('times of any magnitude: bucket numbers stay exact (width at least |time| × 2^-40), the order stays a sort', () => {
    const queue = new EventQueue(16);
    const model = new SortedModel();
    const times = [1e-9, 3, 1e15, 1e15 + 0.125, 1e15 + 0.25, -1e300, 1e300, 5e299, -3, 0, 1e15];
    times.forEach((time, seq) => {
      queue.push(time, 0, seq);
      model.insert(time, seq);
    });
    while (model.events.length > 0) expect(popBoth(queue, model)).toBe(true);
    expect(queue.layout.widthMs).toBeGreaterThanOrEqual(1e300 * 2 ** -40);
  });

  it('pushParked reads the time from the shared slot: a push before the window (which moves wheel events to the far heap through that slot) and one beyond a re-cut keep their own times', () => {
    const parked = new Float64Array(1);
    const queue = new EventQueue(16, parked);
    const model = new SortedModel();
    // 40 events at 100 ms … 139 ms; the window starts at 100 ms and its last buckets hold events.
    for (let seq = 0; seq < 40; seq++) {
      parked[0] = 100 + seq;
      queue.pushParked(seq, 0, seq);
      model.insert(100 + seq, seq);
    }
    // Before the window: it moves back, and the buckets falling off its end go to the far heap.
    parked[0] = 1;
    queue.pushParked(40, 0, 40);
    model.insert(1, 40);
    // So far beyond that the bucket numbers would lose exactness: the wheel is re-cut first.
    parked[0] = 1e300;
    queue.pushParked(41, 0, 41);
    model.insert(1e300, 41);
    expect(queue.size).toBe(42);
    while (model.events.length > 0) expect(popBoth(queue, model)).toBe(true);
  });

  it('rejects an infinite time with a RangeError and leaves the queue unchanged', () => {
    const queue = new EventQueue();
    queue.push(1, 0, 5);
    expect(() => queue.push(Infinity, 0)).toThrow(new RangeError('event time must be finite, got Infinity'));
    expect(() => queue.push(-Infinity, 0)).toThrow(new RangeError('event time must be finite, got -Infinity'));
    expect(queue.size).toBe(1);
    expect(queue.pop()).toBe(true);
    expect(queue.poppedArg0).toBe(5);
  });
});
