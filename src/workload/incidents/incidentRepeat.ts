import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { DURATION_EXPECTED, parseDuration } from '../../units.js';
import type { ErrorBurstIncident, Incident, IncidentEntry } from './incidentSchema.js';
import { formatSimTime } from './simTime.js';

/**
 * The repeat form of an incident: `every` with `times` or `until`, or neither (to the end of
 * the run).
 *
 * ```yaml
 * - { kind: deploy, name: release, at: 30m, every: 30m, purge: true }             # 30m, 1h, 1h30m, … to the run's end
 * - { kind: error-burst, start: 1h, duration: 2m, every: 1h, until: 6h }          # 1h, 2h, 3h, 4h, 5h
 * - { kind: outage, start: 10m, duration: 1m, every: 20m, times: 3 }              # 10m, 30m, 50m
 * ```
 *
 * Occurrence k (from 1) starts at the written time + (k − 1) × every. `times` counts the
 * occurrences, the first included; `until` ends them: an occurrence starts before it (as a
 * window holds its start, not its end). With neither, the end is the run's end as the
 * scenario file states it: `run.duration`, after a cache-only warm-up of fixed length
 * (`run.warmup: {duration: 30m}`), on the same clock as the incidents. A run of a request
 * count has no known end, so there `times` or `until` is required.
 *
 * A window (outage, error burst, slowdown) repeats only with `every` longer than its
 * `duration`: occurrences that overlap or touch would be one continuous incident reported
 * as many (an error burst cannot overlap itself at all; slowdowns would multiply their
 * factors), so each kind is told to write the one longer window instead.
 */

/** Most incidents a scenario may have once repeats are expanded: each is a row of the summary, a band on the charts and breakpoints of the origin's timeline. */
export const MAX_INCIDENT_OCCURRENCES = 1_000;

const time = (description: string) => quantity((input) => parseDuration(input), DURATION_EXPECTED, description);

export const repeatFields = {
  every: time('repeat: time from one occurrence to the next, such as 30m; left out: once')
    .refine((ms) => ms > 0, { error: 'expected a repeat interval above 0, such as 30m' })
    .optional(),
  times: z
    .number({ error: 'expected a whole number of occurrences such as 12 (the first included)' })
    .int({ error: 'expected a whole number of occurrences such as 12 (the first included)' })
    .min(1, { error: 'expected at least 1 occurrence (the first included), such as times: 12' })
    .optional()
    .meta({ description: 'repeat: occurrences in all, the first included; needs every' }),
  until: time('repeat: occurrences start before this time (from the start of the run); needs every; left out with every and times: the end of the run').optional(),
};

/** The repeat of an entry, resolved (ms). */
export interface IncidentRepeat {
  everyMs: number;
  times?: number;
  untilMs?: number;
}

/** Where an occurrence comes from: the entry of the `incidents` list that repeats. */
export interface IncidentSeries {
  /** Index of the entry in the scenario's `incidents` list as written. */
  entry: number;
  /** 1 for the first occurrence. */
  occurrence: number;
  /** Occurrences of the entry. */
  count: number;
  everyMs: number;
  /** The entry's own name (occurrences are named "name #k"). */
  name?: string;
}

interface RepeatInput {
  every?: number;
  times?: number;
  until?: number;
}

/** Checks of one entry's repeat keys; `durationMs` undefined for a deploy. */
export function repeatIssues(input: RepeatInput, kind: string, firstMs: number, durationMs: number | undefined): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  if (input.every === undefined) {
    for (const key of ['times', 'until'] as const) {
      if (input[key] !== undefined) issues.push({ path: [key], message: `expected every with ${key} (how often the incident repeats), such as every: 30m` });
    }
    return issues;
  }
  if (input.times !== undefined && input.until !== undefined) {
    issues.push({ path: ['until'], message: 'expected times or until, not both: times counts the occurrences, until ends them at a time' });
  }
  if (input.until !== undefined && input.until <= firstMs) {
    issues.push({ path: ['until'], message: `expected until after the first occurrence (${formatSimTime(firstMs)}): an occurrence starts before until, found until: ${formatSimTime(input.until)}` });
  }
  if (durationMs !== undefined && input.every <= durationMs) {
    issues.push({ path: ['every'], message: `expected every longer than duration (${formatSimTime(durationMs)}), found every: ${formatSimTime(input.every)}: ${selfOverlap(kind, durationMs)}` });
  }
  return issues;
}

/** Why a window may not reach its own next occurrence, and what to write instead. */
function selfOverlap(kind: string, durationMs: number): string {
  const longer = `write one ${kind} with a longer duration instead, or an every above ${formatSimTime(durationMs)}`;
  switch (kind) {
    case 'error-burst':
      return `each occurrence would overlap or touch the next, and the origin answers with one status and share at a time (spec 7.1); ${longer}`;
    case 'slowdown':
      return `each occurrence would overlap or touch the next, and overlapping slowdowns multiply their factors; ${longer}, or separate entries if the factors should compound`;
    default:
      return `each occurrence would overlap or touch the next, making one continuous ${kind} reported as several; ${longer}`;
  }
}

/** Occurrences of a repeat starting at `firstMs`, before `endMs` (exclusive): 0 when none fits. */
export function occurrencesBefore(firstMs: number, everyMs: number, endMs: number): number {
  if (endMs <= firstMs) return 0;
  const count = Math.ceil((endMs - firstMs) / everyMs);
  // Floating point: the last one must start before the end, and one more must not.
  if (firstMs + (count - 1) * everyMs >= endMs) return count - 1;
  if (firstMs + count * everyMs < endMs) return count + 1;
  return count;
}

/** An issue of the list, at an entry's key. */
export interface IncidentListIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The list as the run sees it: each entry that happens once as it is, each repeated entry
 * replaced in place by its occurrences (named "name #k", or "kind #k" for an unnamed entry).
 * `clockEndMs` is the run's end on the incidents' clock, undefined when not known in advance.
 * With issues (a repeat without a known end, too many occurrences, error bursts that
 * overlap), the incidents are empty.
 */
export function expandIncidents(entries: readonly IncidentEntry[], clockEndMs: number | undefined): { incidents: Incident[]; issues: IncidentListIssue[] } {
  const issues: IncidentListIssue[] = [];
  const counts = entries.map((entry, j) => {
    const { repeat } = entry;
    if (repeat === undefined) return 1;
    const firstMs = startOf(entry);
    if (repeat.times !== undefined) return repeat.times;
    if (repeat.untilMs !== undefined) return occurrencesBefore(firstMs, repeat.everyMs, repeat.untilMs);
    if (clockEndMs === undefined) {
      issues.push({
        path: [j, 'every'],
        message:
          'expected times or until with every: this run stops after a request count, so its end is not known when the file is read; ' +
          'add until (such as until: 6h) or times (such as times: 12), or give the run a duration (run.duration)',
      });
      return 0;
    }
    const count = occurrencesBefore(firstMs, repeat.everyMs, clockEndMs);
    if (count === 0) {
      issues.push({
        path: [j, entry.kind === 'deploy' ? 'at' : 'start'],
        message: `expected the first occurrence before the run's end (${formatSimTime(clockEndMs)}), found ${formatSimTime(firstMs)}: a repeat to the end of the run would never happen; move it earlier or give times`,
      });
    }
    return count;
  });
  if (issues.length > 0) return { incidents: [], issues };
  let total = 0;
  for (let j = 0; j < entries.length; j++) {
    total += counts[j];
    if (total <= MAX_INCIDENT_OCCURRENCES) continue;
    const repeat = entries[j].repeat;
    const here = repeat === undefined ? 'this incident' : `every: ${formatSimTime(repeat.everyMs)} from ${formatSimTime(startOf(entries[j]))} gives ${counts[j]} occurrences, and`;
    return {
      incidents: [],
      issues: [
        {
          path: repeat === undefined ? [j] : [j, 'every'],
          message: `expected at most ${MAX_INCIDENT_OCCURRENCES} incidents in all, repeats expanded: ${here} the list reaches ${total} here; use a longer every, fewer times or an earlier until`,
        },
      ],
    };
  }
  const incidents = entries.flatMap((entry, j) => (entry.repeat === undefined ? [entry as Incident] : occurrencesOf(entry, j, counts[j])));
  return { incidents, issues: errorBurstOverlaps(incidents, entries) };
}

/** The occurrences of a repeated entry, in time order. */
function occurrencesOf(entry: IncidentEntry, index: number, count: number): Incident[] {
  const { repeat, ...incident } = entry;
  const everyMs = repeat!.everyMs;
  return Array.from({ length: count }, (_, k): Incident => {
    const shiftMs = k * everyMs;
    const name = `${entry.name ?? entry.kind} #${k + 1}`;
    const series: IncidentSeries = { entry: index, occurrence: k + 1, count, everyMs, ...(entry.name === undefined ? {} : { name: entry.name }) };
    if (incident.kind === 'deploy') return { ...incident, name, atMs: incident.atMs + shiftMs, classes: [...incident.classes], series };
    const startMs = incident.startMs + shiftMs;
    return { ...incident, name, startMs, endMs: startMs + incident.durationMs, series };
  });
}

function startOf(incident: IncidentEntry | Incident): number {
  return incident.kind === 'deploy' ? incident.atMs : incident.startMs;
}

/**
 * Error bursts may not overlap (incidentSchema.ts): one issue per entry whose burst, or one
 * of whose occurrences, overlaps an earlier one, naming both with their times.
 */
function errorBurstOverlaps(incidents: readonly Incident[], entries: readonly IncidentEntry[]): IncidentListIssue[] {
  const bursts = incidents.filter((incident): incident is ErrorBurstIncident => incident.kind === 'error-burst');
  const entryOf = (burst: ErrorBurstIncident): number => burst.series?.entry ?? entries.indexOf(burst as IncidentEntry);
  const describe = (burst: ErrorBurstIncident): string => `${formatSimTime(burst.startMs)}–${formatSimTime(burst.endMs)}`;
  const issues: IncidentListIssue[] = [];
  const reported = new Set<number>();
  for (let b = 0; b < bursts.length; b++) {
    const later = bursts[b];
    const entry = entryOf(later);
    if (reported.has(entry)) continue;
    for (let a = 0; a < b; a++) {
      const earlier = bursts[a];
      if (!(later.startMs < earlier.endMs && earlier.startMs < later.endMs)) continue;
      const laterText = later.series === undefined ? `this one (${describe(later)})` : `occurrence #${later.series.occurrence} of this one (${describe(later)})`;
      const earlierEntry = entryOf(earlier);
      const earlierText = earlier.series === undefined ? `incident ${earlierEntry} (${describe(earlier)})` : `occurrence #${earlier.series.occurrence} of incident ${earlierEntry} (${describe(earlier)})`;
      issues.push({
        path: [entry, 'start'],
        message: `expected error bursts that do not overlap: ${laterText} overlaps ${earlierText}; the origin answers with one status and share at a time — merge them or move one`,
      });
      reported.add(entry);
      break;
    }
  }
  return issues;
}
