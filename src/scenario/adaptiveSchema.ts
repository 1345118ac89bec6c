import { z } from 'zod';
import { quantity } from '../quantitySchema.js';
import { nearest } from '../suggest.js';
import { DURATION_EXPECTED, FRACTION_EXPECTED, parseDuration, parseFraction } from '../units.js';

/**
 * The adaptive TTL controller's parameters (spec 1.2 item 6: "adjustment of TTL values …
 * when hit rates drop"), as the scenario key `cdn.adaptiveTtl` and a custom strategy's
 * `adaptive` take them. The controller itself is src/cdn/adaptiveController.ts; the rule
 * and why each default is what it is: docs/ttl-strategies.md "The adaptive controller".
 *
 * ```yaml
 * cdn:
 *   adaptiveTtl:
 *     window: 60s
 *     target: 90%
 *     maxStaleShare: 5%
 *     classes: { html: { maxTtl: 10m } }
 * ```
 */

/** The defaults, in base units (docs/ttl-strategies.md gives the reasons). */
export const ADAPTIVE_DEFAULTS = {
  windowMs: 60_000,
  targetHitRatio: 0.9,
  factor: 2,
  maxTtlMs: 3_600_000,
  maxStaleShare: 0.05,
  startTtlMs: 10_000,
  minRequests: 100,
  queries: 'strip-tracking',
} as const;

/** What the controller does to the query strings of a class below its target (spec 1.2 item 6). */
export type AdaptiveQueryAction = 'strip-tracking' | 'keep';

/** Per-class bounds that replace the controller-wide ones for one content class. */
export interface AdaptiveClassBounds {
  readonly targetHitRatio?: number;
  readonly maxTtlMs?: number;
  readonly maxStaleShare?: number;
}

/** The controller's parameters, resolved (ms, ratios 0..1). */
export interface AdaptiveTtl {
  readonly windowMs: number;
  readonly targetHitRatio: number;
  readonly factor: number;
  readonly maxTtlMs: number;
  readonly maxStaleShare: number;
  readonly startTtlMs: number;
  readonly minRequests: number;
  /**
   * spec 1.2 item 6's "query-string handling": `strip-tracking` leaves the tracking parameters
   * of a class with query strings out of its key once its hit ratio is below the target;
   * `keep` leaves keys alone (lifetimes only).
   */
  readonly queries: AdaptiveQueryAction;
  /** Per content class name (`objects` without content.classes). */
  readonly classes: Readonly<Record<string, AdaptiveClassBounds>>;
}

const duration = (description: string) => quantity((v) => parseDuration(v), DURATION_EXPECTED, description);
const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);
const positiveDuration = (description: string) => duration(description).refine((ms) => ms > 0, { error: 'expected a duration above 0' });

const classBounds = z
  .strictObject({
    target: fraction('CDN hit ratio below which this class\'s TTL is raised').optional(),
    maxTtl: positiveDuration('the longest CDN TTL the controller gives this class').optional(),
    maxStaleShare: fraction('the share of this class\'s responses that may be outdated over a window').optional(),
  })
  .transform((bounds): AdaptiveClassBounds => ({
    ...(bounds.target === undefined ? {} : { targetHitRatio: bounds.target }),
    ...(bounds.maxTtl === undefined ? {} : { maxTtlMs: bounds.maxTtl }),
    ...(bounds.maxStaleShare === undefined ? {} : { maxStaleShare: bounds.maxStaleShare }),
  }));

export const adaptiveTtlSchema = z
  .strictObject({
    window: duration('simulated time over which each class\'s CDN hit ratio and outdated share are measured; the controller acts at the end of each (at least 1s)')
      .refine((ms) => ms >= 1_000, { error: 'expected a window of at least 1s' })
      .default(ADAPTIVE_DEFAULTS.windowMs),
    target: fraction('CDN hit ratio a class should reach; below it its CDN TTL is raised').default(ADAPTIVE_DEFAULTS.targetHitRatio),
    factor: z
      .number({ error: 'expected a number above 1, such as 2' })
      .gt(1, { error: 'expected a factor above 1 (the TTL is multiplied by it when raised and divided by it when lowered)' })
      .max(1000, { error: 'expected a factor of at most 1000' })
      .default(ADAPTIVE_DEFAULTS.factor),
    maxTtl: positiveDuration('the longest CDN TTL the controller gives a class').default(ADAPTIVE_DEFAULTS.maxTtlMs),
    maxStaleShare: fraction('the staleness budget: the share of a class\'s CDN responses over a window that may be older than the origin\'s current version; above it the TTL is lowered').default(
      ADAPTIVE_DEFAULTS.maxStaleShare,
    ),
    startTtl: positiveDuration('the TTL a raise gives a class whose TTL is below it (a class sent max-age=0)').default(ADAPTIVE_DEFAULTS.startTtlMs),
    minRequests: z
      .number({ error: 'expected a whole number such as 100' })
      .int({ error: 'expected a whole number such as 100' })
      .min(1, { error: 'expected at least 1 request' })
      .default(ADAPTIVE_DEFAULTS.minRequests)
      .meta({ description: 'a class with fewer requests reaching the CDN in a window is left as it is (its ratio is noise)' }),
    queries: z
      .enum(['strip-tracking', 'keep'], { error: 'expected strip-tracking (leave a class\'s tracking parameters out of its key when its hit ratio is below the target) or keep (lifetimes only)' })
      .default(ADAPTIVE_DEFAULTS.queries)
      .meta({ description: 'spec 1.2 item 6: what the controller does to the query strings of a class with `queries` whose CDN hit ratio is below its target: strip-tracking or keep' }),
    classes: z.record(z.string(), classBounds).default({}).meta({ description: 'per content class name (`objects` without content.classes): target, maxTtl, maxStaleShare of its own' }),
  })
  .superRefine((adaptive, ctx) => {
    if (adaptive.startTtl > adaptive.maxTtl) ctx.addIssue({ code: 'custom', path: ['startTtl'], message: `expected a startTtl no longer than maxTtl (${adaptive.maxTtl / 1000} s)` });
  })
  .transform(
    (adaptive): AdaptiveTtl => ({
      windowMs: adaptive.window,
      targetHitRatio: adaptive.target,
      factor: adaptive.factor,
      maxTtlMs: adaptive.maxTtl,
      maxStaleShare: adaptive.maxStaleShare,
      startTtlMs: adaptive.startTtl,
      minRequests: adaptive.minRequests,
      queries: adaptive.queries,
      classes: adaptive.classes,
    }),
  )
  .meta({ description: 'spec 1.2 item 6: raise a content class\'s CDN TTL while its hit ratio is below a target, within a staleness budget, and leave its tracking parameters out of its key (docs/ttl-strategies.md)' });

export type AdaptiveTtlInput = z.input<typeof adaptiveTtlSchema>;

/** The controller with every default. */
export const DEFAULT_ADAPTIVE_TTL: AdaptiveTtl = adaptiveTtlSchema.parse({});

/** The resolved parameters written back as scenario input (scenario.json): loading them again gives the same. */
export function adaptiveTtlToInput(adaptive: AdaptiveTtl): AdaptiveTtlInput {
  const ms = (value: number): string => `${value}ms`;
  return {
    window: ms(adaptive.windowMs),
    target: adaptive.targetHitRatio,
    factor: adaptive.factor,
    maxTtl: ms(adaptive.maxTtlMs),
    maxStaleShare: adaptive.maxStaleShare,
    startTtl: ms(adaptive.startTtlMs),
    minRequests: adaptive.minRequests,
    queries: adaptive.queries,
    classes: Object.fromEntries(
      Object.entries(adaptive.classes).map(([name, bounds]) => [
        name,
        {
          ...(bounds.targetHitRatio === undefined ? {} : { target: bounds.targetHitRatio }),
          ...(bounds.maxTtlMs === undefined ? {} : { maxTtl: ms(bounds.maxTtlMs) }),
          ...(bounds.maxStaleShare === undefined ? {} : { maxStaleShare: bounds.maxStaleShare }),
        },
      ]),
    ),
  };
}

/** Class names under `classes` the scenario does not have, each at its key path (below the controller's own). */
export function adaptiveClassProblems(adaptive: AdaptiveTtl, classNames: readonly string[]): { path: (string | number)[]; message: string }[] {
  return Object.keys(adaptive.classes)
    .filter((name) => !classNames.includes(name))
    .map((name) => {
      const suggestion = nearest(name, classNames);
      return {
        path: ['classes', name],
        message: `expected a content class of this scenario (${classNames.join(', ')}), found "${name}"${suggestion ? ` — did you mean "${suggestion}"?` : ''}`,
      };
    });
}
