import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A run id that sorts by start time: `20261121-112233-seed42`, with `-2`, `-3`… if taken;
 * `prefix` names other kinds of results (`compare-`, `sweep-`).
 */
export function newRunFolder(resultsRoot: string, scenarioName: string, seed: number, startedAt: Date, prefix = ''): { runId: string; folder: string } {
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const base = `${prefix}${stamp}-seed${seed}`;
  for (let attempt = 1; ; attempt++) {
    const runId = attempt === 1 ? base : `${base}-${attempt}`;
    const folder = join(resultsRoot, scenarioName, runId);
    if (!existsSync(folder)) return { runId, folder };
  }
}
