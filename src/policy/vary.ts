import { splitList, type HeaderFields } from './headers.js';

/**
 * Selecting a stored response by its Vary field (RFC 9111 §4.1). Pure: header fields in,
 * a verdict out. Field names are lower case (as `normaliseHeaders` keeps them).
 */

/** What a cache kept of a stored response for Vary: its header fields and the request that produced it. */
export interface VaryingResponse {
  readonly responseHeaders: HeaderFields;
  readonly requestHeaders: HeaderFields;
}

/**
 * A field value as Vary compares it: list members trimmed and joined with "," (RFC 9111 §4.1
 * allows normalising whitespace and combining field lines, RFC 9110 §5.3); `undefined` when
 * the request has no such field.
 */
function normalisedField(headers: HeaderFields, name: string): string | undefined {
  const value = headers.get(name);
  return value === undefined ? undefined : splitList(value).join(',');
}

/**
 * RFC 9111 §4.1: may `stored` answer a request with `requestHeaders`? Every field the stored
 * response's Vary names (case-insensitively) must have the same normalised value in both
 * requests, absent counting as a value of its own; `Vary: *` never matches.
 */
export function varyMatches(stored: VaryingResponse, requestHeaders: HeaderFields): boolean {
  for (const name of splitList(stored.responseHeaders.get('vary') ?? '')) {
    const field = name.toLowerCase();
    if (field === '*') return false;
    if (normalisedField(stored.requestHeaders, field) !== normalisedField(requestHeaders, field)) return false;
  }
  return true;
}

/**
 * Do two stored responses occupy the same variant, so that the newer replaces the older
 * (RFC 9111 §4.1, §3.2)? Each must match the other's request.
 */
export function sameVariant(a: VaryingResponse, b: VaryingResponse): boolean {
  return varyMatches(a, b.requestHeaders) && varyMatches(b, a.requestHeaders);
}
