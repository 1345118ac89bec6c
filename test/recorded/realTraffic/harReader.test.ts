import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/userError.js';
import { parseIsoDateTime, readHar } from '../../../src/recorded/realTraffic/harReader.js';
import type { TrafficReaderOptions } from '../../../src/recorded/realTraffic/trafficRecord.js';
import { TraceError } from '../../../src/recorded/traces/traceReader.js';
import { scratchDirectory } from '../traces/helpers.js';
import { failedRead, readAll } from './readHelpers.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/har');
const fixture = (name: string): string => join(FIXTURES, name);
const PAGE_LOAD = fixture('page-load.har');
const write = scratchDirectory();
const SKIP_HINT = 'Pass --skip-bad N to skip up to N malformed entries.';
const HOW_TO_EXPORT = 'export one from the browser: DevTools → Network → right-click a request → "Save all as HAR"';


const header = (headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined =>
  headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** Lines where the entries of a pretty-printed HAR start: `      {` after `"entries": [`. */
function entryStartLines(text: string): number[] {
  const lines = text.split('\n');
  const from = lines.findIndex((line) => line.includes('"entries": ['));
  const starts: number[] = [];
  for (let i = from + 1; i < lines.length; i++) if (lines[i] === '      {') starts.push(i + 1);
  return starts;
}

/** A HAR 1.2 entry with only the fields the reader uses (plus what it drops). */
interface EntryParts {
  startedDateTime: string;
  method: string;
  url: string;
  status: number;
  requestHeaders?: Array<[string, string]>;
  responseHeaders?: Array<[string, string]>;
  size?: number;
  bodySize?: number;
  text?: string;
}

function harEntry(parts: EntryParts): Record<string, unknown> {
  const content: Record<string, unknown> = { mimeType: 'text/plain' };
  if (parts.size !== undefined) content.size = parts.size;
  if (parts.text !== undefined) content.text = parts.text;
  const response: Record<string, unknown> = {
    status: parts.status,
    statusText: '',
    httpVersion: 'h2',
    headers: (parts.responseHeaders ?? []).map(([name, value]) => ({ name, value })),
    content,
  };
  if (parts.bodySize !== undefined) response.bodySize = parts.bodySize;
  return {
    startedDateTime: parts.startedDateTime,
    request: { method: parts.method, url: parts.url, headers: (parts.requestHeaders ?? []).map(([name, value]) => ({ name, value })) },
    response,
    timings: { send: 0, wait: 10, receive: 1 },
  };
}

const harText = (entries: unknown[]): string => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }, null, 2);

const GET_ROOT: EntryParts = { startedDateTime: '2026-11-21T09:15:02.114Z', method: 'GET', url: 'https://shop.example.com/', status: 200 };

describe('HAR reader on the hand-made Chrome page load (test/fixtures/har/page-load.har)', async () => {
  const reader = readHar(PAGE_LOAD);
  const records = await readAll(reader);
  const text = readFileSync(PAGE_LOAD, 'utf8');

  it('reports bytes read for a progress bar: 41,075 bytes in 4 KiB blocks, rising to the file size, with the same records', async () => {
    const calls: [number, number][] = [];
    const counted = await readAll(readHar(PAGE_LOAD, { blockBytes: 4096, onBytesRead: (bytesRead, totalBytes) => calls.push([bytesRead, totalBytes]) }));
    expect(counted).toEqual(records);
    expect(calls).toHaveLength(Math.ceil(41_075 / 4096));
    expect(calls[0]).toEqual([4096, 41_075]);
    expect(calls.at(-1)).toEqual([41_075, 41_075]);
  });

  it('HTTP Archive 1.2: 16 entries → 14 records; the data: URL and the blocked entry (status 0) are skipped and counted', () => {
    expect(JSON.parse(text).log.entries).toHaveLength(16);
    expect(records).toHaveLength(14);
    const skipped = reader.skipped;
    expect(skipped.total).toBe(2);
    expect(skipped.byReason).toEqual({ 'non-http-url': 1, 'no-response': 1, 'bad-entry': 0, 'bad-line': 0 });
    expect(skipped.examples.map((example) => [example.reason, example.source.entry])).toEqual([
      ['non-http-url', 10],
      ['no-response', 15],
    ]);
    expect(skipped.examples[0].detail).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(skipped.examples[1].detail).toBe('net::ERR_BLOCKED_BY_CLIENT: https://ads.example.org/pixel.gif?p=home');
  });

  it('HTTP Archive 1.2: the first record is the HTML document, with its real headers (HTTP/2 pseudo-headers left out, RFC 9113 §8.3)', () => {
    const first = records[0];
    expect(first.epochMs).toBe(Date.UTC(2026, 10, 21, 9, 15, 2, 114));
    expect(first.method).toBe('GET');
    expect(first.url).toBe('https://shop.example.com/');
    expect(first.status).toBe(200);
    expect(first.requestHeaders.map(([name]) => name)).toEqual([
      'accept',
      'accept-encoding',
      'accept-language',
      'sec-ch-ua-mobile',
      'sec-fetch-dest',
      'sec-fetch-mode',
      'sec-fetch-site',
      'user-agent',
    ]);
    expect(first.responseHeaders).toEqual([
      ['cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate'],
      ['content-encoding', 'br'],
      ['content-type', 'text/html; charset=utf-8'],
      ['date', 'Sat, 21 Nov 2026 09:15:02 GMT'],
      ['vary', 'RSC, Next-Router-State-Tree, Next-Router-Prefetch, Accept-Encoding'],
      ['x-cache', 'MISS'],
      ['x-powered-by', 'Next.js'],
    ]);
    // content.size (the decoded body) wins over bodySize (9876 bytes on the wire).
    expect(first.bodyBytes).toBe(48213);
    expect(first.source).toEqual({ file: PAGE_LOAD, entry: 0, line: 20 });
  });

  it('HTTP Archive 1.2: each record names the entry index and the line where the entry starts', () => {
    const lines = entryStartLines(text);
    expect(lines).toHaveLength(16);
    const kept = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14];
    expect(records.map((record) => record.source.entry)).toEqual(kept);
    expect(records.map((record) => record.source.line)).toEqual(kept.map((entry) => lines[entry]));
    expect(reader.skipped.examples.map((example) => example.source.line)).toEqual([lines[10], lines[15]]);
  });

  it('spec 4.3: the Next.js static assets (CSS, 3 JS chunks, 2 fonts) carry public, max-age=31536000, immutable', () => {
    const assets = records.filter((record) => record.url.startsWith('https://shop.example.com/_next/static/'));
    expect(assets.map((record) => record.url.split('/').at(-1))).toEqual([
      '8f3c2a1b9d4e7f60.css',
      'webpack-5c1e9a0f3b7d2e84.js',
      'framework-2f8b6c4d1a9e7350.js',
      'page-a4e9c1d7f2b35608.js',
      'a34f9d1faa5f3315-s.p.woff2',
      'e4af272ccee01ff0-s.p.woff2',
    ]);
    for (const asset of assets) expect(header(asset.responseHeaders, 'Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(assets.map((record) => header(record.responseHeaders, 'content-type'))).toContain('font/woff2');
  });

  it('spec 4.4: the optimised image is AVIF for an Accept with image/avif, with Vary: Accept', () => {
    const image = records.find((record) => record.url.includes('/_next/image?'));
    expect(image?.url).toBe('https://shop.example.com/_next/image?url=%2Fimages%2Fhero.jpg&w=1920&q=75');
    expect(header(image!.requestHeaders, 'accept')).toContain('image/avif');
    expect(header(image!.responseHeaders, 'vary')).toBe('Accept');
    expect(header(image!.responseHeaders, 'content-type')).toBe('image/avif');
    expect(image!.bodyBytes).toBe(61733);
    const webp = records.find((record) => record.url.endsWith('.webp'));
    expect(header(webp!.responseHeaders, 'content-type')).toBe('image/webp');
  });

  it('spec 8.1: the API GET is cacheable at the CDN for a minute with stale-while-revalidate; the POST is not', () => {
    const api = records.find((record) => record.url.includes('/api/products'));
    expect(api?.method).toBe('GET');
    expect(header(api!.responseHeaders, 'cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
    // content.size of the JSON, although the entry also carries its text (dropped while reading).
    expect(api!.bodyBytes).toBe(116);
    const post = records.find((record) => record.method === 'POST');
    expect(post?.url).toBe('https://shop.example.com/api/cart');
    expect(header(post!.responseHeaders, 'cache-control')).toBe('private, no-store');
    expect(header(post!.requestHeaders, 'content-type')).toBe('application/json');
  });

  it('RFC 9110 §15.4.5: the 304 revalidation keeps its validators; bodyBytes is content.size (the cached body), bodySize 0 notwithstanding', () => {
    const revalidation = records.find((record) => record.status === 304);
    expect(revalidation?.url).toBe('https://shop.example.com/images/logo.svg');
    expect(header(revalidation!.requestHeaders, 'if-none-match')).toBe('W/"a1f-19a447e1a58"');
    expect(header(revalidation!.responseHeaders, 'etag')).toBe('W/"a1f-19a447e1a58"');
    expect(revalidation!.bodyBytes).toBe(2591);
  });

  it('yields records in file order, not sorted by start time (the second font and the analytics script started earlier)', () => {
    const times = records.map((record) => record.epochMs);
    const stepsBack = times.flatMap((time, i) => (i > 0 && time < times[i - 1] ? [i] : []));
    expect(stepsBack).toEqual([6, 13]);
    expect(records[13].url).toBe('https://analytics.example.net/js/script.js');
  });

  it('reads the same records whatever the block size (tokens and lines cut across blocks)', async () => {
    for (const blockBytes of [3, 7, 4096]) expect(await readAll(readHar(PAGE_LOAD, { blockBytes }))).toEqual(records);
  });

  it('reads the file again on each iteration, and counts the skips of the latest one', async () => {
    let seen = 0;
    for await (const _ of reader) if (++seen === 3) break;
    expect(reader.skipped.total).toBe(0);
    expect(await readAll(reader)).toEqual(records);
    expect(reader.skipped.total).toBe(2);
  });
});

describe('HAR reader: body bytes', () => {
  const bodyBytes = async (parts: Partial<EntryParts>): Promise<number> => {
    const file = write('body.har', harText([harEntry({ ...GET_ROOT, ...parts })]));
    const [record] = await readAll(readHar(file));
    return record.bodyBytes;
  };

  it('HTTP Archive 1.2: content.size if ≥ 0, else bodySize if ≥ 0, else Content-Length, else 0', async () => {
    const length: Array<[string, string]> = [['Content-Length', '777']];
    expect(await bodyBytes({ size: 1200, bodySize: 300, responseHeaders: length })).toBe(1200);
    expect(await bodyBytes({ size: 0, bodySize: 300 })).toBe(0);
    expect(await bodyBytes({ size: -1, bodySize: 300, responseHeaders: length })).toBe(300);
    expect(await bodyBytes({ bodySize: 300 })).toBe(300);
    expect(await bodyBytes({ size: -1, bodySize: -1, responseHeaders: length })).toBe(777);
    expect(await bodyBytes({ responseHeaders: [['content-length', ' 42 ']] })).toBe(42);
    expect(await bodyBytes({ size: -1, bodySize: -1, responseHeaders: [['content-length', 'lots']] })).toBe(0);
    expect(await bodyBytes({})).toBe(0);
  });
});

describe('HAR reader: malformed input', () => {
  it('names file:line:column of the entry, its index, the field path, what was expected and what was found (bad-status.har)', async () => {
    const file = fixture('bad-status.har');
    const { records, error } = await failedRead(readHar(file));
    expect(error).toBeInstanceOf(UserError);
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(
      `${file}:57:7: entry 1: log.entries[1].response.status: expected an HTTP status (a whole number 0–999; 0 = no response), found "200". ${SKIP_HINT}`,
    );
    expect((error as TraceError).line).toBe(57);
    // The entry before the malformed one was delivered first.
    expect(records.map((record) => record.url)).toEqual(['https://docs.example.com/']);
    // Firefox writes the zone as an offset.
    expect(records[0].epochMs).toBe(Date.UTC(2026, 10, 21, 9, 15, 2, 114));
  });

  it('skips malformed entries within --skip-bad, counted as bad-entry, and says when there are more', async () => {
    const file = fixture('bad-status.har');
    const reader = readHar(file, { skipBad: 1 });
    expect((await readAll(reader)).map((record) => record.url)).toEqual(['https://docs.example.com/', 'https://docs.example.com/app.js']);
    expect(reader.skipped.byReason['bad-entry']).toBe(1);
    expect(reader.skipped.examples[0].source).toEqual({ file, entry: 1, line: 57 });

    const two = write('two-bad.har', harText([harEntry({ ...GET_ROOT, method: 'G ET' }), harEntry(GET_ROOT), harEntry({ ...GET_ROOT, status: 1000 })]));
    const { error } = await failedRead(readHar(two, { skipBad: 1 }));
    expect(error.message).toMatch(/^.*two-bad\.har:\d+:7: entry 2: log\.entries\[2\]\.response\.status: expected an HTTP status .*, found 1000\. That is more than --skip-bad 1: 1 malformed entry was skipped before this one \(the first at entry 0\)\.$/);
  });

  it('RFC 8259: malformed JSON names file:line:column, what was expected and what was found (bad-json.har)', async () => {
    const file = fixture('bad-json.har');
    const { error } = await failedRead(readHar(file));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(`${file}:90:45: malformed JSON: expected ',', found "guide.pdf\\"\\"".`);
    expect((error as TraceError).line).toBe(90);
  });

  it('a JSON file without log.entries is not a HAR: the message says how to export one (no-entries.har)', async () => {
    const file = fixture('no-entries.har');
    const { error } = await failedRead(readHar(file));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain(`${file}: not a HAR file: "log" has no "entries" array.`);
    expect(error.message).toContain(HOW_TO_EXPORT);
  });

  it('says what else is wrong with files that are not HARs', async () => {
    const problem = async (content: string): Promise<string> => {
      const file = write('not.har', content);
      const { error } = await failedRead(readHar(file));
      expect(error).toBeInstanceOf(UserError);
      return error.message.slice(file.length);
    };
    expect(await problem('')).toMatch(/^: not a HAR file: the file is empty\. /);
    expect(await problem(' \n ')).toMatch(/^: not a HAR file: the file is empty\. /);
    expect(await problem('[{"log": {}}]')).toMatch(/^: not a HAR file: the top level is an array, not an object\. /);
    expect(await problem('"log"')).toMatch(/^: not a HAR file: the top level is a string, not an object\. /);
    expect(await problem('{"version": "1.2"}')).toMatch(/^: not a HAR file: there is no "log" object at the top level\. /);
    expect(await problem('{"entries": [], "version": "1.2"}')).toMatch(/^: not a HAR file: it has "entries" at the top level, but a HAR has them in a "log" object\. /);
    expect(await problem('{"log": [1]}')).toMatch(/^: not a HAR file: "log" is an array, expected an object\. /);
    expect(await problem('{"log": {"entries": {}}}')).toMatch(/^: not a HAR file: log\.entries is an object, expected an array of entries\. /);
    expect(await problem('{"log": {"entries": null}}')).toMatch(/^: not a HAR file: log\.entries is null, expected an array of entries\. /);
    expect(await problem('{"log": {"entries": []}} {}')).toBe(':1:26: malformed JSON: unexpected characters, found "{}".');
    expect(await problem('203.0.113.7 - - [21/Nov/2026:10:15:02 +0100] "GET / HTTP/1.1" 200 5123\n')).toMatch(
      /^:1:6: malformed JSON: unexpected characters, found "\.113\.7 - - \[21\/Nov\/2026:10:15:…"\. This looks like an access log in Common\/Combined Log Format, not a HAR\. /,
    );
    expect(await problem('<!DOCTYPE html>\n<html></html>\n')).toMatch(
      /^:1:1: malformed JSON: expected a value, found "<!DOCTYPE html>"\. This is not JSON\. A HAR file \(HTTP Archive 1\.2\) is JSON /,
    );
  });

  it('a HAR cut short (an interrupted export) says so, with the records before the fault already delivered', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => harEntry({ ...GET_ROOT, url: `https://shop.example.com/${i}` }));
    const text = harText(entries);
    const file = write('cut.har', text.slice(0, Math.floor(text.length * 0.9)));
    const { records, error } = await failedRead(readHar(file));
    expect(error.message).toMatch(/^.*cut\.har:\d+:\d+: malformed JSON: .*, found the end of the file\. The file ends before the JSON does: was the export interrupted\?$/);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(40);
  });

  it('HTTP Archive 1.2: names each broken field of an entry, with its path', async () => {
    const problem = async (entry: unknown): Promise<string> => {
      const file = write('entry.har', harText([entry]));
      const { error } = await failedRead(readHar(file));
      expect(error).toBeInstanceOf(TraceError);
      const prefix = `${file}:9:7: entry 0: `;
      expect(error.message.startsWith(prefix)).toBe(true);
      return error.message.slice(prefix.length, -SKIP_HINT.length - 2);
    };
    const root = harEntry(GET_ROOT);
    const without = (path: string[]): unknown => {
      const copy = structuredClone(root) as Record<string, Record<string, unknown>>;
      delete copy[path[0]][path[1]];
      return copy;
    };
    expect(await problem(without(['request', 'url']))).toBe('log.entries[0].request.url: expected an absolute http(s) URL, found nothing (the field is missing)');
    expect(await problem(harEntry({ ...GET_ROOT, url: '/relative/path' }))).toBe('log.entries[0].request.url: expected an absolute http(s) URL, found "/relative/path"');
    expect(await problem(harEntry({ ...GET_ROOT, startedDateTime: '2026-11-21T09:15:02.114' }))).toBe(
      'log.entries[0].startedDateTime: expected an ISO 8601 date-time with a zone offset, like "2026-11-21T09:15:02.123Z" or "…+01:00", found "2026-11-21T09:15:02.114"',
    );
    expect(await problem(harEntry({ ...GET_ROOT, status: 200.5 }))).toMatch(/^log\.entries\[0\]\.response\.status: expected an HTTP status .*, found 200\.5$/);
    expect(await problem(harEntry({ ...GET_ROOT, status: -1 }))).toMatch(/found -1$/);
    expect(await problem(harEntry({ ...GET_ROOT, size: 1.5 }))).toBe('log.entries[0].response.content.size: expected a whole number of bytes (−1 = unknown), found 1.5');
    const badHeader = structuredClone(root) as { response: { headers: unknown[] } };
    badHeader.response.headers = [{ name: 'age', value: '3' }, { name: 'x-count', value: 5 }];
    expect(await problem(badHeader)).toBe('log.entries[0].response.headers[1].value: expected a header value (a string), found 5');
    expect(await problem({ ...root, request: [] })).toBe('log.entries[0].request: expected a request object, found an empty array');
    expect(await problem({ ...root, request: 'GET /', response: 5 })).toBe('log.entries[0].request: expected a request object, found "GET /" (and 1 more problem in this entry)');
    expect(await problem({ ...root, 'odd key': 1, response: undefined })).toBe('log.entries[0].response: expected a response object, found nothing (the field is missing)');
  });

  it('HTTP Archive 1.2: an entry that is not an object is malformed (no start line: only objects have one)', async () => {
    const file = write('scalar.har', harText([harEntry(GET_ROOT), 'GET /', harEntry(GET_ROOT)]));
    const { error } = await failedRead(readHar(file));
    expect(error.message).toBe(`${file}: entry 1: log.entries[1]: expected an entry object, found "GET /". ${SKIP_HINT}`);
    const reader = readHar(file, { skipBad: Infinity });
    expect(await readAll(reader)).toHaveLength(2);
  });

  it('reports a missing file as a UserError with a suggestion', async () => {
    const { error } = await failedRead(readHar(fixture('page-lod.har')));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain('(did you mean page-load.har?)');
  });

  it('rejects a bad --skip-bad at once', () => {
    expect(() => readHar(PAGE_LOAD, { skipBad: -1 })).toThrow(UserError);
  });
});

describe('HAR reader: dropped and unknown fields', () => {
  it('HTTP Archive 1.2: vendor _fields and custom fields are allowed; bodies and initiator stacks are not kept', async () => {
    const entry = harEntry({ ...GET_ROOT, text: '{"not": "parsed"}'.repeat(1000) }) as Record<string, unknown>;
    entry._initiator = { type: 'script', stack: { callFrames: [{ url: 'https://shop.example.com/a.js', lineNumber: 1 }] } };
    entry._webSocketMessages = [{ type: 'send', opcode: 1, data: '{' }];
    Object.defineProperty(entry, '__proto__', { value: { polluted: true }, enumerable: true });
    (entry.request as Record<string, unknown>).postData = { mimeType: 'application/json', text: '[[[' };
    (entry.request as Record<string, unknown>)._custom = [null, true, false, 1e3, { deep: [[]] }];
    const file = write('vendor.har', harText([entry]));
    const [record] = await readAll(readHar(file));
    expect(record.url).toBe('https://shop.example.com/');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('HAR startedDateTime (ISO 8601 with a zone offset)', () => {
  it('reads Z, ±hh:mm, ±hhmm and ±hh zones and keeps fractions of a millisecond', () => {
    expect(parseIsoDateTime('2026-11-21T09:15:02.114Z')).toBe(Date.UTC(2026, 10, 21, 9, 15, 2, 114));
    expect(parseIsoDateTime('2026-11-21T10:15:02.114+01:00')).toBe(Date.UTC(2026, 10, 21, 9, 15, 2, 114));
    expect(parseIsoDateTime('2026-11-21T10:15:02.114+0100')).toBe(Date.UTC(2026, 10, 21, 9, 15, 2, 114));
    expect(parseIsoDateTime('2026-11-21T03:45:02-05:30')).toBe(Date.UTC(2026, 10, 21, 9, 15, 2));
    expect(parseIsoDateTime('2026-11-21T10:15+01')).toBe(Date.UTC(2026, 10, 21, 9, 15));
    // Double spacing at 1.8e12 ms is 2.4e-4 ms: the fraction is kept to about that.
    expect(parseIsoDateTime('2026-11-21T09:15:02.1234567Z')).toBeCloseTo(Date.UTC(2026, 10, 21, 9, 15, 2, 123) + 0.4567, 3);
    expect(parseIsoDateTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  it('rejects date-times without a zone, impossible dates and other text', () => {
    for (const text of ['2026-11-21T09:15:02.114', '2023-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21 09:15:02Z', 'yesterday', '']) {
      expect(parseIsoDateTime(text)).toBeNaN();
    }
  });
});

describe('HAR reader properties', () => {
  const token = fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND', 'get');
  const headerPair = fc.tuple(
    fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !name.startsWith(':') && name.toLowerCase() !== 'content-length'),
    fc.string({ maxLength: 20, unit: 'grapheme' }),
  );
  const generatedEntry = fc.record({
    epochMs: fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
    offsetMinutes: fc.integer({ min: -14 * 60, max: 14 * 60 }),
    method: token,
    url: fc.webUrl({ withQueryParameters: true }),
    status: fc.integer({ min: 100, max: 599 }),
    requestHeaders: fc.array(headerPair, { maxLength: 3 }),
    responseHeaders: fc.array(headerPair, { maxLength: 3 }),
    size: fc.option(fc.integer({ min: -1, max: 2 ** 40 }), { nil: undefined }),
    bodySize: fc.option(fc.integer({ min: -1, max: 2 ** 30 }), { nil: undefined }),
    // Bodies full of JSON syntax: the position scanner must skip strings exactly.
    text: fc.option(fc.string({ maxLength: 40 }).map((text) => `{"[\\${text}`), { nil: undefined }),
  });
  const layout = fc.record({
    indent: fc.constantFrom<number | string | undefined>(undefined, 2, '\t'),
    separator: fc.constantFrom(',\n', ',', ',\n\n  '),
    pagesFirst: fc.boolean(),
    blockBytes: fc.constantFrom(1, 5, 64, 65_536),
  });

  const isoWithOffset = (epochMs: number, offsetMinutes: number): string => {
    const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, -1);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const magnitude = Math.abs(offsetMinutes);
    return `${local}${sign}${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
  };

  it('HTTP Archive 1.2: generated entries written to a file come back as the same records, with the lines where they start', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(generatedEntry, { maxLength: 6 }), layout, async (generated, { indent, separator, pagesFirst, blockBytes }) => {
        const pages = '"pages": [{"id": "page_1", "pageTimings": {"onLoad": 1}}]';
        let text = `{\n  "log": {\n    "version": "1.2",\n    ${pagesFirst ? `${pages},\n    ` : ''}"entries": [\n`;
        const lines: number[] = [];
        generated.forEach((parts, i) => {
          if (i > 0) text += separator;
          lines.push(text.split('\n').length);
          text += JSON.stringify(harEntry({ ...parts, startedDateTime: isoWithOffset(parts.epochMs, parts.offsetMinutes) }), null, indent);
        });
        text += `\n    ]${pagesFirst ? '' : `,\n    ${pages}`}\n  }\n}\n`;
        const file = write('generated.har', text);
        const records = await readAll(readHar(file, { blockBytes }));
        expect(records).toEqual(
          generated.map((parts, i) => ({
            epochMs: parts.epochMs,
            method: parts.method.toUpperCase(),
            url: parts.url,
            status: parts.status,
            requestHeaders: parts.requestHeaders,
            responseHeaders: parts.responseHeaders,
            bodyBytes: parts.size !== undefined && parts.size >= 0 ? parts.size : parts.bodySize !== undefined && parts.bodySize >= 0 ? parts.bodySize : 0,
            source: { file, entry: i, line: lines[i] },
          })),
        );
      }),
      { numRuns: 80 },
    );
  });

  /** JSON-ish text: the syntax, the names a HAR reader looks for, and junk. */
  const jsonSoup = fc
    .array(
      fc.oneof(
        fc.constantFrom('{', '}', '[', ']', ':', ',', '"log"', '"entries"', '"request"', '"response"', '"url"', '"status"', '"headers"', '"__proto__"', '"x"', '"', '\\', '1', '-0.5e3', 'null', 'true', ' ', '\n'),
        fc.constant('{"startedDateTime": "2026-11-21T09:15:02Z", "request": {"method": "GET", "url": "https://a.example/", "headers": []}, "response": {"status": 200, "headers": []}}'),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));
  const harPrefix = fc.constantFrom('', '{"log": {"entries": [', '{"log": {"version": "1.2", "entries": [{}, ');

  it('throws nothing but UserError on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(harPrefix, jsonSoup, fc.constantFrom<TrafficReaderOptions>({}, { skipBad: Infinity, blockBytes: 3 }), async (prefix, soup, options) => {
        const file = write('soup.har', prefix + soup);
        try {
          for await (const record of readHar(file, options)) expect(Number.isFinite(record.epochMs)).toBe(true);
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          expect(error.message.startsWith(file)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
