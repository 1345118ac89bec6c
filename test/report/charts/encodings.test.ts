import { describe, expect, it } from 'vitest';
import type { StatedCsvRow, TimeseriesRow } from '../../../src/report/charts/chartInputs.js';
import { hitRatioTimeChart } from '../../../src/report/charts/hitRatioTimeChart.js';
import { incidentLayers, labelRows } from '../../../src/report/charts/incidentLayer.js';
import { originLoadChart } from '../../../src/report/charts/originLoadChart.js';
import { regionLatencyChart } from '../../../src/report/charts/regionLatencyChart.js';
import { compileSpec } from '../../../src/report/charts/render.js';
import { statedChart } from '../../../src/report/charts/statedChart.js';
import { timeUnitFor } from '../../../src/report/charts/warmupAxis.js';
import type { IncidentRow } from '../../../src/report/summary.js';
import { regionRowsFromSummary } from '../../../src/report/charts/chartInputs.js';
import { fixtureSummary } from '../../support/chartFixtures.js';

/** The parts of a Vega-Lite view these tests read. */
interface View {
  title?: { text: string; subtitle?: string | string[] };
  data: { values: Record<string, unknown>[] };
  mark: { type: string };
  /** any: the tests read nested encodings of several shapes. */
  encoding: Record<string, any>;
  layer: View[];
  vconcat: View[];
  hconcat: View[];
}

const view = (spec: unknown): View => spec as View;
const compiles = (spec: unknown): void => expect(compileSpec(spec as never).warnings).toEqual([]);

/** `count` intervals of `seconds` from `from`, origin load rising by one request/s an interval. */
function series(count: number, seconds: number, from = 0): TimeseriesRow[] {
  return Array.from({ length: count }, (_, i) => ({
    start_s: from + i * seconds,
    end_s: from + (i + 1) * seconds,
    requests: 100,
    requests_per_s: 100 / seconds,
    browser_hit_ratio: null,
    edge_hit_ratio: 0.5,
    regional_hit_ratio: null,
    cdn_hit_ratio: 0.5,
    origin_requests_per_s: i + 1,
    origin_gbit_per_s: 0.001 * (i + 1),
    p50_ms: 20,
    p95_ms: 50,
    p99_ms: 90,
    stale_served: 0,
    errors_served: 0,
  }));
}

const incident = (name: string, fromSeconds: number): IncidentRow => ({
  kind: 'outage',
  name,
  fromSeconds,
  toSeconds: fromSeconds + 30,
  requests: 0,
  errors: 0,
  availability: 1,
  staleServed: 0,
  originRequests: 0,
  originRequestsBefore: 0,
  label: `${name}: outage`,
});

describe('time-series charts encode the whole measured run in its natural unit (issue 26)', () => {
  it('origin load draws the last interval: a closing point at its end, so 3 intervals of 10 s span 0–30 s', () => {
    const spec = view(originLoadChart(series(3, 10), [], undefined));
    const area = spec.vconcat[0].layer[0];
    expect(area.data.values.map((value) => [value.from, value.rps])).toEqual([
      [0, 1],
      [10, 2],
      [20, 3],
      [30, 3],
    ]);
    expect(area.encoding.x.scale.domain).toEqual([0, 30]);
    compiles(spec);
  });

  it('a run of one interval draws one step in each panel, not two empty panels', () => {
    const spec = view(originLoadChart(series(1, 5), [], undefined));
    for (const panel of spec.vconcat) expect(panel.layer[0].data.values.map((value) => value.from)).toEqual([0, 5]);
    compiles(spec);
  });

  it('a two-hour run reads in minutes (0–120 min, tooltips too), a 10-minute run in seconds, a three-day run in hours', () => {
    expect(timeUnitFor(600)).toEqual({ name: 's', seconds: 1 });
    expect(timeUnitFor(7200)).toEqual({ name: 'min', seconds: 60 });
    expect(timeUnitFor(3 * 86_400)).toEqual({ name: 'h', seconds: 3600 });
    const rows = series(120, 60);
    const hit = view(hitRatioTimeChart(rows, [incident('cut', 3600)], undefined));
    const line = hit.layer.find((layer) => layer.mark.type === 'point')!;
    // The incident labels are drawn last, over the lines.
    expect(hit.layer[hit.layer.length - 1].mark.type).toBe('text');
    expect(line.encoding.x.title).toBe('simulated time (min)');
    expect(line.encoding.x.scale.domain).toEqual([0, 120]);
    expect(line.data.values[0]).toMatchObject({ t: 0.5, from: 0, to: 1 });
    expect(line.encoding.tooltip[1]).toEqual({ field: 'from', title: 'from (min)' });
    // The incident band is in minutes too: 3600 s → 60 min.
    expect(hit.layer[0].data.values[0]).toMatchObject({ from: 60, to: 60.5 });
    const load = view(originLoadChart(rows, [], undefined));
    expect(load.vconcat[1].layer[0].encoding.x.title).toBe('simulated time (min)');
    compiles(hit);
  });
});

describe('incident labels do not print over each other (issue 26)', () => {
  it('labels closer than their width go on rows below; one far away goes back to the first row', () => {
    // 640 px over 600 s: 1.07 px a second; "outage A" (8 characters) is about 63 px, 59 s wide.
    const axis = { unit: { name: 's' as const, seconds: 1 }, domain: [0, 600] as const };
    expect(labelRows([{ from: 100, label: 'outage A' }, { from: 120, label: 'outage B' }, { from: 130, label: 'outage C' }, { from: 400, label: 'outage D' }], axis)).toEqual([0, 1, 2, 0]);
    const [, labels] = incidentLayers([incident('A', 100), incident('B', 105)], axis);
    expect((labels as unknown as View).data.values.map((value) => [value.label, value.row])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
  });
});

describe('latency by region and stated figures say what they plot (issue 26)', () => {
  it('p50, p90, p95, p99 and p99.9 get five distinct hues, not five shades of one blue', () => {
    const spec = view(regionLatencyChart(regionRowsFromSummary(fixtureSummary() as never, {})));
    const ticks = spec.hconcat[1].layer[1];
    expect(ticks.encoding.color.sort).toEqual(['p50', 'p90', 'p95', 'p99', 'p99.9']);
    expect(new Set(ticks.encoding.color.scale.range).size).toBe(5);
    expect(ticks.encoding.color.scale.range).toEqual(['#56B4E9', '#009E73', '#E69F00', '#D55E00', '#000000']);
  });

  it('spec 1.1 uplinks: the uplink share is drawn in a panel of its own, not under "share of requests"', () => {
    const row = (id: string, figure: string, simulated: number): StatedCsvRow => ({ id, figure, stated: '', simulated, unit: 'ratio', verdict: 'within', note: '' });
    const spec = view(statedChart([row('cdnHitRatio', 'CDN hit ratio', 0.98), row('uplink.major', 'peak egress of the busiest major PoP', 0.003)], { cdnHitRatio: { min: 0.95 }, 'uplink.major': { max: 1 } }));
    expect(spec.vconcat.map((panel) => [panel.title, panel.data.values.map((value) => value.figure)])).toEqual([
      [{ text: 'share of requests (ratio 0–1)', fontSize: 14 }, ['CDN hit ratio']],
      [{ text: 'peak egress, share of the uplink (ratio 0–1)', fontSize: 14 }, ['peak egress of the busiest major PoP']],
    ]);
    compiles(spec);
  });
});
