import { parseDictionary, Token } from 'structured-headers';
import { interpretDirectives, type CacheControl } from './cacheControl.js';

/**
 * CDN-Cache-Control (RFC 9213): cache directives addressed to CDN caches only, written as a
 * Structured Fields Dictionary (RFC 8941). When the field is present and valid, a CDN cache
 * uses it instead of Cache-Control and Expires (RFC 9213 §2.1); when it does not parse as a
 * Dictionary it is ignored entirely (RFC 9213 §2.1, "invalid … MUST be ignored").
 */
export type CdnCacheControlReading =
  | { readonly status: 'absent' }
  | { readonly status: 'invalid'; readonly problem: string }
  | { readonly status: 'valid'; readonly cacheControl: CacheControl; readonly ignoredMembers: readonly string[] };

/** Directives whose value is an Integer of seconds; the rest are Booleans (RFC 9213 §2.1 maps them to RFC 9111's). */
const INTEGER_DIRECTIVES = new Set(['max-age', 's-maxage', 'stale-while-revalidate', 'stale-if-error']);
/** Directives whose value is a String of field names (qualified forms, RFC 9111 §5.2.2.4 and §5.2.2.7). */
const FIELD_LIST_DIRECTIVES = new Set(['private', 'no-cache']);

export function readCdnCacheControl(value: string | undefined): CdnCacheControlReading {
  if (value === undefined) return { status: 'absent' };
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch (error) {
    return { status: 'invalid', problem: error instanceof Error ? error.message : String(error) };
  }
  // Only a valid, non-empty field takes the place of Cache-Control (RFC 9213 §2.1).
  if (dictionary.size === 0) return { status: 'invalid', problem: 'the field is empty' };
  const directives = new Map<string, string | true>();
  const ignoredMembers: string[] = [];
  for (const [name, member] of dictionary) {
    const bare = Array.isArray(member[0]) ? undefined : member[0];
    if (INTEGER_DIRECTIVES.has(name)) {
      // A directive with a value of the wrong type is ignored, not the whole field.
      if (typeof bare === 'number' && Number.isInteger(bare) && bare >= 0 && !isDecimalMember(value, name)) directives.set(name, String(bare));
      else ignoredMembers.push(name);
    } else if (bare === true) {
      directives.set(name, true);
    } else if (FIELD_LIST_DIRECTIVES.has(name) && typeof bare === 'string') {
      directives.set(name, bare);
    } else if (bare instanceof Token || typeof bare === 'string' || typeof bare === 'number') {
      // Unknown extensions with a value are kept like Cache-Control extensions (RFC 9111 §5.2.3).
      directives.set(name, bare instanceof Token ? bare.toString() : String(bare));
    } else {
      ignoredMembers.push(name);
    }
  }
  return { status: 'valid', cacheControl: interpretDirectives(directives), ignoredMembers };
}

/**
 * structured-headers gives Integers and Decimals alike as JS numbers, so `max-age=60.0`
 * (a Decimal, RFC 8941 §3.3.2) would pass as 60; the member's own text tells them apart.
 */
function isDecimalMember(fieldValue: string, name: string): boolean {
  // `name` is one of INTEGER_DIRECTIVES: letters and hyphens, nothing to escape.
  return new RegExp(`(?:^|,)\\s*${name}=-?\\d+\\.`).test(fieldValue);
}
