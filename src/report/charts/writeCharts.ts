import { join } from 'node:path';
import { writeFileAtomic } from '../writeAtomic.js';
import { readChartInputs, type ChartInputs } from './chartInputs.js';
import { isUserError, UserError } from '../../userError.js';
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
  // Everything is drawn before anything is written: a saved file that cannot be drawn leaves
  // the folder as it was, not half its charts redrawn.
  let rendered: { drawn: Chart[]; skipped: SkippedChart[]; contents: [string, string | Buffer][] };
  try {
    rendered = await renderAll(inputs);
  } catch (error) {
    if (isUserError(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const damaged = damagedKey(inputs);
    throw new UserError(
      `cannot draw the charts of ${folder}: its saved files are not as this version of cdnsim writes them (${damaged ?? reason}); nothing was changed. Run the scenario again to make them anew; if the files are as cdnsim wrote them, this is a bug: please report it`,
    );
  }
  for (const [file, content] of rendered.contents) writeFileAtomic(join(folder, file), content);
  const files = rendered.contents.map(([file]) => file);
  return { files, drawn: rendered.drawn, skipped: rendered.skipped, wallSeconds: (performance.now() - started) / 1000 };
}

/** The JSON files a folder's charts read, by the ChartInputs field that holds each. */
const JSON_FILES = { summary: 'summary.json', scenario: 'scenario.json', compare: 'compare.json', sweep: 'sweep.json' } as const;

/**
 * Where a saved JSON file that cannot be drawn is damaged, as "summary.json: latencyMs is
 * null": the charts are planned again (not rendered) on views of the files that note each
 * key read that held null or nothing; the last one before the failure is where the drawing
 * broke (a TypeError reading a property of it). Undefined when planning alone does not fail.
 */
function damagedKey(inputs: ChartInputs): string | undefined {
  let last: string | undefined;
  const watch = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    return new Proxy(value, {
      get(target, key, receiver) {
        const child: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || typeof child === 'function') return child;
        const at = Array.isArray(target) ? `${path}[${key}]` : path.endsWith(': ') ? `${path}${key}` : `${path}.${key}`;
        if (child === null || child === undefined) last = `${at} is ${child === null ? 'null' : 'missing'}`;
        return watch(child, at);
      },
    });
  };
  const watched: ChartInputs = { ...inputs };
  for (const [field, file] of Object.entries(JSON_FILES) as [keyof typeof JSON_FILES, string][]) {
    if (inputs[field] !== undefined) (watched as unknown as Record<string, unknown>)[field] = watch(inputs[field], `${file}: `);
  }
  try {
    const set = chartSet(watched);
    reportHtml(watched, set.filter(isChart), set.filter((entry): entry is SkippedChart => !isChart(entry)));
  } catch {
    return last;
  }
  return undefined;
}

async function renderAll(inputs: ChartInputs): Promise<{ drawn: Chart[]; skipped: SkippedChart[]; contents: [string, string | Buffer][] }> {
  const set = chartSet(inputs);
  const drawn = set.filter(isChart);
  const skipped = set.filter((entry): entry is SkippedChart => !isChart(entry));
  const contents: [string, string | Buffer][] = [];
  for (const chart of drawn) {
    const svg = await renderSvg(chart.spec);
    contents.push([`charts/${chart.name}.svg`, svg], [`charts/${chart.name}.png`, renderPng(svg)]);
  }
  contents.push(['report.html', reportHtml(inputs, drawn, skipped)]);
  return { drawn, skipped, contents };
}

/** One line for the terminal: what was drawn, what was not and why, and the time it took. */
export function chartsWrittenLine(folder: string, written: ChartsWritten): string {
  const byReason = new Map<string, string[]>();
  for (const entry of written.skipped) byReason.set(entry.reason, [...(byReason.get(entry.reason) ?? []), entry.name]);
  const skipped = byReason.size === 0 ? '' : `; not drawn: ${[...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`).join('; ')}`;
  return `charts: ${written.drawn.length} in ${join(folder, 'charts')}/ (svg, png) and ${join(folder, 'report.html')} (${written.wallSeconds.toFixed(2)} s)${skipped}`;
}
