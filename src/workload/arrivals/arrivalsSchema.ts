import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { REGIONS, type Region } from '../../topology/regions.js';
import { DURATION_EXPECTED, parseDuration } from '../../units.js';
import { DEFAULT_DIURNAL_FALL_HOURS, DEFAULT_DIURNAL_PEAK_HOUR, DEFAULT_DIURNAL_PEAK_TO_TROUGH, DEFAULT_DIURNAL_TROUGH_HOUR } from './diurnal.js';

/**
 * The scenario fields that shape arrivals over time, for the `traffic` section: the run's
 * start as a UTC date-time (so local hour and weekday are defined), the diurnal and weekly
 * shape, steady growth and flash crowds. Strict objects, human units, defaults filled.
 *
 * The defaults leave the rate flat: `traffic.rate` stays the instantaneous rate and the
 * region shares hold at every moment, so existing scenarios keep their numbers. Write
 * `diurnal: on` (or `diurnal: {}`) for the published default curve.
 */

const duration = (description: string) => quantity((v) => parseDuration(v), DURATION_EXPECTED, description);

/** Monday 2026-01-05 00:00 UTC: the run start when a scenario gives none. */
export const DEFAULT_RUN_START = '2026-01-05T00:00:00Z';

const RUN_START_EXPECTED = 'an ISO 8601 date-time with a zone, such as 2026-01-05T00:00:00Z or 2026-01-05T09:00:00+09:00';
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 date-time with a zone, or undefined when it is not one (or not a real date). */
export function parseRunStart(text: string): number | undefined {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const ms = Date.parse(text.trim());
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is a mistake.
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const zone = match[7];
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const local = new Date(ms + offsetMinutes * 60_000);
  const same =
    local.getUTCFullYear() === year && local.getUTCMonth() + 1 === month && local.getUTCDate() === day && local.getUTCHours() === hour && local.getUTCMinutes() === minute;
  return same ? ms : undefined;
}

const runStart = z
  .string({ error: `expected ${RUN_START_EXPECTED} (quote it in YAML if your editor turns it into a date)` })
  .transform((text, ctx) => {
    const ms = parseRunStart(text);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected ${RUN_START_EXPECTED}` });
      return z.NEVER;
    }
    return ms;
  })
  .meta({ description: 'UTC date-time of simulated time 0, with a zone; sets every client\'s local hour and weekday (default Monday 2026-01-05 00:00 UTC)' });

const hourOfDay = (what: string) =>
  z
    .number({ error: `expected ${what} as a local hour from 0 to 23.99` })
    .min(0, { error: `expected ${what} as a local hour from 0 to 23.99` })
    .lt(24, { error: `expected ${what} as a local hour from 0 to 23.99` });

export type DiurnalSpec =
  | { kind: 'off' }
  | { kind: 'peak'; peakHour: number; troughHour: number; peakToTrough: number }
  | { kind: 'hourly'; hourly: number[] };

const DEFAULT_PEAK_DIURNAL: DiurnalSpec = {
  kind: 'peak',
  peakHour: DEFAULT_DIURNAL_PEAK_HOUR,
  troughHour: DEFAULT_DIURNAL_TROUGH_HOUR,
  peakToTrough: DEFAULT_DIURNAL_PEAK_TO_TROUGH,
};

const diurnalShape = z.strictObject({
  peakHour: hourOfDay('peakHour').optional().meta({ description: `local hour of the daily peak (default ${DEFAULT_DIURNAL_PEAK_HOUR})` }),
  troughHour: hourOfDay('troughHour').optional().meta({
    description: `local hour of the daily trough (default ${DEFAULT_DIURNAL_TROUGH_HOUR}, or ${DEFAULT_DIURNAL_FALL_HOURS} h after a given peakHour)`,
  }),
  peakToTrough: z
    .number({ error: 'expected peakToTrough as a number from 1 (flat) to 100' })
    .min(1, { error: 'expected peakToTrough ≥ 1 (1 is flat)' })
    .max(100, { error: 'expected peakToTrough ≤ 100' })
    .optional()
    .meta({ description: `daily maximum over daily minimum (default ${DEFAULT_DIURNAL_PEAK_TO_TROUGH}; 1 is flat)` }),
  hourly: z
    .array(z.number().min(0, { error: 'expected hourly weights ≥ 0' }), { error: 'expected a list of 24 hourly weights' })
    .length(24, { error: 'expected exactly 24 hourly weights, for local hours 0 to 23' })
    .refine((weights) => weights.some((w) => w > 0), { error: 'expected at least one hourly weight above 0' })
    .optional()
    .meta({ description: '24 relative weights for local hours 0–23 instead of peakHour/troughHour/peakToTrough; normalised to mean 1 and interpolated smoothly' }),
});

type DiurnalShapeInput = z.output<typeof diurnalShape>;

function resolveDiurnal(shape: DiurnalShapeInput): DiurnalSpec {
  if (shape.hourly !== undefined) return { kind: 'hourly', hourly: shape.hourly };
  const peakHour = shape.peakHour ?? DEFAULT_DIURNAL_PEAK_HOUR;
  const troughHour = shape.troughHour ?? (shape.peakHour === undefined ? DEFAULT_DIURNAL_TROUGH_HOUR : (peakHour + DEFAULT_DIURNAL_FALL_HOURS) % 24);
  return { kind: 'peak', peakHour, troughHour, peakToTrough: shape.peakToTrough ?? DEFAULT_DIURNAL_PEAK_TO_TROUGH };
}

// The cross-field checks run after the union, not inside its object branch: a branch that
// refines or transforms counts as aborted when a field fails, and the union would then
// report only its own message instead of the field's.
const diurnal = z
  .union([z.enum(['off', 'on']), z.boolean(), diurnalShape], {
    error: 'expected off, on, or a mapping with peakHour, troughHour and peakToTrough (or hourly: 24 weights)',
  })
  .superRefine((value, ctx) => {
    if (typeof value !== 'object') return;
    if (value.hourly !== undefined) {
      for (const key of ['peakHour', 'troughHour', 'peakToTrough'] as const) {
        if (value[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'expected either hourly weights or peakHour/troughHour/peakToTrough, not both' });
      }
    } else if (value.troughHour !== undefined && value.troughHour === (value.peakHour ?? DEFAULT_DIURNAL_PEAK_HOUR)) {
      ctx.addIssue({ code: 'custom', path: ['troughHour'], message: 'expected troughHour at another hour than peakHour' });
    }
  })
  .transform((value): DiurnalSpec => {
    if (value === 'off' || value === false) return { kind: 'off' };
    if (value === 'on' || value === true) return { ...DEFAULT_PEAK_DIURNAL };
    return resolveDiurnal(value);
  })
  .meta({
    description:
      'daily demand curve in each client\'s local time, mean 1: off (default, flat), on (peak 21:00, trough 04:30, ratio 2.5), {peakHour, troughHour, peakToTrough} or {hourly: [24 weights]}',
  });

const weekly = z
  .array(z.number({ error: 'expected a weekday weight (a number ≥ 0)' }).min(0, { error: 'expected weekday weights ≥ 0' }), {
    error: 'expected a list of 7 weekday weights, Monday to Sunday',
  })
  .length(7, { error: 'expected exactly 7 weekday weights, Monday to Sunday' })
  .refine((weights) => weights.some((w) => w > 0), { error: 'expected at least one weekday weight above 0' })
  .meta({ description: 'relative demand per local weekday, Monday to Sunday, normalised to mean 1 (default flat); e.g. [1, 1, 1, 1, 1, 0.85, 0.85] for a weekend dip' });

const GROWTH_EXPECTED = 'a growth per period such as 10%, -5% or 0.1 (above -100%)';

/** A growth per period as a fraction: `10%`, `-5%`, `0.1`; above −100 %, may exceed 100 %. */
export function parseGrowthRate(input: unknown): number | undefined {
  let value: number;
  if (typeof input === 'number') value = input;
  else if (typeof input === 'string') {
    const match = /^([+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*(%?)$/.exec(input.trim());
    if (!match) return undefined;
    value = Number(match[1]) / (match[2] === '%' ? 100 : 1);
  } else return undefined;
  return Number.isFinite(value) && value > -1 ? value : undefined;
}

const growth = z
  .strictObject({
    rate: z
      .union([z.string(), z.number()], { error: `expected ${GROWTH_EXPECTED}` })
      .transform((input, ctx) => {
        const value = parseGrowthRate(input);
        if (value === undefined) {
          ctx.addIssue({ code: 'custom', message: `expected ${GROWTH_EXPECTED}` });
          return z.NEVER;
        }
        return value;
      })
      .meta({ description: 'demand growth per period, compounding: (1 + rate)^(t / per); 10% or 0.1' }),
    per: duration('the period the growth rate is given for').refine((ms) => ms > 0, { error: 'expected a period above 0, such as 30d' }).default(30 * 86_400_000),
  })
  .meta({ description: 'steady demand growth for capacity planning, e.g. {rate: 10%, per: 30d}; none by default' });

export type FlashCrowdObjects =
  | { kind: 'catalogue' }
  | { kind: 'top'; top: number }
  | { kind: 'ids'; ids: number[] }
  | { kind: 'class'; class: string };

const flashObjects = z
  .strictObject({
    top: z.number().int({ error: 'expected top as a whole number of objects ≥ 1' }).min(1, { error: 'expected top as a whole number of objects ≥ 1' }).optional().meta({
      description: 'the N most popular objects of the catalogue',
    }),
    ids: z
      .array(z.number().int({ error: 'expected object ids as whole numbers ≥ 0' }).min(0, { error: 'expected object ids as whole numbers ≥ 0' }))
      .min(1, { error: 'expected at least one object id' })
      .optional()
      .meta({ description: 'these object ids (catalogue indices)' }),
    class: z.string().min(1, { error: 'expected a content class name' }).optional().meta({ description: 'every object of this content class' }),
  })
  .superRefine((objects, ctx) => {
    const given = (['top', 'ids', 'class'] as const).filter((key) => objects[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: 'custom', message: `expected exactly one of top, ids or class, found ${given.length === 0 ? 'none' : given.join(' and ')}` });
    }
  })
  .transform((objects): FlashCrowdObjects => {
    if (objects.top !== undefined) return { kind: 'top', top: objects.top };
    if (objects.ids !== undefined) return { kind: 'ids', ids: objects.ids };
    return { kind: 'class', class: objects.class as string };
  })
  .meta({ description: 'what the crowd asks for: {top: N}, {ids: [...]} or {class: name}; the normal popularity when omitted' });

const flashCrowd = z
  .strictObject({
    start: duration('when the crowd arrives, as simulated time from the run start (2h)'),
    duration: duration('how long the crowd stays, ramps included (30m)').refine((ms) => ms > 0, { error: 'expected a duration above 0, such as 30m' }),
    multiplier: z
      .number({ error: 'expected multiplier as a number ≥ 1 (8 means eight times the normal rate)' })
      .min(1, { error: 'expected multiplier ≥ 1 (1 adds nothing; 8 means eight times the normal rate)' })
      .max(10_000, { error: 'expected multiplier ≤ 10000' })
      .meta({ description: 'total demand in the region during the crowd over normal demand: the crowd adds (multiplier − 1) × the region\'s shaped rate' }),
    region: z
      .enum(REGIONS, { error: `expected one of the five regions: ${REGIONS.join(', ')}` })
      .optional()
      .meta({ description: 'the region whose clients form the crowd; every region when omitted' }),
    objects: flashObjects.optional(),
    rampUp: duration('time from the start to the full multiplier, linearly (0: a step)').default(0),
    rampDown: duration('time from the full multiplier back to normal at the end, linearly (0: a step)').default(0),
  })
  .superRefine((crowd, ctx) => {
    if (crowd.rampUp + crowd.rampDown > crowd.duration) {
      ctx.addIssue({ code: 'custom', path: ['rampUp'], message: `expected rampUp + rampDown (${crowd.rampUp + crowd.rampDown} ms) within duration (${crowd.duration} ms)` });
    }
  })
  .transform((crowd) => ({
    start: crowd.start,
    duration: crowd.duration,
    multiplier: crowd.multiplier,
    region: (crowd.region ?? null) as Region | null,
    objects: crowd.objects ?? ({ kind: 'catalogue' } as FlashCrowdObjects),
    rampUp: crowd.rampUp,
    rampDown: crowd.rampDown,
  }))
  .meta({ description: 'a flash crowd: extra demand from one region (or all) for some objects during a window' });

/** The arrival-shape fields, to spread into the scenario's `traffic` strict object. */
export const arrivalShapeFields = {
  start: runStart.default(Date.parse(DEFAULT_RUN_START)),
  diurnal: diurnal.default({ kind: 'off' }),
  weekly: weekly.default([1, 1, 1, 1, 1, 1, 1]),
  growth: growth.default({ rate: 0, per: 30 * 86_400_000 }),
  flashCrowds: z.array(flashCrowd, { error: 'expected a list of flash crowds' }).default([]).meta({ description: 'flash crowds, each {start, duration, multiplier, region?, objects?, rampUp?, rampDown?}' }),
};

/** The arrival-shape fields on their own, as a strict object (for tests and tools). */
export const arrivalShapeSchema = z.strictObject(arrivalShapeFields);

/** Arrival-shape fields as written in a scenario file. */
export type ArrivalShapeInput = z.input<typeof arrivalShapeSchema>;

/**
 * Resolved arrival shape: `start` in epoch ms (UTC), durations in ms, growth as a fraction
 * per `per` ms, every default filled.
 */
export type ArrivalShape = z.output<typeof arrivalShapeSchema>;

export type FlashCrowd = ArrivalShape['flashCrowds'][number];
