import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelHitRate, loadTrafficModel } from '../../src/workload/trafficModels/trafficModel.js';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

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

  it('--pop: one edge\'s stream of a scenario\'s model class at the rate routed to it (1000/s × Europe\'s 20 %) and its stack cap (its 1 GB edge, no regional tier); without --pop, the busiest listed', () => {
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
    const unnamed = cdnsim(['traffic', scenario, '--requests', '1000', '--out', join(folder, 'none.csv')]);
    expect(unnamed.status).not.toBe(0);
    expect(unnamed.stderr).toContain('name the PoP whose stream to write with --pop; 5 have traffic, the busiest: Asia-Pacific 40.0 %, North America 30.0 %, Europe 20.0 %');
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
});
