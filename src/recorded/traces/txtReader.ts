import type { TraceBatch } from './traceBatch.js';
import { LineTraceReader, NOT_A_REQUEST } from './traceFile.js';
import type { TraceReaderOptions } from './traceReader.js';
import { IdField, isBlank, quoteLine } from './textFields.js';

/**
 * A plain list of object ids, one per line (libCacheSim's "txt" trace). Ids are numeric
 * (0 … 2^64−1) or text, as TraceReaderOptions.ids describes; leading and trailing blanks are
 * trimmed and blank lines skipped. A line with blanks inside is malformed: it is two fields,
 * usually another format read as txt.
 *
 * The format has no times and no sizes: a request's time is its 0-based index among the
 * requests (one request per second of trace time), and every size is 1 byte, so object-count
 * mode is the meaningful mode.
 */
export class TxtReader extends LineTraceReader {
  readonly hasNextAccess = false;
  readonly hasSizes = false;
  private readonly ids: IdField;

  constructor(file: string, options: TraceReaderOptions) {
    super(file, 'txt', options);
    this.ids = new IdField(options.ids ?? 'auto');
  }

  override objectName(idLow: number, idHigh: number): string | undefined {
    return this.ids.name(idLow, idHigh);
  }

  protected parseLine(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): string | undefined {
    let first = start;
    let last = end;
    while (first < last && isBlank(buffer[first])) first++;
    while (last > first && isBlank(buffer[last - 1])) last--;
    if (first === last) return NOT_A_REQUEST;
    for (let i = first; i < last; i++) {
      if (isBlank(buffer[i])) return `expected one id per line, found several fields: ${quoteLine(buffer, start, end)}`;
    }
    const problem = this.ids.store(buffer, first, last, batch, index);
    if (problem !== undefined) return problem;
    batch.timeSeconds[index] = this.recordsRead + index;
    batch.sizes[index] = 1;
    return undefined;
  }
}
