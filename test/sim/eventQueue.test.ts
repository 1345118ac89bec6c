import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventHeap } from '../../src/sim/eventHeap.js';
import { EventQueue } from '../../src/sim/eventQueue.js';
import { mulberry32 } from '../support/mulberry32.js';

/**
 * The Simulation's two queue structures answer the same contract: the calendar queue
 * (EventQueue, the main queue) and the binary heap (EventHeap, the arrivals queue and the
 * calendar's far future). Every test here runs on both.
 */
type AnyQueue = EventQueue | EventHeap;
const structures: [string, new (initialCapacity?: number) => AnyQueue][] = [
  ['EventQueue (calendar queue)', EventQueue],
  ['EventHeap (binary heap)', EventHeap],
];

interface Popped {
  time: number;
  kind: number;
  arg0: number;
  arg1: number;
}

function popOne(queue: AnyQueue): Popped | undefined {
  if (!queue.pop()) return undefined;
  return { time: queue.poppedTime, kind: queue.poppedKind, arg0: queue.poppedArg0, arg1: queue.poppedArg1 };
}

function drain(queue: AnyQueue): Popped[] {
  const out: Popped[] = [];
  for (let event = popOne(queue); event; event = popOne(queue)) out.push(event);
  return out;
}

describe.each(structures)('%s: basics', (_name, Queue) => {
  it('starts empty: size 0, peekTime +Infinity, pop returns false', () => {
    const queue = new Queue();
    expect(queue.size).toBe(0);
    expect(queue.peekTime()).toBe(Infinity);
    expect(queue.pop()).toBe(false);
  });

  it('pop copies time, kind and both arguments of the earliest event into the popped* fields', () => {
    const queue = new Queue();
    queue.push(7.5, 3, 42, -1.25);
    queue.push(2, 1, 10, 20);
    expect(queue.size).toBe(2);
    expect(queue.peekTime()).toBe(2);
    expect(popOne(queue)).toEqual({ time: 2, kind: 1, arg0: 10, arg1: 20 });
    expect(queue.size).toBe(1);
    expect(queue.peekTime()).toBe(7.5);
    expect(popOne(queue)).toEqual({ time: 7.5, kind: 3, arg0: 42, arg1: -1.25 });
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBe(false);
  });

  it('issue 27, sixth round (32-byte records): an argument no int32 word holds comes back as given (fraction, -0, ±2^31, NaN, 1e300), beside int32 ones, through the wheel, its rebuilds and the far heap', () => {
    const queue = new Queue();
    const wide = [0.5, -0, 2 ** 31, -(2 ** 31) - 1, Number.NaN, 1e300, -1.25];
    const narrow = [0, -1, 7, 2 ** 31 - 1, -(2 ** 31)];
    const expected: Popped[] = [];
    // 600 events spread over 0..1e6 ms: the calendar queue doubles its wheel, re-cuts its width and keeps far events in its heap.
    for (let i = 0; i < 600; i++) {
      const time = (i * 7919) % 600 * 1667 + (i % 3) * 0.25;
      const arg0 = i % 2 === 0 ? wide[i % wide.length] : narrow[i % narrow.length];
      const arg1 = i % 3 === 0 ? narrow[i % narrow.length] : wide[(i + 1) % wide.length];
      queue.push(time, i % 5, arg0, arg1);
      expected.push({ time, kind: i % 5, arg0, arg1 });
    }
    expected.sort((a, b) => a.time - b.time);
    const popped = drain(queue);
    expect(popped).toEqual(expected);
    // toEqual does not tell -0 from 0: check the sign of every zero.
    for (let i = 0; i < popped.length; i++) {
      expect(Object.is(popped[i].arg0, expected[i].arg0)).toBe(true);
      expect(Object.is(popped[i].arg1, expected[i].arg1)).toBe(true);
    }
  });

  it('arguments default to 0', () => {
    const queue = new Queue();
    queue.push(1, 2);
    expect(popOne(queue)).toEqual({ time: 1, kind: 2, arg0: 0, arg1: 0 });
  });

  it('pops events in time order', () => {
    const queue = new Queue();
    for (const time of [50, 10, 40, 0, 30, 20, 0.5]) queue.push(time, 0, time);
    expect(drain(queue).map((e) => e.time)).toEqual([0, 0.5, 10, 20, 30, 40, 50]);
  });

  it('pops equal-time events in the order they were pushed (sequence tie-break)', () => {
    const queue = new Queue();
    for (let i = 0; i < 20; i++) queue.push(100, i);
    expect(drain(queue).map((e) => e.kind)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('interleaved scheduling: t=5 A, t=3 B, t=5 C, t=3 D pops B, D, A, C', () => {
    const [A, B, C, D] = [0, 1, 2, 3];
    const queue = new Queue();
    queue.push(5, A);
    queue.push(3, B);
    queue.push(5, C);
    queue.push(3, D);
    expect(drain(queue).map((e) => 'ABCD'[e.kind]).join('')).toBe('BDAC');
  });

  it('an event pushed after a pop at the same time as queued events comes after them', () => {
    const queue = new Queue();
    queue.push(3, 0); // X
    queue.push(3, 1); // Z
    queue.push(4, 2); // W
    expect(popOne(queue)?.kind).toBe(0);
    queue.push(3, 3); // Y, pushed "from the handler" of X at t=3
    expect(drain(queue).map((e) => e.kind)).toEqual([1, 3, 2]);
  });

  it('rejects a NaN time with a RangeError and leaves the queue unchanged', () => {
    const queue = new Queue();
    queue.push(1, 0);
    expect(() => queue.push(NaN, 0)).toThrow(new RangeError('event time is NaN'));
    expect(queue.size).toBe(1);
    expect(drain(queue)).toEqual([{ time: 1, kind: 0, arg0: 0, arg1: 0 }]);
  });

  it('clear() empties the queue, and it is usable afterwards', () => {
    const queue = new Queue(16);
    for (let i = 0; i < 40; i++) queue.push(i, 0);
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.peekTime()).toBe(Infinity);
    expect(queue.pop()).toBe(false);
    queue.push(9, 1, 1);
    queue.push(9, 2, 2);
    queue.push(8, 3, 3);
    expect(drain(queue).map((e) => e.kind)).toEqual([3, 1, 2]);
  });

  it('initial capacities below 16 (and nonsense values) still work', () => {
    for (const capacity of [0, 1, -5, 2.7]) {
      const queue = new Queue(capacity);
      for (let i = 0; i < 50; i++) queue.push(50 - i, i);
      expect(drain(queue).map((e) => e.time)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    }
  });
});

describe.each(structures)('%s: growth and ordering at scale', (_name, Queue) => {
  it('10,000 random pushes past the initial capacity pop in (time, insertion) order', () => {
    const random = mulberry32(12345);
    const queue = new Queue(16);
    // Times from a small integer range so that there are many ties to break.
    const pushed = Array.from({ length: 10_000 }, (_, index) => ({ time: Math.floor(random() * 500), index }));
    for (const { time, index } of pushed) queue.push(time, index % 7, index, time * 2);
    expect(queue.size).toBe(10_000);

    const expected = [...pushed].sort((a, b) => a.time - b.time || a.index - b.index);
    const popped = drain(queue);
    expect(popped.length).toBe(10_000);
    expect(popped.map((e) => [e.time, e.arg0])).toEqual(expected.map((e) => [e.time, e.index]));
    // The other fields travel with their event through the grown arrays.
    for (const e of popped) {
      expect(e.kind).toBe(e.arg0 % 7);
      expect(e.arg1).toBe(e.time * 2);
    }
    expect(queue.size).toBe(0);
  });

  it('interleaved pushes and pops with fractional times (slot reuse plus growth) match a stable sort', () => {
    const random = mulberry32(777);
    const queue = new Queue(16);
    const model: { time: number; index: number }[] = [];
    const popped: number[] = [];
    const expectedPops: number[] = [];
    let index = 0;
    let now = 0;
    for (let step = 0; step < 20_000; step++) {
      if (model.length === 0 || random() < 0.6) {
        // Never earlier than the last popped time, like a simulation; ties are common.
        const time = now + Math.floor(random() * 8) / 4;
        queue.push(time, 0, index);
        model.push({ time, index });
        index++;
      } else {
        let best = 0;
        for (let i = 1; i < model.length; i++) {
          if (model[i].time < model[best].time || (model[i].time === model[best].time && model[i].index < model[best].index)) best = i;
        }
        expectedPops.push(model[best].index);
        now = model[best].time;
        model.splice(best, 1);
        expect(queue.pop()).toBe(true);
        expect(queue.poppedTime).toBe(now);
        popped.push(queue.poppedArg0);
      }
      expect(queue.size).toBe(model.length);
    }
    expect(popped).toEqual(expectedPops);
    expect(popped.length).toBeGreaterThan(5000);
  });

  it('property: any sequence of pushes and pops agrees with a reference (time, sequence) model', () => {
    const op = fc.oneof(
      fc.record({ push: fc.constant(true as const), time: fc.integer({ min: -20, max: 20 }) }),
      fc.record({ push: fc.constant(false as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new Queue(16);
        const model: { time: number; seq: number }[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.push) {
            queue.push(o.time, 0, seq);
            model.push({ time: o.time, seq });
            seq++;
          } else if (model.length === 0) {
            if (queue.pop()) return false;
          } else {
            model.sort((a, b) => a.time - b.time || a.seq - b.seq);
            const head = model.shift()!;
            if (!queue.pop()) return false;
            if (queue.poppedTime !== head.time || queue.poppedArg0 !== head.seq) return false;
          }
          if (queue.size !== model.length) return false;
          const minTime = model.reduce((m, e) => Math.min(m, e.time), Infinity);
          if (queue.peekTime() !== minTime) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });
});
