import { OUTCOME_STALE_ON_ERROR, OUTCOME_STALE_ON_REFUSED, OUTCOME_STALE_WHILE_REVALIDATE, type CompletedRequest } from '../src/cdn/layeredFlow.js';
import type { Incident } from '../src/workload/incidents/incidentSchema.js';

/**
 * The incident windows' `record` before the pieces of src/experiment/incidentWindows.ts: a
 * loop over every incident per completed request. Kept for `npm run bench incidents.record`,
 * which measures both in one process.
 */
export function legacyIncidentRecorder(incidents: readonly Incident[]): (done: CompletedRequest) => void {
  const from = Float64Array.from(incidents, (incident) => (incident.kind === 'deploy' ? incident.atMs : incident.startMs));
  const to = Float64Array.from(incidents, (incident) => (incident.kind === 'deploy' ? incident.atMs + 60_000 : incident.endMs));
  const requests = new Float64Array(incidents.length);
  const errors = new Float64Array(incidents.length);
  const stale = new Float64Array(incidents.length);
  const staleBits = OUTCOME_STALE_WHILE_REVALIDATE | OUTCOME_STALE_ON_ERROR | OUTCOME_STALE_ON_REFUSED;
  return (done) => {
    for (let i = 0; i < from.length; i++) {
      if (done.sendMs < from[i] || done.sendMs >= to[i]) continue;
      requests[i]++;
      if (done.status >= 400) errors[i]++;
      if ((done.outcome & staleBits) !== 0) stale[i]++;
    }
  };
}
