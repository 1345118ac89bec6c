import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { modelHitRate, loadTrafficModel } from '../../src/workload/trafficModels/trafficModel.js';
import { cdnsim, expectNoStackTrace, temporaryFolder, type CliResult } from './helpers.js';

/** Issue 28: `cdnsim traffic` writes a model's stream as a trace that `cdnsim replay` reads, with the model's LRU curve. */
describe('cdnsim traffic (docs/traffic-models.md)', () => {
  const folder = temporaryFolder('traffic');

  it('v, 200k requests as oracleGeneral: replayed after the printed warm-up, LRU hits within 0.5 points of the model at 1, 10, 100 GB; same seed, same bytes', () => {
    const out = join(folder, 'v.bin');
    const written = cdnsim(['traffic', 'v', '--requests', '200k', '--out', out]);
    expect(written.status, written.stderr).toBe(0);
    const warmup = /replay with --warmup (\d+)/.exec(written.stdout)?.[1];
    expect(warmup).toBeDefined();
    const replayed = cdnsim(['replay', out, '--warmup', warmup ?? '0', '--cache-size', '1GB,10GB,100GB', '--json', '--no-progress']);
    expect(replayed.status, replayed.stderr).toBe(0);
    const rows = JSON.parse(replayed.stdout) as { missRatio: number }[];
    const model = loadTrafficModel('v');
    // The model: 18.71 %, 42.36 %, 60.35 % (data/traffic-models/v).
    [1e9, 1e10, 1e11].forEach((capacity, i) => expect(Math.abs(1 - rows[i].missRatio - modelHitRate(model.fd, capacity))).toBeLessThan(0.005));
    const again = join(folder, 'v-again.bin');
    expect(cdnsim(['traffic', 'v', '--requests', '200k', '--out', again]).status).toBe(0);
    expect(readFileSync(again).equals(readFileSync(out))).toBe(true);
  });

  it('csv and webcachesim: time, id, size per line, read back by replay with the same request count', () => {
    for (const format of ['csv', 'webcachesim']) {
      const out = join(folder, `eu-3.${format === 'csv' ? 'csv' : 'txt'}`);
      const written = cdnsim(['traffic', 'eu-3', '--requests', '1000', '--depth-cap', '1GB', '--format', format, '--out', out, '--rate', '100']);
      expect(written.status, written.stderr).toBe(0);
      const warmup = Number(/replay with --warmup (\d+)/.exec(written.stdout)?.[1]);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      expect(lines.length).toBe(warmup + 1000 + (format === 'csv' ? 1 : 0));
      const replayed = cdnsim(['replay', out, '--format', format, '--cache-size', '1GB', '--json', '--no-progress']);
      expect(replayed.status, replayed.stderr).toBe(0);
      expect((JSON.parse(replayed.stdout) as { requests: number }[])[0].requests).toBe(warmup + 1000);
    }
  });

  it('--pop: one edge\'s requests of the run\'s stream, at the rate routed to it (1000/s × Europe\'s 20 %) and its stack cap (its 1 GB edge, no regional tier)', () => {
    const scenario = join(folder, 'per-region.yaml');
    writeFileSync(
      scenario,
      [
        'name: per-region',
        'traffic:',
        '  rate: 1000/s',
        '  regions: { North America: 30%, Europe: 20%, Asia-Pacific: 40%, Latin America: 5%, Africa: 5% }',
        'content:',
        '  classes:',
        '    - { name: social, model: eu-3 }',
        'edge: { capacity: 1GB }',
        'topology: { model: regions, edgeSites: per-region }',
      ].join('\n'),
    );
    const out = join(folder, 'europe.csv');
    const written = cdnsim(['traffic', scenario, '--pop', 'Europe', '--requests', '1000', '--format', 'csv', '--out', out]);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout).toContain("Europe's stream of class social in per-region: 20.00 % of the clients × 100.0 % of requests, its stack capped at 1.00 GB");
    expect(written.stdout).toContain('requests of eu-3 (fd)');
    expect(written.stdout).toContain('200.0 requests/s');
    const warmup = Number(/replay with --warmup (\d+)/.exec(written.stdout)?.[1]);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('time,id,size,pop');
    expect(lines.length).toBe(1 + warmup + 1000);
    expect(lines.slice(1).every((line) => line.endsWith(',Europe'))).toBe(true);
    const rate = cdnsim(['traffic', scenario, '--rate', '5', '--requests', '10', '--out', join(folder, 'x.csv')]);
    expect(rate.status).toBe(2);
    expect(rate.stderr).toContain("with a scenario the stream is the run's: set traffic.rate, or the class's depthCap");
  });

  describe('without --pop: every PoP\'s stream merged in time order, as a run generates it (issue 28, "Export traces")', () => {
    // Four European PoPs, the video model v at 200/s, seed 7. The PoPs' demand shares, as the
    // command prints them: AMS 39.6 %, DXB 23.4 %, IST 23.3 %, DME 13.8 %.
    const scenario = join(folder, 'four-pops.yaml');
    const requests = 20_000;
    const merged = join(folder, 'four-pops.csv');
    // The merged trace, written once for the tests below: in beforeAll, not while vitest collects the tests.
    let written: CliResult;
    let warmup: number;
    let rows: string[][];
    beforeAll(() => {
      writeFileSync(
        scenario,
        [
          'name: four-pops',
          'seed: 7',
          'traffic: { rate: 200/s, regions: { Europe: 100% } }',
          'content:',
          '  classes:',
          '    - { name: video, model: v }',
          'edge: { capacity: 2GB }',
          'topology: { model: pops, pops: { regions: [Europe], count: 4 }, regionalTier: { enabled: false } }',
        ].join('\n'),
      );
      written = cdnsim(['traffic', scenario, '--requests', String(requests), '--format', 'csv', '--out', merged]);
      warmup = Number(/replay with --warmup (\d+)/.exec(written.stdout)?.[1]);
      rows = readFileSync(merged, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
    });

    it('a pop column; the stacks at time 0, then times in order; each PoP\'s count within 4 standard deviations of its share of 20,000 (AMS 7,920 ± 276)', () => {
      expect(written.status, written.stderr).toBe(0);
      expect(written.stdout).toContain('Class video of four-pops at its 4 PoPs with traffic, merged in time order');
      expect(rows.length).toBe(warmup + requests);
      expect(rows.slice(0, warmup).every((row) => row[0] === '0.000')).toBe(true);
      expect(rows.every((row, i) => i === 0 || Number(row[0]) >= Number(rows[i - 1][0]))).toBe(true);
      const shares = Object.fromEntries([...written.stdout.matchAll(/([A-Z]{3}) (\d+\.\d) %/g)].map((match) => [match[1], Number(match[2]) / 100]));
      expect(Object.keys(shares).sort()).toEqual(['AMS', 'DME', 'DXB', 'IST']);
      const counts = new Map<string, number>();
      for (const row of rows.slice(warmup)) counts.set(row[3], (counts.get(row[3]) ?? 0) + 1);
      // Each request's PoP is its client place's, drawn by demand: binomial(20,000, share); the
      // printed share is rounded to 0.05 points (10 requests), well inside 4 σ (σ = 69 for AMS, 49 for DME).
      for (const [pop, share] of Object.entries(shares)) {
        expect(Math.abs((counts.get(pop) ?? 0) - requests * share)).toBeLessThan(4 * Math.sqrt(requests * share * (1 - share)));
      }
    });

    it('the same seed gives the same bytes; --pop DME is exactly the merged trace\'s DME requests (the run\'s own streams, shared objects included)', () => {
      const again = join(folder, 'four-pops-again.csv');
      expect(cdnsim(['traffic', scenario, '--requests', String(requests), '--format', 'csv', '--out', again]).status).toBe(0);
      expect(readFileSync(again).equals(readFileSync(merged))).toBe(true);
      const dme = join(folder, 'dme.csv');
      const one = cdnsim(['traffic', scenario, '--pop', 'DME', '--requests', '2000', '--format', 'csv', '--out', dme]);
      expect(one.status, one.stderr).toBe(0);
      const own = readFileSync(dme, 'utf8').trim().split('\n').slice(1);
      const ofMerged = rows.filter((row) => row[3] === 'DME').map((row) => row.join(','));
      expect(own.length).toBe(Number(/replay with --warmup (\d+)/.exec(one.stdout)?.[1]) + 2000);
      expect(ofMerged.length).toBeGreaterThan(own.length);
      expect(own).toEqual(ofMerged.slice(0, own.length));
    });

    it('a run of the scenario (--requests 20000 --warmup 0) gets the same requests per PoP and creates as many objects; replay reads the trace', () => {
      const out = join(folder, 'four-pops-run');
      const run = cdnsim(['run', scenario, '--requests', String(requests), '--warmup', '0', '--no-charts', '--out', out]);
      expect(run.status, run.stderr).toBe(0);
      const popRows = readFileSync(join(out, 'pops.csv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
      const counts = new Map<string, number>();
      for (const row of rows.slice(warmup)) counts.set(row[3], (counts.get(row[3]) ?? 0) + 1);
      expect(popRows.map((row) => [row[0], Number(row[2])])).toEqual(popRows.map((row) => [row[0], counts.get(row[0])]));
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { trafficModels: { createdObjects: number }[] };
      // Its ids are created in order from the class's first id (0 here): the highest id in the trace + 1.
      expect(summary.trafficModels[0].createdObjects).toBe(Math.max(...rows.map((row) => Number(row[1]))) + 1);
      const replayed = cdnsim(['replay', merged, '--format', 'csv', '--warmup', String(warmup), '--cache-size', '2GB', '--json', '--no-progress']);
      expect(replayed.status, replayed.stderr).toBe(0);
      expect((JSON.parse(replayed.stdout) as { requests: number }[])[0].requests).toBe(requests);
    });

    it('sharingWindow (--set): a shared object comes from the class\'s last N requests whatever the run\'s length, so 5,000 requests are the first 5,000 of 20,000 (a 2,000-request window wraps many times)', () => {
      // The window set from the command line (--set), as run and plan take it.
      const traces = [5_000, 20_000].map((n) => {
        const out = join(folder, `window-${n}.csv`);
        const result = cdnsim(['traffic', scenario, '--set', 'content.classes[0].sharingWindow=2000', '--requests', String(n), '--format', 'csv', '--out', out]);
        expect(result.status, result.stderr).toBe(0);
        return { warmup: Number(/replay with --warmup (\d+)/.exec(result.stdout)?.[1]), lines: readFileSync(out, 'utf8').trim().split('\n') };
      });
      const [short, long] = traces;
      expect(short.warmup).toBe(long.warmup);
      expect(short.lines.length).toBe(1 + short.warmup + 5_000);
      expect(long.lines.slice(0, short.lines.length)).toEqual(short.lines);
      // The window is the class's: the trace differs from the default window's (1,000,000 requests).
      expect(long.lines.slice(1).map((line) => line.split(',')[1])).not.toEqual(rows.map((row) => row[1]));
    });

    it('bad input: a PoP the scenario does not have (the nearest name and the busiest), a model class\'s mistake at its line', () => {
      const notScenario = cdnsim(['traffic', 'eu-2', '--set', 'content.classes[0].sharing=0', '--requests', '10', '--out', join(folder, 'x.csv')]);
      expect(notScenario.status).toBe(2);
      expect(notScenario.stderr).toContain("--pop, --class and --set read a scenario file (.yaml, .yml or .json) as the first argument; 'eu-2' is a traffic class or a model folder");
      const typo = cdnsim(['traffic', scenario, '--pop', 'AMX', '--requests', '10', '--out', join(folder, 'x.csv')]);
      expect(typo.status).toBe(2);
      expect(typo.stderr).toContain("--pop: no PoP or edge 'AMX' in");
      expect(typo.stderr).toContain('(did you mean AMS?); the busiest: AMS 39.6 %, DXB 23.4 %, IST 23.3 %, DME 13.8 %');
      const bad = join(folder, 'bad-model.yaml');
      writeFileSync(bad, readFileSync(scenario, 'utf8').replace('model: v }', 'model: v9 }'));
      const unknown = cdnsim(['traffic', bad, '--requests', '10', '--out', join(folder, 'x.csv')]);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain("bad-model.yaml:6:29: `content.classes[0].model`: unknown traffic class 'v9' (did you mean v?)");
      expect(expectNoStackTrace(unknown.stderr)).toBe(true);
    });

    it('--fidelity with a scenario is refused (the run reads its class\'s fidelity), naming the --set that changes it; that --set gives the bfd stream', () => {
      const flag = cdnsim(['traffic', scenario, '--fidelity', 'bfd', '--requests', '10', '--out', join(folder, 'x.csv')]);
      expect(flag.status).toBe(2);
      expect(flag.stderr).toContain("--fidelity is for a traffic class or model folder; with a scenario the class says its own (video: fd): --set content.classes[0].fidelity=bfd, or its fidelity key in");
      expect(expectNoStackTrace(flag.stderr)).toBe(true);
      const set = cdnsim(['traffic', scenario, '--set', 'content.classes[0].fidelity=bfd', '--pop', 'DME', '--requests', '10', '--format', 'csv', '--out', join(folder, 'bfd.csv')]);
      expect(set.status, set.stderr).toBe(0);
      expect(set.stdout).toContain('requests of v (bfd)');
    });
  });

  it('bad input: an unknown class lists the shipped ones; a missing folder is named', () => {
    const unknown = cdnsim(['traffic', 'eu-4', '--requests', '10', '--out', join(folder, 'x.bin')]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown traffic class 'eu-4' (did you mean eu-2?): the shipped classes are eu-2, eu-3, tc-0, v");
    expect(expectNoStackTrace(unknown.stderr)).toBe(true);
    const missing = cdnsim(['traffic', './no-such-model', '--requests', '10', '--out', join(folder, 'x.bin')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('traffic model folder not found');
  });

  it('--seed: one rule for a class and a scenario, a whole number ≥ 0 as the scenario\'s seed key (a class took −1 before)', () => {
    const scenario = join(folder, 'seed.yaml');
    writeFileSync(scenario, ['name: seed', 'content:', '  classes:', '    - { name: video, model: v }', 'topology: { model: regions, edgeSites: per-region }'].join('\n'));
    for (const model of ['eu-2', scenario]) {
      const refused = cdnsim(['traffic', model, '--seed', '-1', '--requests', '10', '--out', join(folder, 'x.bin')]);
      expect(refused.status, model).toBe(2);
      expect(refused.stderr).toContain('--seed: expected a whole number ≥ 0, found -1');
    }
  });
});
