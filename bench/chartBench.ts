import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readChartInputs } from '../src/report/charts/chartInputs.js';
import { chartSet, isChart } from '../src/report/charts/chartSet.js';
import { renderPng, renderSvg } from '../src/report/charts/render.js';
import { writeCharts } from '../src/report/charts/writeCharts.js';
import { report } from './harness.js';

const CLI = join(import.meta.dirname, '../src/cli/main.js');

function cli(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cdnsim ${args.join(' ')} failed: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

/**
 * Issue 15: chart time must stay small next to the run. A baseline run (300k requests)
 * without charts, then `cdnsim chart` on its folder in a fresh process (what `run` adds),
 * and in this process, warm, per chart: SVG (vega) and PNG (resvg). Ratios are to the run.
 */
export async function runChartBenchmarks(wanted: (name: string) => boolean): Promise<void> {
  if (!wanted('charts')) return;
  const folder = join(mkdtempSync(join(tmpdir(), 'cdnsim-chart-bench-')), 'run');
  try {
    const runProcessSeconds = cli(['run', 'scenarios/baseline.yaml', '--requests', '300k', '--no-progress', '--no-charts', '--out', folder]);
    const runWallSeconds = (JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as { wallSeconds: number }).wallSeconds;
    const chartProcessSeconds = cli(['chart', folder]);
    await writeCharts(folder); // warm-up: modules, fonts, JIT
    const warm = await writeCharts(folder);
    report({ name: 'charts.baseline', runProcessSeconds: +runProcessSeconds.toFixed(3), runWallSeconds, chartProcessSeconds: +chartProcessSeconds.toFixed(3), chartWarmSeconds: +warm.wallSeconds.toFixed(3), chartsDrawn: warm.drawn.length, chartToRunRatio: +(chartProcessSeconds / runProcessSeconds).toFixed(3) });
    for (const chart of chartSet(readChartInputs(folder)).filter(isChart)) {
      let started = performance.now();
      const svg = await renderSvg(chart.spec);
      const svgMs = performance.now() - started;
      started = performance.now();
      renderPng(svg);
      report({ name: `charts.render.${chart.name}`, svgMs: Math.round(svgMs), pngMs: Math.round(performance.now() - started), svgBytes: svg.length });
    }
  } finally {
    rmSync(join(folder, '..'), { recursive: true, force: true });
  }
}
