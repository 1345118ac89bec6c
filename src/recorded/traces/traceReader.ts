import { basename } from 'node:path';
import { nearest } from '../../suggest.js';
import { ClfReader } from './clfReader.js';
import { CsvReader } from './csvReader.js';
import { OracleGeneralReader } from './oracleGeneralReader.js';
import type { TraceBatch } from './traceBatch.js';
import { TraceError } from './traceError.js';
import { describeFormat, sniffFile } from './traceFile.js';
import { TxtReader } from './txtReader.js';
import { WebcachesimReader } from './webcachesimReader.js';

export { TraceError } from './traceError.js';

/**
 * Streaming readers for recorded request traces. Every reader reads its file synchronously in
 * large blocks (4 MiB) and decodes into a reusable TraceBatch, so memory stays constant
 * whatever the trace's length; the only state that grows is the string-id table of formats
 * whose ids are text (csv/txt with string ids, clf), one entry per distinct id.
 *
 * Formats:
 * - oracleGeneral: libCacheSim's binary format, 24-byte little-endian records
 *   `u32 time, u64 obj_id, u32 obj_size, i64 next_access_vtime` (libCacheSim,
 *   traceReader/customizedReader/oracle/oracleGeneralBin.h).
 * - webcachesim: text `time id size` per line (Berger et al.'s webcachesim; LRB's version
 *   appends extra feature columns, which are ignored).
 * - csv: columns chosen by the caller, 1-based as in libCacheSim's CSV reader.
 * - txt: one object id per line (libCacheSim's plain-text format).
 * - clf: Common/Combined Log Format access logs (Apache httpd, nginx).
 */
export type TraceFormat = 'oracleGeneral' | 'webcachesim' | 'csv' | 'txt' | 'clf';
export const TRACE_FORMATS: readonly TraceFormat[] = ['oracleGeneral', 'webcachesim', 'csv', 'txt', 'clf'];

/**
 * Where a CSV trace keeps its fields. Columns are 1-based, as in libCacheSim's CSV reader
 * (`time-col`, `obj-id-col`, `obj-size-col`, `has-header`, `delimiter`). Defaults:
 * - idColumn: found by the header's name (id, obj_id, object_id, key, obj, lbn, lba, url,
 *   path, …); without a header or a recognisable name it must be given, except in a
 *   one-column file.
 * - timeColumn: by header name (time, timestamp, ts, …), else none: then a request's time is
 *   its 0-based request index (one request per second of trace time).
 * - sizeColumn: by header name (size, obj_size, bytes, …), else none: every size is 1 byte,
 *   which only object-count mode makes meaningful.
 * - header: detected: the first line is a header when none of its fields is a number
 *   (libCacheSim compares digit and letter counts instead; a header of digits is rare).
 * - delimiter: ','. One character; '\t' and ' ' work too (every delimiter separates
 *   exactly one field: two in a row make an empty field, as in CSV).
 * Fields may be quoted with "…" ("" inside a quoted field is a quote), but a quoted field
 * cannot span lines.
 */
export interface CsvOptions {
  timeColumn?: number;
  idColumn: number;
  sizeColumn?: number;
  header: boolean;
  delimiter: string;
}

export interface TraceReaderOptions {
  /** The trace's format; default from the file name (formatFromFileName). */
  format?: TraceFormat;
  csv?: Partial<CsvOptions>;
  /** Malformed lines (or binary records) tolerated and skipped; default 0. Infinity allowed. */
  skipBad?: number;
  /**
   * How csv and txt ids are read. 'auto' (default): numeric (0 … 2^64−1, kept as the number)
   * when the first request's id is numeric, otherwise text interned to 0, 1, 2, …; the whole
   * file then has to follow the first id's kind, so that a numeric id can never collide with
   * an interned one. 'string' interns every id, digits included ("007" and "7" differ).
   */
  ids?: 'auto' | 'numeric' | 'string';
  /** Read-block size in bytes (default 4 MiB); tests shrink it to cut lines across blocks. */
  blockBytes?: number;
}

export interface SkippedRecord {
  /** 1-based line of a text trace, or the 0-based record index of a binary trace. */
  line: number;
  problem: string;
}

export interface TraceReader {
  readonly file: string;
  readonly format: TraceFormat;
  /** True only for oracleGeneral, whose records carry next_access_vtime. */
  readonly hasNextAccess: boolean;
  /**
   * False when the trace has no sizes (txt, csv without a size column): every request is
   * then 1 byte, and object-count mode is the meaningful mode.
   */
  readonly hasSizes: boolean;
  /**
   * Fills `batch` from the start (batch.count = n) and returns n; 0 at the end of the trace
   * (the file is closed then). Throws TraceError on the malformed record beyond `skipBad`;
   * the reader is closed then and the batch's content is unspecified.
   */
  next(batch: TraceBatch): number;
  /** Bytes consumed so far and the file's size (0 if unknown: a pipe), for a progress bar. */
  readonly bytesRead: number;
  readonly fileBytes: number;
  /** Requests delivered so far (skipped records not counted). */
  readonly recordsRead: number;
  /** The first 100 skipped records with details; `skippedCount` counts them all. */
  readonly skipped: readonly SkippedRecord[];
  readonly skippedCount: number;
  /**
   * The text of an interned string id (a URL for clf), or undefined for numeric ids: for
   * reports that name objects.
   */
  objectName?(idLow: number, idHigh: number): string | undefined;
  /** Closes the file; idempotent. `next` returns 0 afterwards. */
  close(): void;
}

/**
 * The format a file name implies: *.oracleGeneral.bin, *.oracleGeneral, *.bin →
 * oracleGeneral; *.tr, *.webcachesim → webcachesim; *.csv → csv; *.txt → txt; *.log and
 * names containing access.log (rotated logs: access.log.1) → clf, unless compressed (.gz,
 * .zst, …: undefined). Case-insensitive.
 */
export function formatFromFileName(file: string): TraceFormat | undefined {
  const name = basename(file).toLowerCase();
  if (name.endsWith('.oraclegeneral.bin') || name.endsWith('.oraclegeneral') || name.endsWith('.bin')) return 'oracleGeneral';
  if (name.endsWith('.tr') || name.endsWith('.webcachesim')) return 'webcachesim';
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.txt')) return 'txt';
  // Rotated logs keep the name with a suffix: access.log.1, access.log-20240101.
  if (name.endsWith('.log') || name.includes('access.log')) return COMPRESSED.test(name) ? undefined : 'clf';
  return undefined;
}

const COMPRESSED = /\.(zst|gz|bz2|xz|lz4)$/i;

/** Opens a trace for streaming (synchronously; the file is read block by block, never whole). */
export function openTrace(file: string, options: TraceReaderOptions = {}): TraceReader {
  const format = options.format ?? formatFromFileName(file);
  if (format === undefined) throw unknownFormat(file);
  if (!TRACE_FORMATS.includes(format)) {
    const suggestion = nearest(String(format), TRACE_FORMATS);
    throw new TraceError(
      `unknown trace format "${format}"${suggestion ? ` — did you mean ${suggestion}?` : ''} Formats: ${TRACE_FORMATS.join(', ')}.`,
      file,
    );
  }
  switch (format) {
    case 'oracleGeneral':
      return new OracleGeneralReader(file, options);
    case 'webcachesim':
      return new WebcachesimReader(file, options);
    case 'csv':
      return new CsvReader(file, options);
    case 'txt':
      return new TxtReader(file, options);
    case 'clf':
      return new ClfReader(file, options);
  }
}

const DECOMPRESSORS: Record<string, string> = { zst: 'zstd', gz: 'gzip', bz2: 'bzip2', xz: 'xz', lz4: 'lz4' };

function unknownFormat(file: string): TraceError {
  const formats = `pass --format with one of ${TRACE_FORMATS.join(', ')}`;
  const compressed = COMPRESSED.exec(file);
  if (compressed) {
    const tool = DECOMPRESSORS[compressed[1].toLowerCase()];
    const inner = formatFromFileName(file.slice(0, compressed.index));
    return new TraceError(
      `${file}: compressed traces are not read directly; decompress it first (${tool} -d ${file}), or stream it through a pipe: <(${tool} -dc ${file}) and ${inner ? `--format ${inner}` : formats}`,
      file,
    );
  }
  const guess = sniffFile(file); // throws TraceError for a missing file or a directory
  const hint = guess ? `it looks like ${describeFormat(guess)}: pass --format ${guess}` : formats;
  return new TraceError(`cannot tell the format of ${file} from its name; ${hint}`, file);
}
