import { describe, expect, it } from 'vitest';
import { daysFromCivil } from '../../../src/recorded/traces/clfReader.js';
import { HTTP_METHODS, httpMethodIndex, TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, TraceError } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, fixture, readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const ACCESS_LOG = fixture('nginx-access.log');
const SKIP_HINT = 'Pass --skip-bad N to skip up to N malformed lines.';
const LINE = (stamp: string, request: string, tail = '200 100') => `192.0.2.1 - - [${stamp}] "${request}" ${tail}`;

describe('clf reader', () => {
  const reader = openTrace(ACCESS_LOG);
  const batch = new TraceBatch();
  const n = reader.next(batch);
  const names = Array.from({ length: n }, (_, i) => reader.objectName?.(batch.idLow[i], batch.idHigh[i]));
  const method = (i: number) => HTTP_METHODS[batch.method[i]];

  it('reads a combined-format nginx log: 20 requests, targets with their queries interned', () => {
    expect(reader.format).toBe('clf');
    expect(n).toBe(20);
    expect(names.slice(0, 6)).toEqual(['/', '/assets/site.css?v=3f2a', '/assets/app.js', '/img/hero.jpg', '/favicon.ico', '/api/products?category=shoes&page=2']);
    expect(new Set(names).size).toBe(15);
    // Repeats get the first occurrence's number.
    expect(batch.idLow[16]).toBe(batch.idLow[0]);
    expect(batch.idLow[15]).toBe(batch.idLow[5]);
    expect(names[18]).toBe('/search?q=red%20shoes&sort=price');
  });

  it('spec 4.3.1: ids are the CDN cache key (parameters sorted, host dropped), each named by its first target as logged', () => {
    const stamp = '21/Nov/2026:10:15:03 +0100';
    const file = write(
      'query-order.log',
      [
        LINE(stamp, 'GET /s.css?b=2&a=1 HTTP/1.1'), // object 0, named as logged
        LINE(stamp, 'GET /s.css?a=1&b=2 HTTP/1.1'), // its own key: object 0
        LINE(stamp, 'GET http://shop.example/s.css?a=1&&b=2#x HTTP/1.1'), // proxy form, empty parameter, fragment: object 0
        LINE(stamp, 'GET /s.css?a=1&b=3 HTTP/1.1'), // another value: object 1
        LINE(stamp, 'GET /x.js HTTP/1.1'), // object 2
        LINE(stamp, 'GET /x.js? HTTP/1.1'), // the empty query is dropped: object 2
        LINE(stamp, 'GET /a:b.css HTTP/1.1'), // ":" is written %3A in the key: object 3
        LINE(stamp, 'GET /a%3Ab.css HTTP/1.1'), // object 3
      ].join('\n'),
    );
    const reader = openTrace(file);
    const batch = new TraceBatch();
    const n = reader.next(batch);
    expect(Array.from(batch.idLow.subarray(0, n))).toEqual([0, 0, 0, 1, 2, 2, 3, 3]);
    expect([0, 1, 2, 3].map((id) => reader.objectName?.(id, 0))).toEqual(['/s.css?b=2&a=1', '/s.css?a=1&b=3', '/x.js', '/a:b.css']);
    expect(reader.objectName?.(4, 0)).toBeUndefined();
    reader.close();
  });

  it('converts the timestamp with its zone to seconds since the epoch', () => {
    expect(batch.timeSeconds[0]).toBe(Date.UTC(2026, 10, 21, 9, 15, 2) / 1000);
    expect(batch.timeSeconds[19] - batch.timeSeconds[0]).toBe(18);
  });

  it('keeps method, status and size; "-" is 0 bytes; unknown methods are 0', () => {
    expect([method(0), method(7), method(8), method(11), method(17)]).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS', 'OTHER']);
    expect(batch.method[17]).toBe(0);
    expect([...batch.status.subarray(0, 8)]).toEqual([200, 200, 200, 200, 404, 200, 304, 201]);
    expect(batch.status[17]).toBe(405);
    expect(batch.sizes[3]).toBe(245880);
    expect(batch.sizes[6]).toBe(0); // 304
    expect(batch.sizes[10]).toBe(0); // "-"
    expect(Number.isNaN(batch.nextAccess[0])).toBe(true);
    expect(reader.next(batch)).toBe(0);
  });

  it('stops at an impossible timestamp', () => {
    const file = fixture('bad-timestamp.log');
    const error = errorOf(() => readTrace(file));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(`${file}:4: expected a timestamp like [10/Oct/2000:13:55:36 -0700], found "[21/Nov/2026:25:15:03 +0100]". ${SKIP_HINT}`);
    expect(readTrace(file, { skipBad: 1 }).ids).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it('stops at a request line that is not METHOD target PROTOCOL (a TLS handshake on port 80)', () => {
    const file = fixture('broken-request.log');
    const error = errorOf(() => readTrace(file));
    expect(error.message).toBe(
      `${file}:3: request line "\\\\x16\\\\x03\\\\x01\\\\x02\\\\x00\\\\x01\\\\x00\\\\x01\\\\xFC\\\\x03\\\\x03" is not "METHOD target HTTP/version". ${SKIP_HINT}`,
    );
    const skipping = openTrace(file, { skipBad: 1 });
    expect(skipping.next(new TraceBatch())).toBe(4);
    expect(skipping.skippedCount).toBe(1);
  });

  it('applies zones, checks calendars, reads escaped quotes and ignores trailing fields', () => {
    const file = write(
      'zones.log',
      [
        LINE('10/Oct/2000:13:55:36 -0700', 'GET /apache_pb.gif HTTP/1.0', '200 2326'),
        LINE('29/Feb/2024:00:00:00 +0530', 'GET /leap HTTP/1.1'),
        LINE('01/jan/1970:00:00:00 +0000', 'DELETE /a\\"b HTTP/1.1', '204 0 "-" "ua" rt=0.004 uct="0.001"'),
      ].join('\n'),
    );
    const decoded = readTrace(file);
    // The Common Log Format's own example: 2000-10-10 13:55:36 at −07:00 is 20:55:36 UTC.
    expect(decoded.times).toEqual([Date.UTC(2000, 9, 10, 20, 55, 36) / 1000, Date.UTC(2024, 1, 28, 18, 30) / 1000, 0]);
    expect(decoded.method).toEqual([1, 1, httpMethodIndex('DELETE')]);
    const reader = openTrace(file);
    reader.next(new TraceBatch());
    expect(reader.objectName?.(2, 0)).toBe('/a\\"b');
  });

  it('names each broken part', () => {
    const problem = (line: string) => {
      const file = write('bad.log', `${line}\n`);
      return errorOf(() => readTrace(file)).message.slice(file.length + 4, -SKIP_HINT.length - 2);
    };
    expect(problem(LINE('29/Feb/2023:00:00:00 +0000', 'GET / HTTP/1.1'))).toBe('expected a timestamp like [10/Oct/2000:13:55:36 -0700], found "[29/Feb/2023:00:00:00 +0000]"');
    expect(problem(LINE('10/Oct/2000:13:55:36', 'GET / HTTP/1.1'))).toBe('expected a timestamp like [10/Oct/2000:13:55:36 -0700], found "[10/Oct/2000:13:55:36]"');
    expect(problem(LINE('10/Oct/2000:13:55:36 +0000', 'GET /'))).toBe('request line "GET /" is not "METHOD target HTTP/version"');
    expect(problem(LINE('10/Oct/2000:13:55:36 +0000', '-'))).toBe('request line "-" is not "METHOD target HTTP/version"');
    expect(problem(LINE('10/Oct/2000:13:55:36 +0000', 'GET / HTTP/1.1', '2000 5'))).toBe('status "2000" is not a 3-digit HTTP status');
    expect(problem(LINE('10/Oct/2000:13:55:36 +0000', 'GET / HTTP/1.1', '200 -12'))).toBe('size "-12" is negative; sizes are bytes ≥ 0');
    expect(problem(LINE('10/Oct/2000:13:55:36 +0000', 'GET / HTTP/1.1', '200'))).toMatch(/^expected the response size after the status/);
    expect(problem('192.0.2.1 - - 10/Oct/2000 "GET / HTTP/1.1" 200 1')).toMatch(/^expected "host ident user \[timestamp\] "request" status bytes", found no \[timestamp\]/);
  });

  it('computes days from civil dates like Date.UTC', () => {
    for (const [y, m, d] of [
      [1970, 1, 1],
      [1969, 12, 31],
      [2000, 2, 29],
      [2100, 3, 1],
      [1600, 1, 1],
      [2026, 11, 21],
    ]) {
      expect(daysFromCivil(y, m, d)).toBe(Date.UTC(y, m - 1, d) / 86_400_000);
    }
  });
});
