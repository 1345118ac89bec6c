import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { readChartInputs, regionRowsFromSummary, statedBoundsOf, type ChartInputs } from '../../../src/report/charts/chartInputs.js';
import { chartSet, isChart } from '../../../src/report/charts/chartSet.js';
import { hitRatioTimeChart } from '../../../src/report/charts/hitRatioTimeChart.js';
import { curvesFromReplay, curvesFromSweep, missRatioChart } from '../../../src/report/charts/missRatioChart.js';
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
    const layers = (hit as unknown as { layer: { data: { values: { layer?: string; kind?: string }[] } }[] }).layer;
    expect(layers[0].data.values).toEqual([expect.objectContaining({ kind: 'outage', from: 240, to: 300 })]);
    const lines = layers[layers.length - 1].data.values;
    expect(new Set(lines.map((row) => row.layer))).toEqual(new Set(['edge', 'regional', 'cdn (edge or regional)']));
    expect(lines).toHaveLength(30);
    compilesCleanly(originLoadChart(inputs.timeseries ?? [], summary.incidents, summary.warmup));
    compilesCleanly(hitRatioTimeChart(inputs.timeseries ?? [], [], undefined));
  });

  it('chart 5, hit ratio against cache size: from a sweep (x: the size parameter, a curve per other value) and from replay rows', () => {
    const sweep = curvesFromSweep(readChartInputs(writeJsonFixture('sweep', 'sweep.json', fixtureSweep())).sweep!);
    expect(sweep.skip).toBeNull();
    expect(sweep.sizeTitle).toBe('edge.capacity (bytes, log scale)');
    expect(sweep.points).toHaveLength(6);
    expect(sweep.points[0]).toEqual({ series: 'hitRatio.cdn, edge.policy=lru', size: 100_000_000, hitRatio: 0.3, low: 0.28, high: 0.32 });
    compilesCleanly(missRatioChart(sweep));
    const replay = curvesFromReplay(fixtureReplayRows() as never);
    expect(replay.points[2]).toMatchObject({ series: 'lru', size: 1e8, hitRatio: 0.6 });
    compilesCleanly(missRatioChart(replay));
    expect(curvesFromReplay((fixtureReplayRows() as { cacheSize: number }[]).filter((row) => row.cacheSize === 1e6) as never).skip).toMatch(/1 cache size; a curve needs two or more/);
  });

  it('chart 6, strategies: one labelled point per strategy (hit ratio against worst staleness) and p50/p95/p99 per strategy', () => {
    const spec = strategyChart(fixtureCompare() as never);
    compilesCleanly(spec);
    const [scatter, bars] = (spec as unknown as { hconcat: { data: { values: Record<string, unknown>[] } }[] }).hconcat;
    expect(scatter.data.values.map((row) => [row.name, row.cdnHitRatio, row.worstStalenessS])).toEqual([
      ['baseline', 0.65, 0],
      ['stale-while-revalidate', 0.78, 86],
      ['long-ttl', 0.83, 3600],
    ]);
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
