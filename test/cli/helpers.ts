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

export function cdnsim(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
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
