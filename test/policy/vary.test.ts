import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import { languagePreferences, sameVariant, varyMatches, type VaryingResponse } from '../../src/policy/vary.js';

const FC_OPTIONS = { numRuns: 300, seed: 9111 };
const stored = (vary: string | undefined, request: HeaderInput): VaryingResponse => ({
  responseHeaders: normaliseHeaders(vary === undefined ? {} : { Vary: vary }),
  requestHeaders: normaliseHeaders(request),
});

describe('varyMatches (RFC 9111 §4.1)', () => {
  it.each<[string, string | undefined, HeaderInput, HeaderInput, boolean]>([
    ['no Vary matches any request', undefined, { 'Accept-Language': 'en' }, { 'Accept-Language': 'fr' }, true],
    ['the same value matches', 'Accept-Language', { 'Accept-Language': 'en' }, { 'Accept-Language': 'en' }, true],
    ['a different value does not match', 'Accept-Language', { 'Accept-Language': 'en' }, { 'Accept-Language': 'fr' }, false],
    ['absent in both requests matches', 'Accept-Language', {}, {}, true],
    ['absent in one request only does not match', 'Accept-Language', { 'Accept-Language': 'en' }, {}, false],
    ['present in the new request only does not match', 'Accept-Language', {}, { 'Accept-Language': 'en' }, false],
    ['Vary names are case-insensitive', 'ACCEPT-language', { 'Accept-Language': 'en' }, { 'accept-language': 'en' }, true],
    ['whitespace between list members is normalised', 'Accept-Encoding', { 'Accept-Encoding': 'gzip,br' }, { 'Accept-Encoding': 'gzip ,  br' }, true],
    ['member order is not normalised', 'Accept-Encoding', { 'Accept-Encoding': 'gzip, br' }, { 'Accept-Encoding': 'br, gzip' }, false],
    ['every listed field must match', 'Accept-Language, Accept-Encoding', { 'Accept-Language': 'en', 'Accept-Encoding': 'gzip' }, { 'Accept-Language': 'en', 'Accept-Encoding': 'br' }, false],
    ['Vary: * never matches, even the same request', '*', { Foo: '1' }, { Foo: '1' }, false],
    ['* among other names never matches', 'Foo, *', { Foo: '1' }, { Foo: '1' }, false],
    ['an empty Vary matches', '', { Foo: '1' }, { Foo: '2' }, true],
  ])('RFC 9111 §4.1: %s', (_name, vary, storedRequest, presented, expected) => {
    expect(varyMatches(stored(vary, storedRequest), normaliseHeaders(presented))).toBe(expected);
  });

  it('RFC 9110 §5.3: Vary field lines combine: two lines name both fields', () => {
    const entry: VaryingResponse = { responseHeaders: normaliseHeaders([['Vary', 'Foo'], ['Vary', 'Bar']]), requestHeaders: normaliseHeaders({ Foo: '1', Bar: '1' }) };
    expect(varyMatches(entry, normaliseHeaders({ Foo: '1', Bar: '2' }))).toBe(false);
    expect(varyMatches(entry, normaliseHeaders({ Foo: '1', Bar: '1' }))).toBe(true);
  });
});

describe('sameVariant (RFC 9111 §4.1)', () => {
  it('RFC 9111 §4.1: responses for the same selecting values are one variant; different values are two', () => {
    expect(sameVariant(stored('Accept-Language', { 'Accept-Language': 'en' }), stored('Accept-Language', { 'Accept-Language': 'en' }))).toBe(true);
    expect(sameVariant(stored('Accept-Language', { 'Accept-Language': 'en' }), stored('Accept-Language', { 'Accept-Language': 'fr' }))).toBe(false);
  });

  it('RFC 9111 §4.1: a response that now varies on a field replaces the old one only when it matches both ways', () => {
    expect(sameVariant(stored(undefined, { Foo: '1' }), stored('Foo', { Foo: '1' }))).toBe(true);
    expect(sameVariant(stored(undefined, { Foo: '1' }), stored('Foo', { Foo: '2' }))).toBe(false);
  });
});

describe('varyMatches properties', () => {
  const token = fc.constantFrom('accept', 'accept-language', 'accept-encoding', 'foo', 'bar', 'cookie');
  const value = fc.constantFrom('en', 'fr', 'gzip, br', 'gzip,br', ' 1 ', '');
  const request = fc.dictionary(token, value, { maxKeys: 4 });
  const vary = fc.array(fc.oneof(token, fc.constant('*')), { maxLength: 4 }).map((names) => names.join(', '));

  it('RFC 9111 §4.1: a stored response matches its own request unless it says Vary: *', () => {
    fc.assert(
      fc.property(vary, request, (names, headers) => varyMatches(stored(names, headers), normaliseHeaders(headers)) === !names.split(', ').includes('*')),
      FC_OPTIONS,
    );
  });

  it('RFC 9111 §4.1: sameVariant is symmetric', () => {
    fc.assert(
      fc.property(vary, request, vary, request, (va, ra, vb, rb) => sameVariant(stored(va, ra), stored(vb, rb)) === sameVariant(stored(vb, rb), stored(va, ra))),
      FC_OPTIONS,
    );
  });
});

describe('Accept-Language by its semantics (RFC 9111 §4.1, RFC 9110 §12.5.4)', () => {
  const byLanguage = (request: string, contentLanguage?: string): VaryingResponse => ({
    responseHeaders: normaliseHeaders(contentLanguage === undefined ? { Vary: 'Accept-Language' } : { Vary: 'Accept-Language', 'Content-Language': contentLanguage }),
    requestHeaders: normaliseHeaders({ 'Accept-Language': request }),
  });
  const matches = (stored: VaryingResponse, request: string) => varyMatches(stored, normaliseHeaders({ 'Accept-Language': request }));

  it.each<[string, string, boolean]>([
    ['equal weights in another order', 'de, en', true],
    ['another case (RFC 4647 §2)', 'eN, De', true],
    ['q=1 written out', 'en;q=1, de', true],
    ['another weight order', 'en;q=0.5, de', false],
    ['another language', 'fr', false],
  ])('RFC 9110 §12.5.4: "en, de" against %s', (_what, request, expected) => {
    expect(matches(byLanguage('en, de'), request)).toBe(expected);
  });

  it('RFC 9111 §4.1: a stored response in the request\'s most preferred language answers it', () => {
    expect(matches(byLanguage('en, de', 'de'), 'fr;q=0.5, de;q=1.0')).toBe(true);
    expect(matches(byLanguage('en, de', 'de-AT'), 'de')).toBe(true);
    expect(matches(byLanguage('en, de', 'de'), 'fr, de;q=0.9')).toBe(false);
    expect(matches(byLanguage('en, de', 'de'), '*')).toBe(false);
    expect(matches(byLanguage('en, de', 'de, en'), 'de')).toBe(false);
  });

  it('languagePreferences sorts by weight, then range, lower-cased', () => {
    expect(languagePreferences('FR;q=0.5, en-GB, de')).toEqual([
      { range: 'de', q: 1 },
      { range: 'en-gb', q: 1 },
      { range: 'fr', q: 0.5 },
    ]);
  });
});
