import { join, relative } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { formatBytes } from '../../units.js';
import { formatCount, formatPercent } from '../consoleTable.js';
import type { PlanDocument, PlanRow } from '../planReport.js';
import type { Summary } from '../summary.js';
import { writeFileAtomic } from '../writeAtomic.js';
import { worldLand } from './popMapChart.js';
import { renderPng, renderSvg } from './render.js';
import { chartEmbedding, chartFigures, escapeHtml, inlineLibraries, table } from './reportHtml.js';
import { chartSpec, PERCENT_FORMAT, TOOLTIP_PERCENT, type Chart } from './spec.js';
import { CHART_FONT, CHART_WIDTH, COLOURS } from './theme.js';

/**
 * `cdnsim plan`'s charts (docs/plan.md): the storage each PoP needs on the world map (the run
 * report's map, src/report/charts/popMapChart.ts, with area by planned capacity), and the
 * edge layer's total storage against the target, per PoP and one size for all.
 */

/** The PoPs on the map: area by planned capacity, colour met or missed in the confirmation run. */
export function planMapChart(rows: readonly PlanRow[], summary: Summary, target: number, land: readonly unknown[] = worldLand()): TopLevelSpec {
  const places = new Map(summary.edges.map((edge) => [edge.name, edge]));
  const values = rows
    .filter((row) => row.layer === 'edge')
    .flatMap((row) => {
      const place = places.get(row.code);
      if (place?.latitude === undefined || place.longitude === undefined) return [];
      const verdict = row.confirmedRequests === 0 ? 'no traffic' : row.status === 'unreachable' ? 'unreachable' : row.met ? 'met' : 'missed';
      return [{ pop: row.code, city: row.name, region: row.region, latitude: place.latitude, longitude: place.longitude, capacityGb: row.plannedCapacityBytes / 1e9, requests: row.requests, confirmed: row.confirmedHitRatio, verdict }];
    });
  const position = { longitude: { field: 'longitude', type: 'quantitative' }, latitude: { field: 'latitude', type: 'quantitative' } };
  return chartSpec(
    'Storage each PoP needs',
    `${values.length} PoPs sized for ${formatPercent(target, 1)} from their own curves (area: planned capacity; colour: the target in the confirmation run)`,
    {
      width: 760,
      height: 400,
      projection: { type: 'equalEarth' },
      layer: [
        { data: { values: land }, mark: { type: 'geoshape', fill: COLOURS.land, stroke: '#bbbbbb', strokeWidth: 0.5 } },
        {
          data: { values },
          mark: { type: 'circle', opacity: 0.8, stroke: '#333333', strokeWidth: 0.4 },
          encoding: {
            ...position,
            size: { field: 'capacityGb', type: 'quantitative', title: 'planned GB', scale: { range: [10, 700] } },
            color: {
              field: 'verdict',
              type: 'nominal',
              title: 'confirmation',
              scale: { domain: ['met', 'missed', 'unreachable', 'no traffic'], range: [COLOURS.within, COLOURS.outside, COLOURS.incident, COLOURS.notApplicable] },
            },
            order: { field: 'capacityGb', sort: 'descending' },
            tooltip: [
              { field: 'pop' },
              { field: 'city' },
              { field: 'region' },
              { field: 'capacityGb', title: 'planned (GB)', format: '.3f' },
              { field: 'requests', format: ',' },
              { field: 'confirmed', title: 'confirmed hit ratio', format: TOOLTIP_PERCENT },
              { field: 'verdict' },
            ],
          },
        },
      ],
    },
  );
}

/** Total edge storage against the target every PoP with traffic meets: per-PoP sizing and one size for all. */
export function planStorageChart(document: PlanDocument): TopLevelSpec {
  const values = document.storageByTarget.flatMap((point) => [
    { target: point.target, sizing: 'per PoP', storageTb: point.plannedBytes / 1e12 },
    { target: point.target, sizing: 'one size for all', storageTb: point.uniformBytes / 1e12 },
  ]);
  const chosen = [
    { target: document.edge.target, sizing: 'per PoP', storageTb: document.edge.total.plannedBytes / 1e12 },
    { target: document.edge.target, sizing: 'one size for all', storageTb: document.edge.total.uniformBytes / 1e12 },
  ];
  const encoding = {
    x: { field: 'target', type: 'quantitative', title: 'target edge hit ratio (on the curves; PoPs that cannot reach it sized flat)', axis: { format: PERCENT_FORMAT }, scale: { zero: false } },
    y: { field: 'storageTb', type: 'quantitative', title: 'total edge storage (TB, log scale)', scale: { type: 'log' } },
    color: { field: 'sizing', type: 'nominal', title: 'sizing', scale: { domain: ['per PoP', 'one size for all'], range: [COLOURS.simulated, COLOURS.outside] } },
    tooltip: [{ field: 'sizing' }, { field: 'target', format: TOOLTIP_PERCENT }, { field: 'storageTb', title: 'storage (TB)', format: '.3f' }],
  };
  return chartSpec('Total storage against the target', `the plan's target (${formatPercent(document.edge.target, 1)}) marked; ${document.edge.total.nodes} PoPs`, {
    width: CHART_WIDTH,
    height: 320,
    layer: [
      { data: { values }, mark: { type: 'line', point: false }, encoding },
      { data: { values: chosen }, mark: { type: 'point', filled: true, size: 80 }, encoding },
    ],
  });
}

export function planCharts(document: PlanDocument, summary: Summary): Chart[] {
  return [
    { name: 'plan-map', title: 'Storage each PoP needs, on the map', spec: planMapChart(document.nodes, summary, document.edge.target) },
    { name: 'plan-storage', title: 'Total storage against the target: per PoP and one size for all', spec: planStorageChart(document) },
  ];
}

function layerTable(document: PlanDocument, layer: 'edge' | 'regional'): string {
  const result = layer === 'edge' ? document.edge : document.regional;
  if (result === undefined) return '';
  const rows = [...result.byRegion, result.total].map((totals) => [
    totals.region === '' ? '(none)' : totals.region,
    String(totals.nodes),
    formatBytes(totals.plannedBytes),
    formatBytes(totals.uniformBytes),
    formatBytes(totals.uniformBytes - totals.plannedBytes),
  ]);
  return `<h3>${layer === 'edge' ? 'PoPs' : 'Regional sites'}: target ${escapeHtml(formatPercent(result.target, 1))}, met at ${result.nodesMet} of ${result.nodesWithTraffic} with traffic</h3>${table(['region', 'nodes', 'sized per node', 'one size for all', 'saving'], rows)}`;
}

function nodeTable(document: PlanDocument): string {
  const rows = document.nodes.map((row) => [
    row.layer,
    row.code,
    row.name,
    row.region,
    formatCount(row.requests),
    formatPercent(row.maxHitRatio),
    formatBytes(row.plannedCapacityBytes),
    formatPercent(row.predictedHitRatio),
    formatPercent(row.confirmedHitRatio),
    row.met ? 'met' : 'missed',
    row.uplinkShare1s === null ? '' : formatPercent(row.uplinkShare1s, 1),
    row.reason,
  ]);
  return table(['layer', 'code', 'name', 'region', 'requests', 'max', 'planned', 'predicted', 'confirmed', 'target', 'uplink 1 s', 'why missed'], rows, (row) => (row[9] === 'met' ? 'within' : 'outside'));
}

/** report.html of a plan folder: the answer, the totals, the charts and every node; self-contained as the run's. */
export function planReportHtml(document: PlanDocument, charts: readonly Chart[], answer: string): string {
  const figures = chartFigures(charts);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cdnsim plan: ${escapeHtml(document.scenario)}</title>
<style>
body { font-family: "${CHART_FONT}", "Segoe UI", Helvetica, Arial, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ddd; } h3 { font-size: 1.05rem; }
table { border-collapse: collapse; font-size: 0.85rem; } th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #eee; vertical-align: top; }
tr.outside td:nth-child(10) { color: ${COLOURS.outside}; font-weight: bold; } tr.within td:nth-child(10) { color: ${COLOURS.within}; }
figure { margin: 1.5rem 0; } figcaption { color: #777; font-size: 0.8rem; } .answer { font-size: 1.05rem; } .error { color: ${COLOURS.outside}; }
</style>
${inlineLibraries()}
</head>
<body>
<h1>cdnsim plan: ${escapeHtml(document.scenario)} · seed ${document.seed}</h1>
<p class="answer">${escapeHtml(answer)}</p>
<section><h2>Storage</h2>${layerTable(document, 'edge')}${layerTable(document, 'regional')}</section>
<section><h2>Charts</h2>
${figures}
</section>
<section><h2>Every PoP and site (plan.csv)</h2><details><summary>show</summary>${nodeTable(document)}</details></section>
${chartEmbedding(charts)}
</body>
</html>
`;
}

/** Draws the plan's charts into <folder>/charts and writes report.html; the line the terminal prints. */
export async function writePlanCharts(folder: string, document: PlanDocument, summary: Summary): Promise<string> {
  const started = performance.now();
  const charts = planCharts(document, summary);
  const contents: [string, string | Buffer][] = [];
  for (const chart of charts) {
    const svg = await renderSvg(chart.spec);
    contents.push([`charts/${chart.name}.svg`, svg], [`charts/${chart.name}.png`, renderPng(svg)]);
  }
  const answer = `${formatBytes(document.edge.total.plannedBytes)} of edge storage sized per PoP against ${formatBytes(document.edge.total.uniformBytes)} at one size for all: saves ${formatBytes(document.edge.savingBytes)} (${formatPercent(document.edge.savingShare, 1)}); target met at ${formatPercent(document.targetMetShare, 1)} of the PoPs with traffic.`;
  contents.push(['report.html', planReportHtml(document, charts, answer)]);
  for (const [file, content] of contents) writeFileAtomic(join(folder, file), content);
  const where = relative(process.cwd(), folder) || folder;
  return `charts: ${charts.length} in ${join(where, 'charts')}/ (svg, png) and ${join(where, 'report.html')} (${((performance.now() - started) / 1000).toFixed(2)} s)`;
}
