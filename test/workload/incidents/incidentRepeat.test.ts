import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScenarioText, ScenarioError } from '../../../src/scenario/load.js';
import { scenarioToInput } from '../../../src/scenario/serialize.js';
import { MAX_INCIDENT_OCCURRENCES, occurrencesBefore } from '../../../src/workload/incidents/incidentRepeat.js';
import { incidentsSchema, incidentsToInput, type Incident } from '../../../src/workload/incidents/incidentSchema.js';
import { incidentIssues } from '../../support/incidentIssues.js';

const H = 3_600_000;
const M = 60_000;

const issues = incidentIssues;

const windows = (incidents: readonly Incident[]) => incidents.map((incident) => (incident.kind === 'deploy' ? [incident.name, incident.atMs] : [incident.name, incident.startMs, incident.endMs]));

describe('repeated incidents: every with times or until', () => {
  it('a deploy every 30m, 4 times (spec 1.2 item 6): occurrences named release #1–#4, each knowing its entry', () => {
    const incidents = incidentsSchema.parse([{ kind: 'deploy', name: 'release', at: '30m', every: '30m', times: 4, purge: true }]);
    expect(windows(incidents)).toEqual([
      ['release #1', 30 * M],
      ['release #2', 60 * M],
      ['release #3', 90 * M],
      ['release #4', 120 * M],
    ]);
    expect(incidents[2]).toEqual({ kind: 'deploy', name: 'release #3', atMs: 90 * M, purge: true, classes: [], series: { entry: 0, occurrence: 3, count: 4, everyMs: 30 * M, name: 'release' } });
  });

  it('a 2-minute error burst every hour until 6h (spec 7.1): 1h to 5h, until excluded like a window end; unnamed occurrences take the kind', () => {
    const incidents = incidentsSchema.parse([{ kind: 'error-burst', start: '1h', duration: '2m', every: '1h', until: '6h', status: 503 }]);
    expect(windows(incidents)).toEqual([1, 2, 3, 4, 5].map((h) => [`error-burst #${h}`, h * H, h * H + 2 * M]));
    expect(incidents.every((incident) => incident.kind === 'error-burst' && incident.status === 503 && incident.share === 1)).toBe(true);
  });

  it('occurrences take the entry\'s place in the list: a single incident after a repeated one follows all its occurrences', () => {
    const incidents = incidentsSchema.parse([
      { kind: 'outage', start: '10m', duration: '1m', every: '20m', times: 2 },
      { kind: 'slowdown', start: '5m', duration: '1m', factor: 2 },
    ]);
    expect(windows(incidents)).toEqual([
      ['outage #1', 10 * M, 11 * M],
      ['outage #2', 30 * M, 31 * M],
      [undefined, 5 * M, 6 * M],
    ]);
    expect(incidents[2].series).toBeUndefined();
  });

  it('a list written back gives each repeated entry once (every, times) and parses to the same occurrences', () => {
    const incidents = incidentsSchema.parse([
      { kind: 'deploy', name: 'release', at: '30m', every: '30m', until: '3h', classes: ['html'] },
      { kind: 'outage', start: '10m', duration: '1m' },
      { kind: 'error-burst', start: '1h1m', duration: '2m', every: '1h', times: 2, share: '25%' },
    ]);
    const written = incidentsToInput(incidents);
    expect(written).toEqual([
      { kind: 'deploy', name: 'release', at: `${30 * M}ms`, purge: false, classes: ['html'], every: `${30 * M}ms`, times: 5 },
      { kind: 'outage', start: `${10 * M}ms`, duration: `${M}ms` },
      { kind: 'error-burst', start: `${61 * M}ms`, duration: `${2 * M}ms`, status: 500, share: 0.25, every: `${H}ms`, times: 2 },
    ]);
    expect(incidentsSchema.parse(written)).toEqual(incidents);
  });

  it('mistakes are refused at their key with what to write instead', () => {
    expect(issues([{ kind: 'outage', start: '1h', duration: '1m', times: 3 }])).toEqual(['0.times: expected every with times (how often the incident repeats), such as every: 30m']);
    expect(issues([{ kind: 'deploy', at: '1h', every: '1h', times: 3, until: '5h' }])).toEqual(['0.until: expected times or until, not both: times counts the occurrences, until ends them at a time']);
    expect(issues([{ kind: 'deploy', at: '1h', every: '1h', until: '1h' }])).toEqual(['0.until: expected until after the first occurrence (1h): an occurrence starts before until, found until: 1h']);
    expect(issues([{ kind: 'deploy', at: '1h', every: 0, times: 2 }])).toEqual(['0.every: expected a repeat interval above 0, such as 30m']);
    expect(issues([{ kind: 'deploy', at: '1h', every: '1h', times: 0 }])).toEqual(['0.times: expected at least 1 occurrence (the first included), such as times: 12']);
    expect(issues([{ kind: 'deploy', at: '1h', every: '1h', times: 2.5 }])).toEqual(['0.times: expected a whole number of occurrences such as 12 (the first included)']);
  });

  it('a window repeating no later than its own end is refused, each kind saying why (spec 7.1 for error bursts)', () => {
    expect(issues([{ kind: 'error-burst', start: '1h', duration: '2m', every: '2m', times: 3 }])).toEqual([
      '0.every: expected every longer than duration (2m), found every: 2m: each occurrence would overlap or touch the next, and the origin answers with one status and share at a time (spec 7.1); write one error-burst with a longer duration instead, or an every above 2m',
    ]);
    expect(issues([{ kind: 'outage', start: '1h', duration: '10m', every: '5m', times: 3 }])).toEqual([
      '0.every: expected every longer than duration (10m), found every: 5m: each occurrence would overlap or touch the next, making one continuous outage reported as several; write one outage with a longer duration instead, or an every above 10m',
    ]);
    expect(issues([{ kind: 'slowdown', start: '1h', duration: '10m', every: '10m', times: 3, factor: 2 }])).toEqual([
      '0.every: expected every longer than duration (10m), found every: 10m: each occurrence would overlap or touch the next, and overlapping slowdowns multiply their factors; write one slowdown with a longer duration instead, or an every above 10m, or separate entries if the factors should compound',
    ]);
  });

  it('occurrences of error bursts that overlap other error bursts are refused, naming both occurrences and their times (spec 7.1)', () => {
    expect(
      issues([
        { kind: 'error-burst', start: '0s', duration: '2m', every: '10m', times: 6 },
        { kind: 'error-burst', start: '31m', duration: '5m', every: '1h', times: 2, status: 502 },
      ]),
    ).toEqual(['1.start: expected error bursts that do not overlap: occurrence #1 of this one (31m–36m) overlaps occurrence #4 of incident 0 (30m–32m); the origin answers with one status and share at a time — merge them or move one']);
    expect(issues([{ kind: 'error-burst', start: '25m', duration: '1m' }, { kind: 'error-burst', start: '5m', duration: '2m', every: '10m', times: 3 }])).toEqual([
      '1.start: expected error bursts that do not overlap: occurrence #3 of this one (25m–27m) overlaps incident 0 (25m–26m); the origin answers with one status and share at a time — merge them or move one',
    ]);
    // Outages and slowdowns may overlap error bursts and each other.
    expect(incidentsSchema.parse([{ kind: 'error-burst', start: 0, duration: '2m', every: '5m', times: 4 }, { kind: 'outage', start: '1m', duration: '3m', every: '4m', times: 5 }])).toHaveLength(9);
  });

  it(`at most ${MAX_INCIDENT_OCCURRENCES} incidents once expanded: a deploy every minute for a day is refused at its every`, () => {
    expect(issues([{ kind: 'outage', start: 0, duration: '1m' }, { kind: 'deploy', at: 0, every: '1m', until: '1d' }])).toEqual([
      '1.every: expected at most 1000 incidents in all, repeats expanded: every: 1m from 0s gives 1440 occurrences, and the list reaches 1441 here; use a longer every, fewer times or an earlier until',
    ]);
    expect(incidentsSchema.parse([{ kind: 'deploy', at: 0, every: '1m', times: MAX_INCIDENT_OCCURRENCES }])).toHaveLength(MAX_INCIDENT_OCCURRENCES);
  });

  it('the list alone has no run end: a repeat without times or until is refused', () => {
    expect(issues([{ kind: 'deploy', at: '30m', every: '30m' }])).toEqual([
      '0.every: expected times or until with every: this run stops after a request count, so its end is not known when the file is read; add until (such as until: 6h) or times (such as times: 12), or give the run a duration (run.duration)',
    ]);
  });

  it('occurrencesBefore: for any first time, interval and end, the last occurrence starts before the end and the next one does not', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.double({ min: 1e-3, max: 1e8, noNaN: true }), fc.double({ min: 0, max: 2e9, noNaN: true }), (first, every, end) => {
        const count = occurrencesBefore(first, every, end);
        expect(Number.isInteger(count) && count >= 0).toBe(true);
        if (count > 0) expect(first + (count - 1) * every).toBeLessThan(end);
        expect(first + count * every).toBeGreaterThanOrEqual(end);
      }),
    );
  });

  it('any value for every, times and until gives a list or issues, never an exception', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (every, times, until) => {
        const result = incidentsSchema.safeParse([{ kind: 'slowdown', start: '1h', duration: '1m', factor: 2, every, times, until }]);
        if (result.success) expect(result.data.length).toBeLessThanOrEqual(MAX_INCIDENT_OCCURRENCES);
        else expect(result.error.issues.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('repeats to the end of the run, in a scenario file', () => {
  const scenario = (run: string, incidents: string) => `run: ${run}\nincidents:\n${incidents}\n`;

  it('without times or until a repeat runs to run.duration: a deploy every 10m from 5m in a 1h run happens 6 times', () => {
    const { incidents } = parseScenarioText(scenario('{ duration: 1h }', '  - { kind: deploy, at: 5m, every: 10m, purge: true }'), 'repeat.yaml');
    expect(incidents.map((incident) => incident.kind === 'deploy' && incident.atMs)).toEqual([5, 15, 25, 35, 45, 55].map((m) => m * M));
  });

  it('a cache-only warm-up of fixed length comes first on the same clock: 30m of warm-up and a 1h run end at 1h30m', () => {
    const { incidents } = parseScenarioText(scenario('{ duration: 1h, warmup: { duration: 30m } }', '  - { kind: outage, start: 40m, duration: 1m, every: 20m }'), 'repeat.yaml');
    expect(incidents.map((incident) => incident.kind === 'outage' && incident.startMs)).toEqual([40, 60, 80].map((m) => m * M));
  });

  it('a run of a request count has no known end: the file is refused at the key, with line and suggestion', () => {
    let thrown: unknown;
    try {
      parseScenarioText(scenario('{ requests: 1M }', '  - { kind: deploy, at: 5m, purge: true }\n  - { kind: deploy, at: 30m, every: 30m }'), 'repeat.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScenarioError);
    expect((thrown as ScenarioError).problems.map((problem) => `${problem.line} ${problem.keyPath}: ${problem.message}`)).toEqual([
      '4 incidents[1].every: expected times or until with every: this run stops after a request count, so its end is not known when the file is read; add until (such as until: 6h) or times (such as times: 12), or give the run a duration (run.duration), found "30m"',
    ]);
  });

  it("a repeat starting after the run's end is refused rather than silently empty", () => {
    expect(() => parseScenarioText(scenario('{ duration: 1h }', '  - { kind: deploy, at: 2h, every: 10m }'), 'repeat.yaml')).toThrow(
      "expected the first occurrence before the run's end (1h), found 2h: a repeat to the end of the run would never happen; move it earlier or give times",
    );
  });

  it('the run folder\'s scenario.json keeps the occurrences: written back with times, parsed again, the same list', () => {
    const parsed = parseScenarioText(scenario('{ duration: 1h }', '  - { kind: deploy, name: release, at: 5m, every: 10m, purge: true }'), 'repeat.yaml');
    const input = scenarioToInput(parsed);
    expect(input.incidents).toEqual([{ kind: 'deploy', name: 'release', at: `${5 * M}ms`, purge: true, every: `${10 * M}ms`, times: 6 }]);
    expect(parseScenarioText(JSON.stringify(input), 'scenario.json').incidents).toEqual(parsed.incidents);
  });
});
