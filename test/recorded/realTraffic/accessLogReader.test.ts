import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/userError.js';
import { type AccessLogFields, parseAccessLogLine, readAccessLog } from '../../../src/recorded/realTraffic/accessLogReader.js';
import { TraceError } from '../../../src/recorded/traces/traceReader.js';
import { scratchDirectory } from '../traces/helpers.js';
import { failedRead, readAll } from './readHelpers.js';

const COMBINED = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/access-logs/combined.log');
const write = scratchDirectory();
const SKIP_HINT = 'Pass --skip-bad N to skip up to N malformed lines.';
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LINE = (stamp: string, request: string, tail = '200 100') => `192.0.2.1 - - [${stamp}] "${request}" ${tail}`;


function parse(line: string): AccessLogFields | string {
  const parsed = parseAccessLogLine(Buffer.from(line, 'utf8'));
  return parsed.ok ? parsed.fields : parsed.problem;
}

describe('access log reader on test/fixtures/access-logs/combined.log', async () => {
  const reader = readAccessLog(COMBINED, { skipBad: 1 });
  const records = await readAll(reader);

  it('Combined Log Format: 11 lines → 10 records and 1 bad line (a line cut short), counted', () => {
    expect(records).toHaveLength(10);
    expect(reader.skipped.total).toBe(1);
    expect(reader.skipped.byReason['bad-line']).toBe(1);
    expect(reader.skipped.examples).toEqual([
      {
        reason: 'bad-line',
        source: { file: COMBINED, line: 6 },
        detail: 'expected the request line to end with a quote, found the end of the line, in "198.51.100.14 - - [21/Nov/2026:10:16:09 +0100] \\"GET /_next/static/chu"',
      },
    ]);
    expect(records.map((record) => record.source.line)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10, 11]);
  });

  it('Combined Log Format: the first record, its zone applied; referer "-" means no Referer', () => {
    expect(records[0]).toEqual({
      epochMs: Date.UTC(2026, 10, 21, 9, 15, 2),
      method: 'GET',
      url: '/',
      status: 200,
      requestHeaders: [['User-Agent', CHROME]],
      responseHeaders: [],
      bodyBytes: 9876,
      source: { file: COMBINED, line: 1 },
    });
    expect(records[1].requestHeaders).toEqual([
      ['Referer', 'https://shop.example.com/'],
      ['User-Agent', CHROME],
    ]);
  });

  it('keeps the target as logged (spec 4.3.1: the query order is the cache key’s business), the status and the bytes', () => {
    expect(records[3].url).toBe('/_next/image?url=%2Fimages%2Fhero.jpg&w=1920&q=75');
    expect(records[8].url).toBe('/api/products?sort=price&category=sneakers');
    expect(records.map((record) => record.status)).toEqual([200, 200, 200, 200, 304, 200, 200, 200, 200, 404]);
    expect(records.map((record) => record.bodyBytes)).toEqual([9876, 6412, 1790, 61733, 0, 22, 0, 67, 98, 153]);
  });

  it('an IPv6 client, a mobile User-Agent (spec 4.5), a user name, POST and HEAD, "-" bytes', () => {
    expect(records[4].requestHeaders[1][1]).toMatch(/iPhone/);
    expect(records[5]).toMatchObject({ method: 'POST', url: '/api/cart', epochMs: Date.UTC(2026, 10, 21, 9, 16, 10) });
    expect(records[6]).toMatchObject({ method: 'HEAD', bodyBytes: 0, requestHeaders: [['User-Agent', 'kube-probe/1.31']] });
  });

  it('undoes nginx’s \\xHH escapes in the User-Agent', () => {
    expect(records[7].requestHeaders).toEqual([['User-Agent', 'Mozilla/5.0 (compatible; ExampleBot/2.1; "+https://bot.example.com/")']]);
  });

  it('Common Log Format (no referer, no user agent): no request headers; the method is upper-cased', () => {
    expect(records[9]).toMatchObject({ method: 'GET', url: '/favicon.ico', status: 404, requestHeaders: [], bodyBytes: 153 });
  });

  it('stops at the bad line without --skip-bad, naming file:line, quoting the line, after the records before it', async () => {
    const { records: before, error } = await failedRead(readAccessLog(COMBINED));
    expect(error).toBeInstanceOf(UserError);
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(
      `${COMBINED}:6: expected the request line to end with a quote, found the end of the line, in "198.51.100.14 - - [21/Nov/2026:10:16:09 +0100] \\"GET /_next/static/chu". ${SKIP_HINT}`,
    );
    expect((error as TraceError).line).toBe(6);
    expect(before).toEqual(records.slice(0, 5));
  });

  it('reads the same records whatever the block size', async () => {
    for (const blockBytes of [1, 13, 4096]) expect(await readAll(readAccessLog(COMBINED, { skipBad: 1, blockBytes }))).toEqual(records);
  });
});

describe('access log reader: malformed input', () => {
  it('names each broken part of a line', () => {
    const stamp = '10/Oct/2000:13:55:36 -0700';
    expect(parse(LINE('29/Feb/2023:00:00:00 +0000', 'GET / HTTP/1.1'))).toBe('expected a timestamp like [10/Oct/2000:13:55:36 -0700], found "[29/Feb/2023:00:00:00 +0000]"');
    expect(parse(LINE('10/Oct/2000:13:55:36', 'GET / HTTP/1.1'))).toBe('expected a timestamp like [10/Oct/2000:13:55:36 -0700], found "[10/Oct/2000:13:55:36]"');
    expect(parse(LINE(stamp, 'GET /'))).toBe('expected a request line "METHOD target HTTP/version", found "GET /"');
    expect(parse(LINE(stamp, '-', '400 0'))).toBe('expected a request line "METHOD target HTTP/version", found "-"');
    expect(parse(LINE(stamp, 'G(T / HTTP/1.1'))).toBe('expected an HTTP method (a token, RFC 9110 §9.1), found "G(T" in the request line');
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '2000 5'))).toBe('status "2000" is not a 3-digit HTTP status');
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '099 5'))).toBe('status "099" is not a 3-digit HTTP status');
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200 -12'))).toBe('bytes "-12" is negative; expected a whole number ≥ 0 or "-"');
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200 1.5k'))).toBe('bytes "1.5k" is not a whole number of bytes or "-"');
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200'))).toBe('expected the response bytes after the status, found the end of the line');
    expect(parse(`192.0.2.1 - - [${stamp}] "GET / HTTP/1.1"`)).toBe('expected a status after the request line, found the end of the line');
    expect(parse(`192.0.2.1 - - [${stamp}]`)).toBe('expected a quoted request line after the timestamp, found the end of the line');
    expect(parse('192.0.2.1 - - 10/Oct/2000 "GET / HTTP/1.1" 200 1')).toBe('expected "host ident user [timestamp] "request" status bytes", found no [timestamp]');
  });

  it('says when more lines are bad than --skip-bad allows', async () => {
    const file = write('two-bad.log', ['junk', LINE('10/Oct/2000:13:55:36 -0700', 'GET / HTTP/1.1'), 'more junk'].join('\n'));
    const { records, error } = await failedRead(readAccessLog(file, { skipBad: 1 }));
    expect(records).toHaveLength(1);
    expect(error.message).toBe(
      `${file}:3: expected "host ident user [timestamp] "request" status bytes", found no [timestamp], in "more junk". That is more than --skip-bad 1: 1 malformed line was skipped before this one (the first at line 1).`,
    );
    const reader = readAccessLog(file, { skipBad: Infinity });
    expect(await readAll(reader)).toHaveLength(1);
    expect(reader.skipped.byReason['bad-line']).toBe(2);
  });

  it('passes over blank lines and reads CRLF line ends, a byte-order mark and escaped quotes in the request line', async () => {
    const file = write('crlf.log', `\uFEFF${LINE('10/Oct/2000:13:55:36 -0700', 'GET /a\\"b HTTP/1.0', '200 2326')}\r\n\r\n  \n${LINE('01/Jan/1970:00:00:00 +0000', 'DELETE /x HTTP/1.1', '204 -')}\r\n`);
    const records = await readAll(readAccessLog(file));
    // The Common Log Format's own example: 2000-10-10 13:55:36 at −07:00 is 20:55:36 UTC.
    expect(records.map((record) => [record.epochMs, record.method, record.url, record.status, record.bodyBytes, record.source.line])).toEqual([
      [Date.UTC(2000, 9, 10, 20, 55, 36), 'GET', '/a\\"b', 200, 2326, 1],
      [0, 'DELETE', '/x', 204, 0, 4],
    ]);
  });

  it('ignores fields after the user agent (nginx timings) and a malformed referer', () => {
    const stamp = '10/Oct/2000:13:55:36 -0700';
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200 5 "-" "curl/8.5.0" rt=0.004 uct="0.001"'))).toMatchObject({ userAgent: 'curl/8.5.0', bytes: 5 });
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200 5 rt=0.004'))).toEqual({
      epochMs: Date.UTC(2000, 9, 10, 20, 55, 36),
      method: 'GET',
      target: '/',
      protocol: 'HTTP/1.1',
      status: 200,
      bytes: 5,
    });
    expect(parse(LINE(stamp, 'GET / HTTP/1.1', '200 5 "unterminated'))).not.toHaveProperty('referer');
  });

  it('says what a gzip-compressed or binary file is', async () => {
    const gz = write('access.log.gz', gzipSync(LINE('10/Oct/2000:13:55:36 -0700', 'GET / HTTP/1.1')));
    expect((await failedRead(readAccessLog(gz))).error.message).toBe(`${gz}: the file is gzip-compressed; decompress it first (gunzip -k ${gz}) and read the .log`);
    const binary = write('binary.log', Buffer.from([1, 0, 2, 0, 3]));
    expect((await failedRead(readAccessLog(binary))).error.message).toMatch(/contains NUL bytes: it is binary, not an access log/);
  });

  it('reports a missing file as a UserError with a suggestion', async () => {
    const { error } = await failedRead(readAccessLog(COMBINED.replace('combined', 'combine')));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain('(did you mean combined.log?)');
  });
});

describe('access log line properties', () => {
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number): string => String(n).padStart(2, '0');

  /** `dd/Mon/yyyy:hh:mm:ss ±hhmm` for an instant shown in a zone. */
  const clfTimestamp = (epochSeconds: number, zoneMinutes: number): string => {
    const local = new Date((epochSeconds + zoneMinutes * 60) * 1000);
    const zone = Math.abs(zoneMinutes);
    return (
      `${two(local.getUTCDate())}/${MONTHS[local.getUTCMonth()]}/${local.getUTCFullYear()}:` +
      `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())} ` +
      `${zoneMinutes < 0 ? '-' : '+'}${two(Math.floor(zone / 60))}${two(zone % 60)}`
    );
  };

  /** nginx's escaping for log fields: `"`, `\` and bytes outside printable ASCII as \xHH. */
  const nginxEscape = (text: string): string =>
    [...Buffer.from(text, 'utf8')].map((byte) => (byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c ? `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte))).join('');

  const headerValue = fc.string({ maxLength: 30, unit: 'grapheme' }).filter((text) => text !== '-');
  const parts = fc.record({
    host: fc.oneof(fc.ipV4(), fc.ipV6()),
    user: fc.constantFrom('-', 'alice', 'bob smith'),
    epochSeconds: fc.integer({ min: 86_400, max: Date.UTC(2099, 11, 30) / 1000 }),
    zoneMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    method: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND'),
    target: fc.tuple(fc.webPath(), fc.option(fc.webQueryParameters(), { nil: undefined })).map(([path, query]) => `/${path.replace(/^\//, '')}${query === undefined ? '' : `?${query}`}`),
    protocol: fc.constantFrom('HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/3'),
    status: fc.integer({ min: 100, max: 999 }),
    bytes: fc.option(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { nil: undefined }),
    combined: fc.option(fc.record({ referer: fc.option(headerValue, { nil: undefined }), userAgent: fc.option(headerValue, { nil: undefined }) }), { nil: undefined }),
  });

  it('Common/Combined Log Format: lines made from parts parse back to the parts', () => {
    fc.assert(
      fc.property(parts, (p) => {
        let line = `${p.host} - ${p.user} [${clfTimestamp(p.epochSeconds, p.zoneMinutes)}] "${p.method} ${p.target} ${p.protocol}" ${p.status} ${p.bytes ?? '-'}`;
        if (p.combined !== undefined) line += ` "${p.combined.referer === undefined ? '-' : nginxEscape(p.combined.referer)}" "${p.combined.userAgent === undefined ? '-' : nginxEscape(p.combined.userAgent)}"`;
        const expected: AccessLogFields = {
          epochMs: p.epochSeconds * 1000,
          method: p.method,
          target: p.target,
          protocol: p.protocol,
          status: p.status,
          bytes: p.bytes ?? 0,
        };
        if (p.combined?.referer !== undefined) expected.referer = p.combined.referer;
        if (p.combined?.userAgent !== undefined) expected.userAgent = p.combined.userAgent;
        expect(parse(line)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  /** Text with the characters access logs are made of. */
  const logText = fc
    .array(
      fc.oneof(
        fc.constantFrom(' ', '"', '\\', '[', ']', '-', '/', ':', '+', '\n', '\r\n', 'GET', 'HTTP/1.1', '200', '10/Oct/2000:13:55:36 -0700', '\\x', '\u0000', 'é'),
        fc.string({ maxLength: 4 }),
      ),
      { maxLength: 40 },
    )
    .map((pieces) => pieces.join(''));

  it('arbitrary lines never throw from the parser, and the reader throws nothing but UserError', async () => {
    await fc.assert(
      fc.asyncProperty(logText, fc.constantFrom(0, 2, Infinity), fc.constantFrom(1, 7, 65_536), async (text, skipBad, blockBytes) => {
        const parsed = parseAccessLogLine(Buffer.from(text, 'utf8'));
        if (parsed.ok) expect(Number.isFinite(parsed.fields.epochMs) && parsed.fields.bytes >= 0).toBe(true);
        const file = write('arbitrary.log', text);
        try {
          for await (const record of readAccessLog(file, { skipBad, blockBytes })) expect(record.status >= 100 && record.status <= 999).toBe(true);
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          expect(error.message.startsWith(file)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
