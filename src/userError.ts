/**
 * A mistake the user can fix (bad flag, invalid scenario, missing file). The CLI prints its
 * message without a stack trace and exits with code 2; anything else is a bug (exit 1).
 */
export class UserError extends Error {
  /**
   * Where in its input the mistake is, as keys and list indexes (`['pops', 'codes', 2]`),
   * when the code that found it knows: a caller that knows where that input came from (a
   * scenario file's `topology` section) turns it into a file, line and column.
   */
  readonly keyPath?: readonly (string | number)[];

  constructor(message: string, keyPath?: readonly (string | number)[]) {
    super(message);
    if (keyPath !== undefined) this.keyPath = keyPath;
    this.name = 'UserError';
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** Longest value a message quotes whole; longer ones are cut in the middle. */
export const MAX_ECHOED_CHARS = 80;

/**
 * A value as a message quotes it, cut to about `limit` characters: a 50 MB string pasted
 * into a scenario must not come back whole on the terminal.
 */
export function echoValue(text: string, limit: number = MAX_ECHOED_CHARS): string {
  if (text.length <= limit) return text;
  const keep = Math.max(8, Math.floor((limit - 1) / 2));
  return `${text.slice(0, keep)}…${text.slice(-keep)} (${text.length.toLocaleString('en-US')} characters)`;
}

/** Longest line of a user-error message the CLI prints; the rest of a longer line is cut. */
export const MAX_MESSAGE_LINE_CHARS = 400;
/** Most lines of one user-error message the CLI prints. */
export const MAX_MESSAGE_LINES = 60;

/**
 * A message bounded for the terminal, whatever its parts quoted: each line at most
 * MAX_MESSAGE_LINE_CHARS, at most MAX_MESSAGE_LINES lines.
 */
export function boundedMessage(message: string): string {
  const lines = message.split('\n');
  const shown = lines.slice(0, MAX_MESSAGE_LINES).map((line) => echoValue(line, MAX_MESSAGE_LINE_CHARS));
  if (lines.length > MAX_MESSAGE_LINES) shown.push(`… and ${lines.length - MAX_MESSAGE_LINES} more line(s)`);
  return shown.join('\n');
}
