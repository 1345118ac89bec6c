import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSize } from '../../src/units.js';
import { cdnsim, expectNoStackTrace, temporaryFolder, type CliResult } from './helpers.js';

const SMALL = 'test/fixtures/sweep-small.yaml';
const read = (folder: string, file: string): string => readFileSync(join(folder, file), 'utf8');

describe('cdnsim sweep: grid, replicates, workers, shards', () => {
  const grid = ['--param', 'edge.capacity=5MB,50MB', '--param', 'traffic.rate=1k/s,4k/s', '--replicates', '2', '--no-progress', '--no-charts'];
  /** The whole grid on two workers: the parallel run of the first test and the unsharded sweep of the second (one run, not two). */
  let dir: string;
  let two: CliResult;
  beforeAll(() => {
    dir = temporaryFolder('sweep');
    two = cdnsim(['sweep', SMALL, ...grid, '--workers', '2', '--out', join(dir, 'two')]);
  });

  it('parallel = sequential: --workers 2 writes the same sweep.json and sweep.csv bytes as --workers 1', () => {
    const one = cdnsim(['sweep', SMALL, ...grid, '--workers', '1', '--out', join(dir, 'one')]);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(read(join(dir, 'two'), 'sweep.json')).toBe(read(join(dir, 'one'), 'sweep.json'));
    expect(read(join(dir, 'two'), 'sweep.csv')).toBe(read(join(dir, 'one'), 'sweep.csv'));
    const document = JSON.parse(read(join(dir, 'one'), 'sweep.json'));
    expect(document).toMatchObject({ schemaVersion: 1, scenario: 'sweep-small', seed: 3, replicates: 2, params: [{ path: 'edge.capacity', values: ['5MB', '50MB'] }, { path: 'traffic.rate', values: ['1k/s', '4k/s'] }] });
    expect(document.points.map((point: { values: Record<string, string> }) => Object.values(point.values).join(' '))).toEqual(['5MB 1k/s', '5MB 4k/s', '50MB 1k/s', '50MB 4k/s']);
    const hit = document.points[0].figures['hitRatio.cdn'];
    expect(hit.n).toBe(2);
    expect(hit.ci95Low).toBeLessThanOrEqual(hit.mean);
    expect(hit.ci95High).toBeGreaterThanOrEqual(hit.mean);
    // A bigger edge cache holds more: the CDN hit ratio rises with the capacity at both rates.
    expect(document.points[2].figures['hitRatio.cdn'].mean).toBeGreaterThan(document.points[0].figures['hitRatio.cdn'].mean + 0.2);
    expect(read(join(dir, 'one'), 'sweep.csv').split('\n')[0]).toBe('edge.capacity,traffic.rate,figure,mean,ci95_low,ci95_high,replicates');
  });

  it('shard + merge = unsharded: three slices merged give the unsharded sweep.json byte for byte', () => {
    expect(two.status, two.stderr).toBe(0);
    for (const i of [0, 1, 2]) {
      const shard = cdnsim(['sweep', SMALL, ...grid, '--workers', '1', '--shard', `${i}/3`, '--out', join(dir, `shard-${i}`)]);
      expect(shard.status, shard.stderr).toBe(0);
      expect(JSON.parse(read(join(dir, `shard-${i}`), 'sweep.json')).shard).toEqual({ index: i, count: 3 });
    }
    const merged = cdnsim(['merge', join(dir, 'shard-2'), join(dir, 'shard-0'), join(dir, 'shard-1'), '--no-charts', '--out', join(dir, 'merged')]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(read(join(dir, 'merged'), 'sweep.json')).toBe(read(join(dir, 'two'), 'sweep.json'));
    expect(read(join(dir, 'merged'), 'sweep.csv')).toBe(read(join(dir, 'two'), 'sweep.csv'));
    // A missing slice is named.
    const partial = cdnsim(['merge', join(dir, 'shard-0'), join(dir, 'shard-2'), '--out', join(dir, 'partial')]);
    expect(partial.status).toBe(2);
    expect(partial.stderr).toContain('shard 1/3 missing');
  });

  it('a bad --param path or value is a located user error (exit 2) before any run: nothing is written', () => {
    const dir = temporaryFolder('bad-param');
    const cases: [string[], RegExp][] = [
      [['--param', 'edge.capacty=1GB,2GB'], /--param edge\.capacty=1GB in test\/fixtures\/sweep-small\.yaml: `edge\.capacty`: unknown key — did you mean `capacity`\?/],
      [['--param', 'edge.capacity=1GB,2XB'], /--param edge\.capacity=2XB in .*: `edge\.capacity`: expected a size such as 5MB.*found "2XB"/],
      [['--param', 'edge.capacity=1GB', '--param', 'traffic.rate=10k/s,fast'], /--param edge\.capacity=1GB traffic\.rate=fast in .*: `traffic\.rate`: expected a rate/],
      [['--param', 'edge.capacity'], /--param: expected PATH=v1,v2/],
      [['--param', 'edge.capacity=1GB', '--replicates', '0'], /--replicates: expected a whole number from 1 to 1000/],
      [['--param', 'edge.capacity=1GB,2GB', '--target', 'hitRatio.cdn>=0.9'], /--target and --minimize \(or --maximize\) go together/],
      [['--param', 'edge.policy=lru,arc', '--target', 'hitRatio.cdn>=0.9', '--minimize', 'edge.policy'], /--minimize edge\.policy: expected numeric values/],
      [['--param', 'traffic.rate=1k/s,2k/s', '--target', 'capacity.origin.peakGbps1s<=1', '--minimize', 'traffic.rate', '--maximize', 'traffic.rate'], /--minimize and --maximize: give one of them/],
      [['--param', 'traffic.rate=1k/s,2k/s', '--maximize', 'traffic.rate'], /--target and --minimize \(or --maximize\) go together/],
      [['--param', 'traffic.rate=1k/s', '--target', 'capacity.origin.peakGbps1s<=1', '--maximize', 'traffic.rate'], /--maximize traffic\.rate: expected at least two values/],
      [['--param', 'traffic.rate=1k/s,2k/s', '--target', 'capacity.busiest.0.uplinkShare1s<=0.5', '--maximize', 'traffic.rate'], /target capacity\.pops\.maxUplinkShare1s/],
    ];
    for (const [flags, message] of cases) {
      const out = join(dir, 'out');
      const result = cdnsim(['sweep', SMALL, ...flags, '--out', out]);
      expect(result.status, flags.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(expectNoStackTrace(result.stderr)).toBe(true);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('--target --minimize on a real scenario at small scale: the smallest edge capacity with a CDN hit ratio ≥ 40 %, with its interval', () => {
    const dir = temporaryFolder('target');
    const result = cdnsim(['sweep', SMALL, '--param', 'edge.capacity=1MB,100MB', '--replicates', '2', '--target', 'hitRatio.cdn>=0.4', '--minimize', 'edge.capacity', '--tolerance', '20%', '--json', '--no-progress', '--no-charts', '--out', dir]);
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout);
    const [found] = document.target.results;
    expect(document.target).toMatchObject({ figure: 'hitRatio.cdn', comparison: '>=', value: 0.4, minimize: 'edge.capacity' });
    expect(found.figure.mean).toBeGreaterThanOrEqual(0.4);
    expect(found.belowFigure.mean).toBeLessThan(0.4);
    const bytes = (text: string): number => {
      const parsed = parseSize(text);
      if (!parsed.ok) throw new Error(`not a size: ${text}`);
      return parsed.value;
    };
    // Midpoints are written as the schema reads them (four significant digits, e.g. 24.58MB).
    expect(found.value).toMatch(/^\d+(\.\d+)?MB$/);
    const value = bytes(found.value);
    const below = bytes(found.below);
    expect(value / below).toBeLessThanOrEqual(1.2);
    // Every probe is a point of the sweep, in increasing capacity, the two ends as written.
    const capacities = document.points.map((point: { values: Record<string, string> }) => point.values['edge.capacity']);
    expect(capacities[0]).toBe('1MB');
    expect(capacities[capacities.length - 1]).toBe('100MB');
    expect(capacities).toContain(found.value);
  });
});

describe('cdnsim sweep --maximize (docs/capacity.md)', () => {
  it('the largest traffic rate keeping the busiest edge at most 300 requests in a second: capacity figures in sweep.json and sweep.csv with intervals', () => {
    const dir = temporaryFolder('maximize');
    const result = cdnsim(['sweep', SMALL, '--param', 'traffic.rate=100/s,5k/s', '--requests', '9000', '--replicates', '2', '--target', 'capacity.pops.maxPeakRequestsPerSecond<=300', '--maximize', 'traffic.rate', '--tolerance', '40%', '--json', '--no-progress', '--no-charts', '--out', dir]);
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.target).toMatchObject({ figure: 'capacity.pops.maxPeakRequestsPerSecond', comparison: '<=', value: 300, maximize: 'traffic.rate' });
    const [found] = document.target.results;
    expect(found.figure.mean).toBeLessThanOrEqual(300);
    expect(found.aboveFigure.mean).toBeGreaterThan(300);
    const rate = (text: string): number => Number(text.replace('/s', '').replace('k', 'e3'));
    expect(rate(found.above) / rate(found.value)).toBeLessThanOrEqual(1.4);
    // Asia-Pacific's edge takes 53 % of the requests: about 0.53 × rate a second, a little more at its busiest second.
    expect(rate(found.value)).toBeGreaterThan(300);
    expect(rate(found.value)).toBeLessThan(300 / 0.53);
    const csv = read(dir, 'sweep.csv');
    const number = '-?[\\d.]+(e-?\\d+)?';
    for (const figure of ['capacity.origin.peakRequestsPerSecond1s', 'capacity.origin.peakGbps60s', 'capacity.pops.maxPeakGbps1s', 'capacity.pops.maxStoredBytes']) {
      expect(csv).toMatch(new RegExp(`^100/s,${figure.replaceAll('.', '\\.')},${number},${number},${number},2$`, 'm'));
    }
  });
});

describe('cdnsim compare', () => {
  it('runs the strategies on identical traffic and writes compare.json (run summaries) and compare.csv (the contract columns)', () => {
    const dir = temporaryFolder('compare');
    const result = cdnsim(['compare', SMALL, '--strategies', 'respect-headers,fixed:1s,fixed:10m', '--out', dir, '--no-progress']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/sweep-small · seed 3 · 3 strategies on identical traffic · 15,000 requests measured each/);
    expect(readdirSync(dir).sort()).toEqual(['charts', 'compare.csv', 'compare.json', 'report.html', 'run.json']);
    const document = JSON.parse(read(dir, 'compare.json'));
    expect(document).toMatchObject({ schemaVersion: 1, scenario: 'sweep-small', seed: 3 });
    expect(document.strategies.map((s: { name: string }) => s.name)).toEqual(['respect-headers', 'fixed:1s', 'fixed:10m']);
    for (const strategy of document.strategies) {
      expect(strategy.summary.requests).toBe(15_000);
      expect(strategy.summary.staleness).toEqual(strategy.summary.cdn.staleness);
      // docs/conservation.md: each strategy's run passes every identity (a failure would exit 4).
      expect(strategy.summary.checks.failed).toEqual([]);
    }
    const csv = read(dir, 'compare.csv').trim().split('\n');
    expect(csv[0]).toBe(
      'strategy,cdn_hit_ratio,cdn_byte_hit_ratio,origin_requests,origin_offload,origin_bytes,origin_byte_offload,p50_ms,p95_ms,p99_ms,stale_share,worst_staleness_s,availability,' +
        // Issue 25 item 1: the capacity figures by their summary.json path, as in sweep.csv.
        'capacity.origin.meanRequestsPerSecond,capacity.origin.peakRequestsPerSecond1s,capacity.origin.peakRequestsPerSecond60s,capacity.origin.meanGbps,capacity.origin.peakGbps1s,capacity.origin.peakGbps60s,' +
        'capacity.pops.maxUplinkShare1s,capacity.pops.maxUplinkShare1sPop,capacity.pops.maxUplinkShare60s,capacity.pops.maxUplinkShare60sPop,capacity.pops.maxPeakGbps1s,capacity.pops.maxPeakGbps1sPop,' +
        'capacity.pops.maxPeakGbps60s,capacity.pops.maxPeakGbps60sPop,capacity.pops.maxPeakRequestsPerSecond,capacity.pops.maxPeakRequestsPerSecondPop,capacity.pops.maxStoredBytes,capacity.pops.maxStoredBytesPop',
    );
    const hit = csv.slice(1).map((line) => Number(line.split(',')[1]));
    // The run lasts 10 simulated seconds: a 1 s TTL expires within it, the scenario's own 60 s and 10 min do not.
    expect(hit[1]).toBeLessThan(hit[0] - 0.05);
    expect(hit[2]).toBe(hit[0]);
  });

  it('DESIGN "Metrics": the table, compare.csv and each summary read one origin figure: origin_requests = cdn.origin.requests, origin_offload = originOffload = 1 − it / requests', () => {
    const dir = temporaryFolder('compare-origin');
    const result = cdnsim(['compare', SMALL, '--strategies', 'respect-headers,fixed:1s', '--out', dir, '--no-progress', '--no-charts']);
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(read(dir, 'compare.json'));
    const [header, ...lines] = read(dir, 'compare.csv').trim().split('\n');
    const columns = header.split(',');
    lines.forEach((line, i) => {
      const cells = line.split(',');
      const summary = document.strategies[i].summary;
      const origin = summary.cdn.origin;
      expect(Number(cells[columns.indexOf('origin_requests')])).toBe(origin.requests);
      expect(Number(cells[columns.indexOf('origin_offload')])).toBe(summary.originOffload);
      // Issue 25 item 1: the origin's mean rate is its requests over the measured seconds, the same figure as summary.json's.
      const meanRate = Number(cells[columns.indexOf('capacity.origin.meanRequestsPerSecond')]);
      expect(meanRate).toBe(summary.capacity.origin.meanRequestsPerSecond);
      expect(meanRate).toBeCloseTo(origin.requests / summary.capacity.measuredSeconds, 5);
      expect(cells[columns.indexOf('capacity.pops.maxPeakRequestsPerSecondPop')]).toBe(summary.capacity.pops.maxPeakRequestsPerSecondPop);
      expect(summary.originOffload).toBe(Math.round((1 - origin.requests / summary.requests) * 1e6) / 1e6);
      expect(origin.fullResponses + origin.notModified + origin.errors + origin.refused).toBe(origin.requests);
      expect(Object.values(origin.byCause as Record<string, number>).reduce((sum, n) => sum + n, 0)).toBe(origin.requests);
      // The terminal table prints the same count.
      expect(result.stdout).toContain(origin.requests.toLocaleString('en-US'));
    });
    // A 1 s TTL sends more to the origin than the scenario's own 60 s.
    expect(document.strategies[1].summary.cdn.origin.requests).toBeGreaterThan(document.strategies[0].summary.cdn.origin.requests);
  });

  it('an unknown strategy is a user error with a suggestion (exit 2), before any run', () => {
    const dir = join(temporaryFolder('compare-bad'), 'out');
    const result = cdnsim(['compare', SMALL, '--strategies', 'respect-headers,fixd:1h', '--out', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--strategies: expected a strategy preset .* found "fixd:1h" — did you mean "fixed:1h"\?/);
    expect(existsSync(dir)).toBe(false);
  });
});
