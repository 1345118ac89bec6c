import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LINES } from '../../src/cli/commandLines.js';
import { cdnsim, REPO } from './helpers.js';

/**
 * The CLI's start-up (docs/development.md, "Lazy commands"): main.ts imports a command's module
 * only when that command runs, so `--version`, `--help` and `explain` do not load the simulator,
 * zod or the charts. Read from the source's static imports (`import type` is erased; `import()`
 * is lazy), so the test costs milliseconds and no build.
 */

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** Every module `entry` loads before its first line runs: local files by path, packages by name. */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [resolve(REPO, entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.')) pending.push(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier.startsWith('node:') ? specifier : specifier.split('/')[0] as string);
    }
  }
  return { files: [...files].map((file) => relative(REPO, file)).sort(), packages: [...packages].sort() };
}

describe('cdnsim start-up: lazy command modules', () => {
  const closure = staticClosure('src/cli/main.ts');

  it('main.ts loads no command module, no scenario schema and no simulator at start', () => {
    expect(closure.files.filter((file) => file.startsWith('src/cli/commands/'))).toEqual([]);
    expect(closure.files.filter((file) => /^src\/(scenario|experiment|cdn|sim|workload|charts)\//.test(file))).toEqual([]);
  });

  it('main.ts loads no zod, yaml or chart package at start: yargs is the only package', () => {
    expect(closure.packages.filter((name) => !name.startsWith('node:'))).toEqual(['yargs']);
  });

  it('the usage lines in commandLines.ts are the ones --help lists, one per command, in order', () => {
    const help = cdnsim(['--help']);
    expect(help.status).toBe(0);
    const listed = help.stdout.split('\n').filter((line) => line.startsWith('  cdnsim ')).map((line) => line.slice('  cdnsim '.length).split(/\s{2,}/)[0]);
    expect(listed).toEqual(Object.values(COMMAND_LINES).map((line) => line.command));
  });
});
