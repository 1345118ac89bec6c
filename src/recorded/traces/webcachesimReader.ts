import type { TraceBatch } from './traceBatch.js';
import { LineTraceReader, NOT_A_REQUEST } from './traceFile.js';
import type { TraceReaderOptions } from './traceReader.js';
import { describeBadNumericId, describeBadSize, describeBadTime, isBlank, parseDecimal, parseId64, parseUnsigned, quoteLine } from './textFields.js';

/**
 * webcachesim's text format: `time id size` per line, fields separated by spaces or tabs
 * (Berger, Sitaraman and Harchol-Balter, "AdaptSize", NSDI 2017, and the webcachesim
 * simulator). Times are seconds and may be fractional; ids are numbers 0 … 2^64−1, kept
 * exactly; sizes are whole bytes. LRB's webcachesim fork (Song et al., NSDI 2020) appends
 * extra feature columns after the size: they are ignored. Blank lines are skipped.
 */
export class WebcachesimReader extends LineTraceReader {
  readonly hasNextAccess = false;
  readonly hasSizes = true;

  constructor(file: string, options: TraceReaderOptions) {
    super(file, 'webcachesim', options);
  }

  protected parseLine(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): string | undefined {
    let i = start;
    while (i < end && isBlank(buffer[i])) i++;
    if (i === end) return NOT_A_REQUEST;
    const timeStart = i;
    while (i < end && !isBlank(buffer[i])) i++;
    const timeEnd = i;
    while (i < end && isBlank(buffer[i])) i++;
    const idStart = i;
    while (i < end && !isBlank(buffer[i])) i++;
    const idEnd = i;
    while (i < end && isBlank(buffer[i])) i++;
    const sizeStart = i;
    while (i < end && !isBlank(buffer[i])) i++;
    const sizeEnd = i;
    if (sizeStart === sizeEnd) {
      const found = idStart === idEnd ? 1 : 2;
      return `expected 3 fields "time id size", found ${found}: ${quoteLine(buffer, start, end)}`;
    }
    const time = parseDecimal(buffer, timeStart, timeEnd);
    if (time !== time) return describeBadTime(buffer, timeStart, timeEnd);
    if (!parseId64(buffer, idStart, idEnd, batch, index)) return describeBadNumericId(buffer, idStart, idEnd);
    const size = parseUnsigned(buffer, sizeStart, sizeEnd);
    if (size !== size) return describeBadSize(buffer, sizeStart, sizeEnd);
    batch.timeSeconds[index] = time;
    batch.sizes[index] = size;
    return undefined;
  }
}
