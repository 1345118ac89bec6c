import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { curvePoints } from '../../../src/cache/hitRatioCurves.js';
import { runScenario } from '../../../src/experiment/runScenario.js';
import { buildSummary } from '../../../src/report/summary.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { scenarioToInput } from '../../../src/scenario/serialize.js';
import { stringify } from 'yaml';
import { loadTrafficModel, modelHitRate } from '../../../src/workload/trafficModels/trafficModel.js';

/**
 * Issue 28's scenario wiring (docs/traffic-models.md, "In a scenario"): a content class takes
 * its requests from a footprint-descriptor model, one stream per PoP with traffic.
 */

/** One edge for all clients, fetches that take no time (no request waits for one: the LRU's own curve). */
function singleEdge(model: string, extra: string, capacity: string, requests: number): string {
  return `
name: model-single-edge
seed: 28
run: { requests: ${requests}, warmup: 0, curves: true }
traffic: { rate: 20k/s }
content:
  classes:
    - name: production
      model: ${model}
${extra}
edge: { capacity: ${capacity} }
topology: { model: regions, edgeSites: single, originLatency: 0ms }
`;
}

function curveAt(result: ReturnType<typeof runScenario>, capacity: number): number {
  const curve = result.curves?.nodes.find((entry) => entry.node === 'global');
  const point = curve === undefined ? undefined : curvePoints(curve.histogram).findLast((entry) => entry.capacityBytes <= capacity);
  if (point === undefined) throw new Error(`no curve point at ${capacity} B`);
  return point.hitRatio;
}

/** Eight European PoPs over their regional sites, eu-2 with `sharing`. */
function europe(sharing: number, requests = 40_000): string {
  return `
name: model-sharing
seed: 28
run: { requests: ${requests}, warmup: 0 }
traffic:
  rate: 200/s
  regions: { North America: 0%, Europe: 100%, Asia-Pacific: 0%, Latin America: 0%, Africa: 0% }
content:
  classes:
    - name: social
      model: eu-2
      sharing: ${sharing}
edge: { capacity: 1GB }
regional: { capacity: 10GB }
topology:
  model: pops
  pops: { regions: [Europe], count: 8 }
`;
}

function regionalHitRatio(summary: ReturnType<typeof buildSummary>): number {
  let requests = 0;
  let hits = 0;
  for (const site of summary.regionals) {
    requests += site.requests;
    hits += site.requests * site.hitRatio;
  }
  return hits / requests;
}

describe('traffic models in scenario files (issue 28, docs/traffic-models.md)', () => {
  it('issue 28 "faithful by test": one edge, eu-2 from a scenario reproduces the model curve at 1 GB and 10 GB within 0.5 points (70.21 %, 70.33 %)', () => {
    const result = runScenario(parseScenarioText(singleEdge('eu-2', '', '10GB', 100_000), 'eu-2.yaml'));
    expect(Math.abs(curveAt(result, 1e9) - 0.7021)).toBeLessThan(0.005);
    expect(Math.abs(curveAt(result, 1e10) - 0.7033)).toBeLessThan(0.005);
    // The PoP's stack was replayed into the edge before the first request: no cold start.
    expect(result.trafficModels?.[0]).toMatchObject({ model: 'eu-2', fidelity: 'fd', sharing: 0.5, pops: 1 });
    expect(result.trafficModels?.[0].stackObjects).toBeGreaterThan(20_000);
  });

  it('issue 28 "faithful by test": v (video) with a 110 GB stack reproduces 18.71 %, 42.36 %, 60.35 % at 1, 10, 100 GB within 0.5 points', () => {
    const result = runScenario(parseScenarioText(singleEdge('v', '      depthCap: 110GB', '100GB', 100_000), 'v.yaml'));
    expect(Math.abs(curveAt(result, 1e9) - 0.1871)).toBeLessThan(0.005);
    expect(Math.abs(curveAt(result, 1e10) - 0.4236)).toBeLessThan(0.005);
    expect(Math.abs(curveAt(result, 1e11) - 0.6035)).toBeLessThan(0.005);
  });

  it('sharing: the regional tier answers only deep reuses at 0 (eu-2 has 0.12 of its 29.8 missing points past 1 GB: 0.4 %), and about a third of edge misses at 1', () => {
    const none = regionalHitRatio(buildSummary(runScenario(parseScenarioText(europe(0), 'share0.yaml'))));
    const all = regionalHitRatio(buildSummary(runScenario(parseScenarioText(europe(1), 'share1.yaml'))));
    expect(none).toBeLessThan(0.01);
    expect(all).toBeGreaterThan(0.2);
  });

  it('same scenario, same seed: the same summary byte for byte', () => {
    const once = JSON.stringify(buildSummary(runScenario(parseScenarioText(europe(0.5, 10_000), 'same.yaml'))));
    const again = JSON.stringify(buildSummary(runScenario(parseScenarioText(europe(0.5, 10_000), 'same.yaml'))));
    expect(again).toBe(once);
  });

  it('a model class beside a preset class under warmup: steady: blocks counted from its sharing window (50,000), not its stacks or reserved ids (100,000 requests, not 6 M), and eu-3 near its 2 GB curve', () => {
    const result = runScenario(
      parseScenarioText(
        `
name: mixed
seed: 3
run: { requests: 30000, warmup: steady }
traffic: { rate: 500/s }
content:
  classes:
    - { name: social, model: eu-3, share: 60%, sharingWindow: 50000 }
    - { name: static-asset, share: 40% }
edge: { capacity: 2GB }
topology: { model: regions, edgeSites: per-region }
`,
        'mixed.yaml',
      ),
    );
    expect(result.warmup.steady?.blockRequests).toBe(100_000);
    expect(result.warmup.steady?.converged).toBe(true);
    const social = buildSummary(result).contentClasses.find((klass) => klass.name === 'social');
    // eu-3 at 2 GB: 57.5 % (model); five edges at 500/s coalesce a few reuses.
    expect(Math.abs((social?.edgeHitRatio ?? 0) - modelHitRate(loadTrafficModel('eu-3').fd, 2e9))).toBeLessThan(0.01);
  });

  it('a model class written back (scenario.json) loads to the same class', () => {
    const scenario = parseScenarioText(europe(0.25), 'back.yaml');
    const again = parseScenarioText(stringify(scenarioToInput(scenario)), 'back.yaml');
    expect(again.content.classes).toEqual(scenario.content.classes);
    expect(scenario.content.classes?.[0].traffic).toEqual({ model: 'eu-2', fidelity: 'fd', sharing: 0.25, sharingWindow: 1_000_000 });
  });
});

describe('bad model classes, located at their key (issue 28 "bad input")', () => {
  const EU2 = fileURLToPath(new URL('../../../data/traffic-models/eu-2', import.meta.url));
  const withClass = (lines: string) => `
name: bad
content:
  classes:
    - name: social
${lines}
topology: { model: regions, edgeSites: single }
`;

  it('an unknown class name lists the shipped classes, at content.classes[0].model', () => {
    expect(() => parseScenarioText(withClass('      model: eu-4'), 'bad.yaml')).toThrow(
      /bad\.yaml:6:\d+: `content\.classes\[0\]\.model`: unknown traffic class 'eu-4' \(did you mean eu-2\?\): the shipped classes are eu-2, eu-3, tc-0, v/,
    );
  });

  it('a folder whose descriptor is not in the format names that file and line', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cdnsim-model-'));
    mkdirSync(join(folder, 'mine'));
    writeFileSync(join(folder, 'mine', 'fd.txt'), '100 1000 0 10 30 300\n0 0 0.5\n0 200000 half\n');
    writeFileSync(join(folder, 'mine', 'popularity.txt'), '1\n10 1\n');
    expect(() => parseScenarioText(withClass('      model: ./mine'), join(folder, 'bad.yaml'))).toThrow(/`content\.classes\[0\]\.model`: .*mine\/fd\.txt:3: expected a row of three numbers/);
  });

  it('fidelity bfd of a folder without a byte-weighted descriptor: located at content.classes[0].fidelity (the error carries its key), message unchanged', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cdnsim-model-'));
    mkdirSync(join(folder, 'mine'));
    copyFileSync(join(EU2, 'fd.txt'), join(folder, 'mine', 'fd.txt'));
    copyFileSync(join(EU2, 'popularity.txt'), join(folder, 'mine', 'popularity.txt'));
    const text = withClass('      model: ./mine\n      fidelity: bfd');
    expect(() => parseScenarioText(text, join(folder, 'bad.yaml'))).toThrow(
      `bad.yaml:7:17: \`content.classes[0].fidelity\`: traffic model ./mine has no byte-weighted descriptor (bfd.txt or byte_footprint_desc_all.txt in ${join(folder, 'mine')}): use fidelity: fd`,
    );
  });

  it('a sharing outside [0, 1] is refused; so is a sharing window of 0 or above 50 M requests (its log is in memory)', () => {
    expect(() => parseScenarioText(withClass('      model: eu-2\n      sharing: 1.5'), 'bad.yaml')).toThrow(/`content\.classes\[0\]\.sharing`: expected a percentage such as 35% or a fraction between 0 and 1/);
    expect(() => parseScenarioText(withClass('      model: eu-2\n      sharingWindow: 0'), 'bad.yaml')).toThrow(/`content\.classes\[0\]\.sharingWindow`: expected a window of 1 to 50,000,000 requests/);
    expect(() => parseScenarioText(withClass('      model: eu-2\n      sharingWindow: 1G'), 'bad.yaml')).toThrow(/`content\.classes\[0\]\.sharingWindow`: expected a window of 1 to 50,000,000 requests/);
  });

  it('objects, sizes and popularity come from the model, so a model class may not set them; fidelity needs a model', () => {
    expect(() => parseScenarioText(withClass('      model: eu-2\n      objects: 1000'), 'bad.yaml')).toThrow(/`content\.classes\[0\]\.objects`: expected no objects in a class with a model/);
    expect(() => parseScenarioText(withClass('      preset: image\n      fidelity: bfd'), 'bad.yaml')).toThrow(/`content\.classes\[0\]\.fidelity`: expected fidelity only with a model/);
  });
});
