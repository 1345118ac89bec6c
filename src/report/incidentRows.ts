import { DEPLOY_WINDOW_MS, type IncidentFigures } from '../experiment/incidentWindows.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';
import { formatSimTime } from '../workload/incidents/simTime.js';
import { roundTo as round } from './rounding.js';

/**
 * summary.json's incident figures: a row per incident (every occurrence of a repeated entry
 * is one), and for each repeated entry one row over all its occurrences, so 48 deploys read
 * as one line with the worst of them named.
 */

/** What clients got in a window (or all the windows of a repeated entry), and the origin's load in and just before it. */
interface WindowFigures {
  /** The window reported, seconds from the start: the incident's own; a deploy's first minute. */
  fromSeconds: number;
  toSeconds: number;
  requests: number;
  errors: number;
  /** Non-error responses / requests sent in the window (1 when none were sent); over a repeated entry's occurrences, their request-weighted mean. */
  availability: number;
  staleServed: number;
  originRequests: number;
  /** Origin requests in a window of the same length just before: the change the incident made. */
  originRequestsBefore: number;
}

export interface IncidentRow extends WindowFigures {
  kind: string;
  /** false when the window starts at or after the run's end (a request count ended it first): its figures are not an incident's; absent when it happened. */
  happened?: false;
  name?: string;
  /** The entry of the scenario's `incidents` list an occurrence comes from (repeated entries only). */
  entry?: number;
  /** Which occurrence of that entry, from 1 (repeated entries only). */
  occurrence?: number;
  /** A readable line for the terminal. */
  label: string;
}

/** One repeated entry over all its occurrences (their windows' sums; from the first one's start to the last one's end). */
export interface RepeatedIncidentRow extends WindowFigures {
  /** Index of the entry in the scenario's `incidents` list as written. */
  entry: number;
  kind: string;
  name?: string;
  everySeconds: number;
  /** Occurrences that started before the run ended (all of them, unless the command line ended the run before the file's end). */
  occurrences: number;
  /** The occurrence with the lowest availability (the first of equals), and that availability. */
  worstOccurrence: number;
  worstAvailability: number;
  /** The occurrence with the most origin requests in its window (a deploy's purge spike), and their number. */
  peakOccurrence: number;
  peakOriginRequests: number;
  /** A readable line for the terminal. */
  label: string;
}

const availabilityOf = (requests: number, errors: number): number => round(requests === 0 ? 1 : 1 - errors / requests, 6);

/** What an incident is, for a label: "deploy with purge of every class", "outage (connections refused)". */
export function incidentWhat(incident: Incident): string {
  switch (incident.kind) {
    case 'deploy':
      return `deploy${incident.purge ? ' with purge' : ''} of ${incident.classes.length === 0 ? 'every class' : incident.classes.join(', ')}`;
    case 'error-burst':
      return `error burst (${incident.status}, ${round(incident.share * 100, 2)} % of responses)`;
    case 'slowdown':
      return `slowdown ×${incident.factor}`;
    case 'outage':
      return 'outage (connections refused)';
  }
}

const windowText = (fromMs: number, toMs: number): string => `${formatSimTime(fromMs)}–${formatSimTime(Math.round(toMs / 1000) * 1000)}`;

export function incidentRow(figures: IncidentFigures): IncidentRow {
  const { incident } = figures;
  const { series } = incident;
  // The window is cut at the run's end: cut to nothing, it never began.
  const happened = figures.toMs > figures.fromMs;
  const statedEndMs = incident.kind === 'deploy' ? incident.atMs + DEPLOY_WINDOW_MS : incident.endMs;
  return {
    kind: incident.kind,
    ...(happened ? {} : { happened: false as const }),
    ...(incident.name === undefined ? {} : { name: incident.name }),
    ...(series === undefined ? {} : { entry: series.entry, occurrence: series.occurrence }),
    fromSeconds: round(figures.fromMs / 1000, 3),
    toSeconds: round(figures.toMs / 1000, 3),
    requests: figures.requests,
    errors: figures.errors,
    availability: availabilityOf(figures.requests, figures.errors),
    staleServed: figures.staleServed,
    originRequests: figures.originRequests,
    originRequestsBefore: figures.originRequestsBefore,
    label: `${incident.name === undefined ? '' : `${incident.name}: `}${incidentWhat(incident)}, ${
      happened ? windowText(figures.fromMs, figures.toMs) : `${windowText(figures.fromMs, statedEndMs)}: never happened, the run ended first`
    }`,
  };
}

/** One row per repeated entry, in the list's order; empty when nothing repeats. */
export function repeatedIncidentRows(figures: readonly IncidentFigures[]): RepeatedIncidentRow[] {
  const groups = new Map<number, IncidentFigures[]>();
  for (const one of figures) {
    const entry = one.incident.series?.entry;
    if (entry === undefined) continue;
    const group = groups.get(entry);
    if (group) group.push(one);
    else groups.set(entry, [one]);
  }
  return [...groups].map(([entry, occurrences]) => {
    // A run ended early (--duration below the file's) cuts the later occurrences to empty
    // windows at their start: they never happened, so the entry's row leaves them out.
    const happened = occurrences.filter((one) => one.toMs > one.fromMs);
    return repeatedRow(entry, happened.length > 0 ? happened : occurrences);
  });
}

function repeatedRow(entry: number, occurrences: readonly IncidentFigures[]): RepeatedIncidentRow {
  const first = occurrences[0];
  const series = first.incident.series!;
  let requests = 0;
  let errors = 0;
  let staleServed = 0;
  let originRequests = 0;
  let originRequestsBefore = 0;
  let worst = first;
  let peak = first;
  for (const one of occurrences) {
    requests += one.requests;
    errors += one.errors;
    staleServed += one.staleServed;
    originRequests += one.originRequests;
    originRequestsBefore += one.originRequestsBefore;
    if (availabilityOf(one.requests, one.errors) < availabilityOf(worst.requests, worst.errors)) worst = one;
    if (one.originRequests > peak.originRequests) peak = one;
  }
  const last = occurrences[occurrences.length - 1];
  const title = series.name ?? first.incident.kind;
  return {
    entry,
    kind: first.incident.kind,
    ...(series.name === undefined ? {} : { name: series.name }),
    everySeconds: round(series.everyMs / 1000, 3),
    occurrences: occurrences.length,
    fromSeconds: round(first.fromMs / 1000, 3),
    toSeconds: round(last.toMs / 1000, 3),
    requests,
    errors,
    availability: availabilityOf(requests, errors),
    staleServed,
    originRequests,
    originRequestsBefore,
    worstOccurrence: worst.incident.series!.occurrence,
    worstAvailability: availabilityOf(worst.requests, worst.errors),
    peakOccurrence: peak.incident.series!.occurrence,
    peakOriginRequests: peak.originRequests,
    label: `${title}, every ${formatSimTime(series.everyMs)} (${occurrences.length} times): ${incidentWhat(first.incident)}, ${windowText(first.fromMs, last.toMs)}`,
  };
}
