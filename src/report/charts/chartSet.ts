import type { ChartInputs } from './chartInputs.js';
import { regionRowsFromSummary } from './chartInputs.js';
import { cacheCurvesChart } from './cacheCurvesChart.js';
import { hitRatioTimeChart } from './hitRatioTimeChart.js';
import { curvesFromReplay, curvesFromSweep, hitRatioCurveChart, type Curves } from './hitRatioCurveChart.js';
import { originLoadChart } from './originLoadChart.js';
import { popCapacityChart } from './popCapacityChart.js';
import { popMapChart } from './popMapChart.js';
import { regionLatencyChart } from './regionLatencyChart.js';
import type { Chart, SkippedChart } from './spec.js';
import { statedChart } from './statedChart.js';
import { strategyChart } from './strategyChart.js';

const missing = (file: string) => `no ${file} in the folder`;

/** A sweep's or a replay's hit-ratio curves (`sweep-hit-ratio`, `replay-hit-ratio`: what is plotted, and from what). */
function curvesChart(name: 'sweep-hit-ratio' | 'replay-hit-ratio', curves: Curves): Chart | SkippedChart {
  const title = curves.skip === null ? `Hit ratio against ${curves.against}` : 'Hit ratio against cache size';
  return curves.skip === null ? { name, title, spec: hitRatioCurveChart(curves) } : { name, title, reason: curves.skip };
}

/**
 * Every chart a folder's files allow, in the report's order, each either built or skipped
 * with the reason (a file the run did not write, too few points).
 */
export function chartSet(inputs: ChartInputs): (Chart | SkippedChart)[] {
  const { summary } = inputs;
  switch (inputs.kind) {
    case 'compare':
      return inputs.compare && inputs.compare.strategies.length > 0
        ? [{ name: 'strategies', title: 'Strategies compared', spec: strategyChart(inputs.compare) }]
        : [{ name: 'strategies', title: 'Strategies compared', reason: 'compare.json lists no strategy' }];
    case 'sweep':
      return inputs.sweep ? [curvesChart('sweep-hit-ratio', curvesFromSweep(inputs.sweep))] : [];
    case 'replay':
      return inputs.replay ? [curvesChart('replay-hit-ratio', curvesFromReplay(inputs.replay))] : [];
    case 'run': {
      if (summary === undefined) return [];
      const charts: (Chart | SkippedChart)[] = [];
      const timeseries = inputs.timeseries;
      const pops = inputs.pops;
      const stated = inputs.stated;
      charts.push(
        stated && stated.some((row) => row.simulated !== null)
          ? { name: 'stated', title: 'Stated figures against the simulation', spec: statedChart(stated, inputs.statedBounds) }
          : { name: 'stated', title: 'Stated figures against the simulation', reason: stated ? 'no stated figure applies to this run' : missing('stated.csv') },
      );
      const regions = (inputs.regions ?? regionRowsFromSummary(summary, inputs.statedBounds)).filter((row) => row.requests > 0);
      charts.push(
        regions.length > 0
          ? { name: 'latency-by-region', title: 'Latency by client region', spec: regionLatencyChart(regions) }
          : { name: 'latency-by-region', title: 'Latency by client region', reason: 'no request was measured' },
      );
      const noSeries = missing('timeseries.csv');
      charts.push(
        timeseries && timeseries.length > 0
          ? { name: 'hit-ratio-over-time', title: 'Hit ratio per layer over time', spec: hitRatioTimeChart(timeseries, summary.incidents, summary.warmup) }
          : { name: 'hit-ratio-over-time', title: 'Hit ratio per layer over time', reason: timeseries ? 'timeseries.csv has no interval' : noSeries },
        timeseries && timeseries.length > 0
          ? { name: 'origin-load', title: 'Origin load over time', spec: originLoadChart(timeseries, summary.incidents, summary.warmup) }
          : { name: 'origin-load', title: 'Origin load over time', reason: timeseries ? 'timeseries.csv has no interval' : noSeries },
      );
      const noPops = missing('pops.csv');
      const busy = pops?.filter((row) => row.requests > 0) ?? [];
      charts.push(
        busy.length > 0
          ? { name: 'pop-capacity', title: 'PoP capacity', spec: popCapacityChart(busy) }
          : { name: 'pop-capacity', title: 'PoP capacity', reason: pops ? 'no PoP served a measured request' : noPops },
      );
      const placed = pops?.filter((row) => row.latitude !== null && row.longitude !== null) ?? [];
      charts.push(
        placed.length > 0
          ? { name: 'pop-map', title: 'PoPs on the map', spec: popMapChart(placed) }
          : { name: 'pop-map', title: 'PoPs on the map', reason: pops ? 'pops.csv has no PoP with a location (the regions model has none)' : noPops },
      );
      // Drawn only when the run wrote curves (run.curves); not listed as skipped otherwise.
      if (inputs.curves && inputs.curves.length > 0) charts.push({ name: 'cache-curves', title: 'Hit ratio against capacity, every cache', spec: cacheCurvesChart(inputs.curves) });
      return charts;
    }
  }
}

export const isChart = (entry: Chart | SkippedChart): entry is Chart => 'spec' in entry;
