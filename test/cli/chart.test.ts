import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCompare, fixtureFolder, writeJsonFixture, writeRunFixture } from '../support/chartFixtures.js';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

describe('charts from the command line (issue 15)', () => {
  it('cdnsim run draws charts/*.svg, charts/*.png and report.html into the run folder; --no-charts skips them; cdnsim chart redraws them from the files', () => {
    const out = temporaryFolder('charts');
    // A wide terminal: the charts line unfolded, whatever the temporary folder's name.
    const run = cdnsim(['run', 'scenarios/baseline.yaml', '--requests', '50k', '--warmup', '25%', '--no-progress', '--out', join(out, 'run')], { columns: 300 });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\ncharts: \d+ in .*charts\/ \(svg, png\) and .*report\.html \([\d.]+ s\)/);
    const charts = readdirSync(join(out, 'run', 'charts')).sort();
    // Today's run folder draws chart 1 (stated.csv) and chart 2 (summary.json) at least.
    expect(charts).toEqual(expect.arrayContaining(['latency-by-region.png', 'latency-by-region.svg', 'stated.png', 'stated.svg']));
    const report = readFileSync(join(out, 'run', 'report.html'), 'utf8');
    expect(report).toContain('cdnsim report: baseline · seed 1');

    const bare = cdnsim(['run', 'scenarios/baseline.yaml', '--requests', '50k', '--warmup', '25%', '--no-progress', '--no-charts', '--out', join(out, 'bare')]);
    expect(bare.status).toBe(0);
    expect(existsSync(join(out, 'bare', 'charts'))).toBe(false);
    expect(existsSync(join(out, 'bare', 'report.html'))).toBe(false);

    rmSync(join(out, 'run', 'charts'), { recursive: true });
    const again = cdnsim(['chart', join(out, 'run')]);
    expect(again.status).toBe(0);
    expect(readdirSync(join(out, 'run', 'charts')).sort()).toEqual(charts);
  });

  it('cdnsim replay --report writes replay.json, the hit-ratio curves and report.html into a folder, and refuses a folder that already holds a replay', () => {
    const out = join(temporaryFolder('replay-report'), 'curves');
    const trace = 'test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin';
    const args = ['replay', trace, '--policy', 'lru,fifo', '--cache-size', '0.01,0.1', '--no-progress', '--report', out];
    const result = cdnsim(args, { columns: 300 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\nwritten: .*curves\/replay\.json\ncharts: 1 in .*curves\/charts\/ \(svg, png\) and .*report\.html/);
    // Two policies at two sizes: four rows, one curve per policy.
    expect(JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'))).toHaveLength(4);
    expect(readdirSync(join(out, 'charts')).sort()).toEqual(['replay-hit-ratio.png', 'replay-hit-ratio.svg']);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const again = cdnsim(args);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/--report: the folder '.*curves' already holds a run \(replay\.json\)/);
    expect(expectNoStackTrace(again.stderr)).toBe(true);
  });

  it('issue 26: cdnsim chart on a damaged summary.json ("latencyMs": null) exits 2, says what to do, and changes no file', () => {
    const folder = writeRunFixture(join(temporaryFolder('damaged'), 'run'));
    const drawn = cdnsim(['chart', folder]);
    expect(drawn.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'summary.json'), JSON.stringify({ ...summary, latencyMs: null }));
    const before = new Map(readdirSync(join(folder, 'charts')).map((file) => [file, readFileSync(join(folder, 'charts', file))]));
    const reportBefore = readFileSync(join(folder, 'report.html'), 'utf8');
    writeFileSync(join(folder, 'charts', 'stated.svg'), 'marker');
    before.set('stated.svg', Buffer.from('marker'));

    const damaged = cdnsim(['chart', folder]);
    expect(damaged.status).toBe(2);
    // Located: the file and the key, not a TypeError's words.
    expect(damaged.stderr).toMatch(/^cdnsim: cannot draw the charts of .*run: its saved files are not as this version of cdnsim writes them \(summary\.json: latencyMs is null\); nothing was changed\. Run the scenario again/);
    expect(expectNoStackTrace(damaged.stderr)).toBe(true);
    for (const [file, content] of before) expect(readFileSync(join(folder, 'charts', file)).equals(content), file).toBe(true);
    expect(readFileSync(join(folder, 'report.html'), 'utf8')).toBe(reportBefore);
  });

  it('issue 26: a summary.json cut short or missing a key gets exit 2 naming the file (and the key), and no file changes, mtimes included', () => {
    const folder = writeRunFixture(join(temporaryFolder('damaged-more'), 'run'));
    expect(cdnsim(['chart', folder]).status).toBe(0);
    const text = readFileSync(join(folder, 'summary.json'), 'utf8');
    const state = (): string[] => readdirSync(join(folder, 'charts')).map((file) => `${file} ${statSync(join(folder, 'charts', file)).mtimeMs} ${readFileSync(join(folder, 'charts', file)).length}`);
    const { cdn: _cdn, ...withoutCdn } = JSON.parse(text) as Record<string, unknown>;
    for (const [damage, message] of [
      [text.slice(0, Math.floor(text.length / 2)), /^cdnsim: .*summary\.json: not valid JSON \(.+\); redo the run or restore the file\n$/],
      [JSON.stringify(withoutCdn), /\(summary\.json: cdn is missing\); nothing was changed/],
    ] as const) {
      writeFileSync(join(folder, 'summary.json'), damage);
      const before = [...state(), statSync(join(folder, 'report.html')).mtimeMs];
      const result = cdnsim(['chart', folder]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(expectNoStackTrace(result.stderr)).toBe(true);
      expect([...state(), statSync(join(folder, 'report.html')).mtimeMs]).toEqual(before);
    }
  });

  it('cdnsim chart draws a compare folder from compare.json', () => {
    const folder = writeJsonFixture('compare-cli', 'compare.json', fixtureCompare());
    const result = cdnsim(['chart', folder]);
    expect(result.status).toBe(0);
    expect(readdirSync(join(folder, 'charts')).sort()).toEqual(['strategies.png', 'strategies.svg']);
  });

  it('cdnsim chart on a folder that is no run, compare or sweep folder exits 2 with a message naming the files, no stack trace', () => {
    const folder = fixtureFolder('not-a-run');
    const result = cdnsim(['chart', folder]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${folder}: not a run, compare, sweep or replay folder: it holds none of summary.json, compare.json, sweep.json, replay.json`);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
    const missing = cdnsim(['chart', join(folder, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such folder');
    const broken = writeRunFixture(fixtureFolder('broken-csv'));
    writeFileSync(join(broken, 'timeseries.csv'), 'start_s,end_s\n0,60\n');
    const bad = cdnsim(['chart', broken]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/timeseries\.csv: missing column\(s\) requests, requests_per_s/);
  });
});
