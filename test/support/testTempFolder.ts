import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for a whole `vitest run`: the config points TMPDIR of every test
 * worker (and so of every `cdnsim` the tests spawn) into it, and the global teardown removes
 * it, so `npm test` leaves no `cdnsim-*` folders in the system's temp folder.
 */
export const TEST_TEMP_FOLDER = join(tmpdir(), `cdnsim-tests-${process.pid}`);

export function setup(): () => void {
  mkdirSync(TEST_TEMP_FOLDER, { recursive: true });
  return () => rmSync(TEST_TEMP_FOLDER, { recursive: true, force: true });
}
