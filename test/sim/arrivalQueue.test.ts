import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/sim/simulation.js';

/**
 * Kinds defined with `arrivals` wait in a queue of their own; the order of events must be
 * exactly that of one queue of all events: (time, scheduling order).
 */
describe('Simulation: arrival kinds in their own queue', () => {
  it('equal-time events across the two queues run in scheduling order: t=5 A(arrival), t=3 B, t=5 C, t=3 D(arrival), t=5 E(arrival) → B, D, A, C, E', () => {
    const sim = new Simulation();
    const log: string[] = [];
    const define = (label: string, arrivals: boolean) => sim.defineEvent(label, () => log.push(`${label}@${sim.nowMs}`), { arrivals });
    const a = define('A', true);
    const b = define('B', false);
    const c = define('C', false);
    const d = define('D', true);
    const e = define('E', true);
    sim.schedule(5, a);
    sim.schedule(3, b);
    sim.schedule(5, c);
    sim.schedule(3, d);
    sim.schedule(5, e);
    expect(sim.pendingEvents).toBe(5);
    expect(sim.run({ untilMs: 4 })).toBe('horizon');
    expect(log).toEqual(['B@3', 'D@3']);
    expect(sim.pendingEvents).toBe(3);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['B@3', 'D@3', 'A@5', 'C@5', 'E@5']);
  });

  it('closeArrivals drops pending arrivals and later ones, and keeps the other events in order', () => {
    const sim = new Simulation();
    const log: string[] = [];
    // An arrival process that schedules its next arrival each time, as a workload's does.
    const arrival = sim.defineEvent('arrival', () => {
      log.push(`arrival@${sim.nowMs}`);
      sim.scheduleAfter(1, arrival);
      if (sim.nowMs === 2) sim.closeArrivals();
    }, { arrivals: true });
    const hop = sim.defineEvent('hop', () => log.push(`hop@${sim.nowMs}`));
    sim.schedule(0, arrival);
    sim.schedule(5, hop);
    sim.schedule(9, hop);
    expect(sim.run()).toBe('empty');
    expect(log).toEqual(['arrival@0', 'arrival@1', 'arrival@2', 'hop@5', 'hop@9']);
    sim.schedule(20, arrival);
    expect(sim.pendingEvents).toBe(0);
  });

  it('any mix of arrival and ordinary events, scheduled up front and from handlers, runs as with one queue (property)', () => {
    // Each event: its time (few distinct values, so ties are common), whether its kind is an
    // arrival kind, and the delays of events its handler schedules.
    const event = fc.record({ time: fc.integer({ min: 0, max: 6 }), arrival: fc.boolean(), follow: fc.array(fc.record({ delay: fc.integer({ min: 0, max: 3 }), arrival: fc.boolean() }), { maxLength: 2 }) });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 40 }), (events) => {
        const run = (split: boolean): string[] => {
          const sim = new Simulation();
          const log: string[] = [];
          let nextId = events.length;
          const kinds: number[] = [];
          const followers = (id: number) => (id < events.length ? events[id].follow : []);
          for (const arrival of [false, true]) {
            kinds.push(
              sim.defineEvent(
                `kind${arrival ? 'A' : 'M'}`,
                (id) => {
                  log.push(`${id}@${sim.nowMs}`);
                  for (const next of followers(id)) sim.scheduleAfter(next.delay, kinds[next.arrival ? 1 : 0], nextId++);
                },
                { arrivals: split && arrival },
              ),
            );
          }
          events.forEach((e, id) => sim.schedule(e.time, kinds[e.arrival ? 1 : 0], id));
          sim.run();
          return log;
        };
        expect(run(true)).toEqual(run(false));
      }),
      { numRuns: 300 },
    );
  });
});
