import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { nearest } from '../../suggest.js';
import { DEFAULT_BLOCK_BYTES, LineSplitter } from './lineSplitter.js';
import type { TraceBatch } from './traceBatch.js';
import { MissingFileError, TraceError, UnopenableFileError } from './traceError.js';
import type { SkippedRecord, TraceFormat, TraceReaderOptions } from './traceReader.js';

/** Skipped records kept with details; the rest are only counted. */
export const MAX_SKIPPED_DETAILS = 100;

/** What parseLine returns for a line that is not a request but not malformed either (blank, header). */
export const NOT_A_REQUEST = '';

const FORMAT_DESCRIPTIONS: Record<TraceFormat, string> = {
  oracleGeneral: 'a libCacheSim oracleGeneral binary trace',
  webcachesim: 'webcachesim text ("time id size" per line)',
  csv: 'a CSV trace',
  txt: 'a plain list of ids, one per line (txt)',
  clf: 'an access log in Common/Combined Log Format',
};

export function describeFormat(format: TraceFormat): string {
  return FORMAT_DESCRIPTIONS[format];
}

/** Opens a trace file for reading, or throws a TraceError that says what is wrong with the path. */
export function openTraceFile(file: string, what = 'trace file'): { fd: number; bytes: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw openError(file, error, what);
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) {
    closeSync(fd);
    throw new UnopenableFileError(`${file} is a directory, not ${withArticle(what)}`, file, `a directory, not ${withArticle(what)}`);
  }
  // A pipe or device has no size: progress is unknown then.
  return { fd, bytes: stat.isFile() ? stat.size : 0 };
}

/** "a trace file", "a HAR file", "an access log". */
function withArticle(what: string): string {
  return `${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}`;
}

function openError(file: string, error: unknown, what: string): TraceError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    let hint = '';
    try {
      const similar = nearest(basename(file), readdirSync(dirname(file)));
      if (similar !== undefined) hint = ` (did you mean ${similar}?)`;
    } catch {
      // The directory is missing too: nothing to suggest.
    }
    return new MissingFileError(file, hint, what);
  }
  if (code === 'EISDIR') return new UnopenableFileError(`${file} is a directory, not ${withArticle(what)}`, file, `a directory, not ${withArticle(what)}`);
  if (code === 'EACCES' || code === 'EPERM') return new UnopenableFileError(`cannot read ${file}: permission denied`, file, 'permission denied');
  // Node's message repeats the path ("ENAMETOOLONG: name too long, open '…'"): the reason without it, so a cut message keeps it.
  const reason = (error as Error).message.replace(/, \w+ '.*'$/s, '');
  return new UnopenableFileError(`cannot open ${file}: ${reason}`, file, reason);
}

/** The format the first bytes of a file look like, for "pass --format …" hints. */
export function sniffFile(file: string): TraceFormat | undefined {
  const { fd } = openTraceFile(file);
  try {
    const head = new Uint8Array(4096);
    const got = readSync(fd, head, 0, head.length, null);
    return guessFormat(head.subarray(0, got));
  } finally {
    closeSync(fd);
  }
}

/** True when the bytes contain no control characters other than tab, CR and LF. */
export function looksLikeText(head: Uint8Array): boolean {
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return false;
  }
  return true;
}

export function guessFormat(head: Uint8Array): TraceFormat | undefined {
  if (head.length === 0) return undefined;
  if (!looksLikeText(head)) return head.length >= 24 ? 'oracleGeneral' : undefined;
  let text = Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.split('\n').find((line) => line.trim() !== '');
  return firstLine === undefined ? undefined : guessLineFormat(firstLine.replace(/\r$/, ''));
}

const CLF_PREFIX = /^\S+ \S+ .*?\[\d{1,2}\/[A-Za-z]{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "/;
const DECIMAL = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const UNSIGNED = /^\d+$/;

/** The format one line of text looks like (a guess for error hints, not a parser). */
export function guessLineFormat(line: string): TraceFormat | undefined {
  if (CLF_PREFIX.test(line)) return 'clf';
  const fields = line.trim().split(/[ \t]+/);
  if (fields.length >= 3 && DECIMAL.test(fields[0]) && UNSIGNED.test(fields[1]) && UNSIGNED.test(fields[2])) return 'webcachesim';
  if (line.includes(',') || line.includes('\t')) return 'csv';
  if (fields.length === 1 && fields[0] !== '') return 'txt';
  return undefined;
}

/**
 * What every reader shares: the open file, the option checks, and the bookkeeping of
 * malformed records (skip up to `skipBad`, keep the first 100, throw on the one beyond).
 */
export abstract class TraceFileReader {
  abstract readonly hasNextAccess: boolean;
  abstract readonly hasSizes: boolean;
  readonly fileBytes: number;
  recordsRead = 0;
  skippedCount = 0;
  readonly skipped: SkippedRecord[] = [];
  protected readonly fd: number;
  protected closed = false;
  protected readonly skipBad: number;

  constructor(
    readonly file: string,
    readonly format: TraceFormat,
    options: TraceReaderOptions,
    /** What a malformed unit is called in messages: "line" or "record". */
    private readonly unit: string,
  ) {
    const skipBad = options.skipBad ?? 0;
    if (!(skipBad === Infinity || (Number.isInteger(skipBad) && skipBad >= 0))) {
      throw new TraceError(`--skip-bad must be a whole number ≥ 0, got ${skipBad}`, file);
    }
    this.skipBad = skipBad;
    const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
    if (!(Number.isInteger(blockBytes) && blockBytes >= 1)) throw new RangeError(`blockBytes must be a whole number ≥ 1, got ${blockBytes}`);
    const opened = openTraceFile(file);
    this.fd = opened.fd;
    this.fileBytes = opened.bytes;
  }

  objectName(_idLow: number, _idHigh: number): string | undefined {
    return undefined;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Runs a constructor step after the file is open, closing the file if it throws. */
  protected closingOnError<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /**
   * Skips a malformed record, or throws the TraceError when it is one more than `skipBad`
   * allows. `where` starts the message ("file:line", or record and byte offset); `hint`, if
   * any, is a sentence about the likely cause.
   */
  protected malformed(line: number, where: string, problem: string, hint = ''): void {
    if (this.skippedCount >= this.skipBad) {
      this.close();
      const unit = this.unit;
      const budget =
        this.skipBad === 0
          ? `Pass --skip-bad N to skip up to N malformed ${unit}s.`
          : `That is more than --skip-bad ${this.skipBad}: ${this.skippedCount} malformed ${unit}${this.skippedCount === 1 ? ' was' : 's were'} skipped before this one (the first at ${unit} ${this.skipped[0].line}).`;
      throw new TraceError(`${where}: ${problem}. ${hint}${budget}`, this.file, line);
    }
    this.skippedCount++;
    if (this.skipped.length < MAX_SKIPPED_DETAILS) this.skipped.push({ line, problem });
  }
}

/**
 * A text trace read line by line. Subclasses parse one line's bytes into batch entry `index`
 * and return undefined, or NOT_A_REQUEST for a line to pass over (blank, header), or a
 * description of what is wrong with it.
 */
export abstract class LineTraceReader extends TraceFileReader {
  protected readonly lines: LineSplitter;

  constructor(file: string, format: TraceFormat, options: TraceReaderOptions) {
    super(file, format, options, 'line');
    this.lines = this.closingOnError(() => new LineSplitter(this.fd, file, options.blockBytes ?? DEFAULT_BLOCK_BYTES));
    const head = this.lines.head(4096);
    if (head.includes(0)) {
      this.close();
      const hint = format === 'oracleGeneral' ? '' : ' (for a libCacheSim binary trace pass --format oracleGeneral)';
      throw new TraceError(`${file}: the file contains NUL bytes: it is binary, not ${describeFormat(format)}${hint}`, file);
    }
  }

  get bytesRead(): number {
    return this.lines.bytesConsumed;
  }

  next(batch: TraceBatch): number {
    if (this.closed) {
      batch.count = 0;
      return 0;
    }
    const lines = this.lines;
    const capacity = batch.capacity;
    let n = 0;
    try {
      while (n < capacity && lines.next()) {
        const problem = this.parseLine(lines.buffer, lines.start, lines.end, batch, n);
        if (problem === undefined) n++;
        else if (problem !== NOT_A_REQUEST) this.malformedLine(problem, n);
      }
    } catch (error) {
      this.close();
      throw error;
    }
    this.completeBatch(batch, n);
    batch.count = n;
    this.recordsRead += n;
    if (n < capacity) this.close();
    return n;
  }

  /** Fills the columns the format has no data for: by default next access, status, method. */
  protected completeBatch(batch: TraceBatch, n: number): void {
    batch.nextAccess.fill(NaN, 0, n);
    batch.status.fill(0, 0, n);
    batch.method.fill(0, 0, n);
  }

  protected abstract parseLine(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): string | undefined;

  private malformedLine(problem: string, decodedInBatch: number): void {
    const lines = this.lines;
    let hint = '';
    // A bad first request usually means a wrong format, not a bad line.
    if (this.recordsRead + decodedInBatch === 0 && this.skippedCount === 0) {
      const guess = guessLineFormat(lines.buffer.toString('utf8', lines.start, lines.end));
      if (guess !== undefined && guess !== this.format) hint = `It looks like ${describeFormat(guess)}: pass --format ${guess}. `;
    }
    this.malformed(lines.lineNumber, `${this.file}:${lines.lineNumber}`, problem, hint);
  }
}
