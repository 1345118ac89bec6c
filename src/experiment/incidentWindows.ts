import { OUTCOME_STALE_ON_ERROR, OUTCOME_STALE_ON_REFUSED, OUTCOME_STALE_WHILE_REVALIDATE, type CompletedRequest } from '../cdn/layeredFlow.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';

/** How long after a deploy its origin load is reported (the purge spike, spec 1.2 item 6). */
const DEPLOY_WINDOW_MS = 60_000;

export interface IncidentFigures {
  incident: Incident;
  /** The window measured: an outage's, burst's or slowdown's own; a deploy's first minute; cut at the end of the run. */
  fromMs: number;
  toMs: number;
  /** Requests sent in the window, and how they ended. */
  requests: number;
  errors: number;
  staleServed: number;
  /** Requests reaching the origin in the window, and in a window of the same length just before it. */
  originRequests: number;
  originRequestsBefore: number;
}

/** Requests, errors and stale serves per incident window, and the origin's load in and before it. */
export function incidentWindows(incidents: readonly Incident[]): {
  record(done: CompletedRequest): void;
  figures(runEndMs: number, originRequests: (fromMs: number, toMs: number) => number): IncidentFigures[];
} {
  const from = Float64Array.from(incidents, (incident) => (incident.kind === 'deploy' ? incident.atMs : incident.startMs));
  const to = Float64Array.from(incidents, (incident) => (incident.kind === 'deploy' ? incident.atMs + DEPLOY_WINDOW_MS : incident.endMs));
  const requests = new Float64Array(incidents.length);
  const errors = new Float64Array(incidents.length);
  const stale = new Float64Array(incidents.length);
  const staleBits = OUTCOME_STALE_WHILE_REVALIDATE | OUTCOME_STALE_ON_ERROR | OUTCOME_STALE_ON_REFUSED;
  return {
    record(done) {
      for (let i = 0; i < from.length; i++) {
        if (done.sendMs < from[i] || done.sendMs >= to[i]) continue;
        requests[i]++;
        if (done.status >= 400) errors[i]++;
        if ((done.outcome & staleBits) !== 0) stale[i]++;
      }
    },
    figures(runEndMs, originRequests) {
      return incidents.map((incident, i) => {
        // A window the run ends inside is compared with one of its actual length before it.
        const toMs = Math.max(from[i], Math.min(to[i], runEndMs));
        return {
          incident,
          fromMs: from[i],
          toMs,
          requests: requests[i],
          errors: errors[i],
          staleServed: stale[i],
          originRequests: originRequests(from[i], toMs),
          originRequestsBefore: originRequests(2 * from[i] - toMs, from[i]),
        };
      });
    },
  };
}

