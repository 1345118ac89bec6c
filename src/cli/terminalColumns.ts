import { DEFAULT_COLUMNS, MIN_COLUMNS } from '../report/consoleTable.js';

/**
 * The width the command's text is laid out for (issue 26): `COLUMNS` when set, else the
 * terminal's own width when stdout is one, else 100 (a pipe, a file, a CI log); never under
 * 80, where a table of figures stops being one.
 */
export function terminalColumns(env: NodeJS.ProcessEnv = process.env, stdout: { isTTY?: boolean; columns?: number } = process.stdout): number {
  const fromEnv = env.COLUMNS === undefined ? NaN : Number(env.COLUMNS);
  const asked = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : stdout.isTTY === true && (stdout.columns ?? 0) > 0 ? (stdout.columns as number) : DEFAULT_COLUMNS;
  return Math.max(MIN_COLUMNS, asked);
}
