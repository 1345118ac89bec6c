import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../src/sim/simulation.js';
import { incidentsSchema, type Incident } from '../../src/workload/incidents/incidentSchema.js';
import {
  INCIDENT_END,
  INCIDENT_START,
  IncidentSchedule,
  OriginConditionsTimeline,
  incidentPhaseName,
  type OriginConditions,
} from '../../src/cdn/incidentSchedule.js';

const H = 3_600_000;
const M = 60_000;

const EXAMPLE = incidentsSchema.parse([
  { kind: 'deploy', at: '2h', purge: true, classes: ['assets', 'html'] }, // 0
  { kind: 'outage', start: '3h', duration: '10m' }, // 1
  { kind: 'error-burst', start: '5h', duration: '2m', status: 503, share: '30%' }, // 2
  { kind: 'slowdown', start: '6h', duration: '15m', factor: 4 }, // 3
  { kind: 'outage', start: '3h10m', duration: '5m' }, // 4: starts as 1 ends
  { kind: 'slowdown', start: '6h10m', duration: '1h', factor: 2.5 }, // 5: overlaps 3
  { kind: 'deploy', at: '3h10m' }, // 6: every class, no purge, same time as 1 ends and 4 starts
]);

/** Runs a fresh Simulation with the schedule and returns [time, incident, phase] per sink call. */
function fire(incidents: readonly Incident[], untilMs = Infinity): [number, number, string][] {
  const simulation = new Simulation();
  const calls: [number, number, string][] = [];
  new IncidentSchedule(incidents).schedule(simulation, (incident, phase) => calls.push([simulation.nowMs, incident, incidentPhaseName(phase)]));
  simulation.run({ untilMs });
  return calls;
}

function copy(conditions: OriginConditions): OriginConditions {
  return { ...conditions };
}

const NORMAL: OriginConditions = { reachable: true, errorStatus: 0, errorShare: 0, serviceTimeFactor: 1, contentEpoch: 0 };

describe('IncidentSchedule: events fire at their times with a real Simulation', () => {
  it('every start and end at exactly its configured time, in time order; at equal times ends first, then list order', () => {
    expect(fire(EXAMPLE)).toEqual([
      [2 * H, 0, 'start'],
      [3 * H, 1, 'start'],
      [3 * H + 10 * M, 1, 'end'],
      [3 * H + 10 * M, 4, 'start'],
      [3 * H + 10 * M, 6, 'start'],
      [3 * H + 15 * M, 4, 'end'],
      [5 * H, 2, 'start'],
      [5 * H + 2 * M, 2, 'end'],
      [6 * H, 3, 'start'],
      [6 * H + 10 * M, 5, 'start'],
      [6 * H + 15 * M, 3, 'end'],
      [7 * H + 10 * M, 5, 'end'],
    ]);
  });

  it('a deploy only starts; events after the horizon never fire', () => {
    expect(fire(EXAMPLE, 3 * H + 5 * M)).toEqual([
      [2 * H, 0, 'start'],
      [3 * H, 1, 'start'],
    ]);
  });

  it('an incident at time 0 fires at 0; no incidents schedule nothing', () => {
    expect(fire(incidentsSchema.parse([{ kind: 'outage', start: 0, duration: '1s' }]))).toEqual([
      [0, 0, 'start'],
      [1000, 0, 'end'],
    ]);
    expect(fire([])).toEqual([]);
    expect(new IncidentSchedule(EXAMPLE).eventCount).toBe(12);
  });

  it('refuses to schedule once the clock has passed the first incident', () => {
    const simulation = new Simulation();
    simulation.run({ untilMs: 4 * H });
    expect(() => new IncidentSchedule(EXAMPLE).schedule(simulation, () => {})).toThrow(/incident 0 \(deploy\) is at 2h, but the simulation clock is already at 4h/);
  });

  it('phase codes: start 0, end 1', () => {
    expect([INCIDENT_START, INCIDENT_END, incidentPhaseName(INCIDENT_START), incidentPhaseName(INCIDENT_END)]).toEqual([0, 1, 'start', 'end']);
  });
});

describe('OriginConditionsTimeline: the origin at time t', () => {
  const timeline = new OriginConditionsTimeline(EXAMPLE);
  const at = (t: number) => copy(timeline.at(t));

  it('normal before any incident', () => {
    expect(at(0)).toEqual(NORMAL);
    expect(at(2 * H - 1)).toEqual(NORMAL);
  });

  it('start inclusive, end exclusive: unreachable from 3h to 3h15m (two back-to-back outages), reachable at 3h15m', () => {
    expect(at(3 * H - 0.001).reachable).toBe(true);
    expect(at(3 * H).reachable).toBe(false);
    expect(at(3 * H + 10 * M).reachable).toBe(false); // outage 1 ended, outage 4 started
    expect(at(3 * H + 15 * M - 0.001).reachable).toBe(false);
    expect(at(3 * H + 15 * M).reachable).toBe(true);
  });

  it('an error burst gives its status and share inside [start, end) only', () => {
    expect(at(5 * H - 1)).toMatchObject({ errorStatus: 0, errorShare: 0 });
    expect(at(5 * H)).toMatchObject({ errorStatus: 503, errorShare: 0.3, reachable: true });
    expect(at(5 * H + 2 * M - 1)).toMatchObject({ errorStatus: 503, errorShare: 0.3 });
    expect(at(5 * H + 2 * M)).toMatchObject({ errorStatus: 0, errorShare: 0 });
  });

  it('overlapping slowdowns multiply: ×4, then ×4 × 2.5 = ×10 while both are on, then ×2.5, then ×1', () => {
    expect(at(6 * H).serviceTimeFactor).toBe(4);
    expect(at(6 * H + 10 * M).serviceTimeFactor).toBe(10);
    expect(at(6 * H + 15 * M).serviceTimeFactor).toBe(2.5);
    expect(at(7 * H + 10 * M).serviceTimeFactor).toBe(1);
  });

  it('deploy epochs count up from each deploy time on, overall and per class; purges are remembered per class', () => {
    expect([2 * H - 1, 2 * H, 3 * H + 10 * M, 10 * H].map((t) => at(t).contentEpoch)).toEqual([0, 1, 2, 2]);
    expect(timeline.classNames).toEqual(['assets', 'html']);
    const assets = timeline.classSlot('assets');
    const images = timeline.classSlot('images'); // no deploy names it: only deploys of everything touch it
    expect(images).toBe(timeline.otherClassSlot);
    expect([2 * H - 1, 2 * H, 3 * H + 10 * M].map((t) => timeline.classEpochAt(t, assets))).toEqual([0, 1, 2]);
    expect([2 * H - 1, 2 * H, 3 * H + 10 * M].map((t) => timeline.classEpochAt(t, images))).toEqual([0, 0, 1]);
    expect(timeline.lastPurgeAtMs(2 * H - 1, assets)).toBe(-Infinity);
    expect(timeline.lastPurgeAtMs(10 * H, assets)).toBe(2 * H);
    expect(timeline.lastPurgeAtMs(10 * H, images)).toBe(-Infinity); // deploy 6 does not purge
  });

  it('queries reuse one record (no allocation per query)', () => {
    expect(timeline.at(1)).toBe(timeline.at(5 * H));
  });

  it('an outage decides over an error burst inside it: unreachable, with the burst still reported for the record', () => {
    const nested = new OriginConditionsTimeline(
      incidentsSchema.parse([
        { kind: 'outage', start: '1h', duration: '1h' },
        { kind: 'error-burst', start: '90m', duration: '1m' },
      ]),
    );
    expect(copy(nested.at(1.5 * H))).toEqual({ reachable: false, errorStatus: 500, errorShare: 1, serviceTimeFactor: 1, contentEpoch: 0 });
  });

  it('refuses overlapping error bursts that bypassed the schema', () => {
    const bursts: Incident[] = [
      { kind: 'error-burst', startMs: 0, durationMs: 10, endMs: 10, status: 500, share: 1 },
      { kind: 'error-burst', startMs: 5, durationMs: 10, endMs: 15, status: 502, share: 1 },
    ];
    expect(() => new OriginConditionsTimeline(bursts)).toThrow(/error bursts 0 and 1 overlap/);
  });
});

/** The same answers, computed the slow way: every incident checked at t. */
function naive(incidents: readonly Incident[], t: number): OriginConditions {
  const result = { ...NORMAL };
  for (const incident of incidents) {
    if (incident.kind === 'deploy') {
      if (incident.atMs <= t) result.contentEpoch++;
    } else if (incident.startMs <= t && t < incident.endMs) {
      if (incident.kind === 'outage') result.reachable = false;
      else if (incident.kind === 'slowdown') result.serviceTimeFactor *= incident.factor;
      else {
        result.errorStatus = incident.status;
        result.errorShare = incident.share;
      }
    }
  }
  return result;
}

describe('OriginConditionsTimeline: property against a naive evaluation', () => {
  const time = fc.integer({ min: 0, max: 1000 });
  const windowed = fc.record({ start: time, length: fc.integer({ min: 1, max: 300 }) });
  const incident: fc.Arbitrary<Incident> = fc.oneof(
    fc.record({ at: time, purge: fc.boolean() }).map(({ at, purge }): Incident => ({ kind: 'deploy', atMs: at, purge, classes: [] })),
    windowed.map(({ start, length }): Incident => ({ kind: 'outage', startMs: start, durationMs: length, endMs: start + length })),
    fc.record({ w: windowed, factor: fc.integer({ min: 1, max: 5 }) }).map(({ w, factor }): Incident => ({ kind: 'slowdown', startMs: w.start, durationMs: w.length, endMs: w.start + w.length, factor })),
  );

  it('for any incidents (one error burst at most) and any query order, forwards or backwards, answers equal the naive ones', () => {
    fc.assert(
      fc.property(fc.array(incident, { maxLength: 12 }), fc.option(windowed, { nil: undefined }), fc.array(fc.integer({ min: -10, max: 1400 }), { maxLength: 60 }), (list, burst, queries) => {
        const incidents = burst ? [...list, { kind: 'error-burst', startMs: burst.start, durationMs: burst.length, endMs: burst.start + burst.length, status: 500, share: 0.5 } as Incident] : list;
        const timeline = new OriginConditionsTimeline(incidents);
        const sorted = [...queries].sort((a, b) => a - b);
        for (const t of [...queries, ...sorted]) expect(copy(timeline.at(t))).toEqual(naive(incidents, t));
      }),
      { numRuns: 300 },
    );
  });

  it('for any deploys naming classes and overlapping slowdowns with fractional factors: class epochs and the factors multiplied in list order equal the naive ones exactly', () => {
    const classes = ['a', 'b', 'c'];
    const deploy = fc
      .record({ at: time, named: fc.subarray(classes) })
      .map(({ at, named }): Incident => ({ kind: 'deploy', atMs: at, purge: false, classes: named }));
    const slowdown = fc
      .record({ w: windowed, factor: fc.double({ min: 1, max: 3, noNaN: true }) })
      .map(({ w, factor }): Incident => ({ kind: 'slowdown', startMs: w.start, durationMs: w.length, endMs: w.start + w.length, factor }));
    fc.assert(
      fc.property(fc.array(fc.oneof(deploy, slowdown), { maxLength: 16 }), fc.array(fc.integer({ min: -10, max: 1400 }), { maxLength: 40 }), (incidents, queries) => {
        const timeline = new OriginConditionsTimeline(incidents);
        for (const t of queries) {
          expect(timeline.at(t).serviceTimeFactor).toBe(naive(incidents, t).serviceTimeFactor);
          for (const name of [...classes, 'other']) {
            const touching = incidents.filter((incident) => incident.kind === 'deploy' && incident.atMs <= t && (incident.classes.length === 0 || incident.classes.includes(name)));
            expect(timeline.classEpochAt(t, timeline.classSlot(name))).toBe(touching.length);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lastPurgeAtMs for a deploy with purge every 10m over a day (spec 1.2 item 6): the latest purge at or before any time, as a scan finds it', () => {
    const timeline = new OriginConditionsTimeline(incidentsSchema.parse([{ kind: 'deploy', at: '5m', every: '10m', times: 144, purge: true }]));
    const slot = timeline.otherClassSlot;
    expect(timeline.purgeTimes(slot)).toHaveLength(144);
    expect(timeline.lastPurgeAtMs(5 * M - 1, slot)).toBe(-Infinity);
    expect(timeline.lastPurgeAtMs(5 * M, slot)).toBe(5 * M);
    expect(timeline.lastPurgeAtMs(25 * M - 1, slot)).toBe(15 * M);
    expect(timeline.lastPurgeAtMs(48 * H, slot)).toBe(23 * H + 55 * M);
    fc.assert(
      fc.property(fc.double({ min: -H, max: 25 * H, noNaN: true }), (timeMs) => {
        const times = [...timeline.purgeTimes(slot)].filter((t) => t <= timeMs);
        expect(timeline.lastPurgeAtMs(timeMs, slot)).toBe(times.length === 0 ? -Infinity : times[times.length - 1]);
      }),
    );
  });
});
