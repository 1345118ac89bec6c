import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTIVE_COLUMNS } from '../../src/report/adaptiveReport.js';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

describe('spec 1.2 item 6 from the command line: cdnsim run --strategy adaptive', () => {
  it('runs scenarios/adaptive-ttl.yaml with the controller: adaptive.csv, summary.json "adaptive", the terminal line, scenario.json with cdn.adaptiveTtl', () => {
    const out = join(temporaryFolder('adaptive'), 'run');
    // A wide terminal: the controller's line unfolded.
    const result = cdnsim(['run', 'scenarios/adaptive-ttl.yaml', '--strategy', 'adaptive', '--duration', '4m', '--out', out, '--no-progress', '--no-charts'], { columns: 200 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/adaptive TTL \(spec 1\.2 item 6; every 60 s, target 90 %, outdated at most 5 %\): \d+ raised, \d+ lowered · image 60 s → \d+ s/);
    const csv = readFileSync(join(out, 'adaptive.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe(ADAPTIVE_COLUMNS.join(','));
    // Four windows of a minute, three classes each; the images' first window: 60 s in force, raised to 120 s.
    expect(csv).toHaveLength(1 + 4 * 3);
    expect(csv[1]).toMatch(/^0,60,image,\d+,0\.\d+,0,60,below-target,120,$/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.adaptive.adjustments[0]).toMatchObject({ atSeconds: 60, class: 'image', action: 'ttl', fromTtlSeconds: 60, toTtlSeconds: 120, reason: 'below-target' });
    const scenario = JSON.parse(readFileSync(join(out, 'scenario.json'), 'utf8'));
    expect(scenario.cdn.adaptiveTtl).toMatchObject({ window: '60000ms', target: 0.9, factor: 2, maxTtl: '3600000ms', maxStaleShare: 0.05 });
  }, 120_000);

  it('a mistyped --strategy is a user error (exit 2) with a suggestion, before any run', () => {
    const result = cdnsim(['run', 'scenarios/adaptive-ttl.yaml', '--strategy', 'adaptve', '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--strategy: expected a strategy preset .* found "adaptve" — did you mean "adaptive"\?/);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});
