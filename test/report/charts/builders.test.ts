import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { readChartInputs, regionRowsFromSummary, statedBoundsOf, type ChartInputs } from '../../../src/report/charts/chartInputs.js';
import { chartSet, isChart } from '../../../src/report/charts/chartSet.js';
import { hitRatioTimeChart } from '../../../src/report/charts/hitRatioTimeChart.js';
import { curvesFromReplay, curvesFromSweep, hitRatioCurveChart } from '../../../src/report/charts/hitRatioCurveChart.js';
import { originLoadChart } from '../../../src/report/charts/originLoadChart.js';
import { popCapacityChart } from '../../../src/report/charts/popCapacityChart.js';
import { popMapChart } from '../../../src/report/charts/popMapChart.js';
import { regionLatencyChart } from '../../../src/report/charts/regionLatencyChart.js';
import { compileSpec } from '../../../src/report/charts/render.js';
import { statedChart } from '../../../src/report/charts/statedChart.js';
import { strategyChart } from '../../../src/report/charts/strategyChart.js';
import type { Summary } from '../../../src/report/summary.js';
import { isUserError } from '../../../src/userError.js';
import {
  fixtureCompare,
  fixtureFolder,
  fixtureReplayRows,
  fixtureSummary,
  fixtureSweep,
  writeJsonFixture,
  writeRunFixture,
} from '../../support/chartFixtures.js';

const run = (): ChartInputs => readChartInputs(writeRunFixture(fixtureFolder('run')));

/** The data of a chart's (first) inline data set, or of the named layer's. */
function values(spec: TopLevelSpec, path: (spec: Record<string, unknown>) => unknown = (s) => (s.data as { values: unknown[] }).values): Record<string, unknown>[] {
  return path(spec as unknown as Record<string, unknown>) as Record<string, unknown>[];
}

/** The parts of a Vega-Lite view these tests read. */
interface ChartBody {
  title?: unknown;
  data: { values: Record<string, unknown>[] };
  mark: { type: string };
  /** any: the tests read nested encodings of several shapes. */
  encoding: Record<string, any>;
  layer: ChartBody[];
  vconcat: ChartBody[];
}

function compilesCleanly(spec: TopLevelSpec): void {
  const { vega, warnings } = compileSpec(spec);
  expect(warnings).toEqual([]);
  expect(vega.marks?.length ?? 0).toBeGreaterThan(0);
}

describe('chart specifications (issue 15: Vega-Lite that compiles without warnings)', () => {
  it('chart 1, stated against simulated: one point per judged stated row (spec 1.1; a comparison row with a value is left out), the open "at least 95 %" band drawn to 1', () => {
    const inputs = run();
    const spec = statedChart(inputs.stated ?? [], inputs.statedBounds);
    compilesCleanly(spec);
    const panels = (spec as unknown as { vconcat: { title: { text: string }; data: { values: Record<string, unknown>[] } }[] }).vconcat;
    expect(panels.map((panel) => panel.title.text)).toEqual(['mean latency (ms)', 'share of requests (ratio 0–1)', 'count', 'lifetime (s)']);
    const points = panels.flatMap((panel) => panel.data.values);
    expect(points).toHaveLength(7);
    expect(points.map((point) => point.figure)).not.toContain('global mean latency, all requests');
    const cdn = points.find((point) => String(point.figure).startsWith('CDN hit ratio'));
    expect(cdn).toMatchObject({ low: 0.95, high: 1, simulated: 0.65585, verdict: 'outside', panel: 'share of requests (ratio 0–1)' });
    expect(points.find((point) => String(point.figure).startsWith('North America'))).toMatchObject({ low: 15, high: 20 });
    // "origin mean latency: the client's …" is cut at the colon so the axis label stays readable.
    expect(points.map((point) => point.figure)).toContain('origin mean latency');
  });

  it("chart 1 holds a run to the scenario's expect where it has one (scenario.json expect replaces the stated bounds)", () => {
    const bounds = statedBoundsOf({ expect: { cdnHitRatio: { min: 0.6 }, 'latency.layer.edge': { max: '30ms' } } });
    expect(bounds.cdnHitRatio).toEqual({ min: 0.6 });
    expect(bounds['latency.layer.edge']).toEqual({ max: 30 });
    expect(bounds['latency.region.africa']).toEqual({ min: 30, max: 45 });
  });

  it('chart 2, latency by region: regions.csv and summary.json give the same rows, with the stated edge-hit range of spec 1.1', () => {
    const inputs = run();
    const fromSummary = regionRowsFromSummary(inputs.summary as Summary, inputs.statedBounds);
    expect(fromSummary.map((row) => row.region)).toEqual(['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa']);
    expect(fromSummary[4]).toMatchObject({ stated_edge_hit_min_ms: 30, stated_edge_hit_max_ms: 45, edge_hit_mean_ms: 37.5, mean_ms: 162 });
    for (const rows of [fromSummary, inputs.regions ?? []]) compilesCleanly(regionLatencyChart(rows));
    const percentiles = values(regionLatencyChart(fromSummary), (s) => ((s.hconcat as { data: { values: unknown[] } }[])[1].data.values));
    expect(percentiles).toHaveLength(25);
  });

  it('charts 3 and 4, over time: one line per layer the run has (an empty column is no layer), the outage shaded', () => {
    const inputs = run();
    const summary = inputs.summary as Summary;
    const hit = hitRatioTimeChart(inputs.timeseries ?? [], summary.incidents, summary.warmup);
    compilesCleanly(hit);
    const layers = (hit as unknown as { layer: { mark: { type: string }; data: { values: { layer?: string; kind?: string }[] } }[] }).layer;
    expect(layers[0].data.values).toEqual([expect.objectContaining({ kind: 'outage', from: 240, to: 300 })]);
    const lines = layers.find((layer) => layer.mark.type === 'line')!.data.values;
    expect(new Set(lines.map((row) => row.layer))).toEqual(new Set(['edge', 'regional', 'cdn (edge or regional)']));
    expect(lines).toHaveLength(30);
    compilesCleanly(originLoadChart(inputs.timeseries ?? [], summary.incidents, summary.warmup));
    compilesCleanly(hitRatioTimeChart(inputs.timeseries ?? [], [], undefined));
  });

  it('chart 5, hit ratio against cache size: from a sweep (x: the size parameter, a colour per layer, a dash per other value) and from replay rows', () => {
    const sweep = curvesFromSweep(readChartInputs(writeJsonFixture('sweep', 'sweep.json', fixtureSweep())).sweep!);
    expect(sweep.skip).toBeNull();
    expect(sweep.sizeTitle).toBe('edge.capacity (bytes, log scale)');
    expect(sweep.points).toHaveLength(6);
    expect(sweep.points[0]).toEqual({ panel: 'hit ratio', colour: 'cdn', dash: 'lru', figure: 'hitRatio.cdn', size: 100_000_000, hitRatio: 0.3, low: 0.28, high: 0.32 });
    compilesCleanly(hitRatioCurveChart(sweep));
    const replay = curvesFromReplay(fixtureReplayRows() as never);
    expect(replay.points[4]).toMatchObject({ panel: 'hit ratio', colour: 'lru', size: 1e8, hitRatio: 0.6 });
    expect(replay.points[5]).toMatchObject({ panel: 'byte hit ratio', colour: 'lru', size: 1e8, hitRatio: 0.55 });
    compilesCleanly(hitRatioCurveChart(replay));
    expect(curvesFromReplay((fixtureReplayRows() as { cacheSize: number }[]).filter((row) => row.cacheSize === 1e6) as never).skip).toMatch(/1 cache size; a curve needs two or more/);
  });

  it('chart 5 encodes what it says (issue 26): the x domain is the sizes swept, not widened to a power of ten; one colour per layer and one dash per other value, every series named in a legend', () => {
    const spec = hitRatioCurveChart(curvesFromSweep(fixtureSweep() as never)) as unknown as ChartBody;
    expect(spec.title).toMatchObject({ text: 'Hit ratio against edge.capacity' });
    const [, line, points] = spec.layer;
    expect(line.encoding.x.scale).toEqual({ type: 'log', domain: [1e8, 1e10], nice: false });
    expect(line.encoding.color.scale.domain).toEqual(['cdn']);
    expect(line.encoding.strokeDash).toMatchObject({ title: 'edge.policy', sort: ['lru', 's3fifo'] });
    expect(line.encoding.strokeDash.legend).not.toBeNull();
    // Coinciding curves: the second series is drawn smaller, inside the first.
    expect(points.encoding.size.scale.range).toEqual([150, 30]);
    expect(new Set(spec.data.values.map((value) => value.order))).toEqual(new Set([0, 1]));
    // A replay with eleven policies: eleven distinct colours, not eight repeated.
    const rows = ['lru', 'fifo', 'arc', 'clock', 'gdsf', 'lfu', 's3fifo', 's4lru', 'sieve', 'twoq', 'belady'].flatMap((policy) =>
      [1e6, 1e7].map((cacheSize) => ({ policy, cacheSize, countMode: true, ttlSeconds: null, missRatio: 0.5, byteMissRatio: 0.5 })),
    );
    const many = hitRatioCurveChart(curvesFromReplay(rows)) as unknown as ChartBody;
    expect(many.layer[0].encoding.color.scale).toEqual({ domain: rows.filter((_, i) => i % 2 === 0).map((row) => row.policy), scheme: 'tableau20' });
    compilesCleanly(many as never);
  });

  it('chart 5 of a --target sweep draws the bound and each search\'s answer, and says them in the subtitle', () => {
    const sweep = { ...fixtureSweep(), target: { figure: 'hitRatio.cdn', comparison: '>=', value: 0.6, minimize: 'edge.capacity', results: [{ values: { 'edge.policy': 'lru' }, value: '10GB' }, { values: { 'edge.policy': 's3fifo' }, value: '1GB' }] } };
    const curves = curvesFromSweep(sweep as never);
    expect(curves.target).toEqual({
      panel: 'hit ratio',
      text: 'hitRatio.cdn ≥ 60 %',
      value: 0.6,
      answers: [
        { size: 1e10, dash: 'lru', label: '10GB', where: 'edge.policy=lru' },
        { size: 1e9, dash: 's3fifo', label: '1GB', where: 'edge.policy=s3fifo' },
      ],
    });
    const spec = hitRatioCurveChart(curves) as unknown as ChartBody;
    expect(spec.title).toMatchObject({ subtitle: [expect.any(String), 'target hitRatio.cdn ≥ 60 %: met from 10GB, 1GB'] });
    const texts = spec.layer.filter((layer) => layer.mark.type === 'text').map((layer) => layer.data?.values.map((value) => value.text));
    expect(texts).toEqual([['target hitRatio.cdn ≥ 60 %'], ['10GB (edge.policy=lru)', '1GB (edge.policy=s3fifo)']]);
    compilesCleanly(spec as never);
  });

  it('chart 6, strategies: one point per strategy (hit ratio against outdated share) named in a legend, and p50/p95/p99 per strategy', () => {
    const spec = strategyChart(fixtureCompare() as never);
    compilesCleanly(spec);
    const [scatter, bars] = (spec as unknown as { hconcat: ChartBody[] }).hconcat;
    expect(scatter.data.values.map((row) => [row.name, row.cdnHitRatio, row.worstStalenessS])).toEqual([
      ['baseline', 0.65, 0],
      ['stale-while-revalidate', 0.78, 86],
      ['long-ttl', 0.83, 3600],
    ]);
    // No labels beside the points (they printed over each other): the legend names them, by colour and shape.
    expect(scatter.mark.type).toBe('point');
    expect(scatter.encoding.color.legend).not.toBeNull();
    expect(scatter.encoding.shape.field).toBe('name');
    expect(scatter.encoding.size.scale.range).toEqual([420, 240, 60]);
    expect(bars.data.values).toHaveLength(9);
  });

  it('chart 7, PoP capacity: the busiest PoPs by share of uplink at the 1 s peak (docs/capacity.md), idle ones left out, peak storage as a share of capacity', () => {
    const pops = run().pops ?? [];
    const spec = popCapacityChart(pops, 5);
    compilesCleanly(spec);
    const rows = values(spec);
    // The fixture's minor PoPs (10 Gbit/s) come first: LOS 4.8/10, JNB 3.9/10, SYD 3.0/10, then IAD 12/100 and LAX 11.1/100,
    // although IAD sends the most (by egress alone the order was IAD, LAX, FRA, LHR, NRT).
    expect(rows.map((row) => row.pop)).toEqual(['LOS', 'JNB', 'SYD', 'IAD', 'LAX']);
    expect(rows[0].uplinkShare).toBeCloseTo(0.48, 12);
    // LOS peaked at 420 MB − 8 × 25 MB = 220 MB of its 1 GB.
    expect(rows[0].storedShare).toBeCloseTo(0.22, 12);
    expect(values(popCapacityChart(pops)).map((row) => row.pop)).not.toContain('AAE');
  });

  it('chart 8, the PoP map: world land from world-atlas (no network), PoPs with traffic sized by requests, idle ones apart', () => {
    const spec = popMapChart(run().pops ?? []);
    compilesCleanly(spec);
    const layers = (spec as unknown as { layer: { data: { values: Record<string, unknown>[] } }[] }).layer;
    expect(layers[0].data.values.length).toBeGreaterThan(0);
    expect(layers[1].data.values.map((row) => row.pop)).toEqual(['AAE']);
    expect(layers[2].data.values).toHaveLength(11);
  });
});

describe('which charts a folder allows', () => {
  it("a run folder of today's files draws charts 1 and 2 and skips the rest, naming the missing file", () => {
    const set = chartSet(readChartInputs(writeRunFixture(fixtureFolder('today'), { series: false })));
    expect(set.filter(isChart).map((chart) => chart.name)).toEqual(['stated', 'latency-by-region']);
    expect(set.filter((entry) => !isChart(entry)).map((entry) => [entry.name, 'reason' in entry ? entry.reason : ''])).toEqual([
      ['hit-ratio-over-time', 'no timeseries.csv in the folder'],
      ['origin-load', 'no timeseries.csv in the folder'],
      ['pop-capacity', 'no pops.csv in the folder'],
      ['pop-map', 'no pops.csv in the folder'],
    ]);
  });

  it('a run folder with the contract CSVs draws all six run charts; compare, sweep and replay folders draw theirs', () => {
    expect(chartSet(run()).filter(isChart)).toHaveLength(6);
    expect(chartSet(readChartInputs(writeJsonFixture('compare', 'compare.json', fixtureCompare()))).map((chart) => chart.name)).toEqual(['strategies']);
    expect(chartSet(readChartInputs(writeJsonFixture('replay', 'replay.json', fixtureReplayRows()))).filter(isChart)).toHaveLength(1);
  });

  it('a folder that is no run, compare or sweep folder is a user mistake naming the files looked for', () => {
    const error = (() => {
      try {
        readChartInputs(fixtureFolder('empty'));
      } catch (caught) {
        return caught;
      }
    })();
    expect(isUserError(error)).toBe(true);
    expect((error as Error).message).toMatch(/not a run, compare, sweep or replay folder: it holds none of summary.json, compare.json, sweep.json, replay.json/);
  });

  it('a broken summary.json or a CSV without a contract column is reported with the file and what was expected', () => {
    const folder = writeRunFixture(fixtureFolder('broken'));
    const summaryPath = join(folder, 'summary.json');
    const text = readFileSync(summaryPath, 'utf8');
    writeFileSync(summaryPath, text.slice(0, 40));
    expect(() => readChartInputs(folder)).toThrow(/summary.json: not valid JSON/);
    writeFileSync(summaryPath, JSON.stringify(fixtureSummary()));
    writeFileSync(join(folder, 'pops.csv'), 'pop,region,requests\nIAD,North America,3\n');
    expect(() => readChartInputs(folder)).toThrow(/pops.csv: missing column\(s\) hit_ratio, byte_hit_ratio/);
  });
});
