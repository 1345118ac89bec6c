import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioRecording } from '../../src/experiment/recordedCaching.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { parseWarmupFlag, withWarmup } from '../../src/scenario/warmupSchema.js';

/**
 * Every shipped scenario, run short, passes the conservation checks (docs/conservation.md).
 * The library test runs scenarios/library at full size through the CLI, where a failure
 * exits 4; these short runs cover scenarios/ too and keep the cost to seconds. A 10 %
 * warm-up by count, so fetches are underway as measuring starts.
 */
const REPO = resolve(import.meta.dirname, '../..');
const REQUESTS = 20_000;
const SCENARIOS = ['scenarios', 'scenarios/library'].flatMap((folder) =>
  readdirSync(join(REPO, folder))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `${folder}/${name}`),
);

describe('conservation checks on every shipped scenario (docs/conservation.md)', () => {
  const warmup = parseWarmupFlag('10%');
  if (!warmup.ok) throw new Error(warmup.message);
  for (const file of SCENARIOS) {
    it(`${file}: ${REQUESTS.toLocaleString('en-US')} requests, every identity holds`, async () => {
      const path = join(REPO, file);
      const scenario = withWarmup(loadScenarioFile(path), warmup.warmup);
      const recording = scenario.content.recorded ? await loadScenarioRecording(scenario.content.recorded, path) : undefined;
      const summary = buildSummary(runScenario(scenario, { requests: REQUESTS, recording, timeline: false }));
      expect(summary.requests).toBeGreaterThan(0);
      expect(summary.checks.failed).toEqual([]);
      expect(summary.checks.passed).toBeGreaterThan(50);
    }, 60_000);
  }
});
