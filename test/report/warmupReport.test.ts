import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import type { ChartInputs, TimeseriesRow } from '../../src/report/charts/chartInputs.js';
import { hitRatioTimeChart } from '../../src/report/charts/hitRatioTimeChart.js';
import { originLoadChart } from '../../src/report/charts/originLoadChart.js';
import { compileSpec } from '../../src/report/charts/render.js';
import { reportHtml } from '../../src/report/charts/reportHtml.js';
import type { Summary } from '../../src/report/summary.js';
import { warmupDescription, type WarmupSummary } from '../../src/report/warmupSummary.js';
import { fixtureSummary } from '../support/chartFixtures.js';

/** The baseline's warm-up as its summary.json states it (docs/warmup.md): the caches alone until steady. */
const STEADY: WarmupSummary = {
  method: 'caches',
  until: 'steady',
  requests: 15_000_000,
  simulatedSeconds: 750.015184,
  finalBlockHitRatio: 0.985116,
  steady: { tolerance: 0.002, blockRequests: 1_000_000, maxRequests: 100_000_000, blockHitRatios: [0.983293, 0.985116], blockEdgeHitRatios: [0.74, 0.75], projectedGain: { cdn: 0.0015, edge: 0.0018 }, converged: true },
};
const FLOW: WarmupSummary = { method: 'flow', requests: 500_000, simulatedSeconds: 25.000031 };
const NONE: WarmupSummary = { method: 'none', requests: 0, simulatedSeconds: 0 };

/** Ten 5 s intervals of timeseries.csv from `fromSeconds`. */
function rows(fromSeconds: number): TimeseriesRow[] {
  return Array.from({ length: 10 }, (_, i) => ({
    start_s: fromSeconds + 5 * i, end_s: fromSeconds + 5 * (i + 1), requests: 100_000, requests_per_s: 20_000, browser_hit_ratio: null, edge_hit_ratio: 0.76,
    regional_hit_ratio: 0.945, cdn_hit_ratio: 0.987, origin_requests_per_s: 270, origin_gbit_per_s: 0.11, p50_ms: 25, p95_ms: 68, p99_ms: 180, stale_served: 0, errors_served: 0,
  }));
}

type Layered = { title: { subtitle: string | string[] }; layer: { encoding?: { x?: { scale?: unknown } } }[] };
type Stacked = { title: { subtitle: string | string[] }; vconcat: { layer: { encoding?: { x?: { scale?: unknown } } }[] }[] };

describe('the report says how the run was warmed (summary.json warmup, docs/warmup.md)', () => {
  it('each kind in words: none, through the flow, the caches alone until steady, for a count, for a time', () => {
    expect(warmupDescription(NONE)).toBe('none: measured from the first request, with empty caches');
    expect(warmupDescription(FLOW)).toBe('through the whole flow: the first 500,000 requests (0–25.0 s simulated), not measured');
    expect(warmupDescription(STEADY)).toBe("cache-only, until steady: 15,000,000 requests (0–750 s simulated), steady; last block's CDN hit ratio 98.51 %");
    const notSteady = { ...STEADY, steady: { ...STEADY.steady!, converged: false } };
    expect(warmupDescription(notSteady)).toBe("cache-only, until steady: 15,000,000 requests (0–750 s simulated), not steady at the 100,000,000-request limit; last block's CDN hit ratio 98.51 %");
    const count: WarmupSummary = { method: 'caches', until: 'requests', requests: 20_000_000, simulatedSeconds: 1000.2, finalBlockHitRatio: 0.9861 };
    expect(warmupDescription(count)).toBe("cache-only, for a fixed 20,000,000 requests (0–1000 s simulated); last block's CDN hit ratio 98.61 %");
    const time: WarmupSummary = { method: 'caches', until: 'time', requests: 36_001_234, simulatedSeconds: 1800 };
    expect(warmupDescription(time)).toBe('cache-only, for 1800 s of simulated time: 36,001,234 requests (0–1800 s simulated)');
  });

  it("report.html: a cache-only warm-up is not 'after 0 warm-up': the measured span and the warm-up's kind and size", () => {
    const summary = { ...fixtureSummary('baseline'), requests: 1_000_000, warmupRequests: 0, simulatedSeconds: 800.004856, warmup: STEADY } as unknown as Summary;
    const inputs: ChartInputs = { folder: '/tmp/x', kind: 'run', title: 'baseline', summary, statedBounds: {} };
    const html = reportHtml(inputs, [], []);
    expect(html).not.toContain('after 0 warm-up');
    expect(html).toContain('<tr><th>requests measured</th><td>1,000,000, from 750.0 s to 800.0 s simulated</td></tr>');
    expect(html).toContain("<tr><th>warm-up</th><td>cache-only, until steady: 15,000,000 requests (0–750 s simulated), steady; last block's CDN hit ratio 98.51 %</td></tr>");
  });

  it('report.html of a summary.json from before `warmup` existed keeps the request count', () => {
    const summary = fixtureSummary() as unknown as Summary;
    const html = reportHtml({ folder: '/tmp/x', kind: 'run', title: 'fixture', summary, statedBounds: {} }, [], []);
    expect(html).toContain('<tr><th>requests measured</th><td>12,000 (after 3,000 warm-up), 600.0 s simulated</td></tr>');
  });

  it('the time charts start their axis where measuring began (750.015184 s), not at 0, and a note names the warm-up they leave out', () => {
    const series = rows(750.015264);
    const note = 'not shown: the warm-up, 0–750 s (the caches alone, until steady, 15,000,000 requests); the axis starts where measuring began';
    const domain = { domain: [750.015184, 800.015264], zero: false, nice: false };
    const hit = hitRatioTimeChart(series, [], STEADY) as unknown as Layered;
    expect(hit.title.subtitle).toEqual(['share of the requests reaching each layer that it answered, per interval; shaded: incidents and deploys', note]);
    expect(hit.layer.at(-1)?.encoding?.x?.scale).toEqual(domain);
    const origin = originLoadChart(series, [], STEADY) as unknown as Stacked;
    expect(origin.title.subtitle).toEqual(['what reached the origin per interval; shaded: incidents and deploys', note]);
    for (const panel of origin.vconcat) expect(panel.layer.at(-1)?.encoding?.x?.scale).toEqual(domain);
    for (const spec of [hit, origin]) expect(compileSpec(spec as unknown as TopLevelSpec).warnings).toEqual([]);
  });

  it('a flow warm-up is named with its requests; a run without warm-up gets an axis from 0 and no note', () => {
    const flow = hitRatioTimeChart(rows(25.000031), [], FLOW) as unknown as Layered;
    expect(flow.title.subtitle).toEqual([
      'share of the requests reaching each layer that it answered, per interval; shaded: incidents and deploys',
      'not shown: the warm-up, 0–25.0 s (500,000 requests through the flow); the axis starts where measuring began',
    ]);
    expect(flow.layer.at(-1)?.encoding?.x?.scale).toEqual({ domain: [25.000031, 75.000031], zero: false, nice: false });
    const cold = hitRatioTimeChart(rows(0), [], NONE) as unknown as Layered;
    expect(cold.title.subtitle).toBe('share of the requests reaching each layer that it answered, per interval; shaded: incidents and deploys');
    expect(cold.layer.at(-1)?.encoding?.x?.scale).toEqual({ domain: [0, 50], zero: false, nice: false });
  });

  it('an incident window in a flow warm-up is clipped to the measured axis, not drawn left of it', () => {
    const incident = { kind: 'outage', fromSeconds: 10, toSeconds: 20, label: 'outage 10–20 s' } as unknown as Summary['incidents'][number];
    const spec = hitRatioTimeChart(rows(25.000031), [incident], FLOW) as unknown as { layer: { mark: { type: string; clip?: boolean } }[] };
    // The band under the lines, its label (a white outline, then the text) over them: all clipped.
    const incidentLayers = [spec.layer[0], ...spec.layer.slice(-2)];
    expect(incidentLayers.map((layer) => [layer.mark.type, layer.mark.clip])).toEqual([
      ['rect', true],
      ['text', true],
      ['text', true],
    ]);
  });
});
