import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../report/writeAtomic.js';
import type { Figures, LibraryEntry } from './libraryEntry.js';
import { commandLine, entryPaths, indexBlock, questionBlock, replaceBlock, resultsBlock } from './page.js';

/**
 * What `npm run library` writes for an entry: docs/library/<name>.json (the key figures,
 * compared exactly by the library test), the page's generated blocks and its charts.
 */

export interface PublishedFigures {
  readonly scenario: string;
  readonly command: string;
  readonly figures: Figures;
}

export function publishedDocument(entry: LibraryEntry, figures: Figures): PublishedFigures {
  return { scenario: entryPaths(entry.name).scenario, command: commandLine(entry), figures };
}

export function publishedJson(entry: LibraryEntry, figures: Figures): string {
  return `${JSON.stringify(publishedDocument(entry, figures), null, 2)}\n`;
}

export function readPublished(repo: string, entry: LibraryEntry): PublishedFigures {
  const file = join(repo, entryPaths(entry.name).figures);
  if (!existsSync(file)) throw new Error(`${entryPaths(entry.name).figures} is missing: run \`npm run library ${entry.name}\``);
  return JSON.parse(readFileSync(file, 'utf8')) as PublishedFigures;
}

/** The page with its question and results blocks filled from `figures`. */
export function renderedPage(repo: string, entry: LibraryEntry, figures: Figures): string {
  const file = entryPaths(entry.name).page;
  const text = readFileSync(join(repo, file), 'utf8');
  return replaceBlock(replaceBlock(text, 'question', questionBlock(entry), file), 'results', resultsBlock(entry, figures), file);
}

export function publishEntry(repo: string, entry: LibraryEntry, figures: Figures, chartFolder: string | undefined): void {
  const paths = entryPaths(entry.name);
  writeFileAtomic(join(repo, paths.figures), publishedJson(entry, figures));
  writeFileAtomic(join(repo, paths.page), renderedPage(repo, entry, figures));
  if (chartFolder === undefined) return;
  for (const chart of entry.charts) {
    writeFileAtomic(join(repo, paths.image(chart.file)), readFileSync(join(chartFolder, 'charts', chart.file)));
  }
}

export const LIBRARY_INDEX = 'docs/library/README.md';

export function renderedIndex(repo: string, entries: readonly LibraryEntry[]): string {
  return replaceBlock(readFileSync(join(repo, LIBRARY_INDEX), 'utf8'), 'index', indexBlock(entries), LIBRARY_INDEX);
}
