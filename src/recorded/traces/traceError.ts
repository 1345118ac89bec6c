import { UserError } from '../../userError.js';

/**
 * A trace the user has to fix or describe better: a missing file, an unknown format, a
 * malformed record. The message names the file and the line (or, for binary traces, the
 * record index and byte offset), what was expected and what was found, and a fix where one
 * exists. Import it from traceReader.ts; it lives here only so that the reader modules can
 * throw it without an import cycle through openTrace.
 */
export class TraceError extends UserError {
  constructor(
    message: string,
    readonly file: string,
    /** 1-based line of a text trace, or the 0-based record index of a binary trace. */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'TraceError';
  }
}

/** The file is not there. `hint` is ` (did you mean x?)` when a similar name is, else ''. */
export class MissingFileError extends TraceError {
  constructor(
    file: string,
    readonly hint: string,
    /** What the file was to be, for the message: "trace file", "HAR file", "access log". */
    what = 'trace file',
  ) {
    super(`${what} not found: ${file}${hint}`, file);
  }
}

/** The file could not be opened for another reason (a name too long, no permission, a folder): the path is at fault, not the content. */
export class UnopenableFileError extends TraceError {
  constructor(
    message: string,
    file: string,
    /** The reason alone, for a message that names the file its own way. */
    readonly reason: string,
  ) {
    super(message, file);
  }
}
