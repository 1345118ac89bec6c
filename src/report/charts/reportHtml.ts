import { readFileSync } from 'node:fs';
import { formatBytes } from '../../units.js';
import { formatCount, formatMs, formatPercent } from '../consoleTable.js';
import type { Summary } from '../summary.js';
import { measuredFromSeconds, warmupDescription } from '../warmupSummary.js';
import type { ChartInputs } from './chartInputs.js';
import { packageFile } from './packageFiles.js';
import type { Chart, SkippedChart } from './spec.js';
import { CHART_FONT, COLOURS } from './theme.js';

/** The browser builds of vega, vega-lite and vega-embed, inlined so the page needs no network. */
const LIBRARIES = [['vega', 'build/vega.min.js'], ['vega-lite', 'build/vega-lite.min.js'], ['vega-embed', 'build/vega-embed.min.js']] as const;

function inlineScript([packageName, file]: readonly [string, string]): string {
  const source = readFileSync(packageFile(packageName, file), 'utf8')
    // A source map comment makes developer tools fetch a file that is not there.
    .replace(/\/\/# sourceMappingURL=\S+\s*$/gm, '')
    .replace(/<\/script/gi, '<\\/script');
  return `<script>${source}</script>`;
}

/** The three libraries as inline script elements (also `cdnsim plan`'s report.html). */
export const inlineLibraries = (): string => LIBRARIES.map(inlineScript).join('\n');

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside a script element: `<` escaped, so no string in the data can close the element. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function table(header: readonly string[], rows: readonly (readonly string[])[], rowClass: (row: readonly string[]) => string = () => ''): string {
  const head = `<tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr class="${rowClass(row)}">${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table>${head}\n${body}</table>`;
}

function keyNumbers(summary: Summary): string {
  const hit = (layer: string) => (summary.hitRatio[layer] === undefined ? '–' : formatPercent(summary.hitRatio[layer]));
  const all = summary.latencyMs.all;
  const rows: [string, string][] = [
    // From the end of the warm-up: warmupRequests is 0 after a cache-only warm-up, so the report reads summary.warmup
    // (absent from a summary.json written before it existed).
    ...(summary.warmup === undefined
      ? ([['requests measured', `${formatCount(summary.requests)} (after ${formatCount(summary.warmupRequests)} warm-up), ${summary.simulatedSeconds.toFixed(1)} s simulated`]] as [string, string][])
      : ([
          ['requests measured', `${formatCount(summary.requests)}, from ${measuredFromSeconds(summary.warmup).toFixed(1)} s to ${summary.simulatedSeconds.toFixed(1)} s simulated`],
          ['warm-up', warmupDescription(summary.warmup)],
        ] as [string, string][])),
    ['hit ratio: edge / regional / CDN', `${hit('edge')} / ${hit('regional')} / ${hit('cdn')}`],
    ['byte hit ratio, CDN (per 5 MB chunk)', summary.byteHitRatio.cdn === undefined ? '–' : formatPercent(summary.byteHitRatio.cdn)],
    ['origin byte offload (negative: chunk over-fetch)', formatPercent(summary.originByteOffload)],
    ['time to first byte: mean / p50 / p95 / p99', `${formatMs(all.mean)} / ${formatMs(all.p50)} / ${formatMs(all.p95)} / ${formatMs(all.p99)} ms`],
    ['origin', originKeyNumber(summary)],
    ['availability', formatPercent(summary.cdn.availability, 3)],
    ['outdated responses', `${formatPercent(summary.cdn.staleness.share)} (worst ${summary.cdn.staleness.maxSeconds} s behind the origin)`],
  ];
  return `<table class="keys">${rows.map(([key, value]) => `<tr><th>${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`).join('\n')}</table>`;
}

/** The origin's requests and the offload they give (docs/origin-accounting.md); a run folder written before `byCause` existed (`cdnsim chart` redraws old folders) goes without the background share. */
function originKeyNumber(summary: Summary): string {
  const { origin } = summary.cdn;
  const background = (origin.byCause as Summary['cdn']['origin']['byCause'] | undefined) === undefined ? '' : `, of them ${formatCount(origin.byCause.backgroundRevalidation)} background revalidations`;
  return `${formatCount(origin.requests)} requests (offload ${formatPercent(summary.originOffload)}${background}), ${formatBytes(origin.bytes)} of bodies`;
}

function statedSection(inputs: ChartInputs): string {
  if (!inputs.stated) return '';
  const rows = inputs.stated.map((row) => [row.id, row.figure, row.stated, row.simulated === null ? '–' : `${+row.simulated.toPrecision(6)} ${row.unit}`, row.verdict, row.note]);
  return `<section><h2>Stated figures</h2>${table(['id', 'figure', 'stated', 'simulated', 'verdict', 'note'], rows, (row) => row[4])}</section>`;
}

function layersSection(inputs: ChartInputs): string {
  if (!inputs.layers || inputs.layers.length === 0) return '';
  const cell = (value: number | null, format: (n: number) => string) => (value === null ? '' : format(value));
  const rows = inputs.layers.map((row) => [
    row.layer,
    formatCount(row.requests),
    cell(row.share, (n) => formatPercent(n)),
    cell(row.hit_ratio, (n) => formatPercent(n)),
    cell(row.byte_hit_ratio, (n) => formatPercent(n)),
    cell(row.mean_ms, formatMs),
    cell(row.p50_ms, formatMs),
    cell(row.p95_ms, formatMs),
    cell(row.p99_ms, formatMs),
  ]);
  return `<section><h2>Serving layers</h2>${table(['layer', 'requests', 'share', 'hit ratio', 'byte hit ratio', 'mean (ms)', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'], rows)}</section>`;
}

function sourceSection(inputs: ChartInputs): string {
  const source = inputs.scenario ?? (inputs.compare ? { scenario: inputs.compare.scenario, seed: inputs.compare.seed, strategies: inputs.compare.strategies.map((s) => s.name) } : inputs.sweep ? { scenario: inputs.sweep.scenario, params: inputs.sweep.params, replicates: inputs.sweep.replicates } : undefined);
  if (source === undefined) return '';
  return `<section><h2>${inputs.scenario ? 'The scenario as it ran (scenario.json)' : 'What was run'}</h2><details><summary>show</summary><pre>${escapeHtml(JSON.stringify(source, null, 2))}</pre></details></section>`;
}

/**
 * report.html: one self-contained page (vega, vega-lite and vega-embed inlined, every
 * chart's data embedded in its specification) that opens from disk with no network: the key
 * numbers, the stated table, every chart interactive with tooltips, and the scenario.
 */
export function reportHtml(inputs: ChartInputs, charts: readonly Chart[], skipped: readonly SkippedChart[]): string {
  const heading = inputs.summary ? `${inputs.summary.scenario} · seed ${inputs.summary.seed}` : inputs.title;
  const figures = chartFigures(charts);
  const notDrawn = skipped.length === 0 ? '' : `<p class="skipped">Not drawn: ${skipped.map((entry) => `${escapeHtml(entry.title)} (${escapeHtml(entry.reason)})`).join('; ')}.</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cdnsim report: ${escapeHtml(heading)}</title>
<style>
body { font-family: "${CHART_FONT}", "Segoe UI", Helvetica, Arial, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; } h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.9rem; } th, td { text-align: left; padding: 0.25rem 0.6rem; border-bottom: 1px solid #eee; vertical-align: top; }
table.keys th { font-weight: normal; color: #555; }
tr.within td:nth-child(5) { color: ${COLOURS.within}; font-weight: bold; } tr.outside td:nth-child(5) { color: ${COLOURS.outside}; font-weight: bold; } tr.not-applicable { color: #888; }
figure { margin: 1.5rem 0; } figcaption { color: #777; font-size: 0.8rem; } .skipped { color: #777; } pre { font-size: 0.8rem; background: #f7f7f7; padding: 0.8rem; overflow: auto; }
.error { color: ${COLOURS.outside}; }
</style>
${LIBRARIES.map(inlineScript).join('\n')}
</head>
<body>
<h1>cdnsim report: ${escapeHtml(heading)}</h1>
<p>${escapeHtml(inputs.title)} · ${inputs.kind} folder · hover over a mark for its numbers</p>
${inputs.summary ? `<section><h2>Key numbers</h2>${keyNumbers(inputs.summary)}</section>` : ''}
${statedSection(inputs)}
${layersSection(inputs)}
<section><h2>Charts</h2>
${figures}
${notDrawn}
</section>
${sourceSection(inputs)}
${chartEmbedding(charts)}
</body>
</html>
`;
}

/** Each chart's figure: the element it is drawn into and its caption (run, compare, sweep, replay and plan reports). */
export function chartFigures(charts: readonly Chart[]): string {
  return charts.map((chart) => `<figure><div class="chart" id="chart-${chart.name}" data-chart="${chart.name}"></div><figcaption>${escapeHtml(chart.title)} · charts/${chart.name}.svg, .png</figcaption></figure>`).join('\n');
}

/** The charts' specs and the script that draws them offline; a chart that fails says so in its place, and <body> gets data-charts="done" when all have settled. */
export function chartEmbedding(charts: readonly Chart[]): string {
  const specs = Object.fromEntries(charts.map((chart) => [chart.name, chart.spec]));
  return `<script type="application/json" id="chart-specs">${scriptJson(specs)}</script>
<script>
(function () {
  var specs = JSON.parse(document.getElementById('chart-specs').textContent);
  var pending = Object.keys(specs).map(function (name) {
    var element = document.getElementById('chart-' + name);
    return vegaEmbed(element, specs[name], { actions: false, renderer: 'svg', tooltip: true }).then(
      function () { element.setAttribute('data-drawn', 'true'); },
      function (error) { element.setAttribute('data-drawn', 'error'); element.innerHTML = '<p class="error">This chart could not be drawn: ' + String(error && error.message) + '</p>'; console.error(error); }
    );
  });
  Promise.all(pending).then(function () { document.body.setAttribute('data-charts', 'done'); });
})();
</script>`;
}
