import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../src/sim/simulation.js';

/** A simulation with one event kind per label; each handled event appends `label@time` to the log. */
function recorder(labels: readonly string[]) {
  const sim = new Simulation();
  const log: string[] = [];
  const kinds: Record<string, number> = {};
  for (const label of labels) kinds[label] = sim.defineEvent(label, () => log.push(`${label}@${sim.nowMs}`));
  return { sim, log, kinds };
}

describe('Simulation: ordering', () => {
  it('runs events in time order and sets the clock to each event time', () => {
    const { sim, log, kinds } = recorder(['a']);
    for (const t of [30, 10, 20, 0, 25]) sim.schedule(t, kinds.a);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['a@0', 'a@10', 'a@20', 'a@25', 'a@30']);
    expect(sim.nowMs).toBe(30);
    expect(sim.eventsProcessed).toBe(5);
    expect(sim.pendingEvents).toBe(0);
  });

  it('equal-time events run in scheduling order: t=5 A, t=3 B, t=5 C, t=3 D → B, D, A, C', () => {
    const { sim, log, kinds } = recorder(['A', 'B', 'C', 'D']);
    sim.schedule(5, kinds.A);
    sim.schedule(3, kinds.B);
    sim.schedule(5, kinds.C);
    sim.schedule(3, kinds.D);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['B@3', 'D@3', 'A@5', 'C@5']);
  });

  it('an event scheduled from a handler at the current time runs after the already-queued equal-time events', () => {
    const sim = new Simulation();
    const log: string[] = [];
    const y = sim.defineEvent('Y', () => log.push(`Y@${sim.nowMs}`));
    const x = sim.defineEvent('X', () => {
      log.push(`X@${sim.nowMs}`);
      sim.schedule(sim.nowMs, y);
      sim.scheduleAfter(0, y);
    });
    const z = sim.defineEvent('Z', () => log.push(`Z@${sim.nowMs}`));
    const w = sim.defineEvent('W', () => log.push(`W@${sim.nowMs}`));
    sim.schedule(3, x);
    sim.schedule(3, z);
    sim.schedule(3, z);
    sim.schedule(4, w);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['X@3', 'Z@3', 'Z@3', 'Y@3', 'Y@3', 'W@4']);
  });

  it('passes both scheduled arguments to the handler', () => {
    const sim = new Simulation();
    const seen: [number, number][] = [];
    const kind = sim.defineEvent('args', (a, b) => seen.push([a, b]));
    sim.schedule(1, kind, 7, -2.5);
    sim.schedule(2, kind);
    sim.scheduleAfter(3, kind, 99);
    sim.run();
    expect(seen).toEqual([
      [7, -2.5],
      [0, 0],
      [99, 0],
    ]);
  });

  it('scheduleAfter is relative to the current clock', () => {
    const sim = new Simulation();
    const times: number[] = [];
    let remaining = 4;
    const tick = sim.defineEvent('tick', () => {
      times.push(sim.nowMs);
      if (--remaining > 0) sim.scheduleAfter(2.5, tick);
    });
    sim.scheduleAfter(10, tick);
    expect(sim.run()).toBe('empty');
    expect(times).toEqual([10, 12.5, 15, 17.5]);
  });

  it('10,000 events (500 seeded, the rest scheduled by handlers) keep the clock monotone and all run', () => {
    const sim = new Simulation(16);
    let last = -1;
    let monotone = true;
    let scheduled = 0;
    let handled = 0;
    let maxPending = 0;
    const step = sim.defineEvent('step', () => {
      if (sim.nowMs < last) monotone = false;
      last = sim.nowMs;
      handled++;
      maxPending = Math.max(maxPending, sim.pendingEvents);
      if (scheduled < 10_000) {
        sim.scheduleAfter((scheduled * 7919) % 13, step);
        scheduled++;
      }
    });
    // Far more pending events than the initial capacity of 16.
    for (let i = 0; i < 500; i++, scheduled++) sim.schedule((i * 37) % 101, step);
    expect(sim.run()).toBe('empty');
    expect(handled).toBe(10_000);
    expect(sim.eventsProcessed).toBe(10_000);
    expect(monotone).toBe(true);
    expect(maxPending).toBe(499);
  });
});

describe('Simulation.run limits and outcomes', () => {
  it("returns 'empty' at once on a fresh simulation, leaving the clock at 0", () => {
    const sim = new Simulation();
    expect(sim.run()).toBe('empty');
    expect(sim.nowMs).toBe(0);
    expect(sim.eventsProcessed).toBe(0);
  });

  it("untilMs: runs events up to and including the horizon, sets the clock to it, returns 'horizon'; the next call continues", () => {
    const { sim, log, kinds } = recorder(['e']);
    for (const t of [5, 10, 15, 40]) sim.schedule(t, kinds.e);
    expect(sim.run({ untilMs: 12 })).toBe('horizon');
    expect(log).toEqual(['e@5', 'e@10']);
    expect(sim.nowMs).toBe(12);
    expect(sim.pendingEvents).toBe(2);

    expect(sim.run({ untilMs: 15 })).toBe('horizon');
    expect(log).toEqual(['e@5', 'e@10', 'e@15']); // an event exactly at the horizon runs
    expect(sim.nowMs).toBe(15);
    expect(sim.pendingEvents).toBe(1);

    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['e@5', 'e@10', 'e@15', 'e@40']);
    expect(sim.nowMs).toBe(40);
    expect(sim.eventsProcessed).toBe(4);
  });

  it('after stopping at a horizon, events can be scheduled between the horizon and the next queued event', () => {
    const { sim, log, kinds } = recorder(['e', 'late']);
    sim.schedule(100, kinds.e);
    expect(sim.run({ untilMs: 50 })).toBe('horizon');
    expect(sim.nowMs).toBe(50);
    expect(log).toEqual([]);
    sim.schedule(50, kinds.late);
    sim.scheduleAfter(20, kinds.late);
    expect(() => sim.schedule(49, kinds.late)).toThrow(RangeError);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['late@50', 'late@70', 'e@100']);
  });

  it("maxEvents: processes exactly that many events per call and returns 'event-budget'", () => {
    const { sim, log, kinds } = recorder(['e']);
    for (let t = 1; t <= 5; t++) sim.schedule(t, kinds.e);
    expect(sim.run({ maxEvents: 2 })).toBe('event-budget');
    expect(log).toEqual(['e@1', 'e@2']);
    expect(sim.nowMs).toBe(2);
    expect(sim.pendingEvents).toBe(3);
    expect(sim.eventsProcessed).toBe(2);

    expect(sim.run({ maxEvents: 0 })).toBe('event-budget');
    expect(sim.eventsProcessed).toBe(2);

    expect(sim.run({ maxEvents: 10 })).toBe('empty');
    expect(log).toEqual(['e@1', 'e@2', 'e@3', 'e@4', 'e@5']);
    expect(sim.eventsProcessed).toBe(5);
  });

  it('maxEvents and untilMs together: whichever limit is met first decides', () => {
    const { sim, kinds } = recorder(['e']);
    for (let t = 1; t <= 10; t++) sim.schedule(t, kinds.e);
    expect(sim.run({ untilMs: 3, maxEvents: 5 })).toBe('horizon');
    expect(sim.eventsProcessed).toBe(3);
    expect(sim.run({ untilMs: 100, maxEvents: 5 })).toBe('event-budget');
    expect(sim.eventsProcessed).toBe(8);
    expect(sim.nowMs).toBe(8);
  });

  it("stop() from a handler returns 'stopped' after that event; the next run() continues", () => {
    const sim = new Simulation();
    const log: number[] = [];
    const e = sim.defineEvent('e', () => {
      log.push(sim.nowMs);
      if (sim.nowMs === 2) sim.stop();
    });
    for (let t = 1; t <= 4; t++) sim.schedule(t, e);
    expect(sim.run()).toBe('stopped');
    expect(log).toEqual([1, 2]);
    expect(sim.nowMs).toBe(2);
    expect(sim.pendingEvents).toBe(2);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual([1, 2, 3, 4]);
  });

  it('stop() called outside run() does not stop the next run', () => {
    const { sim, log, kinds } = recorder(['e']);
    sim.schedule(1, kinds.e);
    sim.schedule(2, kinds.e);
    sim.stop();
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['e@1', 'e@2']);
  });
});

describe('Simulation: misuse', () => {
  it('scheduling in the past throws a RangeError naming the event kind and the clock', () => {
    const sim = new Simulation();
    const tick = sim.defineEvent('tick', () => {});
    sim.schedule(5, tick);
    sim.run();
    expect(sim.nowMs).toBe(5);
    expect(() => sim.schedule(4, tick)).toThrow(new RangeError("cannot schedule 'tick' at 4 ms: the clock is at 5 ms"));
    expect(() => sim.scheduleAfter(-1, tick)).toThrow(new RangeError("cannot schedule 'tick' at 4 ms: the clock is at 5 ms"));
    expect(sim.pendingEvents).toBe(0);
    sim.schedule(5, tick); // the current time itself is allowed
    expect(sim.pendingEvents).toBe(1);
  });

  it('scheduling from a handler before the current time throws out of run()', () => {
    const sim = new Simulation();
    const back = sim.defineEvent('back', () => sim.schedule(sim.nowMs - 1, back));
    sim.schedule(10, back);
    expect(() => sim.run()).toThrow(new RangeError("cannot schedule 'back' at 9 ms: the clock is at 10 ms"));
  });

  it('scheduling an undefined event kind throws', () => {
    const sim = new Simulation();
    sim.defineEvent('only', () => {});
    expect(() => sim.schedule(1, 1)).toThrow(new RangeError('unknown event kind 1'));
    expect(() => sim.schedule(1, -1)).toThrow(new RangeError('unknown event kind -1'));
    expect(sim.pendingEvents).toBe(0);
  });

  it('scheduling at a NaN time throws', () => {
    const sim = new Simulation();
    const kind = sim.defineEvent('k', () => {});
    expect(() => sim.schedule(NaN, kind)).toThrow(new RangeError("cannot schedule 'k' at NaN ms: the time must be finite"));
    expect(() => sim.schedule(Infinity, kind)).toThrow(new RangeError("cannot schedule 'k' at Infinity ms: the time must be finite"));
    expect(sim.pendingEvents).toBe(0);
  });

  it('an unknown kind is reported as such even when the time is also in the past', () => {
    const sim = new Simulation();
    const kind = sim.defineEvent('k', () => {});
    sim.schedule(3, kind);
    sim.run();
    expect(() => sim.schedule(1, 7)).toThrow(new RangeError('unknown event kind 7'));
  });

  it('the clock never moves backwards: a second run with an earlier horizon leaves it where it was', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    const kind = sim.defineEvent('k', () => seen.push(sim.nowMs));
    sim.schedule(10, kind);
    sim.schedule(15, kind);
    expect(sim.run({ untilMs: 10 })).toBe('horizon');
    expect(sim.run({ untilMs: 5 })).toBe('horizon');
    expect(sim.nowMs).toBe(10);
    expect(() => sim.schedule(7, kind)).toThrow(RangeError);
    sim.run();
    expect(seen).toEqual([10, 15]);
  });

  it('a finite horizon is reached even when the queue runs dry before it', () => {
    const sim = new Simulation();
    const kind = sim.defineEvent('k', () => {});
    sim.schedule(3, kind);
    expect(sim.run({ untilMs: 100 })).toBe('horizon');
    expect(sim.nowMs).toBe(100);
  });

  it('defineEvent returns consecutive ids and throws when a name is defined twice', () => {
    const sim = new Simulation();
    expect(sim.defineEvent('arrival', () => {})).toBe(0);
    expect(sim.defineEvent('departure', () => {})).toBe(1);
    expect(() => sim.defineEvent('arrival', () => {})).toThrow(new Error("event kind 'arrival' is defined twice"));
    expect(sim.defineEvent('timeout', () => {})).toBe(2);
  });
});

/**
 * scheduleParked (issue 27): the time is written into `parkedAtMs[0]` just before the call, so a
 * caller that the optimiser does not inline `schedule` into allocates no heap number for it. It
 * must be schedule() exactly: the same order, ties included, across both queues.
 */
describe('Simulation.scheduleParked: schedule() with the time in parkedAtMs', () => {
  it('equal times keep the scheduling order across schedule and scheduleParked and across both queues: t=5 A, t=3 B, t=5 C (arrival), t=3 D, t=5 E → B, D, A, C, E', () => {
    const sim = new Simulation();
    const log: string[] = [];
    const kind = (label: string, arrivals: boolean) => sim.defineEvent(label, () => log.push(`${label}@${sim.nowMs}`), { arrivals });
    const [A, B, C, D, E] = [kind('A', false), kind('B', false), kind('C', true), kind('D', false), kind('E', false)];
    sim.parkedAtMs[0] = 5;
    sim.scheduleParked(A);
    sim.schedule(3, B);
    sim.parkedAtMs[0] = 5;
    sim.scheduleParked(C);
    sim.parkedAtMs[0] = 3;
    sim.scheduleParked(D);
    sim.schedule(5, E);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['B@3', 'D@3', 'A@5', 'C@5', 'E@5']);
  });

  it('passes both arguments, and refuses what schedule refuses with the same errors, leaving nothing queued', () => {
    const sim = new Simulation();
    const seen: number[] = [];
    const tick = sim.defineEvent('tick', (a, b) => seen.push(a, b));
    sim.parkedAtMs[0] = 5;
    sim.scheduleParked(tick, 7, 0.25);
    sim.run();
    expect(seen).toEqual([7, 0.25]);
    sim.parkedAtMs[0] = 4;
    expect(() => sim.scheduleParked(tick)).toThrow(new RangeError("cannot schedule 'tick' at 4 ms: the clock is at 5 ms"));
    sim.parkedAtMs[0] = NaN;
    expect(() => sim.scheduleParked(tick)).toThrow(new RangeError("cannot schedule 'tick' at NaN ms: the time must be finite"));
    sim.parkedAtMs[0] = 6;
    expect(() => sim.scheduleParked(3)).toThrow(new RangeError('unknown event kind 3'));
    expect(sim.pendingEvents).toBe(0);
  });

  it('property: a run that schedules through either call, from handlers too (bursts of equal times, far timers, the wheel growing, shrinking and re-cut), handles its events in (time, scheduling order), as a plain sorted model does', () => {
    // Each event schedules up to two more; `parked` picks the call per schedule. The far
    // delays (thousands of ms against gaps of a few) send events to the far heap and back,
    // whose moves pass through the same parked slot.
    const delay = fc.oneof(fc.constantFrom(0, 0.5, 1), fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: 1000, max: 5000, noNaN: true }));
    const plan = fc.array(fc.record({ d0: delay, d1: delay, both: fc.boolean(), arrival: fc.boolean(), parked: fc.boolean() }), { minLength: 1, maxLength: 400 });
    fc.assert(
      fc.property(plan, (steps) => {
        // The model: every scheduled event in a list, the earliest by (time, order scheduled) handled next.
        const model = (): string[] => {
          const pending: { atMs: number; order: number; step: number }[] = [];
          const log: string[] = [];
          let next = 0;
          let order = 0;
          const add = (atMs: number) => pending.push({ atMs, order: order++, step: next++ });
          for (let i = 0; i < 20 && next < steps.length; i++) add(steps[i].d0);
          while (pending.length > 0) {
            let best = 0;
            for (let i = 1; i < pending.length; i++) {
              const a = pending[i];
              const b = pending[best];
              if (a.atMs < b.atMs || (a.atMs === b.atMs && a.order < b.order)) best = i;
            }
            const { atMs, step } = pending.splice(best, 1)[0];
            log.push(`${steps[step].arrival ? 'a' : 'm'}${step}@${atMs}`);
            if (next < steps.length) add(atMs + steps[step].d0);
            if (steps[step].both && next < steps.length) add(atMs + steps[step].d1);
          }
          return log;
        };
        const sim = new Simulation(16);
        const log: string[] = [];
        let next = 0;
        const scheduleStep = (atMs: number, step: number) => {
          const kind = kinds[steps[step].arrival ? 1 : 0];
          if (steps[step].parked) {
            sim.parkedAtMs[0] = atMs;
            sim.scheduleParked(kind, step);
          } else sim.schedule(atMs, kind, step);
        };
        const handle = (label: string) => (step: number) => {
          log.push(`${label}${step}@${sim.nowMs}`);
          if (next < steps.length) scheduleStep(sim.nowMs + steps[step].d0, next++);
          if (steps[step].both && next < steps.length) scheduleStep(sim.nowMs + steps[step].d1, next++);
        };
        const kinds = [sim.defineEvent('main', handle('m')), sim.defineEvent('arrival', handle('a'), { arrivals: true })];
        for (let i = 0; i < 20 && next < steps.length; i++) scheduleStep(steps[i].d0, next++);
        expect(sim.run()).toBe('empty');
        expect(log.length).toBe(steps.length);
        expect(log).toEqual(model());
      }),
      { numRuns: 200 },
    );
  });
});
