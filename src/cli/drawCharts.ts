import { relative } from 'node:path';

/**
 * A run's charts and report.html (issue 15), from the files just written into `folder`, for
 * `run` (and the commands that print through it) and `replay`; the chart modules are loaded
 * only when drawn. Returns the line that names what was written.
 */
export async function drawCharts(folder: string): Promise<string> {
  const { chartsWrittenLine, writeCharts } = await import('../report/charts/writeCharts.js');
  return chartsWrittenLine(relative(process.cwd(), folder) || folder, await writeCharts(folder));
}
