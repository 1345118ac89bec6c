import { describe, expect, it } from 'vitest';
import { cdnsim, expectNoStackTrace } from './helpers.js';

/** `cdnsim explain` end to end: the built CLI, human and --json output, and user mistakes. */

function explainJson(args: string[]): Record<string, unknown> {
  const result = cdnsim(['explain', '--json', '--now', 'Sat, 21 Nov 2026 12:00:00 GMT', ...args]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('cdnsim explain --json', () => {
  it('spec 4.3 / 8.1 row 1: a versioned framework asset is stored at the edge for one year, immutable', () => {
    const record = explainJson(['--url', '/_next/static/chunks/app.js', '--res-header', 'Cache-Control: public, max-age=31536000, immutable']);
    expect(record).toMatchObject({
      layer: 'edge',
      cacheable: true,
      ttlSeconds: 31_536_000,
      staleWhileRevalidateSeconds: 0,
      staleIfErrorSeconds: 0,
      staleIfUnreachableSeconds: 86_400,
      immutable: true,
      key: '/_next/static/chunks/app.js',
    });
    expect(record.reasons).toContain('Cache-Control max-age=31536000 sets the lifetime (RFC 9111 §5.2.2.1)');
  });

  it('spec 4.1.2: a full-stack HTML page without headers is not cached (ttl 0) and says why', () => {
    const record = explainJson(['--url', '/dashboard', '--res-header', 'Content-Type: text/html; charset=utf-8']);
    expect(record.cacheable).toBe(false);
    expect(record.ttlSeconds).toBe(0);
    expect(record.reasons).toContain('text/html is not cached without headers in a full-stack deployment (spec 4.2)');
  });

  it('spec 4.3.1 + 4.4: the key sorts the query and carries the AVIF variant', () => {
    const record = explainJson(['--url', 'https://shop.example/img/hero.jpg?w=800&fmt=auto', '--req-header', 'Accept: image/avif,image/webp,*/*;q=0.8']);
    expect(record.key).toBe('/img/hero.jpg?fmt=auto&w=800:avif-support:desktop');
  });

  it('spec 7.1: --status 500 without headers is cached for 5 s at the edge (error caching)', () => {
    const record = explainJson(['--url', '/api/cart', '--status', '500']);
    expect(record).toMatchObject({ cacheable: true, ttlSeconds: 5, errorCaching: true, staleIfErrorSeconds: 0 });
  });

  it('RFC 9213 §2.1: CDN-Cache-Control overrides Cache-Control at the edge; the browser follows Cache-Control', () => {
    const args = ['--url', '/news', '--res-header', 'Cache-Control: no-store', '--res-header', 'CDN-Cache-Control: max-age=60', '--layer', 'all'];
    const result = cdnsim(['explain', '--json', '--now', '2026-11-21T12:00:00Z', ...args]);
    expect(result.status).toBe(0);
    const records = JSON.parse(result.stdout) as { layer: string; cacheable: boolean; ttlSeconds: number }[];
    expect(records.map(({ layer, cacheable, ttlSeconds }) => ({ layer, cacheable, ttlSeconds }))).toEqual([
      { layer: 'browser', cacheable: false, ttlSeconds: 0 },
      { layer: 'edge', cacheable: true, ttlSeconds: 60 },
      { layer: 'regional', cacheable: true, ttlSeconds: 60 },
    ]);
  });

  it('RFC 9111 §4.2.1 + §4.2.3: Expires − Date with an Age header leaves 3600 − 600 s', () => {
    const record = explainJson([
      '--url',
      '/report.pdf',
      '--res-header',
      'Date: Sat, 21 Nov 2026 12:00:00 GMT',
      '--res-header',
      'Expires: Sat, 21 Nov 2026 13:00:00 GMT',
      '--res-header',
      'Age: 600',
    ]);
    expect(record).toMatchObject({ cacheable: true, freshnessLifetimeSeconds: 3600, initialAgeSeconds: 600, ttlSeconds: 3000, freshnessSource: 'expires' });
  });

  it('spec 8.1 row 4 via --profile: private content is not stored at the edge', () => {
    const record = explainJson(['--url', '/account', '--profile', 'guidance-private']);
    expect(record.cacheable).toBe(false);
    expect(record.reasons).toContain('private: cacheable by browsers only (spec 2.2, RFC 9111 §5.2.2.7)');
  });

  it('--res-header replaces the same header of --profile (spec 8.1 row 2 with a shorter max-age)', () => {
    const record = explainJson(['--url', '/', '--profile', 'guidance-dynamic-html', '--res-header', 'Cache-Control: public, max-age=120']);
    expect(record).toMatchObject({ ttlSeconds: 120, staleWhileRevalidateSeconds: 0 });
  });

  it('spec 1.3: a container deployment with --no-cdn stores nothing at the edge', () => {
    const record = explainJson(['--url', '/', '--deployment', 'container', '--no-cdn', '--res-header', 'Cache-Control: public, max-age=600']);
    expect(record.cacheable).toBe(false);
    expect(record.reasons).toContain('the CDN is disabled for this container deployment (spec 1.3)');
  });
});

describe('cdnsim explain (human output)', () => {
  it('prints the key, the decision and numbered reasons with their sources', () => {
    const result = cdnsim(['explain', '--url', '/about', '--profile', 'framework-static-pages', '--now', 'Sat, 21 Nov 2026 12:00:00 GMT']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('GET /about → 200');
    expect(result.stdout).toContain('edge (shared cache)');
    expect(result.stdout).toContain('stored: yes, fresh for 3600 s (1 h) [max-age]');
    expect(result.stdout).toContain('served stale for 86400 s (1 d) while revalidating');
    expect(result.stdout).toMatch(/ 1\. edge is a shared cache \[RFC 9111 §1, spec 4\.9\]/);
  });

  it('spec 7.1 against 4.7: max-age=1 alone: a 500 is held 5 s and clients get the cached error; stale only when the origin is unreachable', () => {
    // A wide terminal: each sentence on one line (folding at 100 columns: test/report/terminalWidth.test.ts).
    const result = cdnsim(['explain', '--url', '/a.css', '--res-header', 'Cache-Control: public, max-age=1', '--now', 'Sat, 21 Nov 2026 12:00:00 GMT'], { columns: 200 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('served stale for 0 s while revalidating, 0 s in place of a 5xx, 86400 s (1 d) when the origin is unreachable');
    expect(result.stdout).toContain('5xx:    a 500 is held 5 s (spec 7.1: about one origin request per key per node per 5 s); meanwhile clients get the cached error');
    expect(result.stdout).toContain('no stale-if-error: on a 5xx the client gets the error (a 500 is cached 5 s, spec 7.1), not a stale copy [RFC 9111 §4.2.4, spec 7.1]');
  });

  it('RFC 5861 §4: with stale-if-error=300 the stored copy answers in place of the held 500', () => {
    const result = cdnsim(['explain', '--url', '/a.css', '--res-header', 'Cache-Control: public, max-age=1, stale-if-error=300', '--now', 'Sat, 21 Nov 2026 12:00:00 GMT'], { columns: 200 });
    expect(result.stdout).toContain('0 s while revalidating, 300 s (5 min) in place of a 5xx, 300 s (5 min) when the origin is unreachable');
    expect(result.stdout).toContain('meanwhile clients get the stored copy (up to 300 s (5 min) past expiry)');
  });
});

describe('cdnsim explain: user mistakes exit 2 with a clear message', () => {
  const cases: [string, string[], RegExp][] = [
    ['a header without a colon', ['--url', '/', '--res-header', 'Cache-Control max-age=5'], /--res-header: expected 'Name: value', got 'Cache-Control max-age=5'/],
    ['a mistyped profile', ['--url', '/', '--profile', 'guidence-private'], /did you mean 'guidance-private'\?/],
    ['a status out of range', ['--url', '/', '--status', '700'], /--status: expected an HTTP status from 100 to 599, got 700/],
    ['a URL that is neither absolute nor a path', ['--url', 'example.com/a'], /--url: expected an absolute http\(s\) URL or a path starting with '\/'/],
    ['an unparsable --now', ['--url', '/', '--now', 'yesterday'], /--now: expected an HTTP-date/],
    ['--no-cdn outside a container deployment', ['--url', '/', '--no-cdn'], /only a container deployment can run without the CDN \(spec 1\.3\)/],
    ['an unknown layer', ['--url', '/', '--layer', 'origin'], /Invalid values:[\s\S]*layer/],
    ['a missing --url', [], /name the request, e\.g\. --url/],
  ];
  it.each(cases)('%s', (_name, args, message) => {
    const result = cdnsim(['explain', ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});

describe('cdnsim explain: framework profiles, directives in force and range chunks', () => {
  it.each([
    ['/_next/static/chunks/app.js', 'server', 'public, max-age=31536000, immutable'],
    ['/api/cart', 'server', 'no-cache, no-store, must-revalidate'],
    ['/about', 'server', 'public, max-age=0, must-revalidate'],
    ['/about', 'static', 'public, max-age=3600, stale-while-revalidate=86400'],
  ])('spec 4.3: --profile framework on %s (%s pages) sends %s', (url, rendering, cacheControl) => {
    const record = explainJson(['--url', url, '--profile', 'framework', '--page-rendering', rendering]);
    expect(record.directives).toEqual({ from: 'Cache-Control', value: cacheControl });
  });

  it('RFC 9213 §2.1: the edge obeys CDN-Cache-Control, shown in canonical form with its source field', () => {
    const record = explainJson(['--url', '/news', '--res-header', 'Cache-Control: no-store', '--res-header', 'CDN-Cache-Control: max-age=600, stale-if-error=60']);
    expect(record.directives).toEqual({ from: 'CDN-Cache-Control', value: 'max-age=600, stale-if-error=60' });
    expect(record.rangeChunks).toBeNull();
  });

  it('spec 4.8: Range bytes=4999000-5001000 of a 12,000,000-byte object needs chunks 0 and 1 of 3', () => {
    const record = explainJson(['--url', '/media/film.mp4', '--req-header', 'Range: bytes=4999000-5001000', '--res-header', 'Content-Length: 12000000']);
    expect(record.rangeChunks).toEqual({
      objectBytes: 12_000_000,
      chunkBytes: 5_000_000,
      chunkCount: 3,
      ranges: [{ first: 4_999_000, last: 5_001_000, firstChunk: 0, lastChunk: 1, bytes: 2001 }],
      chunksNeeded: 2,
    });
  });

  it('RFC 9110 §14.1.1 / §14.2: an unsatisfiable range and an invalid one are named as such', () => {
    const range = (value: string) => explainJson(['--url', '/f.bin', '--req-header', `Range: ${value}`, '--res-header', 'Content-Length: 100']).rangeChunks;
    expect(range('bytes=500-600')).toBe('unsatisfiable');
    expect(range('bytes=9-1')).toBe('invalid');
  });

  it('a Content-Length that is not a byte count is a user mistake', () => {
    const result = cdnsim(['explain', '--url', '/f.bin', '--req-header', 'Range: bytes=0-1', '--res-header', 'Content-Length: lots']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Content-Length: expected a whole number of bytes, got 'lots'/);
  });
});
