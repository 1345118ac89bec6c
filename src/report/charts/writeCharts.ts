import { join } from 'node:path';
import { writeFileAtomic } from '../writeAtomic.js';
import { readChartInputs } from './chartInputs.js';
import { chartSet, isChart } from './chartSet.js';
import { renderPng, renderSvg } from './render.js';
import { reportHtml } from './reportHtml.js';
import type { Chart, SkippedChart } from './spec.js';

export interface ChartsWritten {
  /** Files written, relative to the folder: charts/<name>.svg, charts/<name>.png, report.html. */
  files: string[];
  drawn: Chart[];
  skipped: SkippedChart[];
  wallSeconds: number;
}

/**
 * Draws every chart a run, compare, sweep or replay folder's files allow into
 * <folder>/charts/<name>.svg and .png, and writes <folder>/report.html; each file atomically.
 * Only files are read, so it redraws a saved result. A folder with none of the result files
 * is a user mistake (UserError).
 */
export async function writeCharts(folder: string): Promise<ChartsWritten> {
  const started = performance.now();
  const inputs = readChartInputs(folder);
  const set = chartSet(inputs);
  const drawn = set.filter(isChart);
  const skipped = set.filter((entry): entry is SkippedChart => !isChart(entry));
  const files: string[] = [];
  for (const chart of drawn) {
    const svg = await renderSvg(chart.spec);
    writeFileAtomic(join(folder, 'charts', `${chart.name}.svg`), svg);
    writeFileAtomic(join(folder, 'charts', `${chart.name}.png`), renderPng(svg));
    files.push(`charts/${chart.name}.svg`, `charts/${chart.name}.png`);
  }
  writeFileAtomic(join(folder, 'report.html'), reportHtml(inputs, drawn, skipped));
  files.push('report.html');
  return { files, drawn, skipped, wallSeconds: (performance.now() - started) / 1000 };
}

/** One line for the terminal: what was drawn, what was not and why, and the time it took. */
export function chartsWrittenLine(folder: string, written: ChartsWritten): string {
  const byReason = new Map<string, string[]>();
  for (const entry of written.skipped) byReason.set(entry.reason, [...(byReason.get(entry.reason) ?? []), entry.name]);
  const skipped = byReason.size === 0 ? '' : `; not drawn: ${[...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`).join('; ')}`;
  return `charts: ${written.drawn.length} in ${join(folder, 'charts')}/ (svg, png) and ${join(folder, 'report.html')} (${written.wallSeconds.toFixed(2)} s)${skipped}`;
}
