import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioRecording } from '../../src/experiment/recordedCaching.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/** Two GETs of one stylesheet one second apart, the query as given; no response headers: spec 4.2 caches `.css` by extension. */
function accessLog(first: string, second: string): string {
  return [
    `192.0.2.1 - - [21/Nov/2026:10:15:00 +0000] "GET ${first} HTTP/1.1" 200 4000 "-" "x"`,
    `192.0.2.2 - - [21/Nov/2026:10:15:01 +0000] "GET ${second} HTTP/1.1" 200 4000 "-" "x"`,
  ].join('\n');
}

async function replaySummary(log: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cdnsim-query-order-'));
  writeFileSync(join(dir, 'q.log'), log);
  const scenarioFile = join(dir, 'q.yaml');
  const text = `
seed: 1
run: { requests: 1000, warmup: 0 }
deployment: { kind: full-stack, framework: next }
topology: { model: regions, edgeSites: single }
content:
  recorded: { file: q.log, use: replay }
`;
  writeFileSync(scenarioFile, text);
  const scenario = parseScenarioText(text, scenarioFile);
  if (!scenario.content.recorded) throw new Error('expected content.recorded');
  const recording = await loadScenarioRecording(scenario.content.recorded, scenarioFile);
  return buildSummary(await runScenario(scenario, { recording }));
}

describe('spec 4.3.1 end to end: a recording replayed through one edge keys its URLs as the CDN does', () => {
  it('/s.css?a=1&b=2 then /s.css?b=2&a=1: one object, the second request an edge hit (1 of 2)', async () => {
    const summary = await replaySummary(accessLog('/s.css?a=1&b=2', '/s.css?b=2&a=1'));
    expect(summary.recording).toMatchObject({ objects: 1, requests: 2 });
    expect(summary.requestsByLayer).toEqual({ edge: 1, origin: 1 });
    expect(summary.hitRatio.edge).toBe(0.5);
    // Reports name the object by the first URL seen.
    expect(summary.contentClasses.map((klass) => klass.url)).toEqual(['/s.css?a=1&b=2']);
  });

  it('control: another parameter value is another object, both requests go to the origin', async () => {
    const summary = await replaySummary(accessLog('/s.css?a=1&b=2', '/s.css?b=3&a=1'));
    expect(summary.recording).toMatchObject({ objects: 2, requests: 2 });
    expect(summary.requestsByLayer).toEqual({ edge: 0, origin: 2 });
  });
});
