import { describe, expect, it } from 'vitest';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { directivesInForce, readResponseFacts } from '../../src/policy/responseFacts.js';

describe('directivesInForce (RFC 9213 §2.1, what explain shows a layer obeys)', () => {
  const response = { status: 200, headers: normaliseHeaders({ 'Cache-Control': 'Max-Age="60", Public', 'CDN-Cache-Control': 'max-age=600' }) };
  it('a CDN layer obeys the valid CDN-Cache-Control; the browser the Cache-Control, in canonical form', () => {
    expect(directivesInForce(response, 'edge', 0)).toEqual({ from: 'CDN-Cache-Control', value: 'max-age=600' });
    expect(directivesInForce(response, 'browser', 0)).toEqual({ from: 'Cache-Control', value: 'max-age=60, public' });
  });
});

describe('readResponseFacts: invalid Expires and Age (RFC 9111 §5.1, §5.3)', () => {
  const NOW = Date.UTC(2026, 0, 1);
  const facts = (input: Record<string, string>) => readResponseFacts({ status: 200, headers: normaliseHeaders(input) }, 'edge', NOW);

  it('RFC 9111 §5.3: an Expires with runs of spaces is not a date, so it means "already expired" (-Infinity)', () => {
    expect(facts({ Expires: 'Thu, 18  Aug  2050 02:01:18 GMT' }).expiresMs).toBe(-Infinity);
    expect(facts({ Expires: 'Thu, 18 Aug 2050 02:01:18 GMT' }).expiresMs).toBe(Date.UTC(2050, 7, 18, 2, 1, 18));
  });

  it.each<[string, string]>([
    ['non-numeric', 'abc'],
    ['negative', '-7200'],
    ['a fraction', '7200.0'],
  ])('RFC 9111 §5.1: an invalid Age (%s) is ignored, not read as stale', (_name, age) => {
    expect(facts({ Age: age, 'Cache-Control': 'max-age=3600' }).ageSeconds).toBe(0);
  });
});
