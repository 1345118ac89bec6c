import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCdnCacheControl } from '../../src/policy/cdnCacheControl.js';
import { decide } from '../../src/policy/decision.js';
import { DEFAULT_DEPLOYMENT, type CacheLayer } from '../../src/policy/deployment.js';
import { formatHttpDate } from '../../src/policy/httpDate.js';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import { readResponseFacts } from '../../src/policy/responseFacts.js';

const NOW = Date.UTC(2026, 0, 1);
const FC_OPTIONS = { numRuns: 400, seed: 9213 };

const facts = (headers: HeaderInput, layer: CacheLayer) => readResponseFacts({ status: 200, headers: normaliseHeaders(headers) }, layer, NOW);

const decideAt = (headers: HeaderInput, layer: CacheLayer, url = '/page') =>
  decide({
    request: { method: 'GET', url, headers: normaliseHeaders({}) },
    response: { status: 200, headers: normaliseHeaders(headers) },
    deployment: DEFAULT_DEPLOYMENT,
    layer,
    nowMs: NOW,
  });

describe('readCdnCacheControl: the field (RFC 9213 §2.1, RFC 8941 Dictionary)', () => {
  it('RFC 9213 §2.1: an absent field is reported as absent', () => {
    expect(readCdnCacheControl(undefined)).toEqual({ status: 'absent' });
  });

  it.each<[string, string]>([
    ['an upper-case key (keys are lower case in RFC 8941 §3.2)', 'Max-Age=60'],
    ['an empty member', 'max-age=60,,'],
    ['a trailing comma', 'max-age=60,'],
    ['a Cache-Control-style quoted list separator', 'max-age=60; ;'],
    ['a key starting with a digit', '1max-age=60'],
    ['an unterminated string', 'private="Set-Cookie'],
  ])('RFC 9213 §2.1: %s makes the whole field invalid', (_name, value) => {
    const reading = readCdnCacheControl(value);
    expect(reading.status).toBe('invalid');
    if (reading.status === 'invalid') expect(reading.problem).not.toBe('');
  });

  it.each<[string, string, Record<string, unknown>, string[]]>([
    ['an Integer max-age', 'max-age=60', { maxAge: 60 }, []],
    ['s-maxage, stale-while-revalidate and stale-if-error are Integers', 's-maxage=120, stale-while-revalidate=30, stale-if-error=600', { sMaxAge: 120, staleWhileRevalidate: 30, staleIfError: 600 }, []],
    ['Boolean directives', 'public, no-store, must-revalidate, immutable', { public: true, noStore: true, mustRevalidate: true, immutable: true }, []],
    ['private with a String of field names (qualified form)', 'private="Set-Cookie"', { private: true, privateFields: ['set-cookie'] }, []],
    ['no-cache with a String of field names (qualified form)', 'no-cache="a, b"', { noCache: true, noCacheFields: ['a', 'b'] }, []],
    ['parameters on a member are ignored', 'max-age=60;foo=bar', { maxAge: 60 }, []],
    ['surrounding spaces are allowed', '  max-age=60  ', { maxAge: 60 }, []],
    ['a wrong-typed member is ignored alone: Decimal max-age=60.5', 'max-age=60.5, public', { maxAge: undefined, public: true }, ['max-age']],
    ['a wrong-typed member is ignored alone: String max-age="60"', 'max-age="60", no-store', { maxAge: undefined, noStore: true }, ['max-age']],
    ['a negative Integer is ignored', 'max-age=-1, public', { maxAge: undefined, public: true }, ['max-age']],
    ['a Boolean max-age is ignored', 'max-age=?1', { maxAge: undefined }, ['max-age']],
    ['an Inner List max-age is ignored', 'max-age=(60 30)', { maxAge: undefined }, ['max-age']],
    ['?0 is not the directive (ignored member)', 'public=?0, max-age=5', { public: false, maxAge: 5 }, ['public']],
  ])('RFC 9213 §2.1: %s', (_name, value, expected, ignoredMembers) => {
    const reading = readCdnCacheControl(value);
    expect(reading.status).toBe('valid');
    if (reading.status !== 'valid') return;
    expect(reading.cacheControl).toMatchObject(expected);
    expect(reading.ignoredMembers).toEqual(ignoredMembers);
  });

  it('RFC 8941 §4.2.2: a repeated key keeps its last value (unlike Cache-Control, where the first wins)', () => {
    const reading = readCdnCacheControl('max-age=60, max-age=30');
    expect(reading.status === 'valid' && reading.cacheControl.maxAge).toBe(30);
  });

  it('RFC 9111 §5.2.3 (via RFC 9213 §2.1): unknown extensions with a Token or Integer value are kept', () => {
    const reading = readCdnCacheControl('x-ext=tok, x-num=5, x-flag');
    expect(reading.status).toBe('valid');
    if (reading.status === 'valid') {
      expect(Object.fromEntries(reading.cacheControl.directives)).toEqual({ 'x-ext': 'tok', 'x-num': '5', 'x-flag': true });
    }
  });

  // Suspected bug: structured-headers returns a Decimal 60.0 as the JS number 60, which passes
  // Number.isInteger, so a Decimal is taken for an Integer.
  it('RFC 9213 §2.1 / RFC 8941 §3.3.2: a Decimal max-age=60.0 is wrong-typed and ignored', () => {
    const reading = readCdnCacheControl('max-age=60.0, public');
    expect(reading.status === 'valid' && reading.ignoredMembers).toEqual(['max-age']);
    expect(reading.status === 'valid' && reading.cacheControl.maxAge).toBeUndefined();
  });
});

describe('CDN-Cache-Control in readResponseFacts (RFC 9213 §2.1)', () => {
  const headers = {
    'Cache-Control': 'max-age=60',
    Expires: formatHttpDate(NOW + 3_600_000),
    Date: formatHttpDate(NOW),
    'CDN-Cache-Control': 'max-age=600',
  };

  it.each<CacheLayer>(['edge', 'regional'])('RFC 9213 §2.1: a valid field replaces Cache-Control and Expires at the %s layer', (layer) => {
    const read = facts(headers, layer);
    expect(read.directivesFrom).toBe('CDN-Cache-Control');
    expect(read.cacheControl.maxAge).toBe(600);
    expect(read.expiresMs).toBeUndefined();
    expect(read.cdnCacheControl.status).toBe('valid');
  });

  it('RFC 9213 §2.1: the browser (not a CDN) ignores it and reads Cache-Control and Expires', () => {
    const read = facts(headers, 'browser');
    expect(read.directivesFrom).toBe('Cache-Control');
    expect(read.cacheControl.maxAge).toBe(60);
    expect(read.expiresMs).toBe(NOW + 3_600_000);
  });

  it.each<[string, string]>([
    ['Max-Age=600', 'an upper-case key'],
    ['max-age=600,,', 'an empty member'],
  ])('RFC 9213 §2.1: an invalid field (%s, %s) is ignored entirely, so Cache-Control and Expires apply', (value) => {
    const read = facts({ ...headers, 'CDN-Cache-Control': value }, 'edge');
    expect(read.cdnCacheControl.status).toBe('invalid');
    expect(read.directivesFrom).toBe('Cache-Control');
    expect(read.cacheControl.maxAge).toBe(60);
    expect(read.expiresMs).toBe(NOW + 3_600_000);
  });

  // Suspected bug: an empty field parses as an empty Dictionary and is used, so Cache-Control
  // is ignored and the CDN sees no directives at all.
  it('RFC 9213 §2.1/§2.2: an empty field is ignored (only a valid, non-empty field replaces Cache-Control)', () => {
    const read = facts({ ...headers, 'CDN-Cache-Control': '' }, 'edge');
    expect(read.directivesFrom).toBe('Cache-Control');
    expect(read.cacheControl.maxAge).toBe(60);
  });
});

describe('CDN-Cache-Control in decide (RFC 9213 §2.1; DESIGN)', () => {
  it.each<[string, HeaderInput, Record<CacheLayer, { store: boolean; ttlSeconds?: number }>]>([
    [
      'a CDN max-age replaces Cache-Control max-age at CDN layers only',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'max-age=600' },
      { edge: { store: true, ttlSeconds: 600 }, regional: { store: true, ttlSeconds: 600 }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'a CDN max-age replaces Expires at CDN layers only',
      { Expires: formatHttpDate(NOW + 120_000), Date: formatHttpDate(NOW), 'CDN-Cache-Control': 'max-age=600' },
      { edge: { store: true, ttlSeconds: 600 }, regional: { store: true, ttlSeconds: 600 }, browser: { store: true, ttlSeconds: 120 } },
    ],
    [
      'CDN no-store stops the CDN but not the browser',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'no-store' },
      { edge: { store: false }, regional: { store: false }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'Cache-Control no-store does not stop a CDN told max-age by CDN-Cache-Control',
      { 'Cache-Control': 'no-store', 'CDN-Cache-Control': 'max-age=600' },
      { edge: { store: true, ttlSeconds: 600 }, regional: { store: true, ttlSeconds: 600 }, browser: { store: false } },
    ],
    [
      'Cache-Control private does not stop a CDN told max-age by CDN-Cache-Control',
      { 'Cache-Control': 'private, max-age=60', 'CDN-Cache-Control': 'max-age=600' },
      { edge: { store: true, ttlSeconds: 600 }, regional: { store: true, ttlSeconds: 600 }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'an invalid field (Max-Age=600) is ignored entirely: Cache-Control applies',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'Max-Age=600' },
      { edge: { store: true, ttlSeconds: 60 }, regional: { store: true, ttlSeconds: 60 }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'an invalid field (max-age=600,,) is ignored entirely: Cache-Control applies',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'max-age=600,,' },
      { edge: { store: true, ttlSeconds: 60 }, regional: { store: true, ttlSeconds: 60 }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'a wrong-typed member (max-age=60.5) is ignored alone; s-maxage still applies',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'max-age=60.5, s-maxage=120' },
      { edge: { store: true, ttlSeconds: 120 }, regional: { store: true, ttlSeconds: 120 }, browser: { store: true, ttlSeconds: 60 } },
    ],
    [
      'a valid field whose only member is wrong-typed (max-age="600") still replaces Cache-Control: no lifetime at the CDN',
      { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'max-age="600"' },
      { edge: { store: false }, regional: { store: false }, browser: { store: true, ttlSeconds: 60 } },
    ],
  ])('RFC 9213 §2.1: %s', (_name, headers, expected) => {
    for (const layer of ['edge', 'regional', 'browser'] as const) {
      const decision = decideAt(headers, layer);
      expect({ layer, store: decision.store }).toEqual({ layer, store: expected[layer].store });
      if (expected[layer].ttlSeconds !== undefined) expect({ layer, ttl: decision.ttlSeconds }).toEqual({ layer, ttl: expected[layer].ttlSeconds });
    }
  });

  it('RFC 9213 §2.1: decisions name the field they followed', () => {
    const headers = { 'Cache-Control': 'max-age=60', 'CDN-Cache-Control': 'max-age=600' };
    expect(decideAt(headers, 'edge').reasons.some((r) => r.source === 'RFC 9213 §2.1' && /instead of Cache-Control/.test(r.rule))).toBe(true);
    expect(decideAt(headers, 'browser').reasons.some((r) => r.source === 'RFC 9213 §2.1' && /browser ignores it/.test(r.rule))).toBe(true);
    const invalid = decideAt({ ...headers, 'CDN-Cache-Control': 'Max-Age=600' }, 'edge');
    expect(invalid.reasons.some((r) => r.source === 'RFC 9213 §2.1' && /not a valid Structured Fields dictionary/.test(r.rule))).toBe(true);
    const wrongType = decideAt({ ...headers, 'CDN-Cache-Control': 'max-age=60.5, s-maxage=120' }, 'edge');
    expect(wrongType.reasons.some((r) => r.source === 'RFC 9213 §2.1' && /wrong type: max-age/.test(r.rule))).toBe(true);
  });

  it('RFC 9213 §2.1: a CDN s-maxage makes the CDN copy never served stale (RFC 9111 §5.2.2.10)', () => {
    const decision = decideAt({ 'Cache-Control': 'max-age=60, stale-while-revalidate=30', 'CDN-Cache-Control': 's-maxage=120' }, 'edge');
    expect(decision).toMatchObject({ store: true, ttlSeconds: 120, freshnessSource: 's-maxage', neverServeStale: true, staleWhileRevalidateSeconds: 0 });
  });
});

describe('readCdnCacheControl properties', () => {
  const arbitraryText = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('=', '"', '\\', ',', ';', '(', ')', '?1', '?0', ' ', 'max-age', 'private', '60', '60.5', '-1', '*', ':YQ==:', '@1'),
    ),
    maxLength: 60,
  });

  it('RFC 9213 §2.1: never throws on arbitrary strings; valid readings carry only valid delta-seconds', () => {
    fc.assert(
      fc.property(arbitraryText, (value) => {
        const reading = readCdnCacheControl(value);
        if (reading.status !== 'valid') return reading.status === 'invalid';
        const cc = reading.cacheControl;
        return [cc.maxAge, cc.sMaxAge, cc.staleWhileRevalidate, cc.staleIfError].every((n) => n === undefined || (Number.isInteger(n) && n >= 0));
      }),
      FC_OPTIONS,
    );
  });
});
