import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for a whole `vitest run`: the config points TMPDIR of every test
 * worker (and so of every `cdnsim` the tests spawn) into it, and the global teardown removes
 * it, so `npm test` leaves no `cdnsim-*` folders in the system's temp folder.
 */
export const TEST_TEMP_FOLDER = join(tmpdir(), `cdnsim-tests-${process.pid}`);

const OWN_FOLDER = /^cdnsim-tests-(\d+)$/;

/** Whether process `pid` still runs (a signal 0 checks without sending anything). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `cdnsim-*` entries of the system temp folder other than the test runs' own folders. */
function strayEntries(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('cdnsim-') && !OWN_FOLDER.test(name));
}

export function setup(): () => void {
  // A run that was killed (Ctrl-C twice, a timeout) never reached its teardown: its folder goes now.
  for (const name of readdirSync(tmpdir())) {
    const match = OWN_FOLDER.exec(name);
    if (match !== null && Number(match[1]) !== process.pid && !running(Number(match[1]))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  mkdirSync(TEST_TEMP_FOLDER, { recursive: true });
  const before = new Set(strayEntries());
  return () => {
    rmSync(TEST_TEMP_FOLDER, { recursive: true, force: true });
    // A test that writes to the system temp folder past TMPDIR (a path computed before it was set) is named here.
    // A warning, not a failure: another process on the machine (a library build, a benchmark) may make such a folder meanwhile.
    const added = strayEntries().filter((name) => !before.has(name));
    if (added.length > 0) process.stderr.write(`warning: cdnsim-* entries appeared in ${tmpdir()} during the tests: ${added.slice(0, 10).join(', ')}\n`);
  };
}
