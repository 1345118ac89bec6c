import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { timeSeriesCsv } from '../../src/report/runCsvFiles.js';
import { buildSummary, summaryJson } from '../../src/report/summary.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

/**
 * Golden files: summary.json and timeseries.csv of test/golden/small.yaml, byte for byte.
 * Any change to a figure, a key or a rounding shows up here as a diff to review. They are
 * rewritten only on request: `UPDATE_GOLDEN=1 npx vitest run test/golden` (then read the
 * diff with git before committing); without it a missing or different file fails.
 */
const FOLDER = import.meta.dirname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function golden(file: string, actual: string): void {
  const path = join(FOLDER, file);
  if (UPDATE) writeFileSync(path, actual);
  if (!existsSync(path)) throw new Error(`${file} is missing: create it with UPDATE_GOLDEN=1 npx vitest run test/golden`);
  const expected = readFileSync(path, 'utf8');
  expect(actual, `${file} differs; if the change is meant, regenerate with UPDATE_GOLDEN=1 npx vitest run test/golden and review the diff`).toBe(expected);
}

describe('golden run (test/golden/small.yaml: 8 PoPs in Europe and Africa, browser caches, two classes, an error burst)', () => {
  let result: ReturnType<typeof runScenario>;
  beforeAll(() => {
    result = runScenario(loadScenarioFile(join(FOLDER, 'small.yaml')));
  });

  it('summary.json is byte-identical to test/golden/small.summary.json', () => {
    golden('small.summary.json', summaryJson(buildSummary(result)));
  });

  it('timeseries.csv is byte-identical to test/golden/small.timeseries.csv', () => {
    if (result.timeline === undefined) throw new Error('the run recorded no timeline');
    golden('small.timeseries.csv', timeSeriesCsv(result.timeline));
  });
});
