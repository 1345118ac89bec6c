import { z } from 'zod';
import { quantity } from '../quantitySchema.js';
import { UserError } from '../userError.js';
import { COUNT_EXPECTED, DURATION_EXPECTED, FRACTION_EXPECTED, parseCount, parseDuration, parseFraction } from '../units.js';

/**
 * `run.warmup`: how a run gets its caches out of their cold start before it measures
 * (spec 1.1 states the figures of a CDN in service, not of one just switched on).
 *
 * - A count, a share or a time (`500000`, `25%`, `60s`): the first requests go through the
 *   whole flow, latency and all, and are not measured.
 * - `steady` or `{until: steady, tolerance?, block?, max?}`: the caches are warmed alone
 *   (src/cdn/cacheWarmer.ts): the workload's requests, from the same streams, touch only the
 *   cache stores, block after block, until the CDN hit ratio of a block differs from the
 *   block before by less than `tolerance`, or `max` requests have been used.
 * - `{requests: 20M}` or `{duration: 30m}`: the same cache-only warm-up for a fixed count or time.
 * - `start: stationary | empty` in the object form: whether the caches are first filled with
 *   their steady-state contents (the default until steady) or start empty (the default for
 *   a fixed length, so npm start's `{requests: 15M}` warms as it always has).
 */

/** Defaults of the steady-state rule (src/experiment/steadyRule.ts; docs/warmup.md says why). */
export const STEADY_DEFAULTS = {
  /** Most the CDN or edge hit ratio may still gain over a warm-up four times as long: 0.25 percentage points. */
  tolerance: 0.0025,
  /** null: scaled from the catalogue and the number of edge caches (steadyBlockRequests). */
  blockRequests: null,
  maxRequests: 200_000_000,
} as const;

/**
 * How a cache-only warm-up starts its caches: `stationary`, filled with LRU's stationary
 * contents under the independent reference model before the first warmed request
 * (src/cdn/stationaryFill.ts, docs/warmup.md "A stationary start"), or `empty`.
 */
export type WarmupStart = 'stationary' | 'empty';
const WARMUP_STARTS: readonly WarmupStart[] = ['stationary', 'empty'];
/** A warm-up until steady starts stationary unless told; a fixed one starts empty, as it always has. */
const STEADY_START: WarmupStart = 'stationary';
const FIXED_START: WarmupStart = 'empty';

export type CacheWarmupLength =
  | { kind: 'steady'; tolerance: number; blockRequests: number | null; maxRequests: number; start: WarmupStart }
  | { kind: 'requests'; requests: number; start: WarmupStart }
  | { kind: 'time'; ms: number; start: WarmupStart };

export type Warmup =
  | { kind: 'requests'; requests: number }
  | { kind: 'fraction'; fraction: number }
  | { kind: 'time'; ms: number }
  /** Cache-only warm-up before the run: its requests are not part of `run.requests`, nor its time of `run.duration`. */
  | { kind: 'caches'; length: CacheWarmupLength };

const STEADY_WORD = 'steady';

/** A number or a word: a flow warm-up (count, share, time) or `steady`. */
function scalarWarmup(input: number | string, ctx: z.RefinementCtx): Warmup {
  if (typeof input === 'number') {
    if (Number.isInteger(input) && input >= 0) return { kind: 'requests', requests: input };
    ctx.addIssue({ code: 'custom', message: 'expected a whole number of requests (0 or more)' });
    return z.NEVER;
  }
  if (input.trim() === STEADY_WORD) return { kind: 'caches', length: { kind: 'steady', ...STEADY_DEFAULTS, start: STEADY_START } };
  if (input.trim().endsWith('%')) {
    const parsed = parseFraction(input);
    if (parsed.ok) return { kind: 'fraction', fraction: parsed.value };
    ctx.addIssue({ code: 'custom', message: 'expected a percentage of the run between 0% and 100%' });
    return z.NEVER;
  }
  // "2M" is two million in run.requests but two minutes as a duration: here it could mean either.
  const count = /^\s*([\d.]+(?:e\d+)?)\s*M\s*$/.exec(input);
  if (count !== null) {
    ctx.addIssue({ code: 'custom', message: `expected ${(Number(count[1]) * 1e6).toLocaleString('en-US').replaceAll(',', '')} (a request count) or ${count[1]}m (minutes): "${input.trim()}" is a count in run.requests but minutes as a time` });
    return z.NEVER;
  }
  const parsed = parseDuration(input);
  if (parsed.ok) return { kind: 'time', ms: parsed.value };
  ctx.addIssue({ code: 'custom', message: `expected a request count, a percentage such as 10%, ${DURATION_EXPECTED}, or steady` });
  return z.NEVER;
}

const cacheWarmupShape = z.strictObject({
  until: z.string().optional().meta({ description: 'steady: until the CDN hit ratio settles' }),
  requests: quantity(parseCount, COUNT_EXPECTED, 'a fixed cache-only warm-up of this many requests (20M)').optional(),
  duration: quantity((v) => parseDuration(v), DURATION_EXPECTED, 'a fixed cache-only warm-up of this much simulated time (30m)').optional(),
  tolerance: quantity(parseFraction, FRACTION_EXPECTED, 'until steady: most the CDN or edge hit ratio may still gain over a warm-up four times as long (0.25%)').optional(),
  block: quantity(parseCount, COUNT_EXPECTED, 'until steady: requests per block (default: the larger of the catalogue and 3,000 per edge cache, 100k to 10M)').optional(),
  max: quantity(parseCount, COUNT_EXPECTED, 'until steady: the most requests the warm-up may use (200M)').optional(),
  start: z
    .string()
    .optional()
    .meta({ description: 'stationary: fill the caches with their steady-state contents first (the default until steady); empty: start them empty (the default for requests / duration)' }),
});

type CacheWarmupInput = z.output<typeof cacheWarmupShape>;

// As with traffic.diurnal, the checks run after the union, so a bad field reports its own message.
function cacheWarmup(input: CacheWarmupInput, ctx: z.RefinementCtx): Warmup {
  const given = (['until', 'requests', 'duration'] as const).filter((key) => input[key] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: `expected exactly one of until: steady, requests (20M) or duration (30m), found ${given.length === 0 ? 'none' : given.join(' and ')}`,
    });
    return z.NEVER;
  }
  if (input.until !== undefined && input.until !== STEADY_WORD) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'expected steady (or requests: N / duration: D for a fixed length)' });
    return z.NEVER;
  }
  if (input.start !== undefined && !(WARMUP_STARTS as readonly string[]).includes(input.start)) {
    ctx.addIssue({ code: 'custom', path: ['start'], message: `expected stationary (the caches filled with their steady-state contents) or empty, found ${JSON.stringify(input.start)}` });
    return z.NEVER;
  }
  const start = input.start as WarmupStart | undefined;
  if (input.until === undefined) {
    for (const key of ['tolerance', 'block', 'max'] as const) {
      if (input[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `expected no \`${key}\` with a fixed warm-up length; it belongs to until: steady` });
    }
    if (input.requests !== undefined) {
      if (input.requests > 0) return { kind: 'caches', length: { kind: 'requests', requests: input.requests, start: start ?? FIXED_START } };
      ctx.addIssue({ code: 'custom', path: ['requests'], message: 'expected at least 1 request' });
      return z.NEVER;
    }
    const ms = input.duration ?? 0;
    if (ms > 0) return { kind: 'caches', length: { kind: 'time', ms, start: start ?? FIXED_START } };
    ctx.addIssue({ code: 'custom', path: ['duration'], message: 'expected a simulated time above 0, such as 30m' });
    return z.NEVER;
  }
  const steady = {
    kind: 'steady' as const,
    tolerance: input.tolerance ?? STEADY_DEFAULTS.tolerance,
    blockRequests: input.block ?? STEADY_DEFAULTS.blockRequests,
    maxRequests: input.max ?? STEADY_DEFAULTS.maxRequests,
    start: start ?? STEADY_START,
  };
  if (steady.tolerance <= 0) ctx.addIssue({ code: 'custom', path: ['tolerance'], message: 'expected a tolerance above 0%, such as 0.2%' });
  if (steady.blockRequests !== null && steady.blockRequests < 1) ctx.addIssue({ code: 'custom', path: ['block'], message: 'expected at least 1 request per block' });
  if (steady.blockRequests !== null && steady.blockRequests > steady.maxRequests) {
    ctx.addIssue({ code: 'custom', path: ['block'], message: `expected a block no longer than max (${steady.maxRequests} requests), found ${steady.blockRequests}` });
  }
  return { kind: 'caches', length: steady };
}

export const warmupSchema = z
  .union([z.number(), z.string(), cacheWarmupShape], {
    error: 'expected a request count, a percentage of the run such as 10%, a duration such as 60s, steady, or {until: steady}, {requests: 20M} or {duration: 30m}',
  })
  .transform((input, ctx): Warmup => (typeof input === 'object' ? cacheWarmup(input, ctx) : scalarWarmup(input, ctx)))
  .meta({
    description:
      'how the caches fill before the run measures: a count, a percentage of the run or a duration (simulated through the whole flow, not measured), or steady / {until: steady, tolerance, block, max, start} / {requests: N, start} / {duration: D, start} (the caches alone, before the run; start: stationary or empty)',
  });

/** The scenario-file form of a resolved warm-up (scenario.json). */
export function warmupToInput(warmup: Warmup): z.input<typeof warmupSchema> {
  switch (warmup.kind) {
    case 'requests':
      return warmup.requests;
    case 'fraction':
      return `${warmup.fraction * 100}%`;
    case 'time':
      return `${warmup.ms}ms`;
    case 'caches': {
      const length = warmup.length;
      // The start is written only where it is not the form's default, so scenario.json reads as before.
      if (length.kind === 'requests') return { requests: length.requests, ...(length.start === FIXED_START ? {} : { start: length.start }) };
      if (length.kind === 'time') return { duration: `${length.ms}ms`, ...(length.start === FIXED_START ? {} : { start: length.start }) };
      return {
        until: STEADY_WORD,
        tolerance: length.tolerance,
        ...(length.blockRequests === null ? {} : { block: length.blockRequests }),
        max: length.maxRequests,
        ...(length.start === STEADY_START ? {} : { start: length.start }),
      };
    }
  }
}

/** What of a scenario runs on the clock from its start, warm-up included. */
export interface ClockedParts {
  incidents: readonly unknown[];
  flashCrowds: readonly unknown[];
  /** traffic.growth's rate per period: non-zero changes the rate from the clock's start. */
  growthRate: number;
}

/**
 * Times in `incidents` and `traffic.flashCrowds` count from the start of the simulated clock,
 * warm-up included, and so does `traffic.growth`. A steady-state warm-up ends at a time not
 * known in advance, so they could fall inside it, and traffic that shrinks may die out before
 * the caches settle: refused, with the fixed form as the way out.
 */
export function steadyWarmupIssues(warmup: Warmup, timed: ClockedParts): { path: (string | number)[]; message: string }[] {
  if (warmup.kind !== 'caches' || warmup.length.kind !== 'steady') return [];
  const issues: { path: (string | number)[]; message: string }[] = [];
  const why = 'their times count from the start of the clock, and a warm-up until steady ends at a time not known in advance; warm for a fixed time instead (run.warmup: {duration: 30m}) and place them after it';
  if (timed.incidents.length > 0) issues.push({ path: ['run', 'warmup'], message: `expected no incidents with run.warmup until steady: ${why}` });
  if (timed.flashCrowds.length > 0) issues.push({ path: ['run', 'warmup'], message: `expected no traffic.flashCrowds with run.warmup until steady: ${why}` });
  if (timed.growthRate !== 0) {
    issues.push({
      path: ['run', 'warmup'],
      message:
        'expected no traffic.growth with run.warmup until steady: growth counts from the start of the clock, so the rate the run measures would depend on how long the warm-up took, and shrinking traffic may die out before the caches settle; warm for a fixed time instead (run.warmup: {duration: 30m})',
    });
  }
  return issues;
}

/**
 * A flow warm-up (count, share or time) that uses the whole run leaves no request to measure:
 * every hit ratio and latency would be undefined (shown as "–", never as 0.00 %). Refused
 * where the file (or the command line) says so in the warm-up's own unit: a count against
 * run.requests, a time against run.duration, a share of 100 %. A count against a duration,
 * or a time against a count, is only known at the run's end, which then warns.
 */
export function warmupCoversRunProblem(run: { requests?: number; durationMs?: number; warmup: Warmup }): string | null {
  const { warmup } = run;
  const advice = 'no request would be measured; shorten run.warmup, lengthen the run, or warm the caches alone before it (run.warmup: {requests: N})';
  if (warmup.kind === 'requests' && run.requests !== undefined && warmup.requests >= run.requests) {
    return `expected a warm-up shorter than the run's ${run.requests.toLocaleString('en-US')} requests, found ${warmup.requests.toLocaleString('en-US')}: ${advice}`;
  }
  if (warmup.kind === 'time' && run.durationMs !== undefined && warmup.ms >= run.durationMs) {
    return `expected a warm-up shorter than the run's ${run.durationMs / 1000} s, found ${warmup.ms / 1000} s: ${advice}`;
  }
  if (warmup.kind === 'fraction' && warmup.fraction >= 1) return `expected a share of the run below 100 %, found ${warmup.fraction * 100} %: ${advice}`;
  return null;
}

/**
 * `cdnsim run --warmup`: the scalar forms of run.warmup from the command line (`steady`,
 * `25%`, `500000`, `60s`, `0`), or a message saying what was expected.
 */
export function parseWarmupFlag(text: string): { ok: true; warmup: Warmup } | { ok: false; message: string } {
  const trimmed = text.trim();
  const parsed = warmupSchema.safeParse(/^\d+$/.test(trimmed) ? Number(trimmed) : trimmed);
  if (parsed.success) return { ok: true, warmup: parsed.data };
  return { ok: false, message: `--warmup: expected steady, a request count such as 500000, a share such as 25% or a simulated time such as 60s, found "${text}"` };
}

/**
 * The scenario with `warmup` in place of its run.warmup (--warmup); a steady warm-up with
 * timed incidents or flash crowds is refused as the scenario file would be.
 */
export function withWarmup<S extends { run: { warmup: Warmup }; incidents: readonly unknown[]; traffic: { flashCrowds: readonly unknown[]; growth: { rate: number } } }>(
  scenario: S,
  warmup: Warmup | undefined,
): S {
  if (warmup === undefined) return scenario;
  const [issue] = steadyWarmupIssues(warmup, clockedParts(scenario));
  if (issue !== undefined) throw new UserError(`--warmup steady: ${issue.message.replace(/^expected no (.*?) with run\.warmup until steady: /, 'the scenario has $1: ')}`);
  return { ...scenario, run: { ...scenario.run, warmup } };
}

export function clockedParts(scenario: { incidents: readonly unknown[]; traffic: { flashCrowds: readonly unknown[]; growth: { rate: number } } }): ClockedParts {
  return { incidents: scenario.incidents, flashCrowds: scenario.traffic.flashCrowds, growthRate: scenario.traffic.growth.rate };
}
