import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planLayer } from '../../src/experiment/capacityPlan.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import type { PlanDocument } from '../../src/report/planReport.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

/** Four PoPs of very different traffic (Europe 80 %: FRA and AMS; North America 15 %: IAD; Asia-Pacific 5 %: SIN), two regional sites. */
const SMALL = `
name: plan-cli
seed: 4
run: { requests: 120000, warmup: 60000 }
traffic:
  rate: 20k/s
  regions: { Europe: 80%, North America: 15%, Asia-Pacific: 5% }
content:
  objects: 5000
  zipfExponent: 0.9
  objectSize: { median: 20KB, sigma: 1, min: 100B, max: 5MB }
  headers: { profile: guidance-static-assets }
edge: { capacity: 200MB }
regional: { capacity: 500MB }
topology:
  pops: { codes: [FRA, AMS, IAD, SIN] }
  regionalTier: { sites: [FRA, IAD] }
`;

function scenarioFile(): { folder: string; file: string } {
  const folder = temporaryFolder('plan');
  const file = join(folder, 'small.yaml');
  writeFileSync(file, SMALL);
  return { folder, file };
}

describe('cdnsim plan (docs/plan.md): flags and unreachable targets', () => {
  it('a missing or malformed target is a usage error (exit 2) naming the flag', () => {
    const { file } = scenarioFile();
    const missing = cdnsim(['plan', file]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('give the target, for example: cdnsim plan scenarios/baseline.yaml --edge-hit-ratio 90%');
    for (const [value, words] of [['abc', 'a hit ratio such as 90% or 0.9'], ['0', 'a hit ratio above 0'], ['150%', 'a hit ratio such as 90% or 0.9']]) {
      const result = cdnsim(['plan', file, '--edge-hit-ratio', value]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`cdnsim: --edge-hit-ratio: expected ${words}, found "${value}"\n`);
    }
    const bound = cdnsim(['plan', file, '--edge-hit-ratio', '50%', '--max-uplink-share', '0']);
    expect(bound.stderr).toBe('cdnsim: --max-uplink-share: expected a share above 0 such as 70%, found "0"\n');
    const policy = join(scenarioFile().folder, 's3fifo.yaml');
    writeFileSync(policy, SMALL.replace('edge: { capacity: 200MB }', 'edge: { capacity: 200MB, policy: s3fifo }'));
    const other = cdnsim(['plan', policy, '--edge-hit-ratio', '50%']);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('edge.policy is s3fifo; cdnsim plan reads each PoP\'s hit-ratio curve off byte stack distances');
  });

  it('--set applies to the planned scenario before anything runs: edge.policy=s3fifo is refused as in the file, an unknown key is located (exit 2)', () => {
    const { file } = scenarioFile();
    const policy = cdnsim(['plan', file, '--edge-hit-ratio', '50%', '--set', 'edge.policy=s3fifo']);
    expect(policy.status).toBe(2);
    expect(policy.stderr).toContain('edge.policy is s3fifo; cdnsim plan reads each PoP\'s hit-ratio curve off byte stack distances');
    const unknown = cdnsim(['plan', file, '--edge-hit-ratio', '50%', '--set', 'edge.capasity=1GB']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--set edge.capasity=1GB in');
    expect(unknown.stderr).toContain('`edge.capasity`: unknown key — did you mean `capacity`?');
  });

  it('a target above every PoP\'s maximum: exit 2, the highest maximum and its PoP named (the curves of the same run), nothing written', () => {
    const { folder, file } = scenarioFile();
    const out = join(folder, 'out');
    const result = cdnsim(['plan', file, '--edge-hit-ratio', '99.9%', '--out', out, '--no-progress'], { timeoutMs: 300_000 });
    // The highest maximum, read off the same run's curves in-process.
    const scenario = parseScenarioText(SMALL, file);
    const run = runScenario({ ...scenario, run: { ...scenario.run, curves: true } });
    const plan = planLayer(run.curves!.nodes.filter((c) => c.layer === 'edge').map((c) => ({ code: c.node, histogram: c.histogram })), 0.999);
    const best = [...plan.nodes].sort((a, b) => b.maxHitRatio - a.maxHitRatio)[0];
    expect(best.maxHitRatio).toBeLessThan(0.999);
    expect(result.status).toBe(2);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
    expect(result.stderr).toContain(
      `cdnsim: --edge-hit-ratio 99.9 %: no PoP reaches it at any capacity: the most any size gives is ${(best.maxHitRatio * 100).toFixed(2)} %, at ${best.code} (an unbounded cache misses each object's first request).`,
    );
    expect(existsSync(out)).toBe(false);
  }, 300_000);
});

describe('cdnsim plan end to end: sizes, confirms, writes', () => {
  it('--json prints the plan; plan.csv, planned.yaml (loadable), curves.csv, summary.json, charts and report.html written; sums add up', () => {
    const { folder, file } = scenarioFile();
    const out = join(folder, 'out');
    const result = cdnsim(['plan', file, '--edge-hit-ratio', '60%', '--regional-hit-ratio', '30%', '--out', out, '--json', '--no-progress'], { timeoutMs: 600_000 });
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as PlanDocument;
    expect(JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8'))).toEqual(document);
    for (const name of ['plan.csv', 'planned.yaml', 'curves.csv', 'summary.json', 'report.html', 'charts/plan-map.svg', 'charts/plan-storage.png']) expect(existsSync(join(out, name)), name).toBe(true);
    expect(document.runs.map((run) => run.name)).toEqual(['curves', 'regional curves', 'confirmation']);
    const edges = document.nodes.filter((row) => row.layer === 'edge');
    expect(edges.map((row) => row.code)).toEqual(['AMS', 'FRA', 'IAD', 'SIN']);
    expect(document.nodes.filter((row) => row.layer === 'regional').map((row) => row.code)).toEqual(['FRA', 'IAD']);
    // Totals: the sum of the planned sizes, per region and in all; one size for all is the largest met size × 4.
    expect(document.edge.total.plannedBytes).toBe(edges.reduce((sum, row) => sum + row.plannedCapacityBytes, 0));
    expect(document.edge.byRegion.reduce((sum, region) => sum + region.plannedBytes, 0)).toBe(document.edge.total.plannedBytes);
    const met = edges.filter((row) => row.status === 'met').map((row) => row.plannedCapacityBytes);
    expect(document.edge.uniformCapacityBytes).toBe(Math.max(...met));
    expect(document.edge.total.uniformBytes).toBe(4 * Math.max(...met));
    expect(document.edge.savingBytes).toBe(document.edge.total.uniformBytes - document.edge.total.plannedBytes);
    // targetMetShare: PoPs with traffic that met 60 % in the confirmation run.
    const withTraffic = edges.filter((row) => row.confirmedRequests > 0);
    expect(document.targetMetShare).toBe(withTraffic.filter((row) => row.confirmedHitRatio >= 0.6).length / withTraffic.length);
    // planned.yaml loads, names every PoP and site, and its capacity is the one size for all.
    const planned = parseScenarioText(readFileSync(join(out, 'planned.yaml'), 'utf8'), join(out, 'planned.yaml'));
    expect(planned.edge.capacityByPop).toEqual(Object.fromEntries(edges.map((row) => [row.code, row.plannedCapacityBytes])));
    expect(planned.edge.capacity).toBe(document.edge.uniformCapacityBytes);
    expect(Object.keys(planned.regional.capacityBySite ?? {})).toEqual(['FRA', 'IAD']);
    // plan.csv: a header and a row per PoP and site.
    expect(readFileSync(join(out, 'plan.csv'), 'utf8').trim().split('\n')).toHaveLength(1 + 4 + 2);
  }, 600_000);

  it('the terminal report opens with the answer and fits 100 columns', () => {
    const { folder, file } = scenarioFile();
    const result = cdnsim(['plan', file, '--edge-hit-ratio', '60%', '--out', join(folder, 'out'), '--no-progress', '--no-charts'], { timeoutMs: 600_000 });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^Plan for plan-cli \(seed 4\): a 60\.0 % edge hit ratio at every PoP takes /);
    const width = Math.max(...lines.filter((line) => !line.startsWith('written:') && !line.startsWith('charts:')).map((line) => line.length));
    expect(width).toBeLessThanOrEqual(100);
  }, 600_000);
});
