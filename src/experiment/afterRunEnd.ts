import type { Scenario } from '../scenario/schema.js';
import { formatSimTime } from '../workload/incidents/simTime.js';

/**
 * Incidents and flash crowds that start at or after the run's end never happen. With
 * run.duration the schema refuses them (their time is against a known end); a run ended by a
 * request count (or shortened by --requests/--duration) only knows its end approximately
 * before it starts, as run.requests / traffic.rate, and exactly when it stops. So they are
 * warned about twice: before the run against that estimate (validate, run), after it against
 * the simulated clock's actual end; their rows in summary.json say `happened: false`.
 */

/** What never happens in a run ending at `endMs` on the incidents' clock: one line each, in the file's order (a repeated entry once, by its first occurrence). */
export function startsAfterRunEnd(scenario: Pick<Scenario, 'incidents' | 'traffic'>, endMs: number): string[] {
  const lines: string[] = [];
  for (const incident of scenario.incidents) {
    if (incident.series !== undefined && incident.series.occurrence !== 1) continue;
    const startMs = incident.kind === 'deploy' ? incident.atMs : incident.startMs;
    if (startMs < endMs) continue;
    const name = incident.name === undefined ? '' : ` "${incident.name}"`;
    lines.push(`the ${incident.kind}${name} at ${formatSimTime(startMs)}`);
  }
  scenario.traffic.flashCrowds.forEach((crowd, index) => {
    if (crowd.start >= endMs) lines.push(`the flash crowd at ${formatSimTime(crowd.start)} (traffic.flashCrowds[${index}])`);
  });
  return lines;
}

/** A simulated time for a message: whole seconds or to a tenth, then minutes and hours. */
function clockText(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  if (seconds < 3600) return `${+(seconds / 60).toFixed(1)} min`;
  return `${+(seconds / 3600).toFixed(1)} h`;
}

/**
 * Before a run ended by a request count: its expected end, requests / traffic.rate (the
 * shaped rate averages traffic.rate over a week, so over a shorter run this is a guess),
 * and what would start after it. Empty when the run has a duration (the schema checked it),
 * replays a recording (its own times) or nothing starts late.
 */
export function expectedAfterRunEndWarnings(scenario: Scenario, requestLimit: number, horizonMs: number): string[] {
  if (horizonMs !== Infinity || !Number.isFinite(requestLimit) || scenario.content.recorded?.use === 'replay') return [];
  const warmup = scenario.run.warmup;
  // A cache-only warm-up of fixed length runs first on the same clock.
  const before = warmup.kind === 'caches' ? (warmup.length.kind === 'time' ? warmup.length.ms : warmup.length.kind === 'requests' ? (warmup.length.requests / scenario.traffic.rate) * 1000 : NaN) : 0;
  if (Number.isNaN(before)) return [];
  const endMs = before + (requestLimit / scenario.traffic.rate) * 1000;
  const late = startsAfterRunEnd(scenario, endMs);
  if (late.length === 0) return [];
  return [
    `${late.join(', ')} ${late.length === 1 ? 'starts' : 'start'} after the run's expected end at about ${clockText(endMs)} (${requestLimit.toLocaleString('en-US')} requests at ${scenario.traffic.rate.toLocaleString('en-US')}/s): ${late.length === 1 ? 'it' : 'they'} will likely never happen; set run.duration past ${late.length === 1 ? 'it' : 'them'}, or more run.requests`,
  ];
}

/** After the run, against the clock's actual end: what never happened. */
export function afterRunEndWarnings(scenario: Pick<Scenario, 'incidents' | 'traffic'>, simulatedMs: number): string[] {
  const late = startsAfterRunEnd(scenario, simulatedMs);
  if (late.length === 0) return [];
  return [`${late.join(', ')} never happened: the run ended at ${clockText(simulatedMs)} simulated, before ${late.length === 1 ? 'it' : 'they'} started; set run.duration past ${late.length === 1 ? 'it' : 'them'}, or more run.requests`];
}
