import { normaliseQuery, queryParameterName } from './cacheKey.js';

/**
 * How a CDN's cache key treats a class's query parameters, beyond spec 4.3.1 (which sorts
 * them and keeps every one, so parameter order never splits the cache but every distinct
 * value does):
 * - `keep`: the spec's default, every parameter in the key, sorted;
 * - `strip-tracking`: the class's tracking parameters (its workload's `queries.tracking`,
 *   `utm_source`, `fbclid`, …) are left out of the key, the rest kept and sorted;
 * - `ignore`: the named parameters are left out of the key.
 * The origin still receives the full URL; only which requests share a cache entry changes.
 */
export type QueryHandling =
  | { readonly kind: 'keep' }
  | { readonly kind: 'strip-tracking' }
  | { readonly kind: 'ignore'; readonly names: readonly string[] };

export const KEEP_QUERY: QueryHandling = Object.freeze({ kind: 'keep' });
export const STRIP_TRACKING_QUERY: QueryHandling = Object.freeze({ kind: 'strip-tracking' });

/** The handling as a scenario writes it: `keep`, `strip-tracking` or `{ignore: [names]}` (reports, serialisation). */
export function queryHandlingInput(handling: QueryHandling): 'keep' | 'strip-tracking' | { ignore: string[] } {
  return handling.kind === 'ignore' ? { ignore: [...handling.names] } : handling.kind;
}

/** The parameter names `handling` leaves out of the key of a class whose tracking parameters are `tracking`. */
export function ignoredParameters(handling: QueryHandling, tracking: readonly string[]): ReadonlySet<string> {
  if (handling.kind === 'keep') return new Set();
  return new Set(handling.kind === 'strip-tracking' ? tracking : handling.names);
}

/**
 * `query` (no `?`) without the segments whose parameter name is in `names`, the others in
 * their order, byte for byte. Names are compared as 4.3.1's sort compares them (form-decoded),
 * so `utm%5Fsource` is `utm_source`. Never throws.
 */
export function withoutParameters(query: string, names: ReadonlySet<string>): string {
  if (query === '' || names.size === 0) return query;
  let result = '';
  for (const segment of query.split('&')) {
    if (segment === '' || names.has(queryParameterName(segment))) continue;
    result += result === '' ? segment : `&${segment}`;
  }
  return result;
}

/**
 * The query part of the cache key of a request whose query is `query` (no `?`), under a
 * handling that ignores `ignored`: those parameters removed, then the policy engine's own
 * query rule (normaliseQuery, what cacheKey puts in `query`: spec 4.3.1, sorted by name,
 * empty segments dropped); '' when nothing is left, so the request shares the key of the
 * bare path.
 */
export function queryKeyPart(query: string, ignored: ReadonlySet<string>): string {
  return normaliseQuery(withoutParameters(query, ignored));
}
