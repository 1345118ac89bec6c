import { resolve } from 'node:path';
import { writeFileAtomic } from '../report/writeAtomic.js';
import { LIBRARY_ENTRIES } from './entries/index.js';
import type { LibraryEntry } from './libraryEntry.js';
import { LIBRARY_INDEX, publishEntry, renderedIndex } from './publish.js';
import { withEntryOutput } from './runEntry.js';

/**
 * `npm run library [name…]`: runs every library scenario (or those named) through the built
 * CLI and regenerates its published figures, its page's generated blocks and its charts,
 * then the index. Two entries run at a time (the machines have two cores). Exits 1 when a
 * command fails or a page's conclusion no longer holds for the new figures (the figures
 * and pages are written either way, so the diff shows what moved).
 */

const REPO = resolve(import.meta.dirname, '../../..');
const PARALLEL = 2;

async function regenerate(entry: LibraryEntry): Promise<string[]> {
  const started = performance.now();
  const withCharts = entry.charts.length > 0;
  const figures = await withEntryOutput(REPO, entry, { charts: withCharts }, (folder, twinFolder, variantFolders) => {
    const found = entry.figures(folder, twinFolder, variantFolders);
    publishEntry(REPO, entry, found, withCharts ? folder : undefined);
    return found;
  });
  const failed = entry.conclusions(figures).filter((conclusion) => !conclusion.holds);
  process.stdout.write(`${entry.name}: ${((performance.now() - started) / 1000).toFixed(1)} s${failed.length > 0 ? `, ${failed.length} conclusion(s) no longer hold` : ''}\n`);
  return failed.map((conclusion) => `${entry.name}: no longer holds: ${conclusion.text}`);
}

async function main(names: readonly string[]): Promise<number> {
  const unknown = names.filter((name) => !LIBRARY_ENTRIES.some((entry) => entry.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`npm run library: no library scenario named ${unknown.join(', ')}; expected some of ${LIBRARY_ENTRIES.map((entry) => entry.name).join(', ')}\n`);
    return 2;
  }
  const chosen = names.length === 0 ? LIBRARY_ENTRIES : LIBRARY_ENTRIES.filter((entry) => names.includes(entry.name));
  const problems: string[] = [];
  const queue = [...chosen];
  const lanes = Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
    for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
      try {
        problems.push(...(await regenerate(entry)));
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
  });
  await Promise.all(lanes);
  writeFileAtomic(resolve(REPO, LIBRARY_INDEX), renderedIndex(REPO, LIBRARY_ENTRIES));
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) process.stderr.write('Rewrite the conclusions (src/library/entries/) where the model moved on purpose, then run npm run library again.\n');
  return problems.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
