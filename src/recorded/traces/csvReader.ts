import type { TraceBatch } from './traceBatch.js';
import { TraceError } from './traceError.js';
import { LineTraceReader, NOT_A_REQUEST } from './traceFile.js';
import type { CsvOptions, TraceReaderOptions } from './traceReader.js';
import { describeBadSize, describeBadTime, IdField, parseDecimal, parseUnsigned, quoteLine } from './textFields.js';

const QUOTE = 34;
const SPACE = 32;
const TAB = 9;

/**
 * Header names that identify a column when the caller does not give its number (lowercase,
 * with '-' and ' ' read as '_'). `lbn`/`lba` are block traces' logical block numbers (the
 * CloudPhysics and MSR traces), `url`/`path` web logs'.
 */
const ID_NAMES = ['id', 'obj_id', 'object_id', 'objid', 'key', 'obj', 'object', 'lbn', 'lba', 'block', 'url', 'uri', 'path'];
const TIME_NAMES = ['time', 'timestamp', 'ts', 'clock_time', 'real_time', 'time_s', 'seconds'];
const SIZE_NAMES = ['size', 'obj_size', 'object_size', 'bytes', 'size_bytes', 'length', 'len', 'req_size'];

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A header cell as a name: unquoted, trimmed, lowercase, '-' and ' ' as '_'. */
function normaliseName(cell: string): string {
  return cell
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
}

/** Splits a line for the header checks at open (not the hot path: quotes are merely stripped). */
function splitCells(line: string, delimiter: string): string[] {
  return line.split(delimiter).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
}

function columnOption(file: string, name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new TraceError(`${file}: csv ${name} must be a column number ≥ 1 (columns are 1-based), got ${value}`, file);
  return value;
}

/**
 * CSV traces with the columns the caller names, 1-based as libCacheSim's CSV reader
 * (traceReader/generalReader/csv.c) takes them; CsvOptions documents the defaults. The id
 * column is numeric (0 … 2^64−1) or text, per TraceReaderOptions.ids; without a time column
 * a request's time is its 0-based index among the requests, and without a size column every
 * size is 1 byte. Fields may be quoted; blanks around fields are trimmed (unless the
 * delimiter is a blank). Blank lines are skipped.
 */
export class CsvReader extends LineTraceReader {
  readonly hasNextAccess = false;
  readonly hasSizes: boolean;
  readonly options: Readonly<CsvOptions>;
  private readonly ids: IdField;
  private readonly delimiter: number;
  private readonly trim: boolean;
  private readonly timeColumn: number;
  private readonly idColumn: number;
  private readonly sizeColumn: number;
  private readonly lastColumn: number;
  private readonly columnNames: readonly string[] | undefined;

  constructor(file: string, options: TraceReaderOptions) {
    const csv = options.csv ?? {};
    const delimiter = csv.delimiter ?? ',';
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r' || delimiter.charCodeAt(0) > 127) {
      throw new TraceError(`${file}: the csv delimiter must be one ASCII character other than a quote or a line break, got ${JSON.stringify(delimiter)}`, file);
    }
    const timeOption = columnOption(file, 'timeColumn', csv.timeColumn);
    const idOption = columnOption(file, 'idColumn', csv.idColumn);
    const sizeOption = columnOption(file, 'sizeColumn', csv.sizeColumn);
    super(file, 'csv', options);
    this.delimiter = delimiter.charCodeAt(0);
    this.trim = delimiter !== ' ' && delimiter !== '\t';
    this.ids = new IdField(options.ids ?? 'auto');

    const firstLine = this.firstLineText();
    const firstCells = splitCells(firstLine, delimiter);
    const header = csv.header ?? (firstLine.trim() !== '' && !firstCells.some((cell) => NUMBER.test(cell)));
    this.columnNames = header ? firstCells : undefined;
    const names = header ? firstCells.map(normaliseName) : [];
    const byName = (candidates: readonly string[]): number | undefined => {
      for (const candidate of candidates) {
        const index = names.indexOf(candidate);
        if (index >= 0) return index + 1;
      }
      return undefined;
    };
    const timeColumn = timeOption ?? byName(TIME_NAMES);
    const sizeColumn = sizeOption ?? byName(SIZE_NAMES);
    const idColumn = idOption ?? byName(ID_NAMES) ?? (firstCells.length === 1 && firstLine.trim() !== '' ? 1 : undefined);
    if (idColumn === undefined) {
      this.close();
      const columns = header
        ? `the header's columns are ${firstCells.map((name, i) => `${i + 1} ${name}`).join(', ')}`
        : `the first line has ${firstCells.length} columns: ${JSON.stringify(firstLine.slice(0, 100))}`;
      throw new TraceError(`${file}: which CSV column holds the object id? Set the csv idColumn option (1-based); ${columns}`, file);
    }
    if (header) {
      for (const [name, column] of [['timeColumn', timeColumn], ['idColumn', idColumn], ['sizeColumn', sizeColumn]] as const) {
        if (column !== undefined && column > firstCells.length) {
          this.close();
          throw new TraceError(`${file}: csv ${name} is ${column}, but the header has ${firstCells.length} columns (${firstCells.join(', ')})`, file);
        }
      }
    }
    this.timeColumn = timeColumn ?? 0;
    this.idColumn = idColumn;
    this.sizeColumn = sizeColumn ?? 0;
    this.lastColumn = Math.max(this.timeColumn, this.idColumn, this.sizeColumn);
    this.hasSizes = sizeColumn !== undefined;
    this.options = { timeColumn, idColumn, sizeColumn, header, delimiter };
  }

  override objectName(idLow: number, idHigh: number): string | undefined {
    return this.ids.name(idLow, idHigh);
  }

  /** The first line as text, from the block the line splitter has already read. */
  private firstLineText(): string {
    const head = this.lines.head(1 << 16);
    let start = 0;
    if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3;
    let end = head.indexOf(10, start);
    if (end < 0) end = head.length;
    if (end > start && head[end - 1] === 13) end--;
    return Buffer.from(head.buffer, head.byteOffset + start, end - start).toString('utf8');
  }

  protected parseLine(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): string | undefined {
    if (this.lines.lineNumber === 1 && this.columnNames !== undefined) return NOT_A_REQUEST;
    const delimiter = this.delimiter;
    const trim = this.trim;
    const lastColumn = this.lastColumn;
    let timeStart = 0;
    let timeEnd = 0;
    let idStart = 0;
    let idEnd = 0;
    let idEscaped = false;
    let sizeStart = 0;
    let sizeEnd = 0;
    let column = 1;
    let i = start;
    while (i < end && (buffer[i] === SPACE || buffer[i] === TAB)) i++;
    if (i === end) return NOT_A_REQUEST;
    if (!trim) i = start;
    for (;;) {
      if (trim) while (i < end && (buffer[i] === SPACE || buffer[i] === TAB)) i++;
      let fieldStart = i;
      let fieldEnd: number;
      let escaped = false;
      if (i < end && buffer[i] === QUOTE) {
        i++;
        fieldStart = i;
        for (;;) {
          if (i >= end) return `unterminated quoted field in column ${column}: ${quoteLine(buffer, start, end)}`;
          if (buffer[i] === QUOTE) {
            if (i + 1 < end && buffer[i + 1] === QUOTE) {
              escaped = true;
              i += 2;
              continue;
            }
            break;
          }
          i++;
        }
        fieldEnd = i;
        i++;
        if (trim) while (i < end && (buffer[i] === SPACE || buffer[i] === TAB)) i++;
        if (i < end && buffer[i] !== delimiter) return `text after the closing quote of column ${column}: ${quoteLine(buffer, start, end)}`;
      } else {
        while (i < end && buffer[i] !== delimiter) i++;
        fieldEnd = i;
        if (trim) while (fieldEnd > fieldStart && (buffer[fieldEnd - 1] === SPACE || buffer[fieldEnd - 1] === TAB)) fieldEnd--;
      }
      if (column === this.idColumn) {
        idStart = fieldStart;
        idEnd = fieldEnd;
        idEscaped = escaped;
      }
      if (column === this.timeColumn) {
        timeStart = fieldStart;
        timeEnd = fieldEnd;
      }
      if (column === this.sizeColumn) {
        sizeStart = fieldStart;
        sizeEnd = fieldEnd;
      }
      if (column === lastColumn) break;
      if (i >= end) return this.missingColumns(buffer, start, end, column);
      i++; // the delimiter
      column++;
    }

    if (this.timeColumn !== 0) {
      const time = parseDecimal(buffer, timeStart, timeEnd);
      if (time !== time) return `column ${this.timeColumn}: ${describeBadTime(buffer, timeStart, timeEnd)}`;
      batch.timeSeconds[index] = time;
    } else {
      batch.timeSeconds[index] = this.recordsRead + index;
    }
    if (this.sizeColumn !== 0) {
      const size = parseUnsigned(buffer, sizeStart, sizeEnd);
      if (size !== size) return `column ${this.sizeColumn}: ${describeBadSize(buffer, sizeStart, sizeEnd)}`;
      batch.sizes[index] = size;
    } else {
      batch.sizes[index] = 1;
    }
    // The id last: a line rejected for its time or size must not take an interned number.
    const idProblem = this.ids.store(buffer, idStart, idEnd, batch, index, idEscaped);
    if (idProblem !== undefined) return `column ${this.idColumn}: ${idProblem}`;
    return undefined;
  }

  private missingColumns(buffer: Buffer, start: number, end: number, found: number): string {
    const wanted: string[] = [];
    if (this.timeColumn > found) wanted.push(`time in column ${this.timeColumn}`);
    if (this.idColumn > found) wanted.push(`id in column ${this.idColumn}`);
    if (this.sizeColumn > found) wanted.push(`size in column ${this.sizeColumn}`);
    let hint = '';
    const delimiter = String.fromCharCode(this.delimiter);
    for (const other of [',', '\t', ';', '|', ' ']) {
      if (other !== delimiter && buffer.subarray(start, end).includes(other.charCodeAt(0))) {
        hint = ` (the delimiter is ${JSON.stringify(delimiter)}; is it ${JSON.stringify(other)}?)`;
        break;
      }
    }
    return `expected ${this.lastColumn} columns (${wanted.join(', ')}), found ${found}: ${quoteLine(buffer, start, end)}${hint}`;
  }
}

