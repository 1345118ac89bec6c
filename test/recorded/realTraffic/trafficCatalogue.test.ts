import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../../src/sim/random.js';
import { readAccessLog } from '../../../src/recorded/realTraffic/accessLogReader.js';
import { readHar } from '../../../src/recorded/realTraffic/harReader.js';
import { recordedCatalogue } from '../../../src/recorded/realTraffic/recordedCatalogue.js';
import { loadRecordedTraffic, requestTarget } from '../../../src/recorded/realTraffic/trafficCatalogue.js';
import { TraceError } from '../../../src/recorded/traces/traceReader.js';
import type { ObjectCatalogue } from '../../../src/workload/objectCatalogue.js';
import { scratchDirectory } from '../traces/helpers.js';

const PAGE_LOAD = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/har/page-load.har');
const write = scratchDirectory();
const LINE = (time: string, request: string, tail: string) => `192.0.2.1 - - [21/Nov/2026:10:15:${time} +0100] "${request} HTTP/1.1" ${tail}`;

/** A small access log, out of time order, with repeats, HEAD and POST (comments: object id, offset from 10:15:03). */
const ACCESS_LOG = [
  LINE('05', 'GET /app.css', '200 500'), // object 0, 2000 ms
  LINE('03', 'GET /app.js', '200 300'), // object 1, 0 ms
  LINE('02', 'HEAD /app.css', '200 0'), // left out, though the earliest record
  LINE('04', 'GET /app.css', '200 999'), // object 0 again, its size stays 500; 1000 ms
  LINE('03', 'GET /theme.css?v=2', '200 700'), // object 2, same profile as object 0; 0 ms
  LINE('06', 'POST /api/cart', '200 22'), // left out
  LINE('07', 'GET /app.js', '404 10'), // object 1 again: status and size stay the first record's; 4000 ms
  LINE('03', 'GET /missing.css', '404 50'), // object 3, another status → another profile; 0 ms
  LINE('08', 'HEAD /app.js', '200 0'), // left out
  LINE('03', 'GET /index', '200 1000'), // object 4, no extension → another profile; 0 ms
  LINE('09', 'GET /index', '200 1000'), // 6000 ms
  LINE('10', 'GET /index', '200 1000'), // 7000 ms
].join('\n');

const harText = (entries: Array<{ url: string; method?: string; time: string; status?: number; headers?: Array<[string, string]>; size?: number }>): string =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: entries.map((entry) => ({
        startedDateTime: `2026-11-21T09:15:${entry.time}Z`,
        request: { method: entry.method ?? 'GET', url: entry.url, headers: [] },
        response: {
          status: entry.status ?? 200,
          statusText: '',
          httpVersion: 'h2',
          headers: (entry.headers ?? []).map(([name, value]) => ({ name, value })),
          content: { mimeType: 'text/plain', size: entry.size ?? 10 },
        },
        timings: { send: 0, wait: 10, receive: 1 },
      })),
    },
  });

async function loadError(promise: Promise<unknown>): Promise<TraceError> {
  try {
    await promise;
  } catch (error) {
    return error as TraceError;
  }
  throw new Error('expected loading to fail');
}

/** |observed − expected| per id over `draws` picks, in binomial standard deviations. */
function pickDeviations(catalogue: ObjectCatalogue, draws: number, seed: number): number[] {
  const stream = new RandomStreams(seed).stream('test.pick');
  const counts = new Float64Array(catalogue.size);
  for (let i = 0; i < draws; i++) counts[catalogue.pick(stream.next())]++;
  return Array.from(counts, (count, id) => {
    const p = catalogue.popularity[id];
    return Math.abs(count - draws * p) / Math.sqrt(draws * p * (1 - p));
  });
}

describe('loadRecordedTraffic on the hand-made Next.js page load (test/fixtures/har/page-load.har)', async () => {
  const traffic = await loadRecordedTraffic(readHar(PAGE_LOAD));

  it('14 records → 13 GET objects (one POST left out and counted), identified by path + query without scheme and host', () => {
    expect(traffic.file).toBe(PAGE_LOAD);
    expect(traffic.urls).toEqual([
      '/',
      '/_next/static/css/8f3c2a1b9d4e7f60.css',
      '/_next/static/chunks/webpack-5c1e9a0f3b7d2e84.js',
      '/_next/static/chunks/framework-2f8b6c4d1a9e7350.js',
      '/_next/static/chunks/app/page-a4e9c1d7f2b35608.js',
      '/_next/static/media/a34f9d1faa5f3315-s.p.woff2',
      '/_next/static/media/e4af272ccee01ff0-s.p.woff2',
      '/_next/image?url=%2Fimages%2Fhero.jpg&w=1920&q=75',
      '/images/products/sneaker-blue.webp',
      '/images/logo.svg',
      '/products?_rsc=1m2kq',
      '/api/products?category=sneakers&sort=price&page=1',
      '/js/script.js',
    ]);
    expect(traffic.nonGet).toEqual({ POST: 1 });
    expect(Array.from(traffic.requestCounts)).toEqual(new Array(13).fill(1));
    expect(traffic.skipped.byReason).toEqual({ 'non-http-url': 1, 'no-response': 1, 'bad-entry': 0, 'bad-line': 0 });
  });

  it('sizes are the records’ body bytes (content.size; the 304’s cached body 2591)', () => {
    expect(Array.from(traffic.objectSizes)).toEqual([48213, 31877, 3871, 139412, 24876, 48432, 31288, 61733, 18842, 2591, 3377, 116, 1473]);
  });

  it('13 objects with 13 distinct header sets → 13 profiles; each keeps status, first URL and the recorded headers', () => {
    expect(traffic.profiles).toHaveLength(13);
    expect(Array.from(traffic.profileOf)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(traffic.profiles[9]).toEqual({
      status: 304,
      url: '/images/logo.svg',
      responseHeaders: [
        ['cache-control', 'public, max-age=0'],
        ['etag', 'W/"a1f-19a447e1a58"'],
        ['last-modified', 'Mon, 02 Nov 2026 11:40:27 GMT'],
      ],
    });
  });

  it('requests in time order (entries 5/6 and the cross-origin script are out of file order), ties (2–3, 8–9) in file order, ms since 09:15:02.114', () => {
    expect(Array.from(traffic.requestObjects)).toEqual([0, 1, 2, 3, 4, 6, 5, 7, 8, 9, 12, 10, 11]);
    expect(Array.from(traffic.requestOffsetsMs)).toEqual([0, 168, 171, 171, 172, 202, 203, 231, 233, 233, 420, 455, 468]);
  });
});

describe('loadRecordedTraffic on an access log', async () => {
  const file = write('small.log', ACCESS_LOG);
  const traffic = await loadRecordedTraffic(readAccessLog(file));

  it('GET only: 12 lines → 9 requests of 5 objects; HEAD ×2 and POST ×1 are counted by method and left out', () => {
    expect(traffic.urls).toEqual(['/app.css', '/app.js', '/theme.css?v=2', '/missing.css', '/index']);
    expect(traffic.requestObjects).toHaveLength(9);
    expect(Array.from(traffic.requestCounts)).toEqual([2, 2, 1, 1, 3]);
    expect(traffic.nonGet).toEqual({ HEAD: 2, POST: 1 });
    expect(traffic.skipped.total).toBe(0);
  });

  it('DESIGN "Trace semantics": an object seen again with another size keeps its first size (500, not 999; 300, not 10)', () => {
    expect(Array.from(traffic.objectSizes)).toEqual([500, 300, 700, 50, 1000]);
  });

  it('spec 4.2 profiles: same status + extension + headers share one (.css 200 ×2); another extension or status is another; the first record decides', () => {
    expect(Array.from(traffic.profileOf)).toEqual([0, 1, 0, 2, 3]);
    expect(traffic.profiles).toEqual([
      { status: 200, url: '/app.css', responseHeaders: [] },
      // /app.js's later 404 does not change its profile
      { status: 200, url: '/app.js', responseHeaders: [] },
      { status: 404, url: '/missing.css', responseHeaders: [] },
      { status: 200, url: '/index', responseHeaders: [] },
    ]);
  });

  it('offsets from the earliest GET (10:15:03; the earlier HEAD is left out), sorted by time, the four 10:15:03 requests in file order', () => {
    expect(Array.from(traffic.requestObjects)).toEqual([1, 2, 3, 4, 0, 0, 1, 4, 4]);
    expect(Array.from(traffic.requestOffsetsMs)).toEqual([0, 0, 0, 0, 1000, 2000, 4000, 6000, 7000]);
  });
});

describe('loadRecordedTraffic: profiles from HAR headers', () => {
  it('header names are lower-cased (same values → one profile), values and order are kept; an extension ignores the query (spec 4.2)', async () => {
    const file = write(
      'headers.har',
      harText([
        { url: 'https://a.example.com/x.js?v=1', time: '00.000', headers: [['Cache-Control', 'max-age=60'], ['ETag', '"1"']] },
        { url: 'https://b.example.com/y.js', time: '00.500', headers: [['cache-control', 'max-age=60'], ['etag', '"1"']] },
        { url: 'https://a.example.com/z.js', time: '01.000', headers: [['etag', '"1"'], ['cache-control', 'max-age=60']] },
        { url: 'https://a.example.com/w.js', time: '01.000', headers: [['cache-control', 'max-age=61'], ['etag', '"1"']] },
        { url: 'https://a.example.com/x.css', time: '02.000', headers: [['cache-control', 'max-age=60'], ['etag', '"1"']] },
        { url: 'https://a.example.com/x.js?v=1', time: '03.000', size: 99, headers: [['cache-control', 'no-store']] },
      ]),
    );
    const traffic = await loadRecordedTraffic(readHar(file));
    expect(traffic.urls).toEqual(['/x.js?v=1', '/y.js', '/z.js', '/w.js', '/x.css']);
    expect(Array.from(traffic.profileOf)).toEqual([0, 0, 1, 2, 3]);
    expect(traffic.profiles[0]).toEqual({ status: 200, url: '/x.js?v=1', responseHeaders: [['cache-control', 'max-age=60'], ['etag', '"1"']] });
    expect(Array.from(traffic.objectSizes)).toEqual([10, 10, 10, 10, 10]);
    expect(Array.from(traffic.requestOffsetsMs)).toEqual([0, 500, 1000, 1000, 2000, 3000]);
  });

  it('one deployment = one host: the same path from two hosts is one object', async () => {
    const file = write(
      'hosts.har',
      harText([
        { url: 'https://a.example.com/app.js', time: '00.000' },
        { url: 'https://cdn.example.net:8443/app.js', time: '00.100' },
      ]),
    );
    const traffic = await loadRecordedTraffic(readHar(file));
    expect(traffic.urls).toEqual(['/app.js']);
    expect(Array.from(traffic.requestCounts)).toEqual([2]);
  });

  it('spec 4.3.1: targets that differ only in parameter order are one object (the cacheKey urlKey), named by the first seen; another value is another object', async () => {
    const file = write(
      'query-order.har',
      harText([
        { url: 'https://a.example.com/s.css?a=1&b=2', time: '00.000', size: 400, headers: [['cache-control', 'max-age=60']] },
        { url: 'https://a.example.com/s.css?b=2&a=1', time: '00.500', size: 999, headers: [['cache-control', 'no-store']] },
        { url: 'https://a.example.com/s.css?a=1&b=3', time: '01.000', size: 300 },
        { url: 'https://b.example.com/s.css?b=2&&a=1#top', time: '01.500', size: 10 },
        { url: 'https://a.example.com/s.css?b=2&a=1', time: '02.000', size: 10 },
      ]),
    );
    const traffic = await loadRecordedTraffic(readHar(file));
    expect(traffic.urls).toEqual(['/s.css?a=1&b=2', '/s.css?a=1&b=3']);
    expect(Array.from(traffic.requestObjects)).toEqual([0, 0, 1, 0, 0]);
    expect(Array.from(traffic.requestCounts)).toEqual([4, 1]);
    // The first record decides size and profile, as for a target seen again (DESIGN "Trace semantics").
    expect(Array.from(traffic.objectSizes)).toEqual([400, 300]);
    expect(traffic.profiles[traffic.profileOf[0]].responseHeaders).toEqual([['cache-control', 'max-age=60']]);
  });

  it('spec 4.3.1 in an access log: the reversed order first names the object; an image is one object whatever variant a request asks for (spec 4.4 keys are per request)', async () => {
    const file = write(
      'query-order.log',
      [LINE('03', 'GET /p.jpg?w=640&q=75', '200 5000'), LINE('04', 'GET /p.jpg?q=75&w=640', '200 5000'), LINE('05', 'GET /p.jpg?q=75&w=320', '200 2000')].join('\n'),
    );
    const traffic = await loadRecordedTraffic(readAccessLog(file));
    expect(traffic.urls).toEqual(['/p.jpg?w=640&q=75', '/p.jpg?q=75&w=320']);
    expect(Array.from(traffic.requestCounts)).toEqual([2, 1]);
  });

  it('requestTarget strips scheme and authority, keeps path and query as recorded, drops a fragment; a target stays as it is', () => {
    expect(requestTarget('https://shop.example.com/_next/image?url=%2Fa.jpg&w=1')).toBe('/_next/image?url=%2Fa.jpg&w=1');
    expect(requestTarget('https://user@shop.example.com:8443')).toBe('/');
    expect(requestTarget('http://shop.example.com?b=2&a=1')).toBe('/?b=2&a=1');
    expect(requestTarget('https://shop.example.com/page#top')).toBe('/page');
    expect(requestTarget('/a?b=%20c')).toBe('/a?b=%20c');
  });
});

describe('loadRecordedTraffic errors (TraceError, a UserError, naming the file)', () => {
  it('300 distinct extensions give 300 profiles (a run groups them by decision)', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => LINE('03', `GET /file.e${i}`, '200 10'));
    const traffic = await loadRecordedTraffic(readAccessLog(write('profiles-300.log', lines.join('\n'))));
    expect(traffic.profiles).toHaveLength(300);
    expect(traffic.profileOf[299]).toBe(299);
  });

  it('no GET requests: names the file and what it held', async () => {
    const file = write('no-get.log', [LINE('03', 'POST /api/cart', '200 22'), LINE('04', 'HEAD /', '200 0')].join('\n'));
    const error = await loadError(loadRecordedTraffic(readAccessLog(file)));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.file).toBe(file);
    expect(error.message).toBe(`no GET requests in ${file}: 2 records, none a GET (1 POST, 1 HEAD). cdnsim replays GET requests only (a CDN stores GET responses).`);
  });

  it('an empty file: no GET requests', async () => {
    const file = write('empty.log', '');
    const error = await loadError(loadRecordedTraffic(readAccessLog(file)));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(`no GET requests in ${file}: no usable records. cdnsim replays GET requests only (a CDN stores GET responses).`);
  });
});

describe('recordedCatalogue', async () => {
  // counts per object [2, 2, 1, 1, 3]
  const traffic = await loadRecordedTraffic(readAccessLog(write('catalogue.log', ACCESS_LOG)));

  it('zipf: ranked by request count (object 4: 3 requests → rank 1), ties by first appearance (0 before 1, 2 before 3); s = 1 → 60/137, 30/137, …', () => {
    const catalogue = recordedCatalogue(traffic, { kind: 'zipf', exponent: 1 }, new Uint8Array(traffic.urls.length));
    const expected = [30, 20, 15, 12, 60].map((weight) => weight / 137);
    Array.from(catalogue.popularity).forEach((p, id) => expect(p).toBeCloseTo(expected[id], 12));
  });

  it('zipf over the page load (every URL once): popularity in first-appearance order, rank r ∝ 1/r^0.8', async () => {
    const page = await loadRecordedTraffic(readHar(PAGE_LOAD));
    const catalogue = recordedCatalogue(page, { kind: 'zipf', exponent: 0.8 }, new Uint8Array(page.urls.length));
    for (let id = 1; id < 13; id++) expect(catalogue.popularity[id] / catalogue.popularity[0]).toBeCloseTo(Math.pow(id + 1, -0.8), 12);
  });

  it('observed: probability ∝ request count (2/9, 2/9, 1/9, 1/9, 3/9)', () => {
    const catalogue = recordedCatalogue(traffic, { kind: 'observed' }, new Uint8Array(traffic.urls.length));
    const expected = [2, 2, 1, 1, 3].map((count) => count / 9);
    Array.from(catalogue.popularity).forEach((p, id) => expect(p).toBeCloseTo(expected[id], 15));
  });

  it('the recording’s sizes, and the classes it is given', () => {
    const classOf = Uint8Array.of(0, 1, 0, 1, 1);
    const catalogue = recordedCatalogue(traffic, { kind: 'observed' }, classOf);
    expect(catalogue.size).toBe(5);
    expect(Array.from(catalogue.objectSizes)).toEqual([500, 300, 700, 50, 1000]);
    expect(catalogue.classOf).toBe(classOf);
    expect(() => recordedCatalogue(traffic, { kind: 'observed' }, new Uint8Array(4))).toThrow('expected a class for each of the 5 objects, got 4');
  });

  it('pick() over 200,000 draws: every object within 4σ of its probability (zipf and observed)', () => {
    for (const popularity of [{ kind: 'zipf', exponent: 1 }, { kind: 'observed' }] as const) {
      const deviations = pickDeviations(recordedCatalogue(traffic, popularity, new Uint8Array(traffic.urls.length)), 200_000, 7);
      for (const sigmas of deviations) expect(sigmas).toBeLessThan(4);
    }
  });
});
