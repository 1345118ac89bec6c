import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { DURATION_EXPECTED, FRACTION_EXPECTED, parseDuration, parseFraction } from '../../units.js';

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
 * ```
 *
 * Windows are [start, start + duration): the start is inside, the end is not. Overlaps:
 * outages may overlap (the origin is unreachable while any is on); slowdowns may overlap and
 * their factors multiply (independent causes compound, e.g. a slow database behind a
 * saturated link); error bursts may not overlap each other, because at one moment the origin
 * answers with one status and share. An error burst inside an outage is allowed: while
 * unreachable there is no response at all, so the outage decides.
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
  })
  .transform((incident) => ({
    kind: incident.kind,
    ...(incident.name === undefined ? {} : { name: incident.name }),
    atMs: incident.at,
    purge: incident.purge,
    /** Empty: the deploy touches every class. */
    classes: incident.classes ?? ([] as string[]),
  }))
  .meta({ description: 'a deploy: content versions change at one moment (spec 4.7 "content being updated at the origin")' });

const outage = z
  .strictObject({
    kind: z.literal('outage'),
    name: label,
    start: time('when connections to the origin start being refused'),
    duration: windowLength('how long the origin refuses connections'),
  })
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration) }))
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
  })
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration), status: incident.status, share: incident.share }))
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
  })
  .transform((incident) => ({ kind: incident.kind, ...named(incident.name), ...window(incident.start, incident.duration), factor: incident.factor }))
  .meta({ description: 'an origin slowdown: its service time is multiplied by factor' });

function fraction(description: string) {
  return quantity(parseFraction, FRACTION_EXPECTED, description);
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

export const incidentsSchema = z
  .array(incidentSchema, { error: 'expected a list of incidents' })
  .superRefine((incidents, ctx) => {
    // Error bursts may not overlap: one status and share per moment (see the module comment).
    for (let j = 0; j < incidents.length; j++) {
      const later = incidents[j];
      if (later.kind !== 'error-burst') continue;
      for (let i = 0; i < j; i++) {
        const earlier = incidents[i];
        if (earlier.kind !== 'error-burst' || !(later.startMs < earlier.endMs && earlier.startMs < later.endMs)) continue;
        ctx.addIssue({
          code: 'custom',
          path: [j, 'start'],
          message:
            `expected error bursts that do not overlap: this one (${formatSimTime(later.startMs)}–${formatSimTime(later.endMs)}) ` +
            `overlaps incident ${i} (${formatSimTime(earlier.startMs)}–${formatSimTime(earlier.endMs)}); the origin answers with one status and share at a time — merge them or move one`,
        });
        break;
      }
    }
  })
  .default([])
  .meta({ description: 'deploys, origin outages, error bursts and slowdowns at simulated times (windows include their start, not their end)' });

export type IncidentInput = z.input<typeof incidentSchema>;
/** One resolved incident: times in ms from the start of the run. */
export type Incident = z.output<typeof incidentSchema>;
export type DeployIncident = Extract<Incident, { kind: 'deploy' }>;
export type OutageIncident = Extract<Incident, { kind: 'outage' }>;
export type ErrorBurstIncident = Extract<Incident, { kind: 'error-burst' }>;
export type SlowdownIncident = Extract<Incident, { kind: 'slowdown' }>;

/** A simulated time for messages: 5h, 5h2m, 90s, 1m30s, 250ms. */
export function formatSimTime(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000 || !Number.isInteger(ms / 1000)) return `${ms}ms`;
  let seconds = ms / 1000;
  let text = '';
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
    const whole = Math.floor(seconds / size);
    if (whole > 0) text += `${whole}${unit}`;
    seconds -= whole * size;
  }
  return text;
}

/** A resolved incident written back as input (durations in ms): parsing it again gives the same incident. */
export function incidentToInput(incident: Incident): IncidentInput {
  const name = incident.name === undefined ? {} : { name: incident.name };
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
