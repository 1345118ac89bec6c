import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figures, LibraryEntry } from './libraryEntry.js';
import { entryPaths, entryRuns } from './page.js';

/**
 * Runs a library entry's command through the built CLI (`dist/src/cli/main.js`, as a user
 * runs it) into a temporary folder (and, for a plan with a twin, the twin's into a second
 * one; for a run with variants, each variant's run of the same scenario into one of its
 * own), and hands the folders to `use` before removing them.
 */
export async function withEntryOutput<T>(repo: string, entry: LibraryEntry, options: { charts: boolean }, use: (folder: string, twinFolder?: string, variantFolders?: readonly string[]) => T): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), `cdnsim-library-${entry.name}-`));
  const folder = join(scratch, 'out');
  const [own, ...further] = entryRuns(entry);
  try {
    await runCommand(repo, entry, own, folder, options);
    const furtherFolders = further.map((_, i) => join(scratch, `further-${i}`));
    // A twin's or a variant's charts are not published (LibraryEntry.charts names the entry's own).
    for (const [i, run] of further.entries()) await runCommand(repo, entry, run, furtherFolders[i], { charts: false });
    if (further.length === 0) return use(folder);
    return entry.command.kind === 'plan' ? use(folder, furtherFolders[0]) : use(folder, undefined, furtherFolders);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A fresh run's key figures. */
export function freshFigures(repo: string, entry: LibraryEntry, options: { charts: boolean } = { charts: false }): Promise<Figures> {
  return withEntryOutput(repo, entry, options, (folder, twinFolder, variantFolders) => entry.figures(folder, twinFolder, variantFolders));
}

/** One of the entry's runs (entryRuns): the command on `scenarios/library/<scenario>.yaml` with its arguments, into `folder`. */
async function runCommand(repo: string, entry: LibraryEntry, run: { scenario: string; args: readonly string[] }, folder: string, options: { charts: boolean }): Promise<void> {
  const args = [join(repo, 'dist/src/cli/main.js'), entry.command.kind, entryPaths(run.scenario).scenario, ...run.args, '--out', folder, '--no-progress'];
  if (!options.charts) args.push('--no-charts');
  const { status, stderr } = await runNode(args, repo);
  if (status !== 0) throw new Error(`library ${entry.name}: \`cdnsim ${args.slice(1).join(' ')}\` exited ${status}:\n${stderr.trim()}`);
}

function runNode(args: readonly string[], cwd: string): Promise<{ status: number | string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // stdout is the command's report, not needed: the figures come from the output folder.
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ status: code ?? signal ?? 'unknown', stderr }));
  });
}
