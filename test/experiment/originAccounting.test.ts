import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioRecording } from '../../src/experiment/recordedCaching.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/** One recorded GET: `url` at `atMs` after the recording's start, answered 200 with `cacheControl` and 4,000 bytes. */
function entry(url: string, atMs: number, cacheControl: string): object {
  return {
    startedDateTime: new Date(Date.UTC(2026, 10, 21, 9, 0, 0) + atMs).toISOString(),
    time: 1,
    request: { method: 'GET', url: `https://shop.example.com${url}`, httpVersion: 'HTTP/2', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/2',
      headers: [{ name: 'cache-control', value: cacheControl }],
      cookies: [],
      content: { size: 4000, mimeType: 'application/json' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 4000,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

const SWR = 'public, max-age=10, stale-while-revalidate=5';
const PLAIN = 'public, max-age=10';

/**
 * The recording (times in seconds from its start), replayed through one PoP (Frankfurt)
 * straight to the origin (Ashburn, no regional tier): a fetch is back well within the half
 * second between requests, and reaches the origin half a transatlantic round trip after it
 * leaves. The first 21 requests are a warm-up:
 * - /a.json (SWR) at 0, 1, …, 55 and 64;
 * - /b.json (PLAIN) at 0.5, 1.5, …, 59.5;
 * - /c.json at 9.99, the last warm-up request: a miss whose origin request arrives after
 *   the first measured request (/a.json at 10) was sent;
 * - /d.json at 30.25, once.
 */
function recording(parts: Parts): string {
  const entries = [
    ...Array.from({ length: 56 }, (_, s) => entry('/a.json', s * 1000, SWR)),
    ...(parts.lateRevalidation ? [entry('/a.json', 64_000, SWR)] : []),
    ...Array.from({ length: 60 }, (_, s) => entry('/b.json', s * 1000 + 500, PLAIN)),
    ...(parts.lateWarmupMiss ? [entry('/c.json', 9_990, PLAIN)] : []),
    entry('/d.json', 30_250, PLAIN),
  ];
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
}

/** Which of the two requests at the measured part's edges the recording holds. */
interface Parts {
  lateRevalidation: boolean;
  lateWarmupMiss: boolean;
}

async function replay(parts: Parts = { lateRevalidation: true, lateWarmupMiss: true }): Promise<Summary> {
  const dir = mkdtempSync(join(tmpdir(), 'cdnsim-origin-accounting-'));
  writeFileSync(join(dir, 'r.har'), recording(parts));
  const scenarioFile = join(dir, 'r.yaml');
  const text = `
seed: 1
run: { requests: 1000, warmup: ${parts.lateWarmupMiss ? 21 : 20} }
topology: { model: pops, pops: { codes: [FRA] }, regionalTier: { enabled: false } }
content:
  recorded: { file: r.har, use: replay }
`;
  writeFileSync(scenarioFile, text);
  const scenario = parseScenarioText(text, scenarioFile);
  if (!scenario.content.recorded) throw new Error('expected content.recorded');
  const recorded = await loadScenarioRecording(scenario.content.recorded, scenarioFile);
  return buildSummary(runScenario(scenario, { recording: recorded }));
}

describe('one origin accounting (DESIGN "Metrics", docs/origin-accounting.md)', () => {
  it('RFC 9111 §4.3, RFC 5861 §3: origin requests by cause and by response, derived by hand; originOffload = 1 − origin / client requests', async () => {
    const summary = await replay();
    // Measured: /a.json at 10…55 and 64 (47), /b.json at 10.5…59.5 (50), /d.json (1).
    expect(summary.warmupRequests).toBe(21);
    expect(summary.requests).toBe(98);
    // Ages count from each fetch's sending (RFC 9111 §4.2.3), so a copy fetched at t is fresh
    // until t + 10 s exactly. /a.json (from the warm-up's miss at 0) is stale inside its 5 s
    // window at 10, 20, 30, 40, 50 (each revalidation renews it from its own sending) and 64:
    // six background revalidations, answered 304; the last one after the last request was
    // answered, still counted.
    // /b.json (miss at 0.5) expires and is revalidated in the foreground at 10.5, 20.5, 30.5,
    // 40.5 and 50.5: five 304s. /d.json: one miss, one body. /c.json's miss was a warm-up
    // request's: not counted, though it reached the origin after measuring began.
    expect(summary.cdn.origin).toMatchObject({
      requests: 12,
      fullResponses: 1,
      notModified: 11,
      errors: 0,
      refused: 0,
      byCause: { miss: 1, expired: 5, errorRetry: 0, purged: 0, backgroundRevalidation: 6 },
      bytes: 4000,
    });
    expect(summary.cdn.layers.edge).toMatchObject({ coalesced: 0, fetches: 12, backgroundRevalidations: 6, notModified: 11 });
    // 1 − 12 / 98; requestsByLayer.origin counts the 6 client requests the origin answered (b's 5, d's 1).
    expect(summary.originOffload).toBe(0.877551);
    expect(summary.requestsByLayer).toEqual({ edge: 92, origin: 6 });
    const { byCause, ...byResponse } = summary.cdn.origin;
    expect(Object.values(byCause).reduce((sum, n) => sum + n, 0)).toBe(summary.cdn.origin.requests);
    expect(byResponse.fullResponses + byResponse.notModified + byResponse.errors + byResponse.refused).toBe(summary.cdn.origin.requests);
  });

  it('docs/origin-accounting.md: a warm-up request\'s origin request is not counted, though it reaches the origin after measuring began', async () => {
    const summary = await replay({ lateRevalidation: false, lateWarmupMiss: true });
    // As above without /a.json at 64: 97 requests, 11 origin requests (/c.json's still not among them).
    expect(summary.requests).toBe(97);
    expect(summary.cdn.origin.requests).toBe(11);
    expect(summary.cdn.origin.byCause).toEqual({ miss: 1, expired: 5, errorRetry: 0, purged: 0, backgroundRevalidation: 5 });
    expect(summary.originOffload).toBe(0.886598); // 1 − 11 / 97
  });

  it('docs/origin-accounting.md: a background revalidation the last request started is counted, though that request was answered before it left', async () => {
    const summary = await replay({ lateRevalidation: true, lateWarmupMiss: false });
    // No /c.json, a 20-request warm-up: the same 98 measured requests and 12 origin requests as above.
    expect(summary.requests).toBe(98);
    expect(summary.cdn.origin.requests).toBe(12);
    expect(summary.cdn.origin.byCause.backgroundRevalidation).toBe(6);
    expect(summary.originOffload).toBe(0.877551);
  });
});
