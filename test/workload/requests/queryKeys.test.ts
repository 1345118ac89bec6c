import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../../src/sim/random.js';
import { querySpecSchema, type QuerySpec, type QuerySpecInput } from '../../../src/workload/content/querySchema.js';
import { browserKeyOf, newClientRequest, fillWholeObject } from '../../../src/workload/request.js';
import { QueryKeys, queryShapes, queryText } from '../../../src/workload/requests/queryKeys.js';

const spec = (input: QuerySpecInput): QuerySpec => querySpecSchema.parse(input);

/** Two classes: 0 without queries (objects 0–9), 1 with `queries` (objects 10–19); 20 base keys. */
function keysFor(queries: QuerySpec, seed = 1): QueryKeys {
  const classOfId = new Uint8Array(20).fill(1, 10);
  return new QueryKeys([{ queries: undefined }, { queries }], classOfId, 20, new RandomStreams(seed).stream('workload.queries'));
}

/** The keys of `n` requests for objects cycling over 0–19. */
function requestKeys(keys: QueryKeys, n: number): number[] {
  const request = newClientRequest();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    fillWholeObject(request, i % 20, 1000);
    keys.keyRequest(request);
    out.push(request.key);
  }
  return out;
}

describe('query strings as cache keys (spec 4.3.1)', () => {
  const tracked = spec({ share: 0.5, variants: 3, tracking: ['utm_source', 'fbclid'], trackingValues: 4 });

  it('the query a request sends: page and sort, swapped when reordered, one tracking parameter last (first when reordered)', () => {
    expect(queryShapes(tracked)).toBe(3 * 2 * 3);
    expect(queryText(tracked, 0, false, -1, 0)).toBe('page=1&sort=relevance');
    expect(queryText(tracked, 0, true, -1, 0)).toBe('sort=relevance&page=1');
    expect(queryText(tracked, 0, false, 0, 0)).toBe('page=1&sort=relevance&utm_source=v0');
    expect(queryText(tracked, 2, true, 1, 2)).toBe('fbclid=v2&sort=newest&page=3');
  });

  it('spec 4.3.1: the order of parameters never splits the key: reordered 0 %, 50 % and 100 % give the same keys', () => {
    const base = { share: 0.6, variants: 5, tracking: ['utm_source'], trackingValues: 50 };
    const inOrder = requestKeys(keysFor(spec({ ...base, reordered: 0 })), 5_000);
    expect(requestKeys(keysFor(spec({ ...base, reordered: 0.5 })), 5_000)).toEqual(inOrder);
    expect(requestKeys(keysFor(spec({ ...base, reordered: 1 })), 5_000)).toEqual(inOrder);
  });

  it('spec 4.3.1 and the browser: a client\'s query in the other order has the CDN key of the canonical order and a browser key of its own', () => {
    const keys = keysFor(spec({ share: 1, variants: 1, reordered: 0.5 }));
    const request = newClientRequest();
    const asked = (clientSlot: number, queryReordered: number) => {
      fillWholeObject(request, 12, 1000);
      request.clientSlot = clientSlot;
      request.queryReordered = queryReordered;
      keys.keyRequest(request);
      return { key: request.key, browserKey: browserKeyOf(request) };
    };
    // Object 12's one query, ?page=1&sort=relevance: key 20 (the first after the 20 base keys).
    const canonical = asked(0, 0);
    expect(canonical).toEqual({ key: 20, browserKey: 20 });
    // ?sort=relevance&page=1 from a client: the same CDN key, browser key 21 (the next id).
    expect(asked(1, 1)).toEqual({ key: 20, browserKey: 21 });
    expect(asked(2, 1)).toEqual({ key: 20, browserKey: 21 });
    // Without a client (no browser) the class's `reordered` draw decides, and nothing else changes.
    expect(asked(-1, 1)).toEqual({ key: 20, browserKey: 20 });
    // The browser-only spelling is not a CDN key.
    expect(keys.queryKeyCount).toBe(1);
  });

  it('keep: each tracking value is a key of its own (3 variants × (1 + 2 × 4) = 27 per object); strip-tracking leaves the 3 variant keys', () => {
    const keep = keysFor(tracked);
    const keys = requestKeys(keep, 40_000);
    // Objects of class 0 keep their ids as keys; half of class 1's requests carry a query.
    expect(keys.filter((key, i) => i % 20 < 10 && key !== i % 20)).toHaveLength(0);
    const moved = keys.filter((key, i) => i % 20 >= 10 && key >= 20).length;
    expect(Math.abs(moved - 10_000)).toBeLessThan(3 * Math.sqrt(20_000 * 0.25));
    // 10 objects × 27 key parts, all seen in 10,000 query requests.
    expect(keep.queryKeyCount).toBe(10 * 27);
    const strip = keysFor({ ...tracked, handling: { kind: 'strip-tracking' } });
    requestKeys(strip, 40_000);
    expect(strip.queryKeyCount).toBe(10 * 3);
    const ignoreUtm = keysFor({ ...tracked, handling: { kind: 'ignore', names: ['utm_source'] } });
    requestKeys(ignoreUtm, 40_000);
    expect(ignoreUtm.queryKeyCount).toBe(10 * 3 * (1 + 4));
  });

  it('setQueryHandling switches a class at once, and a key means the same entry whichever handling made it', () => {
    const keys = keysFor(spec({ share: 1, variants: 2, tracking: ['fbclid'], trackingShare: 1, trackingValues: 1000 }));
    requestKeys(keys, 2_000);
    expect(keys.queryKeyCount).toBeGreaterThan(500);
    keys.setQueryHandling(1, { kind: 'strip-tracking' });
    expect(keys.queryHandling(1)).toEqual({ kind: 'strip-tracking' });
    const before = keys.queryKeyCount;
    requestKeys(keys, 2_000);
    // Every tracked request now keys as object × 2 variants: 20 parts, new (no untracked request made them before).
    expect(keys.queryKeyCount).toBe(before + 10 * 2);
    keys.setQueryHandling(1, { kind: 'keep' });
    expect(keys.hasQueries(1)).toBe(true);
    expect(keys.hasQueries(0)).toBe(false);
    expect(() => keys.setQueryHandling(0, { kind: 'keep' })).toThrow(RangeError);
  });

  it('range requests (spec 4.8 chunks) carry no query', () => {
    const keys = keysFor(spec({ share: 1, variants: 2 }));
    const request = newClientRequest();
    fillWholeObject(request, 12, 1000);
    request.firstChunk = 0;
    keys.keyRequest(request);
    expect(request.key).toBe(12);
  });

  it('queryText (property): every (variant, order, tracking parameter, value) is a distinct query string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 3 }), (variants, trackingCount, values) => {
        const s = spec({ share: 0.5, variants, tracking: ['utm_source', 'fbclid'].slice(0, trackingCount), trackingValues: values });
        const texts: string[] = [];
        for (let variant = 0; variant < variants; variant++) {
          for (const reordered of [false, true]) {
            texts.push(queryText(s, variant, reordered, -1, 0));
            for (let tracking = 0; tracking < trackingCount; tracking++) for (let value = 0; value < values; value++) texts.push(queryText(s, variant, reordered, tracking, value));
          }
        }
        expect(new Set(texts).size).toBe(texts.length);
      }),
    );
  });
});

describe('the queries schema', () => {
  it('defaults: 10 variants, half reordered, half of query requests tracked (none without tracking names), 1000 values, keep', () => {
    expect(spec({ share: '30%' })).toEqual({ share: 0.3, variants: 10, reorderShare: 0.5, tracking: [], trackingShare: 0, trackingValues: 1000, handling: { kind: 'keep' } });
    expect(spec({ share: '30%', tracking: ['utm_source'], handling: { ignore: ['utm_source'] } })).toMatchObject({ trackingShare: 0.5, handling: { kind: 'ignore', names: ['utm_source'] } });
  });

  it('refuses tracking names that are functional parameters, repeated names, bad names and too many combinations, at their keys', () => {
    const problems = (input: unknown) => querySpecSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems({ share: 0.3, tracking: ['page'] })).toEqual(['tracking: expected tracking parameters other than the functional page and sort']);
    expect(problems({ share: 0.3, tracking: ['a', 'a'] })).toEqual(['tracking: expected each tracking parameter once']);
    expect(problems({ share: 0.3, tracking: ['a b'] })?.[0]).toMatch(/^tracking\.0: expected a query parameter name/);
    expect(problems({ share: 0.3, variants: 1000, tracking: ['a', 'b'], trackingValues: 25_000 })?.[0]).toMatch(/^trackingValues: expected at most 100,000,000 query combinations .* found 100,002,000/);
    expect(problems({ share: 0.3, handling: 'strip' })?.[0]).toMatch(/^handling: expected keep, strip-tracking or \{ignore: \[parameter names\]\}/);
  });
});
