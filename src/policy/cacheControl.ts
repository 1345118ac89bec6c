import { splitList, unquote } from './headers.js';

/**
 * Cache-Control (RFC 9111 §5.2; spec 2.1, 2.2): a comma-separated list of directives, each
 * a token with an optional `=` argument given as a token or a quoted string. Names are
 * case-insensitive. Unknown directives (extensions, §5.2.3) are kept and otherwise ignored.
 */
export interface CacheControl {
  /** Every directive by lower-case name, argument unquoted (`true` when it has none); the first occurrence wins. */
  readonly directives: ReadonlyMap<string, string | true>;
  /** Seconds; 0 when the argument is not valid delta-seconds (an invalid lifetime means stale, RFC 9111 §4.2.1). */
  readonly maxAge?: number;
  readonly sMaxAge?: number;
  readonly public: boolean;
  readonly private: boolean;
  /** `private="Set-Cookie, X-User"`: only these fields are private (RFC 9111 §5.2.2.7). */
  readonly privateFields?: readonly string[];
  readonly noStore: boolean;
  readonly noCache: boolean;
  /** `no-cache="Set-Cookie"`: only these fields need revalidation (RFC 9111 §5.2.2.4). */
  readonly noCacheFields?: readonly string[];
  readonly mustRevalidate: boolean;
  readonly proxyRevalidate: boolean;
  readonly mustUnderstand: boolean;
  readonly immutable: boolean;
  /** RFC 5861 §3. */
  readonly staleWhileRevalidate?: number;
  /** RFC 5861 §4 (response and request directive). */
  readonly staleIfError?: number;
  /** Request directives (RFC 9111 §5.2.1). `max-stale` without a value accepts any staleness. */
  readonly maxStale?: number;
  readonly minFresh?: number;
  readonly onlyIfCached: boolean;
  /** Directives whose argument was invalid, for explanations. */
  readonly invalid: readonly string[];
}

/** RFC 9111 §1.2.2: a delta-seconds too large to represent is taken as 2^31. */
export const DELTA_SECONDS_CEILING = 2_147_483_648;

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const DELTA_SECONDS = /^[0-9]+$/;

/** delta-seconds (RFC 9111 §1.2.2): digits only; undefined when invalid. */
export function parseDeltaSeconds(value: string): number | undefined {
  if (!DELTA_SECONDS.test(value)) return undefined;
  const seconds = Number(value);
  return seconds > DELTA_SECONDS_CEILING ? DELTA_SECONDS_CEILING : seconds;
}

export function parseCacheControl(value: string | undefined): CacheControl {
  const directives = new Map<string, string | true>();
  if (value !== undefined) {
    for (const member of splitList(value)) {
      const equals = member.indexOf('=');
      const name = (equals < 0 ? member : member.slice(0, equals)).toLowerCase();
      // `max-age =3600` is not a directive named max-age: the name must be a bare token.
      if (!TOKEN.test(name) || directives.has(name)) continue;
      directives.set(name, equals < 0 ? true : unquote(member.slice(equals + 1)));
    }
  }
  return interpretDirectives(directives);
}

/**
 * The typed view of a directive map. Shared by Cache-Control and CDN-Cache-Control, whose
 * directives mean the same (RFC 9213 §2.1).
 */
export function interpretDirectives(directives: ReadonlyMap<string, string | true>): CacheControl {
  const invalid: string[] = [];
  const seconds = (name: string): number | undefined => {
    const argument = directives.get(name);
    if (argument === undefined) return undefined;
    const parsed = argument === true ? undefined : parseDeltaSeconds(argument);
    if (parsed === undefined) invalid.push(name);
    return parsed;
  };
  const flag = (name: string): boolean => directives.has(name);
  const fieldNames = (name: string): readonly string[] | undefined => {
    const argument = directives.get(name);
    if (typeof argument !== 'string') return undefined;
    const fields = splitList(argument).map((field) => field.toLowerCase());
    return fields.length > 0 ? fields : undefined;
  };

  const maxAge = seconds('max-age');
  const sMaxAge = seconds('s-maxage');
  const maxStaleArgument = directives.get('max-stale');
  return {
    directives,
    // An invalid lifetime is treated as already stale (RFC 9111 §4.2.1), not as absent.
    maxAge: directives.has('max-age') ? (maxAge ?? 0) : undefined,
    sMaxAge: directives.has('s-maxage') ? (sMaxAge ?? 0) : undefined,
    public: flag('public'),
    private: flag('private'),
    privateFields: fieldNames('private'),
    noStore: flag('no-store'),
    noCache: flag('no-cache'),
    noCacheFields: fieldNames('no-cache'),
    mustRevalidate: flag('must-revalidate'),
    proxyRevalidate: flag('proxy-revalidate'),
    mustUnderstand: flag('must-understand'),
    immutable: flag('immutable'),
    staleWhileRevalidate: seconds('stale-while-revalidate'),
    staleIfError: seconds('stale-if-error'),
    maxStale: maxStaleArgument === true ? Infinity : maxStaleArgument === undefined ? undefined : seconds('max-stale'),
    minFresh: seconds('min-fresh'),
    onlyIfCached: flag('only-if-cached'),
    invalid,
  };
}

/** The same value in canonical form: lower-case names, `, ` separators, quoted arguments where needed. */
export function formatCacheControl(cacheControl: CacheControl): string {
  const parts: string[] = [];
  for (const [name, argument] of cacheControl.directives) {
    if (argument === true) parts.push(name);
    // Field-name lists of private/no-cache are sent quoted (RFC 9111 §5.2.2.4, §5.2.2.7).
    else if (TOKEN.test(argument) && name !== 'private' && name !== 'no-cache') parts.push(`${name}=${argument}`);
    else parts.push(`${name}="${argument.replace(/(["\\])/g, '\\$1')}"`);
  }
  return parts.join(', ');
}
