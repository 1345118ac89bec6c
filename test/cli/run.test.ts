import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, cdnsim, expectNoStackTrace, temporaryFolder, type CliResult } from './helpers.js';

/** The baseline warms its caches until steady (a stationary fill, then 8.8 M requests); these runs keep a 25 % warm-up through the flow instead. */
const SMALL_RUN = ['--requests', '200k', '--warmup', '25%', '--no-progress'];
/**
 * Charts take a third of a small run's CPU time; runs whose tests read neither charts nor
 * report.html skip them (summary.json and the terminal report do not depend on them).
 */
const NO_CHARTS = ['--no-charts'];

describe('cdnsim run (end to end, built CLI)', () => {
  /** The baseline's small run at the default seed (1), charts and all, with --json: read by the keys, --json and determinism tests. */
  let defaultSeed: { out: string; result: CliResult };
  beforeAll(() => {
    const out = temporaryFolder('keys');
    defaultSeed = { out, result: cdnsim(['run', 'scenarios/baseline.yaml', ...SMALL_RUN, '--json', '--out', out]) };
  });

  it('same scenario and seed give a byte-identical summary.json, also when run again from the run folder\'s scenario.json (overrides applied); another seed gives a different one', () => {
    const out = temporaryFolder('determinism');
    const first = cdnsim(['run', 'scenarios/baseline.yaml', ...SMALL_RUN, ...NO_CHARTS, '--seed', '5', '--out', join(out, 'a')]);
    // The same scenario and seed a second time, from what the first run recorded: one run checks
    // both that a run repeats byte for byte and that scenario.json holds the overrides.
    const again = cdnsim(['run', join(out, 'a', 'scenario.json'), '--no-progress', ...NO_CHARTS, '--out', join(out, 'b')]);
    // Another seed: the default seed's run (seed 1), shared with the tests below.
    expect([first.status, again.status, defaultSeed.result.status]).toEqual([0, 0, 0]);
    const scenario = JSON.parse(readFileSync(join(out, 'a', 'scenario.json'), 'utf8'));
    expect(scenario.seed).toBe(5);
    expect(scenario.run.requests).toBe(200_000);
    const a = readFileSync(join(out, 'a', 'summary.json'));
    const b = readFileSync(join(out, 'b', 'summary.json'));
    const c = readFileSync(join(defaultSeed.out, 'summary.json'));
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    const summary = JSON.parse(a.toString('utf8'));
    expect(summary.seed).toBe(5);
    expect(JSON.parse(c.toString('utf8')).seed).toBe(1);
  });

  it('writes summary.json with the documented keys and run.json with wall-clock figures', () => {
    const { out, result } = defaultSeed;
    expect(result.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.scenario).toBe('baseline');
    expect(summary.seed).toBe(1);
    // baseline warms up on 25 % of the run: 50,000 of 200,000 requests.
    expect(summary.warmupRequests).toBe(50_000);
    expect(summary.requests).toBe(150_000);
    expect(summary.stopReason).toBe('requests');
    // docs/conservation.md: every identity holds (a failure would exit 4).
    expect(summary.checks.failed).toEqual([]);
    expect(summary.checks.passed).toBeGreaterThan(100);
    // 200,000 Poisson arrivals at 20k/s take about 10 simulated seconds.
    expect(summary.simulatedSeconds).toBeGreaterThan(9.8);
    expect(summary.simulatedSeconds).toBeLessThan(10.2);
    // baseline: 339 PoPs, a regional tier and an origin (spec 4.9 layers 2–4).
    expect(Object.keys(summary.hitRatio)).toEqual(['edge', 'regional', 'cdn']);
    expect(Object.keys(summary.byteHitRatio)).toEqual(['edge', 'regional', 'cdn']);
    expect(summary.hitRatio.edge).toBeGreaterThan(0);
    expect(summary.hitRatio.edge).toBeLessThan(1);
    expect(summary.requestsByLayer.edge + summary.requestsByLayer.regional + summary.requestsByLayer.origin).toBe(150_000);
    expect(Object.keys(summary.latencyMs.all)).toEqual(['count', 'mean', 'p50', 'p90', 'p95', 'p99', 'p999']);
    expect(Object.keys(summary.latencyMs.byRegion)).toEqual(['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa']);
    expect(Object.keys(summary.latencyMs.byLayer)).toEqual(['edge', 'regional', 'origin']);
    expect(Object.keys(summary.latencyMs.byRegionAndLayer.Africa)).toEqual(['edge', 'regional', 'origin']);
    expect(summary.edges).toHaveLength(339);
    expect(summary.regionals).toHaveLength(14);
    // An origin fetch adds the regional → origin round trip and about 100 ms of origin service time.
    expect(summary.latencyMs.byLayer.origin.p50 - summary.latencyMs.byLayer.regional.p50).toBeGreaterThan(95);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.requests).toBe(200_000);
    expect(run.cacheWarmupRequests).toBe(0);
    expect(run.wallSeconds).toBeGreaterThan(0);
    expect(run.requestsPerSecond).toBeGreaterThan(0);
    expect(run.peakMemoryBytes).toBeGreaterThan(1_000_000);
    expect(run.versions.node).toBe(process.versions.node);
    expect(run.commandLine[0]).toBe('cdnsim');
    // Written atomically: no temporary file is left behind (charts too: issue 15).
    expect(readdirSync(out).sort()).toEqual(['charts', 'classes.csv', 'layers.csv', 'pops.csv', 'regions.csv', 'report.html', 'run.json', 'scenario.json', 'stated.csv', 'summary.json', 'timeseries.csv']);
    expect(readdirSync(join(out, 'charts')).every((name) => /^[a-z-]+\.(svg|png)$/.test(name))).toBe(true);
  });

  it('--json prints only the summary JSON on stdout, identical to summary.json', () => {
    const { out, result } = defaultSeed;
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(result.stderr).toContain('written:');
  });

  it('human output opens with the answer (issue 26), then the hit-ratio and latency tables; on a pipe no progress bar is drawn', () => {
    const out = temporaryFolder('human');
    const result = cdnsim(['run', 'scenarios/baseline.yaml', '--requests', '100000', '--warmup', '25%', ...NO_CHARTS, '--out', out]);
    expect(result.status).toBe(0);
    // The header folds at 100 columns before its catalogue; then the figures that size a CDN.
    expect(result.stdout).toMatch(
      /^baseline · seed 1 · 75,000 requests measured \(25,000 warm-up\) · 5\.0 s simulated\n {2}catalogue 100,000 objects, 5\.26 GB\n\nCDN hit ratio \d+\.\d\d % · edge hit ratio \d+\.\d\d % · CDN byte hit ratio \d+\.\d\d %\norigin load: [\d,.]+ requests\/s mean, peak [\d,]+ in 1 s\norigin egress: [\d.]+ Gbit\/s mean, peak [\d.]+ over 1 s\nbusiest PoP: [A-Z]{3} \([A-Za-z -]+\) peaks at [\d.]+ Gbit\/s over 1 s, [\d.]+ % of its (10|100) Gbit\/s uplink\n\nlatency \(ms\) +requests +mean +p50 +p90 +p95 +p99 +p99\.9\nall /,
    );
    // The baseline models the service (modelsService: true): its stated table is shown whole.
    expect(result.stdout).toMatch(/\nfigure \(expect: key\) +service states \(spec §\) +cdnsim judges by +this run +verdict\n/);
    expect(result.stdout).toMatch(/\nhit ratio per request\s+\d+\.\d\d %\s+\d+\.\d\d %\s+\d+\.\d\d %\n/);
    // Per lookup: the edge and regional caches only (no cdn column).
    expect(result.stdout).toMatch(/\nhit ratio per lookup\s+\d+\.\d\d %\s+\d+\.\d\d %\n/);
    expect(result.stdout).toMatch(/\nAfrica\s+[\d,]+\s/);
    // Edge hits per region beside the stated averages (spec 1.1); 339 PoPs are summed per region.
    expect(result.stdout).toMatch(/\nedge hits \(ms\)\s+requests\s+mean\s+p50\s+p95\s+stated mean \(spec 1\.1\)\n/);
    expect(result.stdout).toMatch(/\nAfrica\s+[\d,]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+30–45\n/);
    expect(result.stdout).toMatch(/\nedge caches by region\s+with traffic/);
    expect(result.stdout).toMatch(/\nregional cache\s+requests\s+hit ratio/);
    expect(result.stderr).toBe('');
  });

  it('--duration stops at the simulated horizon (bare numbers are seconds)', () => {
    const out = temporaryFolder('duration');
    const result = cdnsim(['run', 'scenarios/baseline.yaml', '--duration', '3', '--warmup', '25%', '--no-progress', ...NO_CHARTS, '--json', '--out', out]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.simulatedSeconds).toBe(3);
    expect(summary.stopReason).toBe('duration');
    // ~60,000 requests in 3 s at 20k/s; the 25 % warm-up is of the run's request budget… here, of its duration.
    expect(summary.requests + summary.warmupRequests).toBeGreaterThan(58_000);
    expect(summary.requests + summary.warmupRequests).toBeLessThan(62_000);
  });

  it('without --out writes results/<scenario>/<run-id>/ under the working folder', () => {
    const cwd = temporaryFolder('cwd');
    const scenario = join(cwd, 'tiny.yaml');
    writeFileSync(scenario, 'run:\n  requests: 20000\ncontent:\n  objects: 1000\n');
    const result = cdnsim(['run', scenario, '--no-progress', ...NO_CHARTS], { cwd });
    expect(result.status).toBe(0);
    const runs = readdirSync(join(cwd, 'results', 'tiny'));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d{8}-\d{6}-seed1$/);
    expect(existsSync(join(cwd, 'results', 'tiny', runs[0], 'summary.json'))).toBe(true);
  });
});

describe('user mistakes exit 2 with a message and no stack trace', () => {
  const cases: [string, string[], RegExp][] = [
    ['missing scenario file', ['run', 'scenarios/nope.yaml'], /cannot read scenario file 'scenarios\/nope\.yaml': no such file\. Check the path/],
    ['unknown flag', ['run', 'scenarios/baseline.yaml', '--sead', '3'], /Unknown argument: sead/],
    ['no command', [], /name a command: run, compare, sweep, plan, merge, chart, replay, traffic, explain, har, validate, schema or topology/],
    ['--requests 0', ['run', 'scenarios/baseline.yaml', '--requests', '0'], /--requests: expected at least 1 request, found "0"/],
    ['--requests not a number', ['run', 'scenarios/baseline.yaml', '--requests', 'lots'], /--requests: expected a whole number such as 2000000, 2M, 500k or 1e6, found "lots"/],
    ['run without a scenario', ['run'], /`cdnsim run` needs a scenario file, for example: cdnsim run scenarios\/baseline\.yaml/],
    ['--out names a file', ['run', 'scenarios/baseline.yaml', '--out', 'scenarios/baseline.yaml'], /--out: cannot create the run folder 'scenarios\/baseline\.yaml': a file of that name is in the way\. Choose another folder with --out\./],
    ['mistyped command', ['rn', 'scenarios/baseline.yaml'], /unknown command 'rn'\. Did you mean run\?/],
    ['bad --duration', ['run', 'scenarios/baseline.yaml', '--duration', '5 parsecs'], /--duration: expected a duration with a unit such as 250ms, 5s, 1h or 7d, or a number of seconds, found "5 parsecs"/],
    ['bad --seed', ['run', 'scenarios/baseline.yaml', '--seed', '1.5'], /--seed: expected a whole number ≥ 0, found "1\.5"/],
  ];
  it.each(cases)('%s', (_name, args, message) => {
    const result = cdnsim(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
    expect(result.stdout).toBe('');
  });

  it('content.recorded: a missing recording names the scenario key and the file, with a suggestion, and writes nothing', () => {
    const folder = temporaryFolder('recorded');
    const file = join(folder, 'site.yaml');
    writeFileSync(join(folder, 'page.har'), '{"log": {"entries": []}}');
    writeFileSync(file, 'content:\n  recorded: { file: pgae.har }\n');
    const result = cdnsim(['run', file, '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `cdnsim: ${file}:2:21: \`content.recorded.file\`: file not found: ${join(folder, 'pgae.har')} (did you mean page.har?). The path is relative to the scenario file.\n`,
    );
    expect(existsSync(join(folder, 'results'))).toBe(false);
    expect(readdirSync(folder).sort()).toEqual(['page.har', 'site.yaml']);
  });

  it('content.recorded: a path the system cannot open (a name longer than it allows) is located at the key too, for validate as for run', () => {
    const folder = temporaryFolder('recorded-long');
    const file = join(folder, 'site.yaml');
    writeFileSync(file, `content:\n  recorded: { file: ${'x'.repeat(1000)}.har }\n`);
    for (const command of ['validate', 'run']) {
      const result = cdnsim([command, file, '--no-progress'].slice(0, command === 'validate' ? 2 : 3));
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:21: \`content\.recorded\.file\`: cannot open .*: ENAMETOOLONG`));
      expect(expectNoStackTrace(result.stderr)).toBe(true);
    }
    expect(readdirSync(folder)).toEqual(['site.yaml']);
  });

  it('content.recorded: scenarios/har-amplified.yaml runs a HAR amplified, with a class per recorded caching decision', () => {
    const out = temporaryFolder('har-amplified');
    const result = cdnsim(['run', 'scenarios/har-amplified.yaml', '--duration', '5s', '--no-progress', ...NO_CHARTS, '--out', out]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.recording).toMatchObject({ file: 'recordings/nextjs-page-load.har', use: 'amplify', objects: 13 });
    expect(result.stdout).toMatch(/browser hit ratio/);
  });

  it('an invalid scenario names file, line, column and key path', () => {
    const folder = temporaryFolder('invalid');
    const file = join(folder, 'bad.yaml');
    writeFileSync(file, 'edge:\n  capacty: 5GB\n');
    const result = cdnsim(['run', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`cdnsim: ${file}:2:3: \`edge.capacty\`: unknown key — did you mean \`capacity\`?\n`);
    expect(existsSync(join(folder, 'results'))).toBe(false);
  });
});

describe('the run folder repeats the run', () => {
  it('--warmup steady warms the caches alone until the CDN hit ratio settles; summary.json says how, scenario.json keeps it, and the run repeats byte for byte', () => {
    const out = temporaryFolder('steady');
    const scenario = join(out, 'small.yaml');
    writeFileSync(scenario, 'content: { objects: 2000 }\nedge: { capacity: 10MB }\ntopology: { pops: { count: 8 } }\nrun: { requests: 20000 }\n');
    // A wide terminal: the warm-up's account and the files written each on one line.
    const first = cdnsim(['run', scenario, '--warmup', 'steady', '--no-progress', ...NO_CHARTS, '--out', join(out, 'first')], { columns: 400 });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^small · seed 1 · 20,000 requests measured \(caches filled to their stationary state, then warmed with [\d,]+ requests over \d+ s, last block's CDN hit ratio [\d.]+ %, steady\)/);
    const summary = JSON.parse(readFileSync(join(out, 'first', 'summary.json'), 'utf8'));
    // 2,000 objects over 8 edges: the block is the 100 k floor (docs/warmup.md), and the rule needs 8 of them at least.
    expect(summary.warmup).toMatchObject({ method: 'caches', until: 'steady', start: 'stationary', steady: { tolerance: 0.0025, blockRequests: 100_000, converged: true } });
    // The stationary start (docs/warmup.md): 8 edges and their regional sites filled before the blocks.
    expect(summary.warmup.fill.edge.caches).toBe(8);
    expect(summary.warmup.requests % 100_000).toBe(0);
    expect(summary.warmup.requests).toBeGreaterThanOrEqual(800_000);
    expect(summary.warmup.warning).toBeUndefined();
    expect(summary.requests).toBe(20_000);
    expect(summary.checks.failed).toEqual([]);
    // The wall time is not told as a rate: the warm-up's requests are cheaper than the flow's.
    expect(first.stdout).toMatch(new RegExp(`run\\.json \\([\\d.]+ s wall: ${summary.warmup.requests.toLocaleString('en-US')} requests warming the caches alone, then 20,000 through the flow\\)`));
    expect(JSON.parse(readFileSync(join(out, 'first', 'run.json'), 'utf8'))).toMatchObject({ requests: 20_000, cacheWarmupRequests: summary.warmup.requests });
    const saved = JSON.parse(readFileSync(join(out, 'first', 'scenario.json'), 'utf8'));
    expect(saved.run.warmup).toEqual({ until: 'steady', tolerance: 0.0025, max: 200_000_000 });
    const again = cdnsim(['run', join(out, 'first', 'scenario.json'), '--no-progress', ...NO_CHARTS, '--out', join(out, 'again')]);
    expect(again.status).toBe(0);
    expect(readFileSync(join(out, 'again', 'summary.json'), 'utf8')).toBe(readFileSync(join(out, 'first', 'summary.json'), 'utf8'));
  });

  it('capacity.origin after a cache-only warm-up: mean and peaks count the same origin requests over the same whole measured seconds (docs/capacity.md)', () => {
    const out = temporaryFolder('origin-seconds');
    const scenario = join(out, 'small.yaml');
    // The caches alone for 1,200,000 requests (60 s at 20k/s), from empty.
    writeFileSync(scenario, 'content: { objects: 2000 }\nedge: { capacity: 10MB }\ntopology: { pops: { count: 8 } }\nrun: { requests: 20000, warmup: { requests: 1200000 } }\n');
    const run = cdnsim(['run', scenario, '--no-progress', '--no-charts', '--out', join(out, 'run')], { columns: 400 });
    expect(run.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'run', 'summary.json'), 'utf8'));
    // The 20,000 requests arrive from 60.020 s to 61.010 s and cause 3 origin requests (60.40 s, 60.86 s, 61.05 s: the
    // last fetch lands past the run's end, in the measured time's second second). Mean and peaks count those 3 over the
    // same 2 whole seconds: 1.5/s mean ≤ 1.5/s over 60 s (shorter run: its mean) ≤ 2 in the busiest second.
    // Before: 3 / 0.99 s = 3.03/s mean against a 1 s peak of 2.
    expect(summary.cdn.origin.requests).toBe(3);
    expect(summary.capacity.measuredSeconds).toBe(2);
    expect(summary.capacity.origin).toMatchObject({ meanRequestsPerSecond: 1.5, peakRequestsPerSecond60s: 1.5, peakRequestsPerSecond1s: 2, meanGbps: 0.000189, peakGbps60s: 0.000189 });
    expect(run.stdout).toContain('origin load: 1.5 requests/s mean, peak 2 in 1 s\n');
    expect(summary.checks.failed).toEqual([]);
  });

  it('--warmup with a value it cannot read, or steady with incidents, is a user mistake (exit 2)', () => {
    const bad = cdnsim(['run', 'scenarios/baseline.yaml', '--warmup', 'soon']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--warmup: expected steady, a request count such as 500000, a share such as 25% or a simulated time such as 60s, found "soon"/);
    const incidents = cdnsim(['run', 'scenarios/incidents.yaml', '--warmup', 'steady']);
    expect(incidents.status).toBe(2);
    expect(incidents.stderr).toMatch(/--warmup steady: the scenario has incidents: their times count from the start of the clock/);
    expectNoStackTrace(incidents.stderr);
  });

  it('--set PATH=VALUE sets one scenario key for the run as the file would hold it; scenario.json records the value and repeats the run', () => {
    const out = temporaryFolder('set');
    const args = ['--requests', '20k', '--warmup', '0', '--no-progress', ...NO_CHARTS];
    const set = cdnsim(['run', 'scenarios/baseline.yaml', ...args, '--set', 'edge.capacity=1GB', '--set', 'traffic.rate=2k/s', '--out', join(out, 'set')]);
    expect(set.status).toBe(0);
    const scenario = JSON.parse(readFileSync(join(out, 'set', 'scenario.json'), 'utf8'));
    expect(scenario.edge.capacity).toBe(1_000_000_000);
    expect(scenario.traffic.rate).toBe(2000);
    // The run folder's scenario.json alone repeats it: the keys set are in the file.
    const again = cdnsim(['run', join(out, 'set', 'scenario.json'), ...args, '--out', join(out, 'again')]);
    expect(again.status).toBe(0);
    expect(readFileSync(join(out, 'again', 'summary.json')).equals(readFileSync(join(out, 'set', 'summary.json')))).toBe(true);
  });

  it('--set: a malformed flag, a value the schema refuses or an unknown key is a user mistake naming the flag, the file and the key (exit 2)', () => {
    const malformed = cdnsim(['run', 'scenarios/baseline.yaml', '--set', 'edgecapacity']);
    expect([malformed.status, malformed.stderr.trim()]).toEqual([2, 'cdnsim: --set: expected PATH=VALUE such as edge.capacity=10GB, found "edgecapacity"']);
    const refused = cdnsim(['run', 'scenarios/baseline.yaml', '--set', 'edge.capacity=lots']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--set edge.capacity=lots in scenarios/baseline.yaml: `edge.capacity`: expected a size');
    const unknown = cdnsim(['run', 'scenarios/baseline.yaml', '--set', 'edge.capasity=1GB']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('`edge.capasity`: unknown key — did you mean `capacity`?');
    expect(expectNoStackTrace(unknown.stderr + refused.stderr)).toBe(true);
  });

  it('a scenario whose content is a recording runs again from its run folder: scenario.json names the recording by its absolute path', () => {
    const out = temporaryFolder('repeat-recording');
    expect(cdnsim(['run', 'scenarios/har-amplified.yaml', '--requests', '5000', '--no-progress', ...NO_CHARTS, '--out', join(out, 'first')]).status).toBe(0);
    const saved = JSON.parse(readFileSync(join(out, 'first', 'scenario.json'), 'utf8'));
    expect(saved.content.recorded.file).toBe(join(REPO, 'scenarios/recordings/nextjs-page-load.har'));
    const again = cdnsim(['run', join(out, 'first', 'scenario.json'), '--no-progress', ...NO_CHARTS, '--out', join(out, 'again')]);
    expect(again.status, again.stderr).toBe(0);
    const [first, second] = ['first', 'again'].map((run) => JSON.parse(readFileSync(join(out, run, 'summary.json'), 'utf8')));
    expect(second.hitRatio).toEqual(first.hitRatio);
    expect(second.requestsByLayer).toEqual(first.requestsByLayer);
  });

  it('keeps both run limits, so a percentage warm-up means the same on the second run', () => {
    const out = temporaryFolder('limits');
    const scenario = join(out, 'both.yaml');
    writeFileSync(scenario, 'content: { objects: 2000 }\nrun: { requests: 1M, duration: 4s, warmup: 50% }\n');
    const firstRun = cdnsim(['run', scenario, '--no-progress', ...NO_CHARTS, '--out', join(out, 'first')], { columns: 200 });
    expect(firstRun.status).toBe(0);
    expect(firstRun.stderr).toMatch(/^warning: no request was measured: the run ended after [\d,]+ requests and 4 simulated seconds, before its warm-up was over\. Shorten run\.warmup or lengthen the run\.\n$/);
    const saved = JSON.parse(readFileSync(join(out, 'first', 'scenario.json'), 'utf8'));
    expect(saved.run).toEqual({ requests: 1_000_000, duration: '4000ms', warmup: '50%' });
    expect(cdnsim(['run', join(out, 'first', 'scenario.json'), '--no-progress', ...NO_CHARTS, '--out', join(out, 'again')]).status).toBe(0);
    const first = JSON.parse(readFileSync(join(out, 'first', 'summary.json'), 'utf8'));
    // Stopped by the 4 s horizon with the warm-up being half of the 1M request budget: nothing measured.
    expect(first.stopReason).toBe('duration');
    expect(first.requests).toBe(0);
    expect(readFileSync(join(out, 'again', 'summary.json'), 'utf8')).toBe(readFileSync(join(out, 'first', 'summary.json'), 'utf8'));
  });
});
