import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOME_STALE_ON_REFUSED, OUTCOME_STALE_WHILE_REVALIDATE, type CompletedRequest } from '../../src/cdn/layeredFlow.js';
import { incidentWindows, type IncidentFigures } from '../../src/experiment/incidentWindows.js';
import type { Incident } from '../../src/workload/incidents/incidentSchema.js';

/** The figures as the loop over every incident per request gave them (the code before the pieces). */
function naiveFigures(incidents: readonly Incident[], requests: readonly CompletedRequest[], runEndMs: number, origin: (fromMs: number, toMs: number) => number): IncidentFigures[] {
  return incidents.map((incident) => {
    const fromMs = incident.kind === 'deploy' ? incident.atMs : incident.startMs;
    const to = incident.kind === 'deploy' ? incident.atMs + 60_000 : incident.endMs;
    const inside = requests.filter((done) => done.sendMs >= fromMs && done.sendMs < to);
    const toMs = Math.max(fromMs, Math.min(to, runEndMs));
    return {
      incident,
      fromMs,
      toMs,
      requests: inside.length,
      errors: inside.filter((done) => done.status >= 400).length,
      staleServed: inside.filter((done) => (done.outcome & (OUTCOME_STALE_WHILE_REVALIDATE | OUTCOME_STALE_ON_REFUSED)) !== 0).length,
      originRequests: origin(fromMs, toMs),
      originRequestsBefore: origin(2 * fromMs - toMs, fromMs),
    };
  });
}

const done = (sendMs: number, status: number, outcome: number): CompletedRequest =>
  ({ seq: 0, sendMs, region: 0, classId: 0, objectId: 0, sizeBytes: 1, layer: 0, latencyMs: 0, transferMs: -1, edge: 0, regional: -1, status, outcome, staleForMs: -1, servedBytes: Float64Array.of(1, 0, 0, 0) }) satisfies CompletedRequest;

const incident = fc.oneof(
  fc.record({ at: fc.integer({ min: 0, max: 600_000 }) }).map(({ at }): Incident => ({ kind: 'deploy', atMs: at, purge: false, classes: [] })),
  fc.record({ start: fc.integer({ min: 0, max: 600_000 }), length: fc.integer({ min: 1, max: 200_000 }) }).map(
    ({ start, length }): Incident => ({ kind: 'outage', startMs: start, durationMs: length, endMs: start + length }),
  ),
);

describe('incident windows (spec 4.7 row 1, 7.1: availability per window)', () => {
  it('for any windows and requests in any order (completions are not in send order), the figures equal the loop over every incident', () => {
    fc.assert(
      fc.property(
        fc.array(incident, { maxLength: 12 }),
        fc.array(fc.record({ send: fc.integer({ min: -1_000, max: 900_000 }), error: fc.boolean(), stale: fc.boolean() }), { maxLength: 300 }),
        fc.integer({ min: 0, max: 900_000 }),
        (incidents, sent, runEndMs) => {
          const requests = sent.map((one) => done(one.send, one.error ? 502 : 200, one.stale ? OUTCOME_STALE_ON_REFUSED : 0));
          const windows = incidentWindows(incidents);
          for (const one of requests) windows.record(one);
          const origin = (fromMs: number, toMs: number) => Math.round(toMs - fromMs);
          expect(windows.figures(runEndMs, origin)).toEqual(naiveFigures(incidents, requests, runEndMs, origin));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nearly ordered sends with a late straggler: a deploy at 1m, an outage 2m–3m overlapping a deploy at 2m30s', () => {
    const incidents: Incident[] = [
      { kind: 'deploy', atMs: 60_000, purge: true, classes: [] },
      { kind: 'outage', startMs: 120_000, durationMs: 60_000, endMs: 180_000 },
      { kind: 'deploy', atMs: 150_000, purge: false, classes: [] },
    ];
    const windows = incidentWindows(incidents);
    // One request a second from 0 s to 239 s; during the outage every one fails; the request sent at 125 s completes last.
    const sends = Array.from({ length: 240 }, (_, s) => s * 1000).filter((ms) => ms !== 125_000);
    for (const ms of [...sends, 125_000]) windows.record(done(ms, ms >= 120_000 && ms < 180_000 ? 502 : 200, ms >= 150_000 && ms < 160_000 ? OUTCOME_STALE_WHILE_REVALIDATE : 0));
    const figures = windows.figures(240_000, () => 0);
    expect(figures.map((one) => [one.requests, one.errors, one.staleServed])).toEqual([
      [60, 0, 0], // 60 s – 119 s
      [60, 60, 10], // 120 s – 179 s, all refused; 10 stale served
      [60, 30, 10], // 150 s – 209 s: 30 inside the outage
    ]);
  });

  it('no incidents: recording does nothing and there are no figures', () => {
    const windows = incidentWindows([]);
    windows.record(done(5, 500, 0));
    expect(windows.figures(10, () => 0)).toEqual([]);
  });
});
