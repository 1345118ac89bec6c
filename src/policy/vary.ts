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
  if (value === undefined) return undefined;
  return name === 'accept-language' ? languagePreferences(value).map(({ range, q }) => `${range};q=${q}`).join(',') : splitList(value).join(',');
}

/**
 * Accept-Language as its semantics read it (RFC 9110 §12.5.4, §12.4.2): language ranges are
 * case-insensitive (RFC 4647 §2), each has a weight (1 without `q`), and ranges of equal weight
 * are equally preferred, so their order carries no meaning. Sorted by weight, then range.
 */
export function languagePreferences(value: string): { range: string; q: number }[] {
  const preferences = splitList(value).map((member) => {
    const [range, ...params] = member.split(';').map((part) => part.trim());
    const weight = params.map((param) => /^q=([01](?:\.\d{0,3})?)$/i.exec(param)).find((match) => match !== null);
    return { range: range.toLowerCase(), q: weight ? Number(weight[1]) : 1 };
  });
  return preferences.sort((a, b) => b.q - a.q || (a.range < b.range ? -1 : a.range > b.range ? 1 : 0));
}

/**
 * RFC 9111 §4.1 lets a cache use what it knows of a field's semantics: a stored response in
 * one language (Content-Language) answers a request whose most preferred language ranges
 * include it (RFC 4647 §3.3.1 basic filtering), since the origin would choose that language
 * for the request whatever else it has.
 */
function storedLanguageIsPreferred(stored: VaryingResponse, requestHeaders: HeaderFields): boolean {
  const contentLanguage = splitList(stored.responseHeaders.get('content-language') ?? '');
  const accept = requestHeaders.get('accept-language');
  if (contentLanguage.length !== 1 || accept === undefined) return false;
  const preferences = languagePreferences(accept);
  const top = preferences[0]?.q ?? 0;
  if (top <= 0) return false;
  const tag = contentLanguage[0].toLowerCase();
  return preferences.some(({ range, q }) => q === top && range !== '*' && (tag === range || tag.startsWith(`${range}-`)));
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
    if (normalisedField(stored.requestHeaders, field) === normalisedField(requestHeaders, field)) continue;
    if (field !== 'accept-language' || !storedLanguageIsPreferred(stored, requestHeaders)) return false;
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
