import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { echoValue, UserError } from '../userError.js';

/**
 * The one place where output paths are checked, before any work starts: a run that would
 * fail to write its results fails at once and leaves nothing behind.
 */

interface ExistingAncestor {
  /** The nearest part of the path that exists. */
  path: string;
  isDirectory: boolean;
}

function nearestExisting(path: string): ExistingAncestor {
  let current = resolve(path);
  for (;;) {
    try {
      const stats = statSync(current);
      return { path: current, isDirectory: stats.isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file further up; walking up finds it and says so.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new OutputPathProblem(current, reasonOf(error));
      const parent = dirname(current);
      if (parent === current) return { path: current, isDirectory: false };
      current = parent;
    }
  }
}

class OutputPathProblem extends Error {
  constructor(
    readonly at: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return code === 'EROFS' ? 'a read-only file system' : 'permission denied';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way';
  if (code === 'ENOENT') return 'it cannot be created there';
  return code ?? (error as Error).message;
}

/**
 * The folder `folder` can be written: it exists and takes a new file, or its nearest
 * existing ancestor is a folder that does. A probe file is written and removed, since
 * permission bits do not tell (a read-only mount, /proc, /sys).
 */
function checkWritableFolder(folder: string): void {
  const ancestor = nearestExisting(folder);
  if (!ancestor.isDirectory) throw new OutputPathProblem(ancestor.path, ancestor.path === resolve(folder) ? 'a file of that name is in the way' : 'a file is in the way');
  try {
    accessSync(ancestor.path, constants.W_OK);
    const probe = join(ancestor.path, `.cdnsim-probe-${process.pid}-${Date.now()}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new OutputPathProblem(ancestor.path, reasonOf(error));
  }
}

function problemMessage(what: string, path: string, problem: OutputPathProblem, flag: string): string {
  const where = problem.at === resolve(path) ? '' : ` (at '${echoValue(problem.at)}')`;
  return `${flag}: cannot ${what} '${echoValue(path)}': ${problem.reason}${where}. Choose another ${what.includes('folder') ? 'folder' : 'file'} with ${flag}.`;
}

/** A file that a command will write at the end (replay --out, schema --out). */
export function checkOutputFile(path: string, flag = '--out'): void {
  if (path.trim() === '') throw new UserError(`${flag}: expected a file path, found an empty string`);
  try {
    const target = nearestExisting(path);
    if (target.path === resolve(path)) {
      if (target.isDirectory) throw new OutputPathProblem(target.path, 'it is a folder; name a file inside it');
      accessSync(target.path, constants.W_OK);
    }
    checkWritableFolder(dirname(resolve(path)));
  } catch (error) {
    if (error instanceof OutputPathProblem) throw new UserError(problemMessage('write the file', path, error, flag));
    throw new UserError(problemMessage('write the file', path, new OutputPathProblem(resolve(path), reasonOf(error)), flag));
  }
}

/**
 * A run folder that `run` (or `compare`, `sweep`: their own `marker` file) will create when
 * it writes its results; it must not hold such results already.
 */
export function checkRunFolder(folder: string, flag = '--out', marker = 'summary.json'): void {
  if (folder.trim() === '') throw new UserError(`${flag}: expected a folder path, found an empty string`);
  try {
    checkWritableFolder(folder);
  } catch (error) {
    if (error instanceof OutputPathProblem) throw new UserError(problemMessage('create the run folder', folder, error, flag));
    throw error;
  }
  if (existsSync(join(folder, marker))) {
    throw new UserError(`${flag}: the folder '${echoValue(folder)}' already holds a run (${marker}); choose another folder, or remove it first.`);
  }
}

/**
 * Creates a folder checked by checkRunFolder, one level at a time: Node's recursive mkdir
 * never returns under some virtual file systems (/proc), and the check ran before.
 */
export function createCheckedFolder(folder: string): void {
  const missing: string[] = [];
  let current = resolve(folder);
  while (!existsSync(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing) mkdirSync(path);
}

/**
 * Creates a run folder checked by checkRunFolder and claims it for this process by creating
 * its `marker` file exclusively (the results then replace it, atomically). Two runs given the
 * same folder both pass the check at their start; the one that finishes second finds the
 * marker and stops with exit 2 instead of silently overwriting the first one's results.
 */
export function claimRunFolder(folder: string, flag = '--out', marker = 'summary.json'): void {
  createCheckedFolder(folder);
  try {
    closeSync(openSync(join(folder, marker), 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new UserError(
      `${flag}: another run wrote its results (${marker}) to '${echoValue(folder)}' while this one ran, so this run's results were not written; run it again with another ${flag}`,
    );
  }
}
