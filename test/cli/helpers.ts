import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');
/** The built CLI (npm test builds before running vitest). */
export const CLI = join(REPO, 'dist/src/cli/main.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as a user runs it, in a pipe: laid out for 100 columns unless `columns` gives the
 * terminal's width (COLUMNS), as a test of a line's whole content does with a wide one.
 */
export function cdnsim(args: string[], options: { cwd?: string; timeoutMs?: number; columns?: number } = {}): CliResult {
  const { COLUMNS: _inherited, ...env } = process.env;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO,
    encoding: 'utf8',
    // The runner's own COLUMNS (an exported shell variable) must not change what a test sees.
    env: { ...env, FORCE_COLOR: '0', ...(options.columns === undefined ? {} : { COLUMNS: String(options.columns) }) },
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function temporaryFolder(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cdnsim-${prefix}-`));
}

/** A user mistake: exit 2, a message, and nothing that looks like a stack trace. */
export function expectNoStackTrace(text: string): boolean {
  return !/\n\s+at .+\(.+:\d+:\d+\)/.test(text) && !/\n\s+at file:/.test(text);
}
