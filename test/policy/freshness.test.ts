import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_OPTIONS, type CacheLayer } from '../../src/policy/deployment.js';
import {
  currentAgeSeconds,
  explicitFreshness,
  heuristicFreshness,
  HEURISTICALLY_CACHEABLE_STATUSES,
  initialAgeSeconds,
  type FreshnessSource,
} from '../../src/policy/freshness.js';
import { formatHttpDate } from '../../src/policy/httpDate.js';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import { readAge, readResponseFacts } from '../../src/policy/responseFacts.js';

const NOW = Date.UTC(2026, 0, 1);
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const date = (offsetMs: number): string => formatHttpDate(NOW + offsetMs);

const factsOf = (headers: HeaderInput, layer: CacheLayer = 'edge', status = 200) =>
  readResponseFacts({ status, headers: normaliseHeaders(headers) }, layer, NOW);

describe('explicitFreshness: RFC 9111 §4.2.1 order s-maxage → max-age → Expires − Date', () => {
  it.each<[string, HeaderInput, CacheLayer, number, FreshnessSource, string]>([
    ['s-maxage wins over max-age at a shared layer', { 'Cache-Control': 's-maxage=600, max-age=60' }, 'edge', 600, 's-maxage', 'RFC 9111 §5.2.2.10'],
    ['s-maxage wins over max-age at the regional layer', { 'Cache-Control': 'max-age=60, s-maxage=600' }, 'regional', 600, 's-maxage', 'RFC 9111 §5.2.2.10'],
    ['the browser ignores s-maxage and uses max-age', { 'Cache-Control': 's-maxage=600, max-age=60' }, 'browser', 60, 'max-age', 'RFC 9111 §5.2.2.1'],
    ['s-maxage wins over Expires', { 'Cache-Control': 's-maxage=600', Expires: date(60 * SECOND), Date: date(0) }, 'edge', 600, 's-maxage', 'RFC 9111 §5.2.2.10'],
    ['max-age wins over Expires', { 'Cache-Control': 'max-age=60', Expires: date(3_600 * SECOND), Date: date(0) }, 'edge', 60, 'max-age', 'RFC 9111 §5.2.2.1'],
    ['max-age wins over an invalid Expires', { 'Cache-Control': 'max-age=60', Expires: '0' }, 'edge', 60, 'max-age', 'RFC 9111 §5.2.2.1'],
    ['max-age=0 is a lifetime of 0', { 'Cache-Control': 'max-age=0' }, 'browser', 0, 'max-age', 'RFC 9111 §5.2.2.1'],
    ['an invalid max-age is 0 (stale), not absent', { 'Cache-Control': 'max-age=soon', Expires: date(3_600 * SECOND) }, 'edge', 0, 'max-age', 'RFC 9111 §4.2.1'],
    ['Expires − Date', { Expires: date(3_600 * SECOND), Date: date(0) }, 'edge', 3_600, 'expires', 'RFC 9111 §4.2.1'],
    ['Expires − Date uses Date, not the receipt time', { Expires: date(3_600 * SECOND), Date: date(-600 * SECOND) }, 'edge', 4_200, 'expires', 'RFC 9111 §4.2.1'],
    ['Expires − receipt time when Date is absent', { Expires: date(120 * SECOND) }, 'browser', 120, 'expires', 'RFC 9111 §4.2.1'],
    ['Expires − receipt time when Date is invalid', { Expires: date(120 * SECOND), Date: 'yesterday' }, 'edge', 120, 'expires', 'RFC 9111 §4.2.1'],
    ['Expires before Date gives 0, never negative', { Expires: date(-60 * SECOND), Date: date(0) }, 'edge', 0, 'expires', 'RFC 9111 §4.2.1'],
    ['Expires equal to Date gives 0', { Expires: date(0), Date: date(0) }, 'edge', 0, 'expires', 'RFC 9111 §4.2.1'],
    ['an invalid Expires ("0") means already expired', { Expires: '0' }, 'edge', 0, 'expires', 'RFC 9111 §5.3'],
    ['an invalid Expires ("-1") means already expired', { Expires: '-1', Date: date(0) }, 'browser', 0, 'expires', 'RFC 9111 §5.3'],
    ['an empty Expires means already expired', { Expires: '' }, 'edge', 0, 'expires', 'RFC 9111 §5.3'],
  ])('RFC 9111 §4.2.1: %s', (_name, headers, layer, seconds, source, reasonSource) => {
    const lifetime = explicitFreshness(factsOf(headers, layer), layer, NOW);
    expect(lifetime).toMatchObject({ seconds, source });
    expect(lifetime?.reason.source).toBe(reasonSource);
  });

  it.each<[string, HeaderInput, CacheLayer]>([
    ['no headers', {}, 'edge'],
    ['only Last-Modified', { 'Last-Modified': date(-DAY) }, 'edge'],
    ['s-maxage alone at the browser', { 'Cache-Control': 's-maxage=600' }, 'browser'],
    ['Cache-Control without a lifetime', { 'Cache-Control': 'public, must-revalidate' }, 'edge'],
  ])('RFC 9111 §4.2.1: %s → no explicit lifetime', (_name, headers, layer) => {
    expect(explicitFreshness(factsOf(headers, layer), layer, NOW)).toBeUndefined();
  });

  it('RFC 9111 §4.2.1: an Expires − Date with a fraction of a second is rounded down to whole seconds', () => {
    const facts = { ...factsOf({}), expiresMs: NOW + 1_500, dateMs: NOW };
    expect(explicitFreshness(facts, 'edge', NOW)?.seconds).toBe(1);
  });
});

describe('heuristicFreshness (RFC 9111 §4.2.2; DESIGN: 10 % of Date − Last-Modified, at most 24 h)', () => {
  it.each<[string, HeaderInput, number, number | undefined]>([
    ['10 % of 1000 s', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND) }, 200, 100],
    ['10 % of 999 s, rounded down', { Date: date(0), 'Last-Modified': date(-999 * SECOND) }, 200, 99],
    ['10 % of 5 days = 12 h', { Date: date(0), 'Last-Modified': date(-5 * DAY) }, 200, 43_200],
    ['10 % of 10 days = exactly the 24 h cap', { Date: date(0), 'Last-Modified': date(-10 * DAY) }, 200, 86_400],
    ['10 % of 100 days is capped at 24 h', { Date: date(0), 'Last-Modified': date(-100 * DAY) }, 200, 86_400],
    ['Date − Last-Modified, not receipt time − Last-Modified', { Date: date(-1_000 * SECOND), 'Last-Modified': date(-2_000 * SECOND) }, 200, 100],
    ['receipt time when Date is absent', { 'Last-Modified': date(-1_000 * SECOND) }, 200, 100],
    ['Last-Modified after Date gives 0', { Date: date(0), 'Last-Modified': date(60 * SECOND) }, 200, 0],
    ['without Last-Modified there is no heuristic', { Date: date(0) }, 200, undefined],
    ['an invalid Last-Modified is no Last-Modified', { Date: date(0), 'Last-Modified': 'last week' }, 200, undefined],
    ['404 is heuristically cacheable (RFC 9110 §15.1)', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND) }, 404, 100],
    ['301 is heuristically cacheable', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND) }, 301, 100],
    ['302 is not heuristically cacheable', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND) }, 302, undefined],
    ['500 is not heuristically cacheable', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND) }, 500, undefined],
    ['302 marked public may be (RFC 9111 §3)', { Date: date(0), 'Last-Modified': date(-1_000 * SECOND), 'Cache-Control': 'public' }, 302, 100],
  ])('RFC 9111 §4.2.2: %s', (_name, headers, status, expected) => {
    const lifetime = heuristicFreshness(factsOf(headers, 'browser', status), NOW, DEFAULT_POLICY_OPTIONS);
    if (expected === undefined) {
      expect(lifetime).toBeUndefined();
    } else {
      expect(lifetime).toMatchObject({ seconds: expected, source: 'heuristic' });
      expect(lifetime?.reason.source).toBe('RFC 9111 §4.2.2');
    }
  });

  it('DESIGN: the fraction and the cap are options', () => {
    const facts = factsOf({ Date: date(0), 'Last-Modified': date(-DAY) });
    expect(heuristicFreshness(facts, NOW, { ...DEFAULT_POLICY_OPTIONS, heuristicFraction: 0.2 })?.seconds).toBe(17_280);
    expect(heuristicFreshness(facts, NOW, { ...DEFAULT_POLICY_OPTIONS, heuristicCapSeconds: 3_600 })?.seconds).toBe(3_600);
  });

  it('RFC 9110 §15.1: the heuristically cacheable statuses', () => {
    expect([...HEURISTICALLY_CACHEABLE_STATUSES].sort((a, b) => a - b)).toEqual([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]);
  });
});

describe('initialAgeSeconds and currentAgeSeconds (RFC 9111 §4.2.3)', () => {
  it.each<[string, HeaderInput, number, number]>([
    ['no Age, no Date, no round trip → 0', {}, NOW, 0],
    ['Age alone', { Age: '100' }, NOW, 100],
    ['Age plus the response delay (corrected_age_value)', { Age: '100' }, NOW - 2 * SECOND, 102],
    ['the response delay alone', {}, NOW - 1_500, 1.5],
    ['apparent age (receipt − Date) when larger than the corrected Age', { Age: '10', Date: date(-30 * SECOND) }, NOW - 2 * SECOND, 30],
    ['corrected Age when larger than the apparent age', { Age: '100', Date: date(-30 * SECOND) }, NOW - 2 * SECOND, 102],
    ['a Date in the future gives an apparent age of 0', { Date: date(10 * SECOND) }, NOW, 0],
    ['a list-valued Age uses its first member', { Age: '5, 500' }, NOW, 5],
    ['an invalid Age is ignored (RFC 9111 §5.1): only the response delay counts', { Age: 'old' }, NOW - 2 * SECOND, 2],
    ['an invalid Age is ignored (RFC 9111 §5.1): the apparent age still counts', { Age: '-5', Date: date(-30 * SECOND) }, NOW, 30],
  ])('RFC 9111 §4.2.3: %s', (_name, headers, requestTimeMs, expected) => {
    expect(initialAgeSeconds(factsOf(headers), requestTimeMs, NOW)).toBe(expected);
  });

  it('RFC 9111 §4.2.3: current_age = corrected_initial_age + resident_time', () => {
    expect(currentAgeSeconds(10, NOW, NOW + 5 * SECOND)).toBe(15);
    expect(currentAgeSeconds(0, NOW, NOW)).toBe(0);
    expect(currentAgeSeconds(2.5, NOW, NOW + 500)).toBe(3);
  });
});

describe('readAge (RFC 9111 §5.1)', () => {
  it.each<[string, string | undefined, number]>([
    ['absent → 0', undefined, 0],
    ['"0"', '0', 0],
    ['"60"', '60', 60],
    ['a list uses its first member', '60, 30', 60],
    ['a list with an invalid later member still uses the first', '60, x', 60],
    ['a value above 2^31 is 2^31', '99999999999', 2 ** 31],
    ['an empty value is invalid → ignored (0)', '', 0],
    ['letters are invalid → ignored (0)', 'abc', 0],
    ['a negative number is invalid → ignored (0)', '-1', 0],
    ['a fraction is invalid → ignored (0)', '1.5', 0],
    ['an invalid first member → ignored (0), the later members are discarded', 'x, 60', 0],
  ])('RFC 9111 §5.1: %s', (_name, value, expected) => {
    expect(readAge(value)).toBe(expected);
  });

  it('RFC 9111 §5.1: an invalid Age does not make a fresh response stale (max-age=3600, Age: 1.5)', () => {
    const facts = factsOf([['Cache-Control', 'max-age=3600'], ['Age', '1.5']]);
    expect(facts.ageSeconds).toBe(0);
    expect(initialAgeSeconds(facts, NOW, NOW)).toBe(0);
  });

  it('RFC 9110 §5.3: repeated Age field lines are combined, so the first line wins', () => {
    expect(factsOf([['Age', '7'], ['Age', '70']]).ageSeconds).toBe(7);
  });
});
