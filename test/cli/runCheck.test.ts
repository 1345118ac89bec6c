import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

/** A small regions-model site without jitter: each region's edge hits take its median (spec 1.1 table). */
const SCENARIO = `
name: stated-check
seed: 3
run: { requests: 20000 }
traffic: { rate: 500/s }
content:
  objects: 1000
  objectSize: { median: 10KB, sigma: 0, min: 10KB, max: 10KB }
topology: { model: regions, jitter: 0, originLatency: 100ms }
`;

/** Holds every row that has a value to bounds it meets, so only the rows named by a test can fail. */
const LOOSE = `
expect:
  latency.global.all: { max: 200ms }
  latency.global.edge: { max: 30ms }
  cdnHitRatio: { min: 10% }
`;

/** No test here reads the charts or report.html, and summary.json, stated.csv and the report do not depend on them: every run passes --no-charts. */
function scenarioFile(folder: string, text: string): string {
  const file = join(folder, 'stated-check.yaml');
  writeFileSync(file, text);
  return file;
}

describe('cdnsim run --check (stated figures, spec 1.1, 4.9, 8)', () => {
  it('exit 0 when every row is within or not applicable; stated.csv has a header and 20 rows', () => {
    const folder = temporaryFolder('check-ok');
    const out = join(folder, 'run');
    const result = cdnsim(['run', scenarioFile(folder, SCENARIO + LOOSE), '--check', '--no-progress', '--no-charts', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // The scenario does not model the service (no modelsService): the verdicts in one line after the opening figures (issue 26), none outside.
    expect(result.stdout).toMatch(/\nstated figures: \d+ within, 0 outside, \d+ n\/a — stated\.csv \(the whole table: --stated\)\n/);
    expect(result.stdout.indexOf('\nstated figures: ')).toBeGreaterThan(result.stdout.indexOf('\nCDN hit ratio '));
    expect(result.stdout).toContain('written: ');
    expect(result.stdout).toContain('stated.csv');
    const csv = readFileSync(join(out, 'stated.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('id,figure,stated,simulated,unit,verdict,note');
    expect(csv.length).toBe(1 + 20 + 1);
    expect(csv.filter((line) => line.includes(',outside,'))).toEqual([]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.stated).toHaveLength(20);
    expect(summary.stated.find((row: { id: string }) => row.id === 'latency.region.europe')).toMatchObject({ simulated: 20, verdict: 'within' });
  });

  it('exit 3 when a row is outside, naming the row and why on stderr; the results are written', () => {
    const folder = temporaryFolder('check-outside');
    const out = join(folder, 'run');
    const result = cdnsim(['run', scenarioFile(folder, `${SCENARIO}${LOOSE}  latency.region.europe: { max: 19ms }\n`), '--check', '--no-progress', '--no-charts', '--out', out]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('cdnsim: --check: 1 stated figure is outside:');
    expect(result.stderr).toContain('latency.region.europe (Europe mean latency, edge hits): stated at most 19.0 ms (scenario expect; stated 18–25 ms (spec 1.1)), simulated 20.0 ms: 20.0 ms is above the maximum 19.0 ms');
    expect(expectNoStackTrace(result.stderr)).toBe(true);
    expect(readFileSync(join(out, 'stated.csv'), 'utf8')).toContain('latency.region.europe,');
    // Without --check the same run exits 0: the verdicts are reported, not enforced.
    const unchecked = cdnsim(['run', join(folder, 'stated-check.yaml'), '--no-progress', '--no-charts', '--out', join(folder, 'again')]);
    expect(unchecked.status).toBe(0);
  });

  it('an expect key that is not a row id is a located user error (exit 2) with a suggestion', () => {
    const folder = temporaryFolder('check-bad');
    const result = cdnsim(['run', scenarioFile(folder, `${SCENARIO}expect:\n  cdnHitRatoi: { min: 60% }\n`), '--check', '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('stated-check.yaml:11:3: `expect.cdnHitRatoi`: unknown key — did you mean `cdnHitRatio`?');
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});
