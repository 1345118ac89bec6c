import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DELTA_SECONDS_CEILING,
  formatCacheControl,
  parseCacheControl,
  parseDeltaSeconds,
  type CacheControl,
} from '../../src/policy/cacheControl.js';

const FC_OPTIONS = { numRuns: 400, seed: 9111 };

/** The typed fields a case checks; everything not listed must have its empty/default value. */
type Expected = Partial<Omit<CacheControl, 'directives'>> & { directives?: Record<string, string | true> };

const EMPTY: Omit<CacheControl, 'directives'> = {
  maxAge: undefined,
  sMaxAge: undefined,
  public: false,
  private: false,
  privateFields: undefined,
  noStore: false,
  noCache: false,
  noCacheFields: undefined,
  mustRevalidate: false,
  proxyRevalidate: false,
  mustUnderstand: false,
  immutable: false,
  staleWhileRevalidate: undefined,
  staleIfError: undefined,
  maxStale: undefined,
  minFresh: undefined,
  onlyIfCached: false,
  invalid: [],
};

function expectParsed(value: string | undefined, expected: Expected): void {
  const parsed = parseCacheControl(value);
  const { directives, ...typed } = parsed;
  const { directives: expectedDirectives, ...expectedTyped } = expected;
  expect(typed).toEqual({ ...EMPTY, ...expectedTyped });
  if (expectedDirectives) expect(Object.fromEntries(directives)).toEqual(expectedDirectives);
}

describe('parseCacheControl: syntax (RFC 9111 §5.2)', () => {
  it.each<[string, string | undefined, Expected]>([
    ['an absent field has no directives', undefined, { directives: {} }],
    ['an empty field has no directives', '', { directives: {} }],
    ['empty list members are dropped (RFC 9110 §5.6.1)', ' , ,, ', { directives: {} }],
    ['a bare directive', 'public', { public: true, directives: { public: true } }],
    ['a directive with a token argument', 'max-age=60', { maxAge: 60, directives: { 'max-age': '60' } }],
    ['names are case-insensitive', 'MAX-AGE=60, Public, No-Store', { maxAge: 60, public: true, noStore: true, directives: { 'max-age': '60', public: true, 'no-store': true } }],
    ['a quoted argument is accepted: max-age="60"', 'max-age="60"', { maxAge: 60, directives: { 'max-age': '60' } }],
    ['quoted-pair escapes are resolved (RFC 9110 §5.6.4)', 'max-age="6\\0"', { maxAge: 60, directives: { 'max-age': '60' } }],
    [
      'a max-age inside a quoted extension argument is not a directive',
      'extension="max-age=3600", max-age=1',
      { maxAge: 1, directives: { extension: 'max-age=3600', 'max-age': '1' } },
    ],
    ['a comma inside a quoted argument does not split the list', 'foo="a, b", bar', { directives: { foo: 'a, b', bar: true } }],
    ['whitespace around members is ignored', '  max-age=60 ,\tpublic  ', { maxAge: 60, public: true }],
    ['`max-age =3600` is not a directive named max-age (the name must be a bare token)', 'max-age =3600', { directives: {} }],
    ['a member with an empty name is dropped', '=60, public', { public: true, directives: { public: true } }],
    ['unknown extensions are kept (RFC 9111 §5.2.3)', 'community="UCI", x-ext', { directives: { community: 'UCI', 'x-ext': true } }],
  ])('RFC 9111 §5.2: %s', (_name, value, expected) => {
    expectParsed(value, expected);
  });

  it.each<[string, string, Expected]>([
    ['max-age: the first occurrence wins', 'max-age=60, max-age=10', { maxAge: 60, directives: { 'max-age': '60' } }],
    ['the first occurrence wins across letter case', 'Max-Age=5, max-age=600', { maxAge: 5 }],
    ['a later valid value does not repair an earlier invalid one', 'max-age=abc, max-age=60', { maxAge: 0, invalid: ['max-age'] }],
  ])('RFC 9111 §4.2.1: %s', (_name, value, expected) => {
    expectParsed(value, expected);
  });
});

describe('parseCacheControl: delta-seconds (RFC 9111 §1.2.2, §4.2.1)', () => {
  it.each<[string, string, Expected]>([
    ['letters are invalid: max-age 0 (stale), listed in invalid', 'max-age=abc', { maxAge: 0, invalid: ['max-age'] }],
    ['a negative number is invalid', 'max-age=-1', { maxAge: 0, invalid: ['max-age'] }],
    ['a fraction is invalid', 'max-age=1.5', { maxAge: 0, invalid: ['max-age'] }],
    ['a missing argument is invalid', 'max-age', { maxAge: 0, invalid: ['max-age'] }],
    ['an empty argument is invalid', 'max-age=', { maxAge: 0, invalid: ['max-age'] }],
    ['a space inside the quotes is invalid', 'max-age=" 60"', { maxAge: 0, invalid: ['max-age'] }],
    ['an invalid s-maxage is 0 as well', 's-maxage=soon', { sMaxAge: 0, invalid: ['s-maxage'] }],
    ['an invalid stale-while-revalidate is absent and listed', 'stale-while-revalidate=x', { staleWhileRevalidate: undefined, invalid: ['stale-while-revalidate'] }],
    ['leading zeros are fine', 'max-age=007', { maxAge: 7 }],
    ['0 is valid', 'max-age=0', { maxAge: 0 }],
    ['2^31 − 1 is kept', 'max-age=2147483647', { maxAge: 2_147_483_647 }],
    ['2^31 is kept', 'max-age=2147483648', { maxAge: DELTA_SECONDS_CEILING }],
    ['2^31 + 1 becomes 2^31', 'max-age=2147483649', { maxAge: DELTA_SECONDS_CEILING }],
    ['a huge value becomes 2^31', `max-age=${'9'.repeat(400)}`, { maxAge: DELTA_SECONDS_CEILING }],
  ])('RFC 9111 §1.2.2: %s', (_name, value, expected) => {
    expectParsed(value, expected);
  });

  it.each<[string, number | undefined]>([
    ['0', 0],
    ['60', 60],
    ['007', 7],
    ['2147483648', 2_147_483_648],
    ['99999999999', 2_147_483_648],
    ['', undefined],
    [' 1', undefined],
    ['1 ', undefined],
    ['+1', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['0x10', undefined],
    ['١٢', undefined],
  ])('RFC 9111 §1.2.2: parseDeltaSeconds(%j) = %s', (value, expected) => {
    expect(parseDeltaSeconds(value)).toBe(expected);
  });

  it('RFC 9111 §1.2.2: the ceiling is 2^31', () => {
    expect(DELTA_SECONDS_CEILING).toBe(2 ** 31);
  });
});

describe('parseCacheControl: response directives (RFC 9111 §5.2.2, RFC 5861, RFC 8246)', () => {
  it.each<[string, string, Expected]>([
    ['§5.2.2.10: s-maxage', 's-maxage=600, max-age=60', { sMaxAge: 600, maxAge: 60 }],
    ['§5.2.2.7: bare private', 'private', { private: true, privateFields: undefined }],
    ['§5.2.2.7: qualified private="Set-Cookie" names lower-cased fields', 'private="Set-Cookie"', { private: true, privateFields: ['set-cookie'] }],
    ['§5.2.2.7: qualified private with two fields', 'private="Set-Cookie, X-User"', { private: true, privateFields: ['set-cookie', 'x-user'] }],
    ['§5.2.2.7: the token form of private names one field', 'private=Set-Cookie', { private: true, privateFields: ['set-cookie'] }],
    ['§5.2.2.7: private="" names no field, so it is a bare private', 'private=""', { private: true, privateFields: undefined }],
    ['§5.2.2.4: bare no-cache', 'no-cache', { noCache: true, noCacheFields: undefined }],
    ['§5.2.2.4: qualified no-cache="a, b"', 'no-cache="a, b"', { noCache: true, noCacheFields: ['a', 'b'] }],
    ['§5.2.2.5: no-store', 'no-store', { noStore: true }],
    ['§5.2.2.2: must-revalidate', 'must-revalidate', { mustRevalidate: true }],
    ['§5.2.2.8: proxy-revalidate', 'proxy-revalidate', { proxyRevalidate: true }],
    ['§5.2.2.3: must-understand', 'must-understand, no-store', { mustUnderstand: true, noStore: true }],
    ['§5.2.2.9: public', 'public', { public: true }],
    ['RFC 8246: immutable', 'public, max-age=31536000, immutable', { public: true, maxAge: 31_536_000, immutable: true }],
    ['RFC 5861 §3 and §4: stale-while-revalidate and stale-if-error', 'max-age=60, stale-while-revalidate=30, stale-if-error=600', { maxAge: 60, staleWhileRevalidate: 30, staleIfError: 600 }],
    [
      'spec 8.1 row 5 as cdnsim completes it',
      'no-store, no-cache, must-revalidate',
      { noStore: true, noCache: true, mustRevalidate: true },
    ],
  ])('RFC 9111 %s', (_name, value, expected) => {
    expectParsed(value, expected);
  });
});

describe('parseCacheControl: request directives (RFC 9111 §5.2.1)', () => {
  it.each<[string, string, Expected]>([
    ['§5.2.1.2: max-stale without a value accepts any staleness', 'max-stale', { maxStale: Infinity }],
    ['§5.2.1.2: max-stale=30', 'max-stale=30', { maxStale: 30 }],
    ['§5.2.1.2: max-stale="30" (quoted)', 'max-stale="30"', { maxStale: 30 }],
    ['§5.2.1.2: an invalid max-stale accepts no staleness and is listed', 'max-stale=soon', { maxStale: undefined, invalid: ['max-stale'] }],
    ['§5.2.1.3: min-fresh=20', 'min-fresh=20', { minFresh: 20 }],
    ['§5.2.1.3: an invalid min-fresh is absent and listed', 'min-fresh=-5', { minFresh: undefined, invalid: ['min-fresh'] }],
    ['§5.2.1.7: only-if-cached', 'only-if-cached', { onlyIfCached: true }],
    ['§5.2.1.1: request max-age=0', 'max-age=0', { maxAge: 0 }],
    ['§5.2.1.4: request no-cache', 'no-cache', { noCache: true }],
    ['§5.2.1.5: request no-store', 'no-store', { noStore: true }],
    ['several request directives together', 'max-age=10, MIN-FRESH=5, max-stale=2, only-if-cached', { maxAge: 10, minFresh: 5, maxStale: 2, onlyIfCached: true }],
  ])('RFC 9111 %s', (_name, value, expected) => {
    expectParsed(value, expected);
  });
});

describe('formatCacheControl (canonical form)', () => {
  it.each<[string, string]>([
    ['MAX-AGE=60, Public', 'max-age=60, public'],
    ['max-age="60"', 'max-age=60'],
    ['foo="a b", bar=tok', 'foo="a b", bar=tok'],
    ['x="say \\"hi\\""', 'x="say \\"hi\\""'],
    ['x="back\\\\slash"', 'x="back\\\\slash"'],
    ['e=""', 'e=""'],
    ['extension="max-age=3600", max-age=1', 'extension="max-age=3600", max-age=1'],
    ['max-age=60, max-age=10', 'max-age=60'],
    ['', ''],
  ])('RFC 9111 §5.2: formatCacheControl(parse(%j)) = %j', (value, expected) => {
    expect(formatCacheControl(parseCacheControl(value))).toBe(expected);
  });
});

describe('parseCacheControl properties', () => {
  const arbitraryText = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('=', '"', '\\', ',', ' ', 'max-age', 's-maxage', 'private', 'no-cache', 'max-stale', '60', '-1', '2147483649'),
    ),
    maxLength: 60,
  });

  it('RFC 9111 §5.2: never throws on arbitrary strings; every number it yields is a valid delta-seconds', () => {
    fc.assert(
      fc.property(arbitraryText, (value) => {
        const parsed = parseCacheControl(value);
        formatCacheControl(parsed);
        const numbers = [parsed.maxAge, parsed.sMaxAge, parsed.staleWhileRevalidate, parsed.staleIfError, parsed.minFresh];
        return numbers.every((n) => n === undefined || (Number.isInteger(n) && n >= 0 && n <= DELTA_SECONDS_CEILING));
      }),
      FC_OPTIONS,
    );
  });

  const KNOWN_NAMES = [
    'max-age', 's-maxage', 'public', 'private', 'no-store', 'no-cache', 'must-revalidate', 'proxy-revalidate', 'must-understand',
    'immutable', 'stale-while-revalidate', 'stale-if-error', 'max-stale', 'min-fresh', 'only-if-cached',
  ];
  const tokenChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789!#$%&\'*+-.^_`|~'.split(''));
  const name = fc.oneof(fc.constantFrom(...KNOWN_NAMES), fc.string({ unit: tokenChar, minLength: 1, maxLength: 8 }));
  const argument = fc.oneof(
    fc.constant<true>(true),
    fc.integer({ min: 0, max: 3_000_000_000 }).map(String),
    fc.string({ unit: tokenChar, minLength: 1, maxLength: 8 }),
    fc.string({ unit: fc.oneof(tokenChar, fc.constantFrom(' ', ',', '"', '\\', '=', ';', 'é', '\t')), maxLength: 10 }),
  );
  const directiveList = fc.uniqueArray(fc.tuple(name, argument), { selector: ([n]) => n, maxLength: 8 });

  /** Renders a list; `upper` upper-cases the names; arguments that are not tokens are quoted. */
  const render = (list: readonly (readonly [string, string | true])[], upper = false): string =>
    list
      .map(([n, arg]) => {
        const shown = upper ? n.toUpperCase() : n;
        if (arg === true) return shown;
        if (/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(arg)) return `${shown}=${arg}`;
        return `${shown}="${arg.replace(/(["\\])/g, '\\$1')}"`;
      })
      .join(', ');

  it('RFC 9111 §5.2: names are case-insensitive: upper-casing every name gives the same typed view', () => {
    fc.assert(
      fc.property(directiveList, (list) => {
        expect(parseCacheControl(render(list, true))).toEqual(parseCacheControl(render(list)));
      }),
      FC_OPTIONS,
    );
  });

  it('RFC 9111 §5.2: a generated list parses to exactly its directives', () => {
    fc.assert(
      fc.property(directiveList, (list) => {
        expect(parseCacheControl(render(list)).directives).toEqual(new Map(list));
      }),
      FC_OPTIONS,
    );
  });

  it('RFC 9111 §5.2: parse → formatCacheControl → parse is the identity on the directive map', () => {
    fc.assert(
      fc.property(directiveList, (list) => {
        const first = parseCacheControl(render(list));
        const second = parseCacheControl(formatCacheControl(first));
        expect(second.directives).toEqual(first.directives);
        expect(second).toEqual(first);
      }),
      FC_OPTIONS,
    );
  });
});
