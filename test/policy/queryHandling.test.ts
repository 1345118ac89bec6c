import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey, queryParameterName } from '../../src/policy/cacheKey.js';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { ignoredParameters, queryKeyPart, withoutParameters } from '../../src/policy/queryHandling.js';

/** A query segment: a name (sometimes percent-encoded or with `+`) and an optional value. */
const segment = fc
  .tuple(fc.constantFrom('a', 'b', 'page', 'sort', 'utm_source', 'utm%5Fsource', 'fb+id', '%zz', 'é', ''), fc.option(fc.string({ maxLength: 6 }).map((value) => value.replace(/[&#]/g, '')), { nil: undefined }))
  .map(([name, value]) => (value === undefined ? name : `${name}=${value}`));
const query = fc.array(segment, { maxLength: 8 }).map((segments) => segments.join('&'));
const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'page', 'utm_source', 'fb id', '%zz'), { maxLength: 4 }).map((list): ReadonlySet<string> => new Set<string>(list));

describe('query parameters left out of the key (beyond spec 4.3.1, which keeps them all)', () => {
  it('withoutParameters: concrete cases, names compared form-decoded as 4.3.1 sorts them', () => {
    const tracking = new Set(['utm_source', 'fbclid']);
    expect(withoutParameters('page=2&utm_source=news&sort=price', tracking)).toBe('page=2&sort=price');
    expect(withoutParameters('utm%5Fsource=x&fbclid=abc', tracking)).toBe('');
    expect(withoutParameters('page=2&&utm_source', tracking)).toBe('page=2');
    expect(withoutParameters('a=1&a=2', new Set())).toBe('a=1&a=2');
  });

  it('withoutParameters (property): keeps exactly the other non-empty segments, in order, byte for byte; idempotent; never throws', () => {
    fc.assert(
      fc.property(query, names, (text, ignored) => {
        const result = withoutParameters(text, ignored);
        const expected = ignored.size === 0 ? text : text.split('&').filter((part) => part !== '' && !ignored.has(queryParameterName(part))).join('&');
        expect(result).toBe(expected);
        expect(withoutParameters(result, ignored)).toBe(result);
      }),
    );
  });

  it('spec 4.3.1 (property): the key part does not depend on the order of distinctly named parameters', () => {
    const distinct = fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'page', 'sort', 'utm_source', 'z'), fc.string({ maxLength: 4 }).map((v) => v.replace(/[&#%+]/g, ''))), {
      selector: ([name]) => name,
      maxLength: 6,
    });
    fc.assert(
      fc.property(distinct, fc.func(fc.integer()), names, (pairs, order, ignored) => {
        const segments = pairs.map(([name, value]) => `${name}=${value}`);
        const shuffled = [...segments].sort((x, y) => order(x) - order(y) || (x < y ? -1 : 1));
        expect(queryKeyPart(shuffled.join('&'), ignored)).toBe(queryKeyPart(segments.join('&'), ignored));
      }),
    );
  });

  it('queryKeyPart is the policy engine\'s cacheKey query of the URL with the ignored parameters removed', () => {
    const url = '/list?utm_source=x&sort=price&page=2';
    expect(queryKeyPart('utm_source=x&sort=price&page=2', new Set())).toBe(cacheKey({ url, headers: normaliseHeaders(undefined) }).query);
    expect(queryKeyPart('utm_source=x&sort=price&page=2', new Set())).toBe('page=2&sort=price&utm_source=x');
    expect(queryKeyPart('utm_source=x&sort=price&page=2', ignoredParameters({ kind: 'strip-tracking' }, ['utm_source']))).toBe('page=2&sort=price');
    expect(queryKeyPart('utm_source=x', ignoredParameters({ kind: 'ignore', names: ['utm_source'] }, []))).toBe('');
    expect([...ignoredParameters({ kind: 'keep' }, ['utm_source'])]).toEqual([]);
  });
});
