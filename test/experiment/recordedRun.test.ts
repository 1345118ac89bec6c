import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRecordedCaching, loadScenarioRecording } from '../../src/experiment/recordedCaching.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, summaryJson } from '../../src/report/summary.js';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/schema.js';
import { UserError } from '../../src/userError.js';
import { readAccessLog } from '../../src/recorded/realTraffic/accessLogReader.js';
import { loadRecordedTraffic } from '../../src/recorded/realTraffic/trafficCatalogue.js';

const HAR_SCENARIO = 'test/fixtures/har/scenario.yaml';
const LOG_SCENARIO = 'test/fixtures/access-logs/scenario.yaml';

async function run(text: string, scenarioFile: string) {
  const scenario: Scenario = parseScenarioText(text, scenarioFile);
  if (!scenario.content.recorded) throw new Error('expected content.recorded');
  const recording = await loadScenarioRecording(scenario.content.recorded, scenarioFile);
  return runScenario(scenario, { recording });
}

const amplified = `
run: { requests: 50000, warmup: 10000 }
deployment: { kind: full-stack, framework: next }
topology: { model: regions, edgeSites: single }
content:
  recorded: { file: page-load.har }
`;

describe('content.recorded: a HAR as the catalogue, amplified (issue 6: real traffic as a workload)', () => {
  it("the HAR's 13 GET URLs are the catalogue; its real headers decide per class: immutable assets stored a year, the private HTML page never", async () => {
    const result = await run(amplified, HAR_SCENARIO);
    const summary = buildSummary(result);
    expect(summary.recording).toEqual({ file: 'page-load.har', use: 'amplify', objects: 13, requests: 13, nonGet: { POST: 1 }, skipped: 2 });
    const byUrl = Object.fromEntries(summary.contentClasses.map((klass) => [klass.url, klass]));
    const css = summary.contentClasses.find((klass) => klass.url.endsWith('.css'));
    // spec 4.3 framework static assets, as recorded: `public, max-age=31536000, immutable`; the recorded Age is the recording CDN's, not the origin's.
    expect(css).toMatchObject({ cacheable: true, ttlSeconds: 31_536_000 });
    expect(css?.responseHeaders['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css?.responseHeaders.age).toBeUndefined();
    expect(byUrl['/']).toMatchObject({ cacheable: false, edgeHitRatio: 0 });
    expect(summary.edgeCaching).toBeUndefined();
    // Every measured request is one of the classes'.
    expect(summary.contentClasses.reduce((sum, klass) => sum + klass.requests, 0)).toBe(40_000);
  });

  it('zipf popularity over the recorded URLs: the class holding rank 1 gets the most requests', async () => {
    const summary = buildSummary(await run(amplified.replace('{ file: page-load.har }', '{ file: page-load.har, popularity: zipf, zipfExponent: 2 }'), HAR_SCENARIO));
    const counts = summary.contentClasses.map((klass) => klass.requests);
    // Exponent 2 over 13 URLs: rank 1 takes 1/H(13, 2) ≈ 63.4 % of the requests.
    expect(Math.max(...counts) / 40_000).toBeGreaterThan(0.6);
  });

  it('a flash crowd naming an id past the recorded URLs is a user error at its key', async () => {
    const text = `${amplified}traffic:\n  flashCrowds: [{ start: 1s, duration: 1s, multiplier: 2, objects: { ids: [3, 13] } }]\n`;
    await expect(run(text, HAR_SCENARIO)).rejects.toThrow(UserError);
    await expect(run(text, HAR_SCENARIO)).rejects.toThrow("`traffic.flashCrowds[0].objects.ids[1]`: expected an object id below the catalogue's 13 objects, found 13");
  });

  it('same scenario and seed: byte-identical summary', async () => {
    const first = summaryJson(buildSummary(await run(amplified, HAR_SCENARIO)));
    expect(summaryJson(buildSummary(await run(amplified, HAR_SCENARIO)))).toBe(first);
  });
});

describe('content.recorded with use: replay', () => {
  it("an access log's 8 GET requests replayed once at their times; the run stops at the recording's end", async () => {
    const text = `
run: { requests: 1000, warmup: 0 }
topology: { model: regions, edgeSites: single }
content:
  recorded: { file: combined.log, use: replay, skipBad: 1 }
`;
    const result = await run(text, LOG_SCENARIO);
    expect(result.stopReason).toBe('recording');
    expect(result.totalRequests).toBe(result.recording?.requests);
    expect(result.recording?.nonGet).toEqual({ POST: 1, HEAD: 1 });
    // The log spans 10:15:02 to its last line; simulated time ends at the last request's offset.
    expect(result.simulatedMs).toBeGreaterThan(0);
    expect(result.simulatedMs % 1000).toBe(0);
  });
});

describe('compileRecordedCaching: one class per distinct decision (spec 4.1, 4.2 without headers)', () => {
  it('responses that differ only in Date and ETag share a class; an access log (no headers) is decided by the deployment kind and extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdnsim-recorded-'));
    const lines = [
      '1.2.3.4 - - [21/Nov/2026:10:00:00 +0000] "GET /_next/static/chunks/a.js HTTP/1.1" 200 100 "-" "x"',
      '1.2.3.4 - - [21/Nov/2026:10:00:01 +0000] "GET /_next/static/chunks/b.js HTTP/1.1" 200 100 "-" "x"',
      '1.2.3.4 - - [21/Nov/2026:10:00:02 +0000] "GET /products HTTP/1.1" 200 100 "-" "x"',
    ];
    writeFileSync(join(dir, 'a.log'), lines.join('\n'));
    const traffic = await loadRecordedTraffic(readAccessLog(join(dir, 'a.log')));
    const { caching, classOf } = compileRecordedCaching(traffic, { kind: 'full-stack', framework: 'next', cdnEnabled: true });
    expect(Array.from(classOf)).toEqual([0, 0, 1]);
    // spec 4.2: a header-less .js is a static asset (one year, cdnsim default); a header-less page is not cached (4.1.2).
    expect(caching.classes[0].edge).toMatchObject({ store: true, ttlMs: 31_536_000_000 });
    expect(caching.classes[1].edge.store).toBe(false);
    expect(caching.classes[0].headerSource).toBe('recorded in a.log: 2 objects, 1 response profiles');
  });
});

describe('content.recorded in the scenario', () => {
  it('refused beside content.classes, at the key, with the fix', () => {
    expect(() => parseScenarioText('content:\n  recorded: { file: x.har }\n  classes: [{ name: image, share: 100% }]\n', 's.yaml')).toThrow(ScenarioError);
    expect(() => parseScenarioText('content:\n  recorded: { file: x.har }\n  classes: [{ name: image, share: 100% }]\n', 's.yaml')).toThrow(
      /content\.classes.*expected no `classes` beside content\.recorded/s,
    );
  });

  it('use: replay refuses traffic.clients and flash crowds, at their keys', () => {
    const text = "content:\n  recorded: { file: x.har, use: replay }\ntraffic:\n  clients: {}\n  flashCrowds: [{ start: 10s, duration: 10s, multiplier: 2 }]\n";
    expect(() => parseScenarioText(text, 's.yaml')).toThrow(/`traffic\.clients`: expected no clients with content\.recorded use: replay/);
    expect(() => parseScenarioText(text, 's.yaml')).toThrow(/`traffic\.flashCrowds`: expected no flash crowds with content\.recorded use: replay/);
  });

  it('the format follows the extension unless given', () => {
    expect(parseScenarioText('content:\n  recorded: { file: x.HAR }\n', 's.yaml').content.recorded?.format).toBe('har');
    expect(parseScenarioText('content:\n  recorded: { file: access.log }\n', 's.yaml').content.recorded?.format).toBe('access-log');
  });
});
