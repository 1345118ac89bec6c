import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

/** `cdnsim har` end to end: the built CLI on the fixture page load, human and --json output, and user mistakes. */

const PAGE_LOAD = 'test/fixtures/har/page-load.har';

interface HarJson {
  file: string;
  deployment: { kind: string; framework: string; cdnEnabled: boolean };
  pageHost: string;
  visits: { startMs: number; requests: number; servedBy: Record<string, number>; revalidated: Record<string, number>; originBytes: number; clientBytes: number }[];
  entries: { entry: number; url: string; method: string; status: number; visits: { servedBy: string; revalidatedAt: string | null }[]; edge: { cacheable: boolean; ttlSeconds: number; reason: string } }[];
  skipped: { entries: number; byReason: Record<string, number>; notModifiedResponses: number; builtFromNotModified: { url: string }[] };
}

function harJson(args: string[]): { stdout: string; document: HarJson } {
  const result = cdnsim(['har', PAGE_LOAD, '--json', ...args]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return { stdout: result.stdout, document: JSON.parse(result.stdout) as HarJson };
}

describe('cdnsim har', () => {
  it('prints the visits, a row per entry with the serving layer per visit, the edge ttl and the reason, and what the CDN does not store', () => {
    // A wide terminal: whole URLs and each sentence on one line (at 100 columns: test/report/terminalWidth.test.ts).
    const result = cdnsim(['har', PAGE_LOAD], { columns: 200 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('page-load.har: 14 requests to 2 hosts (page: shop.example.com), recorded 2026-11-21T09:15:02.114Z');
    expect(out).toContain('deployment: full-stack (framework segment /_next/); browser → edge → regional → origin (spec 4.9)');
    expect(out).toContain('visits: 2, 10 min apart, by the same client');
    // visit, start, requests, browser, edge, regional, origin, 304 from edge/regional/origin, origin requests
    expect(out).toMatch(/^1\s+0 s\s+14\s+0\s+0\s+0\s+14\s+0\/0\/0\s+14\s+416 KB\s+416 KB$/m);
    expect(out).toMatch(/^2\s+\+10 min\s+14\s+10\s+0\s+0\s+4\s+0\/0\/3\s+7\s+51\.7 KB\s+51\.7 KB$/m);
    // The reason by its number, each reason once under the table.
    expect(out).toMatch(/^ 1\s+GET\s+\/_next\/static\/css\/8f3c2a1b9d4e7f60\.css\s+200\s+origin\s+browser\s+1 y\s+\[2\]$/m);
    expect(out).toContain('\nwhy (at the edge):\n  [1] Cache-Control no-store: never cached anywhere (spec 2.2, RFC 9111 §5.2.2.5)\n  [2] Cache-Control max-age=31536000 sets the lifetime (RFC 9111 §5.2.2.1)\n');
    expect(out).toMatch(/^ 8\s+GET\s+\/images\/products\/sneaker-blue\.webp\s+200\s+origin\s+browser \(304 origin\)\s+0 s\s/m);
    expect(out).toMatch(/^14\s+GET\s+analytics\.example\.net\/js\/script\.js\s/m);
    expect(out).toContain('Not stored by the CDN (3 requests');
    expect(out).toContain('  GET /: Cache-Control no-store: never cached anywhere (spec 2.2, RFC 9111 §5.2.2.5)');
    expect(out).toContain('  POST /api/cart: POST responses are not stored');
    expect(out).toContain('Skipped 2 entries (1 non-http-url, 1 no-response)');
    expect(out).toContain('  entry 9: GET /images/logo.svg');
  });

  it('--json: visits, entries and skipped, with the counts of the replay; the same input gives identical bytes', () => {
    const first = harJson([]);
    const { document } = first;
    expect(Object.keys(document)).toEqual(['file', 'deployment', 'recordedAt', 'pageHost', 'visits', 'entries', 'skipped']);
    expect(document.file).toBe(PAGE_LOAD);
    expect(document.visits.map((visit) => visit.servedBy)).toEqual([
      { browser: 0, edge: 0, regional: 0, origin: 14 },
      { browser: 10, edge: 0, regional: 0, origin: 4 },
    ]);
    expect(document.visits[1]).toMatchObject({ startMs: 600_000, revalidated: { edge: 0, regional: 0, origin: 3 }, originBytes: 51_728, clientBytes: 51_728 });
    expect(document.entries).toHaveLength(14);
    expect(document.entries[0]).toEqual({
      entry: 0,
      url: 'https://shop.example.com/',
      method: 'GET',
      status: 200,
      bodyBytes: 48_213,
      visits: [
        { servedBy: 'origin', revalidatedAt: null, stale: false, status: 200 },
        { servedBy: 'origin', revalidatedAt: null, stale: false, status: 200 },
      ],
      edge: { cacheable: false, ttlSeconds: 0, reason: 'Cache-Control no-store: never cached anywhere (spec 2.2, RFC 9111 §5.2.2.5)' },
      browser: { cacheable: false, ttlSeconds: 0, reason: 'Cache-Control no-store: never cached anywhere (spec 2.2, RFC 9111 §5.2.2.5)' },
    });
    expect(document.skipped).toMatchObject({ entries: 2, byReason: { 'non-http-url': 1, 'no-response': 1, 'bad-entry': 0 }, notModifiedResponses: 1 });
    expect(document.skipped.builtFromNotModified.map((standIn) => standIn.url)).toEqual(['https://shop.example.com/images/logo.svg']);
    expect(harJson([]).stdout).toBe(first.stdout);
  });

  it('--new-client --interval 30s: a second visitor in the same PoP gets the API (s-maxage=60) and the assets from the edge', () => {
    const { document } = harJson(['--new-client', '--interval', '30s']);
    expect(document.visits[1]).toMatchObject({ startMs: 30_000, servedBy: { browser: 0, edge: 11, regional: 0, origin: 3 }, clientBytes: 416_123 });
    const api = document.entries.find((entry) => entry.url.includes('/api/products'));
    expect(api?.visits[1]).toEqual({ servedBy: 'edge', revalidatedAt: null, stale: false, status: 200 });
  });

  it('--deployment and --visits reach the replay', () => {
    const { document } = harJson(['--deployment', 'container', '--no-cdn', '--visits', '3']);
    expect(document.deployment).toEqual({ kind: 'container', framework: 'next', cdnEnabled: false });
    expect(document.visits).toHaveLength(3);
    expect(document.entries.every((entry) => !entry.edge.cacheable)).toBe(true);
  });
});

describe('cdnsim har: user mistakes exit 2 with a message and no stack trace', () => {
  const mistakes: [string, string[], RegExp][] = [
    ['a missing file', ['har', 'test/fixtures/har/no-such-file.har'], /^cdnsim: HAR file not found: test\/fixtures\/har\/no-such-file\.har/],
    ['malformed JSON', ['har', 'test/fixtures/har/bad-json.har'], /bad-json\.har:90:45: malformed JSON: expected ','/],
    ['a malformed entry', ['har', 'test/fixtures/har/bad-status.har'], /bad-status\.har:57:7: entry 1: log\.entries\[1\]\.response\.status: expected an HTTP status.*--skip-bad/],
    ['JSON that is not a HAR', ['har', 'test/fixtures/har/no-entries.har'], /not a HAR file: "log" has no "entries" array/],
    ['an interval without a unit', ['har', PAGE_LOAD, '--interval', '10'], /--interval: expected a duration/],
    ['zero visits', ['har', PAGE_LOAD, '--visits', '0'], /--visits: expected a whole number from 1/],
    ['--no-cdn outside a container deployment', ['har', PAGE_LOAD, '--no-cdn'], /only a container deployment can run without the CDN/],
  ];
  for (const [what, args, message] of mistakes) {
    it(what, () => {
      const result = cdnsim(args);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(expectNoStackTrace(result.stderr)).toBe(true);
    });
  }
});

describe('cdnsim har: a bound on the work (issue 17: nothing hangs)', () => {
  it('1,001 requests × 1,000 visits (1,001,000 replayed requests) is refused before the replay, naming the most visits that fit: 999 (replaying them takes minutes, so that is not run here)', () => {
    const folder = temporaryFolder('har-bound');
    const file = join(folder, 'many.har');
    const entries = Array.from({ length: 1001 }, (_, index) => ({
      startedDateTime: new Date(Date.UTC(2026, 10, 21, 9, 0, 0, index)).toISOString(),
      time: 1,
      request: { method: 'GET', url: `https://shop.example.com/images/${index}.webp`, httpVersion: 'HTTP/2', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/2', headers: [{ name: 'cache-control', value: 'public, max-age=60' }], cookies: [], content: { size: 100, mimeType: 'image/webp' }, redirectURL: '', headersSize: -1, bodySize: 100 },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    }));
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
    const result = cdnsim(['har', file, '--visits', '1000', '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`cdnsim: --visits 1000: ${file} holds 1,001 requests, so 1000 visits would replay 1,001,000; at most 1,000,000 are replayed (hours of work otherwise): give --visits 999 or fewer\n`);
  });
});

