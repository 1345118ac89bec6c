import type { CompletedRequest } from '../src/cdn/layeredFlow.js';
import { incidentWindows } from '../src/experiment/incidentWindows.js';
import { RandomStreams } from '../src/sim/random.js';
import { incidentsSchema, type Incident, type IncidentInput } from '../src/workload/incidents/incidentSchema.js';
import { measure, report } from './harness.js';
import { legacyIncidentRecorder } from './legacyIncidentWindows.js';

/**
 * `incidents.record`: what counting a completed request into the incident windows costs with
 * 5 incidents and with 500 (repeated entries over a day), the current pieces against the
 * earlier loop over every incident, in one process. 1 M requests over a simulated day, in
 * send order but for 1 in 50 completing up to 30 s late (a slow origin, a timeout).
 */
const DAY_MS = 86_400_000;
const REQUESTS = 1_000_000;

/** One array for every record: the incident windows do not read it. */
const SERVED_BY_BROWSER = Float64Array.of(1, 0, 0, 0);

function requests(): CompletedRequest[] {
  const stream = new RandomStreams(7).stream('bench.incidents');
  const sends = Array.from({ length: REQUESTS }, (_, i) => (i * DAY_MS) / REQUESTS);
  // Completion order: a straggler is recorded after the requests sent in the next 30 s.
  const completions = sends.map((sendMs, i) => ({ sendMs, at: sendMs + (stream.next() < 0.02 ? stream.next() * 30_000 : 0), i }));
  completions.sort((a, b) => a.at - b.at || a.i - b.i);
  return completions.map(({ sendMs }) => ({
    seq: 0, sendMs, region: 0, classId: 0, objectId: 0, sizeBytes: 1, layer: 0, latencyMs: 1, transferMs: -1, edge: 0, regional: -1,
    status: stream.next() < 0.01 ? 502 : 200, outcome: 0, staleForMs: -1, servedBytes: SERVED_BY_BROWSER,
  }));
}

/** `count` incidents over the day: purging deploys, outages, error bursts and slowdowns, each entry repeated count / 4 times, and a deploy at 2h for what is left. */
function incidentsOf(count: number): Incident[] {
  const times = Math.floor(count / 4);
  const every = `${DAY_MS / times}ms`;
  const entries: IncidentInput[] = [
    { kind: 'deploy', at: '1m', every, times, purge: true },
    { kind: 'outage', start: '3m', duration: '1m', every, times },
    { kind: 'error-burst', start: '5m', duration: '1m', every, times },
    { kind: 'slowdown', start: '7m', duration: '1m', every, times, factor: 2 },
  ];
  for (let extra = 0; extra < count % 4; extra++) entries.push({ kind: 'deploy', at: `${2 + extra}h` });
  return incidentsSchema.parse(entries);
}

export function runIncidentBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('incidents.record')) return;
  const completed = requests();
  for (const count of [5, 500]) {
    const incidents = incidentsOf(count);
    const current = (): number => {
      const windows = incidentWindows(incidents);
      for (const done of completed) windows.record(done);
      return completed.length;
    };
    const legacy = (): number => {
      const record = legacyIncidentRecorder(incidents);
      for (const done of completed) record(done);
      return completed.length;
    };
    // Alternate the two so that load from other processes falls on both alike.
    const a = measure(3, current);
    const b = measure(3, legacy);
    const c = measure(3, current);
    const best = Math.max(a.bestPerSecond, c.bestPerSecond);
    report({
      name: `incidents.record.incidents${incidents.length}`,
      requests: completed.length,
      bestPerSecond: best,
      legacyBestPerSecond: b.bestPerSecond,
      nsPerRecord: Math.round(1e9 / best),
      legacyNsPerRecord: Math.round(1e9 / b.bestPerSecond),
    });
  }
}
