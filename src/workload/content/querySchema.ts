import { z } from 'zod';
import { KEEP_QUERY, queryHandlingInput, STRIP_TRACKING_QUERY, type QueryHandling } from '../../policy/queryHandling.js';
import { quantity } from '../../quantitySchema.js';
import { COUNT_EXPECTED, FRACTION_EXPECTED, parseCount, parseFraction } from '../../units.js';

/**
 * A content class's query strings (`content.classes[i].queries`): which requests carry one,
 * and how the CDN's key treats them. A query is a functional part, `page=<n>&sort=<order>`
 * (one of `variants` per object, each its own response), sometimes with its two parameters
 * swapped (spec 4.3.1 sorts them: one key), and sometimes one tracking parameter with one of
 * `trackingValues` values (kept in the key by 4.3.1, so each value is a cache entry of its
 * own, unless `handling` leaves it out).
 *
 * ```yaml
 * queries: { share: 30%, variants: 20, tracking: [utm_source, fbclid] }
 * ```
 */
export interface QuerySpec {
  /** Share of the class's whole-object requests that carry a query string. */
  readonly share: number;
  /** Distinct functional queries per object. */
  readonly variants: number;
  /** Share of query requests whose two functional parameters come in the other order. */
  readonly reorderShare: number;
  /** Tracking parameter names (each query with tracking carries one of them). */
  readonly tracking: readonly string[];
  /** Share of query requests that carry a tracking parameter (0 without `tracking`). */
  readonly trackingShare: number;
  /** Distinct values of each tracking parameter. */
  readonly trackingValues: number;
  /** How the CDN's cache key treats the parameters (a strategy's `query:` overrides it). */
  readonly handling: QueryHandling;
}

/** The functional parameters of every query: `page` (1 … variants) and `sort`. */
export const FUNCTIONAL_PARAMETERS = ['page', 'sort'] as const;

/**
 * Distinct queries per object (variants × 2 orders × (1 + tracking parameters × values)):
 * each handling numbers at most that many key parts per class, in 32 bits (queryKeys.ts).
 */
export const MAX_QUERY_COMBINATIONS = 100_000_000;

const PARAMETER_NAME = /^[A-Za-z0-9_.~-]+$/;
const parameterName = z.string().regex(PARAMETER_NAME, { error: 'expected a query parameter name of letters, digits, "_", ".", "~" or "-", such as utm_source' });

/** `keep`, `strip-tracking` or `{ignore: [names]}`: the YAML of a QueryHandling (a class's `queries.handling`, a strategy's `query`). */
export const queryHandlingSchema = z
  .union(
    [
      z.enum(['keep', 'strip-tracking']),
      z.strictObject({ ignore: z.array(parameterName).min(1, { error: 'expected at least one parameter name' }).meta({ description: 'parameters left out of the cache key' }) }),
    ],
    { error: 'expected keep, strip-tracking or {ignore: [parameter names]}' },
  )
  .transform((input): QueryHandling => (typeof input === 'string' ? (input === 'keep' ? KEEP_QUERY : STRIP_TRACKING_QUERY) : { kind: 'ignore', names: input.ignore }))
  .meta({
    description:
      'how the CDN cache key treats query parameters (default keep): keep (spec 4.3.1: all, sorted), strip-tracking (the class\'s tracking parameters left out), {ignore: [names]} (those left out)',
  });

const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);
const count = (description: string) =>
  quantity(parseCount, COUNT_EXPECTED, description).refine((n) => Number.isInteger(n) && n >= 1, { error: 'expected a whole number of at least 1' });

export const querySpecSchema = z
  .strictObject({
    share: fraction('share of the class\'s requests that carry a query string'),
    variants: count('distinct functional queries (?page=N&sort=S) per object, each its own response').default(10),
    reordered: fraction(
      'share of query requests whose parameters come in another order (spec 4.3.1 sorts them: one key); with traffic.clients, the clients\' queryReorderShare decides the order instead (their browsers key the exact URL)',
    ).default(0.5),
    tracking: z
      .array(parameterName)
      .default([])
      .refine((names) => new Set(names).size === names.length, { error: 'expected each tracking parameter once' })
      .refine((names) => names.every((name) => !(FUNCTIONAL_PARAMETERS as readonly string[]).includes(name)), {
        error: `expected tracking parameters other than the functional ${FUNCTIONAL_PARAMETERS.join(' and ')}`,
      })
      .meta({ description: 'tracking parameter names, e.g. [utm_source, fbclid]: a query with tracking carries one of them' }),
    trackingShare: fraction('share of query requests that carry a tracking parameter').default(0.5),
    trackingValues: count('distinct values of each tracking parameter').default(1000),
    handling: queryHandlingSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    const combinations = spec.variants * 2 * (1 + spec.tracking.length * spec.trackingValues);
    if (combinations > MAX_QUERY_COMBINATIONS) {
      ctx.addIssue({
        code: 'custom',
        path: ['trackingValues'],
        message: `expected at most ${MAX_QUERY_COMBINATIONS.toLocaleString('en-US')} query combinations (variants × 2 orders × (1 + tracking parameters × trackingValues)), found ${combinations.toLocaleString('en-US')}; use fewer variants or tracking values`,
      });
    }
  })
  .transform(
    (spec): QuerySpec => ({
      share: spec.share,
      variants: spec.variants,
      reorderShare: spec.reordered,
      tracking: spec.tracking,
      trackingShare: spec.tracking.length === 0 ? 0 : spec.trackingShare,
      trackingValues: spec.trackingValues,
      handling: spec.handling ?? KEEP_QUERY,
    }),
  )
  .meta({ description: 'query strings on the class\'s requests (spec 4.3.1): functional variants in varying order, and tracking parameters' });

export type QuerySpecInput = z.input<typeof querySpecSchema>;

/** The scenario form of a resolved QuerySpec (serialisation). */
export function querySpecInput(spec: QuerySpec): QuerySpecInput {
  return {
    share: spec.share,
    variants: spec.variants,
    reordered: spec.reorderShare,
    tracking: [...spec.tracking],
    trackingShare: spec.trackingShare,
    trackingValues: spec.trackingValues,
    handling: queryHandlingInput(spec.handling),
  };
}
