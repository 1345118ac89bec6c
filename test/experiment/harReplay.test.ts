import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayHar, type EntryReplay, type HarReplayOptions, type HarReplayResult } from '../../src/experiment/harReplay.js';
import { DEFAULT_DEPLOYMENT } from '../../src/policy/deployment.js';
import { formatHttpDate } from '../../src/policy/httpDate.js';
import { readHar } from '../../src/recorded/realTraffic/harReader.js';
import type { TrafficRecord } from '../../src/recorded/realTraffic/trafficRecord.js';

/**
 * `cdnsim har`'s replay (src/experiment/harReplay.ts): the fixture page load
 * (test/fixtures/har/page-load.har, described in its README) through browser → edge →
 * regional → origin (spec 4.9), counted by hand below; then small hand-made records for the
 * origin's rules (records in order, recorded 304s, Age and Date) and the request fields.
 */

const PAGE_LOAD = resolve(import.meta.dirname, '../fixtures/har/page-load.har');
const MINUTE = 60_000;

async function pageLoad(): Promise<TrafficRecord[]> {
  const records: TrafficRecord[] = [];
  for await (const record of readHar(PAGE_LOAD)) records.push(record);
  return records;
}

function options(overrides: Partial<HarReplayOptions> = {}): HarReplayOptions {
  return { deployment: DEFAULT_DEPLOYMENT, visits: 2, intervalMs: 10 * MINUTE, newClientPerVisit: false, ...overrides };
}

function entryAt(result: HarReplayResult, path: string): EntryReplay {
  const entry = result.entries.find((candidate) => new URL(candidate.url).pathname + new URL(candidate.url).search === path);
  if (entry === undefined) throw new Error(`no entry for ${path}`);
  return entry;
}

/** Bodies of the responses the origin sends in full on a second visit: /, the RSC payload, the API, the cart POST. */
const UNCACHED_BYTES = 48_213 + 3_377 + 116 + 22;
const PAGE_BYTES = 416_123;
const IMMUTABLE_PATHS = [
  '/_next/static/css/8f3c2a1b9d4e7f60.css',
  '/_next/static/chunks/webpack-5c1e9a0f3b7d2e84.js',
  '/_next/static/chunks/framework-2f8b6c4d1a9e7350.js',
  '/_next/static/chunks/app/page-a4e9c1d7f2b35608.js',
  '/_next/static/media/a34f9d1faa5f3315-s.p.woff2',
  '/_next/static/media/e4af272ccee01ff0-s.p.woff2',
];

describe('HAR replay of the fixture page load (full-stack deployment, spec 1.3)', () => {
  let records: TrafficRecord[];
  let sameClient: HarReplayResult;
  let newClient: HarReplayResult;
  beforeAll(async () => {
    records = await pageLoad();
    sameClient = replayHar(records, options());
    newClient = replayHar(records, options({ newClientPerVisit: true }));
  });

  it('spec 4.9: on the first visit every cache is empty, so all 14 requests reach the origin and the whole page crosses both links', () => {
    expect(sameClient.visits[0]).toEqual({
      startMs: 0,
      newClient: false,
      requests: 14,
      servedBy: { browser: 0, edge: 0, regional: 0, origin: 14 },
      revalidated: { edge: 0, regional: 0, origin: 0 },
      originRequests: 14,
      originBytes: PAGE_BYTES,
      clientBytes: PAGE_BYTES,
    });
  });

  it('entries come in start-time order, stable: the font started 0.9 ms earlier (entry 6) before entry 5, the analytics script (14) before the RSC prefetch (11)', () => {
    expect(sameClient.entries.map((entry) => entry.entry)).toEqual([0, 1, 2, 3, 4, 6, 5, 7, 8, 9, 14, 11, 12, 13]);
    expect(sameClient.pageHost).toBe('shop.example.com');
  });

  it('same client 10 min later: 10 from the browser (3 of them after a 304 from the origin), 4 from the origin', () => {
    expect(sameClient.visits[1]).toEqual({
      startMs: 10 * MINUTE,
      newClient: false,
      requests: 14,
      servedBy: { browser: 10, edge: 0, regional: 0, origin: 4 },
      revalidated: { edge: 0, regional: 0, origin: 3 },
      originRequests: 7,
      originBytes: UNCACHED_BYTES,
      clientBytes: UNCACHED_BYTES,
    });
  });

  it('spec 4.3 + RFC 9111 §5.2.2.1, RFC 8246: the hashed /_next/static/ chunks (public, max-age=31536000, immutable) are fresh browser hits on visit 2', () => {
    for (const path of IMMUTABLE_PATHS) {
      const entry = entryAt(sameClient, path);
      expect(entry.visits).toEqual([
        { servedBy: 'origin', revalidatedAt: null, stale: false, status: 200 },
        { servedBy: 'browser', revalidatedAt: null, stale: false, status: 200 },
      ]);
      expect(entry.edge).toEqual({ cacheable: true, ttlSeconds: 31_536_000, reason: 'Cache-Control max-age=31536000 sets the lifetime (RFC 9111 §5.2.2.1)' });
    }
  });

  it('spec 2.2 + RFC 9111 §5.2.2.5: the HTML with private, no-cache, no-store goes to the origin on every visit, for every client', () => {
    for (const result of [sameClient, newClient]) {
      const html = entryAt(result, '/');
      expect(html.visits.map((visit) => visit.servedBy)).toEqual(['origin', 'origin']);
      expect(html.edge).toEqual({ cacheable: false, ttlSeconds: 0, reason: 'Cache-Control no-store: never cached anywhere (spec 2.2, RFC 9111 §5.2.2.5)' });
      expect(html.browser.cacheable).toBe(false);
    }
  });

  it('RFC 9111 §4.3.1–§4.3.4: public, max-age=0 with validators is stored stale and revalidated: visit 2 is the browser copy after a 304 from the origin', () => {
    const image = entryAt(sameClient, '/images/products/sneaker-blue.webp');
    expect(image.visits[1]).toEqual({ servedBy: 'browser', revalidatedAt: 'origin', stale: false, status: 200 });
    expect(image.edge).toMatchObject({ cacheable: true, ttlSeconds: 0 });
  });

  it('RFC 9111 §5.2.2.2 (must-revalidate): the 60 s hero image is stale 10 min later and revalidated at the origin before reuse', () => {
    const hero = entryAt(sameClient, '/_next/image?url=%2Fimages%2Fhero.jpg&w=1920&q=75');
    expect(hero.visits[1]).toEqual({ servedBy: 'browser', revalidatedAt: 'origin', stale: false, status: 200 });
  });

  it('RFC 9111 §3 / §4.4: the cart POST passes every layer to the origin on each visit', () => {
    const cart = sameClient.entries.find((entry) => entry.method === 'POST');
    expect(cart?.visits.map((visit) => visit.servedBy)).toEqual(['origin', 'origin']);
    expect(cart?.edge).toEqual({ cacheable: false, ttlSeconds: 0, reason: 'POST responses are not stored (cdnsim caches store GET only) (RFC 9111 §3)' });
  });

  it('spec 4.9 (a first visitor, then another in the same PoP): a new client 10 min later gets 10 from the edge and the whole page over its connection', () => {
    expect(newClient.visits[1]).toEqual({
      startMs: 10 * MINUTE,
      newClient: true,
      requests: 14,
      servedBy: { browser: 0, edge: 10, regional: 0, origin: 4 },
      revalidated: { edge: 0, regional: 0, origin: 3 },
      originRequests: 7,
      originBytes: UNCACHED_BYTES,
      clientBytes: PAGE_BYTES,
    });
    expect(entryAt(newClient, IMMUTABLE_PATHS[0]).visits[1].servedBy).toBe('edge');
  });

  it('RFC 9111 §5.2.2.10: the API (public, s-maxage=60, stale-while-revalidate=300) is an edge hit for a second client within 60 s, not after', () => {
    const apiPath = '/api/products?category=sneakers&sort=price&page=1';
    const servedAfter = (intervalMs: number) => entryAt(replayHar(records, options({ newClientPerVisit: true, intervalMs })), apiPath).visits[1];
    expect(servedAfter(30_000)).toMatchObject({ servedBy: 'edge', stale: false });
    expect(servedAfter(59_000)).toMatchObject({ servedBy: 'edge', stale: false });
    // Date is 09:15:02 for a request at 02.582 s: 0.582 s old on arrival, fresh for 59.418 s.
    expect(servedAfter(60_000)).toMatchObject({ servedBy: 'origin' });
    // s-maxage carries proxy-revalidate semantics at shared caches: never served stale, so the SWR window is not used there.
    expect(servedAfter(5 * MINUTE)).toMatchObject({ servedBy: 'origin', stale: false });
    const api = entryAt(sameClient, apiPath);
    expect(api.edge).toEqual({ cacheable: true, ttlSeconds: 59.418, reason: 'Cache-Control s-maxage=60 sets the lifetime in a shared cache (RFC 9111 §5.2.2.10)' });
    // s-maxage is for shared caches only; without max-age, Last-Modified or an ETag the browser keeps nothing.
    expect(api.browser.cacheable).toBe(false);
  });

  it('recorded 304s are not origin responses: logo.svg, held only as a 304, is answered with a 200 made of its fields and cached size', () => {
    expect(sameClient.recordedNotModified).toBe(1);
    expect(sameClient.standIns).toEqual([{ method: 'GET', url: 'https://shop.example.com/images/logo.svg', entry: 9 }]);
    const logo = entryAt(sameClient, '/images/logo.svg');
    expect(logo.status).toBe(304);
    expect(logo.visits[0]).toEqual({ servedBy: 'origin', revalidatedAt: null, stale: false, status: 200 });
    expect(logo.visits[1]).toEqual({ servedBy: 'browser', revalidatedAt: 'origin', stale: false, status: 200 });
  });

  it('is deterministic: the same records and options give the same result', () => {
    expect(replayHar(records, options({ newClientPerVisit: true }))).toEqual(newClient);
  });

  it('reports its progress for a bar: 20 visits of 14 requests are 280, reported at 0 and 256 of 280, with the same result', () => {
    const calls: [number, number][] = [];
    const result = replayHar(records, options({ visits: 20, onProgress: (replayed, total) => calls.push([replayed, total]) }));
    expect(calls).toEqual([
      [0, 280],
      [256, 280],
    ]);
    expect(result).toEqual(replayHar(records, options({ visits: 20 })));
  });

  it('visits closer than the page lasts interleave in time order; one visit replays the page once', () => {
    const overlapping = replayHar(records, options({ visits: 3, intervalMs: 500 }));
    expect(overlapping.visits.map((visit) => visit.requests)).toEqual([14, 14, 14]);
    const once = replayHar(records, options({ visits: 1 }));
    expect(once.visits).toHaveLength(1);
    expect(once.entries.every((entry) => entry.visits.length === 1)).toBe(true);
  });

  it('spec 1.3: a container deployment with the CDN disabled stores nothing at the edge; the browser still caches', () => {
    const result = replayHar(records, options({ deployment: { kind: 'container', framework: 'next', cdnEnabled: false }, newClientPerVisit: true }));
    expect(result.visits[1].servedBy).toEqual({ browser: 0, edge: 0, regional: 0, origin: 14 });
    expect(entryAt(result, IMMUTABLE_PATHS[0]).edge.reason).toBe('the CDN is disabled for this container deployment (spec 1.3)');
    expect(replayHar(records, options({ deployment: { kind: 'container', framework: 'next', cdnEnabled: false } })).visits[1].servedBy.browser).toBe(10);
  });
});

// ---------------------------------------------------------------------------------------
// Hand-made records

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

function record(fields: Partial<TrafficRecord> & Pick<TrafficRecord, 'url'>, entry = 0): TrafficRecord {
  return {
    epochMs: T0,
    method: 'GET',
    status: 200,
    requestHeaders: [],
    responseHeaders: [],
    bodyBytes: 1000,
    source: { file: 'hand-made.har', entry },
    ...fields,
  };
}

describe('HAR replay: the recorded origin', () => {
  it('a URL recorded more than once answers with its records in order, the last repeating (If-None-Match checked against each, RFC 9110 §13.1.2)', () => {
    const url = 'https://site.example/feed.json';
    const result = replayHar(
      [
        record({ url, responseHeaders: [['Cache-Control', 'max-age=0'], ['ETag', '"v1"']], bodyBytes: 100 }, 0),
        record({ url, epochMs: T0 + 1000, responseHeaders: [['Cache-Control', 'max-age=0'], ['ETag', '"v2"']], bodyBytes: 200 }, 1),
      ],
      options({ visits: 2 }),
    );
    // Visit 1: v1 in full (100 B); the browser's stale copy revalidated with "v1" meets v2 (200 B).
    expect(result.visits[0]).toMatchObject({ originRequests: 2, originBytes: 300, servedBy: { origin: 2 } });
    // Visit 2: every layer's copy is v2 and v2 repeats: the edge asks with "v2" → 304, twice.
    expect(result.visits[1]).toMatchObject({ originRequests: 2, originBytes: 0, servedBy: { browser: 2 }, revalidated: { origin: 2 } });
  });

  it('RFC 9111 §5.1: the recorded Age is the real CDN\'s, so the simulated origin does not send it', () => {
    const result = replayHar(
      [record({ url: 'https://site.example/app.css', responseHeaders: [['Cache-Control', 'public, max-age=86400'], ['Age', '84213']] })],
      options({ visits: 1 }),
    );
    expect(result.entries[0].edge.ttlSeconds).toBe(86_400);
  });

  it('RFC 9110 §6.6.1: the origin dates its answer now and keeps the recorded Expires − Date, even when the recorded Date is hours old', () => {
    const recordedDate = T0 - 2 * 3_600_000;
    const result = replayHar(
      [
        record({
          url: 'https://site.example/report.pdf',
          responseHeaders: [
            ['Date', formatHttpDate(recordedDate)],
            ['Expires', formatHttpDate(recordedDate + 3 * 3_600_000)],
          ],
        }),
      ],
      options({ visits: 1 }),
    );
    expect(result.entries[0].edge).toMatchObject({ cacheable: true, ttlSeconds: 3 * 3_600, reason: 'Expires − Date = 10800 s sets the lifetime (RFC 9111 §4.2.1)' });
  });

  it('the recording browser\'s validators and cache mode (DevTools "Disable cache") are dropped from requests: visit 2 is still a browser hit', () => {
    const result = replayHar(
      [
        record({
          url: 'https://site.example/app.js',
          requestHeaders: [['Cache-Control', 'no-cache'], ['Pragma', 'no-cache'], ['If-None-Match', '"old"']],
          responseHeaders: [['Cache-Control', 'public, max-age=3600'], ['ETag', '"new"']],
        }),
      ],
      options(),
    );
    expect(result.entries[0].visits.map((visit) => [visit.servedBy, visit.status])).toEqual([
      ['origin', 200],
      ['browser', 200],
    ]);
  });

  it('RFC 9111 §3.5: Authorization is kept, so a shared cache stores the response only with public, s-maxage or must-revalidate', () => {
    const result = replayHar(
      [record({ url: 'https://site.example/me', requestHeaders: [['Authorization', 'Bearer x']], responseHeaders: [['Cache-Control', 'max-age=60']] })],
      options({ newClientPerVisit: true, intervalMs: 10_000 }),
    );
    expect(result.entries[0].edge.cacheable).toBe(false);
    expect(result.entries[0].edge.reason).toContain('(RFC 9111 §3.5)');
    expect(result.entries[0].visits[1].servedBy).toBe('origin');
  });

  it('the host is not part of the cache key (one CDN per deployment), so each host has its own caches: same path, two objects', () => {
    const result = replayHar(
      [
        record({ url: 'https://a.example/logo.png', responseHeaders: [['Cache-Control', 'public, max-age=3600']], bodyBytes: 10 }, 0),
        record({ url: 'https://b.example/logo.png', epochMs: T0 + 1, responseHeaders: [['Cache-Control', 'public, max-age=3600']], bodyBytes: 20 }, 1),
      ],
      options({ visits: 1 }),
    );
    expect(result.visits[0]).toMatchObject({ servedBy: { origin: 2 }, originBytes: 30 });
  });

  it('RFC 5861 §4: a recorded 500 for a URL the caches hold with stale-if-error is answered stale by the regional node, the last cache before the origin; the client never sees it', () => {
    const url = 'https://site.example/price';
    const result = replayHar(
      [
        record({ url, responseHeaders: [['Cache-Control', 'public, max-age=1, stale-if-error=60']], bodyBytes: 50 }, 0),
        record({ url, epochMs: T0 + 5000, status: 500, responseHeaders: [['Content-Type', 'text/plain']], bodyBytes: 5 }, 1),
      ],
      options({ visits: 1 }),
    );
    // 5 s later every copy is stale (max-age=1, no validator): browser and edge fetch, the regional node meets the 500.
    expect(result.entries[1].visits[0]).toEqual({ servedBy: 'regional', revalidatedAt: null, stale: true, status: 200 });
  });

  it('RFC 9111 §4.2.4, spec 7.1: without stale-if-error the recorded 500 reaches the client: a 5xx is not an unreachable origin (spec 4.7)', () => {
    const url = 'https://site.example/price';
    const result = replayHar(
      [
        record({ url, responseHeaders: [['Cache-Control', 'public, max-age=1']], bodyBytes: 50 }, 0),
        record({ url, epochMs: T0 + 5000, status: 500, responseHeaders: [['Content-Type', 'text/plain']], bodyBytes: 5 }, 1),
      ],
      options({ visits: 1 }),
    );
    expect(result.entries[1].visits[0]).toEqual({ servedBy: 'origin', revalidatedAt: null, stale: false, status: 500 });
  });
});
