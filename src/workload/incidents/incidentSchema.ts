import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { DURATION_EXPECTED, FRACTION_EXPECTED, parseDuration, parseFraction } from '../../units.js';
import { expandIncidents, repeatFields, repeatIssues, type IncidentRepeat, type IncidentSeries } from './incidentRepeat.js';

export { formatSimTime } from './simTime.js';

/**
 * The scenario's `incidents` list: what happens to the origin and the content during a run,
 * at simulated times from the start of the run.
 *
 * ```yaml
 * incidents:
 *   - { kind: deploy, at: 2h, purge: true, classes: [assets, html] }   # new content versions (spec 4.7 row 2); purge: spec 1.2 item 6
 *   - { kind: outage, start: 3h, duration: 10m }                        # connection refused (spec 4.7 row 1)
 *   - { kind: error-burst, start: 5h, duration: 2m, status: 500, share: 30% }   # spec 7.1
 *   - { kind: slowdown, start: 6h, duration: 15m, factor: 4 }           # origin service time × factor
 *   - { kind: deploy, name: release, at: 30m, every: 30m, purge: true }  # repeated: see incidentRepeat.ts
 * ```
 *
 * Windows are [start, start + duration): the start is inside, the end is not. Overlaps:
 * outages may overlap (the origin is unreachable while any is on); slowdowns may overlap and
 * their factors multiply (independent causes compound, e.g. a slow database behind a
 * saturated link); error bursts may not overlap each other, because at one moment the origin
 * answers with one status and share. An error burst inside an outage is allowed: while
 * unreachable there is no response at all, so the outage decides.
 *
 * Every kind takes `every` with `times` or `until` (incidentRepeat.ts): the entry is
 * expanded when the scenario is read into occurrences named "name #k" (the kind when the
 * entry has no name), which the rest of the system sees as ordinary incidents, each carrying
 * its `series` (which entry, which occurrence) for the reports' per-entry figures.
 */

const time = (description: string) => quantity((input) => parseDuration(input), DURATION_EXPECTED, description);
const windowLength = (description: string) => time(description).refine((ms) => ms > 0, { error: 'expected a duration above 0, such as 10m' });

const label = z
  .string({ error: 'expected a short label such as "release 42"' })
  .min(1, { error: 'expected a short label such as "release 42"' })
  .optional()
  .meta({ description: 'label for reports' });

const className = z
  .string({ error: 'expected a content class name such as assets or html' })
  .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a content class name of letters, digits, ".", "_" or "-", such as assets or html' });

const deploy = z
  .strictObject({
    kind: z.literal('deploy'),
    name: label,
    at: time('when the new version goes live (from the start of the run)'),
    purge: z.boolean({ error: 'expected true or false' }).default(false).meta({ description: 'also purge the CDN caches of these classes (spec 1.2 item 6); false: caches keep serving what they hold until it expires (spec 4.7)' }),
    classes: z
      .array(className, { error: 'expected a list of content classes such as [assets, html]' })
      .min(1, { error: 'expected at least one content class; leave classes out for a deploy of everything' })
      .refine((names) => new Set(names).size === names.length, { error: 'expected each content class once' })
      .optional()
      .meta({ description: 'content classes that get a new version; left out: every class' }),
    ...repeatFields,
  })
  .superRefine((incident, ctx) => addRepeatIssues(ctx, incident, incident.kind, incident.at, undefined))
  .transform((incident) => ({
    kind: incident.kind,
    ...(incident.name === undefined ? {} : { name: incident.name }),
    atMs: incident.at,
    purge: incident.purge,
    /** Empty: the deploy touches every class. */
    classes: incident.classes ?? ([] as string[]),
    ...repeatOf(incident),
  }))
  .meta({ description: 'a deploy: content versions change at one moment (spec 4.7 "content being updated at the origin")' });

const outage = z
  .strictObject({
    kind: z.literal('outage'),
    name: label,
    start: time('when connections to the origin start being refused'),
    duration: windowLength('how long the origin refuses connections'),
    ...repeatFields,
  })
  .superRefine((incident, ctx) => addRepeatIssues(ctx, incident, incident.kind, incident.start, incident.duration))
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration), ...repeatOf(incident) }))
  .meta({ description: 'an origin outage: connection refused (spec 4.7: the CDN serves the last known good version)' });

const errorBurst = z
  .strictObject({
    kind: z.literal('error-burst'),
    name: label,
    start: time('when the origin starts answering with errors'),
    duration: windowLength('how long the burst lasts'),
    status: z
      .number({ error: 'expected an HTTP status from 500 to 599' })
      .refine((status) => Number.isInteger(status) && status >= 500 && status <= 599, {
        error: 'expected an HTTP status from 500 to 599: an error burst is a server error (spec 7.1)',
      })
      .default(500)
      .meta({ description: 'status of the error responses (spec 7.1 names 500)' }),
    share: fraction('share of origin responses in the window that are errors')
      .refine((share) => share > 0, { error: 'expected a share above 0% (a burst with no errors does nothing)' })
      .default(1),
    ...repeatFields,
  })
  .superRefine((incident, ctx) => addRepeatIssues(ctx, incident, incident.kind, incident.start, incident.duration))
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration), status: incident.status, share: incident.share, ...repeatOf(incident) }))
  .meta({ description: 'an error burst: a share of origin responses are 5xx (spec 7.1: the CDN caches a 500 for 5 s)' });

const slowdown = z
  .strictObject({
    kind: z.literal('slowdown'),
    name: label,
    start: time('when the origin slows down'),
    duration: windowLength('how long the slowdown lasts'),
    factor: z
      .number({ error: 'expected a factor such as 4' })
      .refine((factor) => Number.isFinite(factor) && factor >= 1, { error: "expected a factor ≥ 1: a slowdown multiplies the origin's service time" })
      .meta({ description: "origin service time × this factor; overlapping slowdowns multiply" }),
    ...repeatFields,
  })
  .superRefine((incident, ctx) => addRepeatIssues(ctx, incident, incident.kind, incident.start, incident.duration))
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration), factor: incident.factor, ...repeatOf(incident) }))
  .meta({ description: 'an origin slowdown: its service time is multiplied by factor' });

function fraction(description: string) {
  return quantity(parseFraction, FRACTION_EXPECTED, description);
}

function addRepeatIssues(ctx: z.RefinementCtx, input: { every?: number; times?: number; until?: number }, kind: string, firstMs: number, durationMs: number | undefined): void {
  for (const issue of repeatIssues(input, kind, firstMs, durationMs)) ctx.addIssue({ code: 'custom', ...issue });
}

/** The entry's repeat, resolved; nothing for an entry that happens once. */
function repeatOf(input: { every?: number; times?: number; until?: number }): { repeat?: IncidentRepeat } {
  if (input.every === undefined) return {};
  return { repeat: { everyMs: input.every, ...(input.times === undefined ? {} : { times: input.times }), ...(input.until === undefined ? {} : { untilMs: input.until }) } };
}

function named(name: string | undefined): { name?: string } {
  return name === undefined ? {} : { name };
}

function window(startMs: number, durationMs: number): { startMs: number; durationMs: number; endMs: number } {
  return { startMs, durationMs, endMs: startMs + durationMs };
}

export const INCIDENT_KINDS = ['deploy', 'outage', 'error-burst', 'slowdown'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];

export const incidentSchema = z.discriminatedUnion('kind', [deploy, outage, errorBurst, slowdown], {
  error: `expected an incident with kind: ${INCIDENT_KINDS.join(', ')}`,
});

const incidentList = z.array(incidentSchema, { error: 'expected a list of incidents' });
const LIST_DESCRIPTION = 'deploys, origin outages, error bursts and slowdowns at simulated times (windows include their start, not their end); each may repeat (every, with times or until)';

/**
 * The list as written, repeats not yet expanded: the scenario schema expands it, knowing the
 * run's end (scenario/schema.ts).
 */
export const incidentEntriesSchema = incidentList.default([]).meta({ description: LIST_DESCRIPTION });

/**
 * The list alone, expanded into occurrences, for a run whose end is not known: a repeat needs
 * `times` or `until` here.
 */
export const incidentsSchema = incidentList
  .superRefine((entries, ctx) => {
    for (const issue of expandIncidents(entries, undefined).issues) ctx.addIssue({ code: 'custom', ...issue });
  })
  .transform((entries) => expandIncidents(entries, undefined).incidents)
  .default([])
  .meta({ description: LIST_DESCRIPTION });

export type IncidentInput = z.input<typeof incidentSchema>;
/** One entry of the list as written, resolved, with its repeat if it has one. */
export type IncidentEntry = z.output<typeof incidentSchema>;
/**
 * One incident of the run (an entry that happens once, or one occurrence of a repeated
 * one): times in ms from the start of the run.
 */
export type Incident = IncidentEntry extends infer E ? (E extends unknown ? Omit<E, 'repeat'> & { series?: IncidentSeries } : never) : never;
export type DeployIncident = Extract<Incident, { kind: 'deploy' }>;
export type OutageIncident = Extract<Incident, { kind: 'outage' }>;
export type ErrorBurstIncident = Extract<Incident, { kind: 'error-burst' }>;
export type SlowdownIncident = Extract<Incident, { kind: 'slowdown' }>;

/**
 * A resolved incident written back as input (durations in ms): parsing it again gives the
 * same incident. An occurrence is written as a single incident under its own name ("release
 * #3"); incidentsToInput writes a repeated entry back as one.
 */
export function incidentToInput(incident: Incident): IncidentInput {
  return inputOf(incident, incident.name);
}

/**
 * A resolved list written back as input: each repeated entry once, at its first occurrence,
 * with `every` and `times` (the count it had, whatever ended it), so parsing it again gives
 * the same occurrences whatever the run's length.
 */
export function incidentsToInput(incidents: readonly Incident[]): IncidentInput[] {
  return incidents.flatMap((incident) => {
    const { series } = incident;
    if (series === undefined) return [incidentToInput(incident)];
    if (series.occurrence !== 1) return [];
    return [{ ...inputOf(incident, series.name), every: `${series.everyMs}ms`, times: series.count }];
  });
}

function inputOf(incident: Incident, label: string | undefined): IncidentInput {
  const name = label === undefined ? {} : { name: label };
  switch (incident.kind) {
    case 'deploy':
      return { kind: 'deploy', ...name, at: `${incident.atMs}ms`, purge: incident.purge, ...(incident.classes.length === 0 ? {} : { classes: [...incident.classes] }) };
    case 'outage':
      return { kind: 'outage', ...name, start: `${incident.startMs}ms`, duration: `${incident.durationMs}ms` };
    case 'error-burst':
      return { kind: 'error-burst', ...name, start: `${incident.startMs}ms`, duration: `${incident.durationMs}ms`, status: incident.status, share: incident.share };
    case 'slowdown':
      return { kind: 'slowdown', ...name, start: `${incident.startMs}ms`, duration: `${incident.durationMs}ms`, factor: incident.factor };
  }
}
