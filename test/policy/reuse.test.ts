import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decision.js';
import { DEFAULT_DEPLOYMENT } from '../../src/policy/deployment.js';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import {
  errorMayReplaceStored,
  mayServeStaleOnError,
  requestCacheControl,
  reuseVerdict,
  type ReuseKind,
  type StoredFreshness,
} from '../../src/policy/reuse.js';

const NOW = Date.UTC(2026, 0, 1);
const SECOND = 1000;
const at = (seconds: number): number => NOW + seconds * SECOND;

/** A response stored at NOW with a 60 s lifetime, nothing else. */
const BASE: StoredFreshness = {
  storedAtMs: NOW,
  initialAgeSeconds: 0,
  freshnessLifetimeSeconds: 60,
  revalidateAlways: false,
  neverServeStale: false,
  staleWhileRevalidateSeconds: 0,
  staleIfErrorSeconds: 0,
  staleIfUnreachableSeconds: 0,
};
const stored = (overrides: Partial<StoredFreshness> = {}): StoredFreshness => ({ ...BASE, ...overrides });
const request = (headers: HeaderInput = {}) => requestCacheControl(normaliseHeaders(headers));

describe('reuseVerdict: freshness boundaries (RFC 9111 §4.2)', () => {
  it.each<[string, StoredFreshness, number, ReuseKind, number]>([
    ['just stored: fresh', stored(), 0, 'fresh', 0],
    ['age 59.999 s < lifetime 60 s: fresh', stored(), 59.999, 'fresh', 0],
    ['age == lifetime (60 s): stale, so revalidate', stored(), 60, 'revalidate', 0],
    ['age 61 s: revalidate, 1 s stale', stored(), 61, 'revalidate', 1],
    ['initial age counts: 50 s old on arrival + 9 s resident = 59 s: fresh', stored({ initialAgeSeconds: 50 }), 9, 'fresh', 0],
    ['initial age counts: 50 s old on arrival + 10 s resident = 60 s: stale', stored({ initialAgeSeconds: 50 }), 10, 'revalidate', 0],
    ['lifetime 0 is stale at once', stored({ freshnessLifetimeSeconds: 0 }), 0, 'revalidate', 0],
    ['an infinite initial age (invalid Age) is never fresh', stored({ initialAgeSeconds: Infinity, freshnessLifetimeSeconds: 31_536_000 }), 0, 'revalidate', Infinity],
  ])('RFC 9111 §4.2: %s', (_name, entry, seconds, kind, staleness) => {
    const verdict = reuseVerdict(entry, at(seconds));
    expect(verdict.kind).toBe(kind);
    expect(verdict.stalenessSeconds).toBeCloseTo(staleness, 6);
    expect(verdict.reason.source).toMatch(/^RFC \d+/);
  });

  it('RFC 9111 §4.2.3: ageSeconds is the current age', () => {
    expect(reuseVerdict(stored({ initialAgeSeconds: 5 }), at(10)).ageSeconds).toBe(15);
  });

  it('RFC 9111 §5.2.2.4: a no-cache entry is revalidated even while fresh', () => {
    const verdict = reuseVerdict(stored({ revalidateAlways: true, neverServeStale: true, freshnessLifetimeSeconds: 3_600 }), at(1));
    expect(verdict.kind).toBe('revalidate');
    expect(verdict.reason.source).toBe('RFC 9111 §5.2.2.4');
  });
});

describe('reuseVerdict: stale-while-revalidate window (RFC 5861 §3)', () => {
  const swr = stored({ staleWhileRevalidateSeconds: 30 });
  it.each<[string, number, ReuseKind]>([
    ['still fresh at 59 s', 59, 'fresh'],
    ['at expiry (staleness 0): served stale with a background revalidation', 60, 'stale-while-revalidate'],
    ['stale by 29.999 s: inside the window', 89.999, 'stale-while-revalidate'],
    ['stale by exactly 30 s: "up to 30 seconds" includes 30, served stale', 90, 'stale-while-revalidate'],
    ['stale by 31 s: revalidate', 91, 'revalidate'],
  ])('RFC 5861 §3: %s', (_name, seconds, kind) => {
    expect(reuseVerdict(swr, at(seconds)).kind).toBe(kind);
  });

  it('RFC 9111 §4.2.4: neverServeStale overrides stale-while-revalidate', () => {
    expect(reuseVerdict(stored({ staleWhileRevalidateSeconds: 30, neverServeStale: true }), at(60)).kind).toBe('revalidate');
  });
});

describe('reuseVerdict: request directives (RFC 9111 §5.2.1, §5.4)', () => {
  it.each<[string, HeaderInput, StoredFreshness, number, ReuseKind, string]>([
    ['§5.2.1.1: max-age=10 accepts age 10', { 'Cache-Control': 'max-age=10' }, stored(), 10, 'fresh', 'RFC 9111 §4.2'],
    ['§5.2.1.1: max-age=10 refuses age 10.001', { 'Cache-Control': 'max-age=10' }, stored(), 10.001, 'revalidate', 'RFC 9111 §5.2.1.1'],
    ['§5.2.1.1: max-age=0 refuses any age above 0', { 'Cache-Control': 'max-age=0' }, stored(), 0.001, 'revalidate', 'RFC 9111 §5.2.1.1'],
    ['§5.2.1.1: an invalid request max-age is 0', { 'Cache-Control': 'max-age=soon' }, stored(), 1, 'revalidate', 'RFC 9111 §5.2.1.1'],
    ['§5.2.1.3: min-fresh=10 accepts 10 s of freshness left (age 50 of 60)', { 'Cache-Control': 'min-fresh=10' }, stored(), 50, 'fresh', 'RFC 9111 §4.2'],
    ['§5.2.1.3: min-fresh=10 refuses 9.999 s left', { 'Cache-Control': 'min-fresh=10' }, stored(), 50.001, 'revalidate', 'RFC 9111 §5.2.1.3'],
    ['§5.2.1.2: max-stale=5 accepts 5 s of staleness', { 'Cache-Control': 'max-stale=5' }, stored(), 65, 'fresh', 'RFC 9111 §5.2.1.2'],
    ['§5.2.1.2: max-stale=5 refuses 5.001 s of staleness', { 'Cache-Control': 'max-stale=5' }, stored(), 65.001, 'revalidate', 'RFC 9111 §4.2'],
    ['§5.2.1.2: max-stale without a value accepts any staleness', { 'Cache-Control': 'max-stale' }, stored(), 1_000_000, 'fresh', 'RFC 9111 §5.2.1.2'],
    ['§4.2.4: max-stale cannot override must-revalidate', { 'Cache-Control': 'max-stale' }, stored({ neverServeStale: true }), 61, 'revalidate', 'RFC 9111 §4.2.4'],
    ['§5.2.1.4: request no-cache revalidates a fresh response', { 'Cache-Control': 'no-cache' }, stored(), 1, 'revalidate', 'RFC 9111 §5.2.1.4, §5.4'],
    ['§5.4: Pragma: no-cache without Cache-Control revalidates', { Pragma: 'no-cache' }, stored(), 1, 'revalidate', 'RFC 9111 §5.2.1.4, §5.4'],
    ['§5.4: Pragma: no-cache in a list, any case', { Pragma: 'x-foo, NO-CACHE' }, stored(), 1, 'revalidate', 'RFC 9111 §5.2.1.4, §5.4'],
    ['§5.4: Pragma is ignored when Cache-Control is present', { Pragma: 'no-cache', 'Cache-Control': 'max-age=100' }, stored(), 1, 'fresh', 'RFC 9111 §4.2'],
    ['§5.4: another Pragma directive is not no-cache', { Pragma: 'no-cache-please' }, stored(), 1, 'fresh', 'RFC 9111 §4.2'],
  ])('RFC 9111 %s', (_name, headers, entry, seconds, kind, source) => {
    const verdict = reuseVerdict(entry, at(seconds), request(headers));
    expect(verdict.kind).toBe(kind);
    expect(verdict.reason.source).toBe(source);
  });

  it.each<[string, HeaderInput, boolean]>([
    ['Pragma: no-cache alone', { Pragma: 'no-cache' }, true],
    ['Pragma: no-cache with Cache-Control', { Pragma: 'no-cache', 'Cache-Control': 'max-age=5' }, false],
    ['Pragma: no-cache with an empty Cache-Control', { Pragma: 'no-cache', 'Cache-Control': '' }, false],
    ['no Pragma', {}, false],
  ])('RFC 9111 §5.4: requestCacheControl: %s → pragmaNoCache %s', (_name, headers, expected) => {
    expect(request(headers).pragmaNoCache).toBe(expected);
  });
});

describe('mayServeStaleOnError (spec 4.7, RFC 5861 §4, RFC 9111 §4.2.4)', () => {
  it.each<[string, StoredFreshness, number, boolean]>([
    ['a fresh entry is served', stored(), 59, true],
    ['a fresh must-revalidate entry is served (it is not stale)', stored({ neverServeStale: true }), 59, true],
    ['a stale must-revalidate entry is not served', stored({ neverServeStale: true, staleIfErrorSeconds: 86_400 }), 60, false],
    ['a no-cache entry is never served on error, even "fresh"', stored({ revalidateAlways: true, neverServeStale: true, freshnessLifetimeSeconds: 3_600 }), 1, false],
    ['stale by 100 s with stale-if-error=100: served (inclusive)', stored({ staleIfErrorSeconds: 100 }), 160, true],
    ['stale by 100.001 s with stale-if-error=100: not served', stored({ staleIfErrorSeconds: 100 }), 160.001, false],
    ['no stale-if-error window: exactly at expiry still counts as 0 s stale', stored(), 60, true],
    ['no stale-if-error window: 1 s stale is not served', stored(), 61, false],
    ['RFC 9111 §4.2.4: the unreachable-origin cap does not open a 5xx window', stored({ staleIfUnreachableSeconds: 86_400 }), 61, false],
  ])('RFC 5861 §4, on a 5xx: %s', (_name, entry, seconds, expected) => {
    expect(mayServeStaleOnError(entry, at(seconds))).toBe(expected);
    expect(mayServeStaleOnError(entry, at(seconds), 'error')).toBe(expected);
  });

  it.each<[string, StoredFreshness, number, boolean]>([
    ['spec 4.7 cap: stale by a day with the 86400 s cap: served', stored({ staleIfUnreachableSeconds: 86_400 }), 60 + 86_400, true],
    ['spec 4.7 cap: stale by a day and a second: not served', stored({ staleIfUnreachableSeconds: 86_400 }), 61 + 86_400, false],
    ['a stale must-revalidate entry is not served, not even then', stored({ neverServeStale: true, staleIfUnreachableSeconds: 86_400 }), 61, false],
    ['a 5xx window alone does not serve it when unreachable', stored({ staleIfErrorSeconds: 100 }), 61, false],
  ])('spec 4.7 row 1, origin unreachable: %s', (_name, entry, seconds, expected) => {
    expect(mayServeStaleOnError(entry, at(seconds), 'unreachable')).toBe(expected);
  });
});

describe('errorMayReplaceStored (spec 7.1, DESIGN: an error never displaces a usable stale copy)', () => {
  it.each<[string, StoredFreshness | undefined, number, boolean]>([
    ['nothing stored: the error may be stored', undefined, 0, true],
    ['a fresh copy is kept', stored(), 30, false],
    ['a stale copy inside stale-if-error is kept', stored({ staleIfErrorSeconds: 86_400 }), 3_600, false],
    ['a stale copy past stale-if-error may be replaced', stored({ staleIfErrorSeconds: 100 }), 161, true],
    ['a stale must-revalidate copy may be replaced (it cannot be served anyway)', stored({ neverServeStale: true, staleIfErrorSeconds: 86_400 }), 61, true],
    ['a no-cache copy may be replaced', stored({ revalidateAlways: true, neverServeStale: true }), 1, true],
  ])('spec 7.1: %s', (_name, entry, seconds, expected) => {
    expect(errorMayReplaceStored(entry, at(seconds))).toBe(expected);
  });
});

describe('reuse of real decisions (decide → StoredFreshness → reuseVerdict)', () => {
  const storedFrom = (cacheControl: string, layer: 'edge' | 'browser' = 'edge'): StoredFreshness => {
    const decision = decide({
      request: { method: 'GET', url: '/page', headers: normaliseHeaders({}) },
      response: { status: 200, headers: normaliseHeaders({ 'Cache-Control': cacheControl }) },
      deployment: DEFAULT_DEPLOYMENT,
      layer,
      nowMs: NOW,
    });
    return { storedAtMs: NOW, ...decision };
  };

  it.each<[string, string, number, ReuseKind, boolean]>([
    ['spec 8.1 row 2 at 3599 s: fresh', 'public, max-age=3600, stale-while-revalidate=86400', 3_599, 'fresh', true],
    ['spec 8.1 row 2 at 3600 s: stale-while-revalidate', 'public, max-age=3600, stale-while-revalidate=86400', 3_600, 'stale-while-revalidate', true],
    ['spec 8.1 row 2 a day after expiry: still within stale-while-revalidate=86400 (inclusive), and served on a 5xx (RFC 5861 §3 permission)', 'public, max-age=3600, stale-while-revalidate=86400', 3_600 + 86_400, 'stale-while-revalidate', true],
    ['spec 8.1 row 2 just over a day after expiry: revalidate, no longer served on error', 'public, max-age=3600, stale-while-revalidate=86400', 3_600 + 86_400 + 1, 'revalidate', false],
    ['spec 8.1 row 3 at 300 s: revalidate, never served stale', 'public, max-age=300, must-revalidate', 300, 'revalidate', false],
    ['RFC 9111 §4.2.4: max-age=60 alone, 1 s stale: revalidate, and not served in place of a 5xx (no stale-if-error)', 'public, max-age=60', 61, 'revalidate', false],
    ['RFC 5861 §4: max-age=60, stale-if-error=300, 300 s stale: served in place of a 5xx', 'public, max-age=60, stale-if-error=300', 360, 'revalidate', true],
    ['spec 4.3 server-rendered pages: revalidate at once', 'public, max-age=0, must-revalidate', 0, 'revalidate', false],
  ])('%s', (_name, cacheControl, seconds, kind, servedOnError) => {
    const entry = storedFrom(cacheControl);
    expect(reuseVerdict(entry, at(seconds)).kind).toBe(kind);
    expect(mayServeStaleOnError(entry, at(seconds))).toBe(servedOnError);
  });
});
