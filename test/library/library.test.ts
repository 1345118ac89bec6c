import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY_ENTRIES } from '../../src/library/entries/index.js';
import type { LibraryEntry } from '../../src/library/libraryEntry.js';
import { blockOf, commandLine, entryPaths, indexBlock, questionBlock, replaceBlock, resultsBlock } from '../../src/library/page.js';
import { publishedDocument, readPublished, LIBRARY_INDEX } from '../../src/library/publish.js';
import { freshFigures } from '../../src/library/runEntry.js';

/**
 * The scenario library's published results are current (docs/library/README.md): each
 * scenario run afresh through the built CLI, at its own size, gives exactly the published
 * key figures; each page shows what its JSON says; every conclusion holds for them. After a
 * change that moves figures on purpose: `npm run library`, then review `git diff docs/library`.
 */
const REPO = resolve(import.meta.dirname, '../..');
const REGENERATE = 'if the change is meant, regenerate with `npm run library` and review `git diff docs/library`';

describe('scenario library (docs/library): published results', () => {
  for (const entry of LIBRARY_ENTRIES) {
    describe(entry.name, () => {
      it(`a fresh \`cdnsim ${entry.command.kind}\` of ${entryPaths(entry.name).scenario} gives exactly the published figures of ${entryPaths(entry.name).figures}`, async () => {
        const published = readPublished(REPO, entry);
        const fresh = publishedDocument(entry, await freshFigures(REPO, entry));
        expect(fresh, `${entryPaths(entry.name).figures} is not what a fresh run gives; ${REGENERATE}`).toEqual(published);
      });

      it(`${entryPaths(entry.name).page} shows the published figures, and every conclusion holds for them`, () => {
        const { figures } = readPublished(REPO, entry);
        const file = entryPaths(entry.name).page;
        const page = readFileSync(join(REPO, file), 'utf8');
        expect(blockOf(page, 'question', file), `${file}: ${REGENERATE}`).toBe(questionBlock(entry));
        expect(blockOf(page, 'results', file), `${file}: ${REGENERATE}`).toBe(resultsBlock(entry, figures));
        const failed = entry.conclusions(figures).filter((conclusion) => !conclusion.holds).map((conclusion) => conclusion.text);
        expect(failed, 'conclusions that no longer hold: rewrite them in src/library/entries/').toEqual([]);
      });
    });
  }

  it('docs/library/README.md indexes every library scenario', () => {
    const text = readFileSync(join(REPO, LIBRARY_INDEX), 'utf8');
    expect(blockOf(text, 'index', LIBRARY_INDEX)).toBe(indexBlock(LIBRARY_ENTRIES));
  });
});

describe('library pages: generated blocks', () => {
  it('replaceBlock replaces only what lies between the markers, and blockOf reads it back', () => {
    const page = 'intro\n<!-- library:results -->\nold\n<!-- /library:results -->\noutro\n';
    const replaced = replaceBlock(page, 'results', 'new | table', 'page.md');
    expect(replaced.startsWith('intro\n<!-- library:results -->\n')).toBe(true);
    expect(replaced.endsWith('<!-- /library:results -->\noutro\n')).toBe(true);
    expect(blockOf(replaced, 'results', 'page.md')).toBe('new | table');
    expect(replaceBlock(replaced, 'results', 'new | table', 'page.md')).toBe(replaced);
  });

  it('a page without the markers is an error naming the file and the markers', () => {
    expect(() => replaceBlock('no markers', 'results', 'x', 'docs/library/x.md')).toThrow(
      'docs/library/x.md: expected the markers <!-- library:results --> … <!-- /library:results --> around the generated results block',
    );
  });

  it('a plan with a twin shows both command lines, the twin\'s scenario with the same flags', () => {
    const entry: LibraryEntry = {
      name: 'a',
      title: 'A',
      question: 'Q?',
      command: { kind: 'plan', args: ['--edge-hit-ratio', '50%'], twin: 'a-zipf' },
      charts: [],
      figures: () => ({}),
      results: () => '',
      conclusions: () => [],
    };
    expect(commandLine(entry)).toBe('cdnsim plan scenarios/library/a.yaml --edge-hit-ratio 50%\ncdnsim plan scenarios/library/a-zipf.yaml --edge-hit-ratio 50%');
    expect(commandLine({ ...entry, command: { kind: 'plan', args: ['--edge-hit-ratio', '50%'] } })).toBe('cdnsim plan scenarios/library/a.yaml --edge-hit-ratio 50%');
  });

  it('a run with variants shows one command line per run, the entry\'s own first, then each variant\'s --set in order', () => {
    const entry: LibraryEntry = {
      name: 'b',
      title: 'B',
      question: 'Q?',
      command: { kind: 'run', variants: [['--set', 'content.classes[0].sharing=0'], ['--set', 'content.classes[0].sharing=100%']] },
      charts: [],
      figures: () => ({}),
      results: () => '',
      conclusions: () => [],
    };
    expect(commandLine(entry)).toBe("cdnsim run scenarios/library/b.yaml\ncdnsim run scenarios/library/b.yaml --set 'content.classes[0].sharing=0'\ncdnsim run scenarios/library/b.yaml --set 'content.classes[0].sharing=100%'");
    expect(commandLine({ ...entry, command: { kind: 'run' } })).toBe('cdnsim run scenarios/library/b.yaml');
  });
});
