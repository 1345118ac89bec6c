import { readSync } from 'node:fs';
import { DEFAULT_BLOCK_BYTES } from './lineSplitter.js';
import type { TraceBatch } from './traceBatch.js';
import { TraceError } from './traceError.js';
import { describeFormat, guessFormat, looksLikeText, TraceFileReader } from './traceFile.js';
import type { TraceReaderOptions } from './traceReader.js';

/** Bytes per record: u32 time, u64 obj_id, u32 obj_size, i64 next_access_vtime. */
export const ORACLE_GENERAL_RECORD_BYTES = 24;
const WORDS_PER_RECORD = 6;
const TWO_POW_32 = 4294967296;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * libCacheSim's oracleGeneral binary traces: little-endian 24-byte records
 * `u32 clock_time, u64 obj_id, u32 obj_size, i64 next_access_vtime`
 * (libCacheSim, traceReader/customizedReader/oracle/oracleGeneralBin.h).
 *
 * next_access_vtime is the position of the next request for the same object, counting
 * requests from 1 (the request at 0-based index i has vtime i + 1; checked on the
 * CloudPhysics sample, where every value is the 0-based index of the next request plus one),
 * or −1 when the object is not requested again. libCacheSim also reads INT64_MAX as "never";
 * so does this reader, writing −1 for both. Values are converted exactly below 2^53 (any
 * real trace); values below −1 are malformed.
 *
 * Decoding reads blocks of whole records into an aligned buffer and copies fields out of
 * 32-bit views of it, with no allocation per record (on big-endian hosts through a DataView).
 * Sizes are passed on as they are, zero included (libCacheSim can drop zero-size requests;
 * that is the replay engine's decision here).
 */
export class OracleGeneralReader extends TraceFileReader {
  readonly hasNextAccess = true;
  readonly hasSizes = true;
  private readonly block: Uint8Array;
  private readonly words: Uint32Array;
  private readonly signedWords: Int32Array;
  private readonly view: DataView;
  /** Bytes of `block` holding file data, and the first of them not yet decoded. */
  private filled = 0;
  private cursor = 0;
  /** File offset of block[0]. */
  private blockOffset = 0;
  private endOfFile = false;

  constructor(file: string, options: TraceReaderOptions) {
    super(file, 'oracleGeneral', options, 'record');
    const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
    const records = Math.max(1, Math.floor(blockBytes / ORACLE_GENERAL_RECORD_BYTES));
    this.block = new Uint8Array(records * ORACLE_GENERAL_RECORD_BYTES);
    this.words = new Uint32Array(this.block.buffer);
    this.signedWords = new Int32Array(this.block.buffer);
    this.view = new DataView(this.block.buffer);
    this.closingOnError(() => {
      this.fill();
      this.checkHead();
      // Fail fast on a truncated file instead of at its end, after a long replay.
      const partial = this.fileBytes % ORACLE_GENERAL_RECORD_BYTES;
      if (partial !== 0 && this.skipBad === 0) this.truncatedRecord(this.fileBytes - partial, partial);
    });
  }

  get bytesRead(): number {
    return this.blockOffset + this.cursor;
  }

  next(batch: TraceBatch): number {
    if (this.closed) {
      batch.count = 0;
      return 0;
    }
    const capacity = batch.capacity;
    const times = batch.timeSeconds;
    const idLow = batch.idLow;
    const idHigh = batch.idHigh;
    const sizes = batch.sizes;
    const nextAccess = batch.nextAccess;
    let n = 0;
    while (n < capacity) {
      if (this.filled - this.cursor < ORACLE_GENERAL_RECORD_BYTES) {
        if (this.endOfFile) {
          const partial = this.filled - this.cursor;
          if (partial > 0) {
            this.cursor = this.filled;
            this.truncatedRecord(this.blockOffset + this.filled - partial, partial);
          }
          break;
        }
        this.refill();
        continue;
      }
      const records = Math.min(((this.filled - this.cursor) / ORACLE_GENERAL_RECORD_BYTES) | 0, capacity - n);
      if (LITTLE_ENDIAN_HOST) {
        const words = this.words;
        const signedWords = this.signedWords;
        let w = this.cursor >>> 2;
        for (let r = 0; r < records; r++, w += WORDS_PER_RECORD) {
          const nextLow = words[w + 4];
          const nextHigh = signedWords[w + 5];
          let next = nextHigh * TWO_POW_32 + nextLow;
          if (next < 0 || nextHigh === 0x7fffffff) {
            if (next === -1 || (nextHigh === 0x7fffffff && nextLow === 0xffffffff)) next = -1;
            else {
              this.badNextAccess(this.cursor + r * ORACLE_GENERAL_RECORD_BYTES, next);
              continue;
            }
          }
          times[n] = words[w];
          idLow[n] = words[w + 1];
          idHigh[n] = words[w + 2];
          sizes[n] = words[w + 3];
          nextAccess[n] = next;
          n++;
        }
      } else {
        const view = this.view;
        let offset = this.cursor;
        for (let r = 0; r < records; r++, offset += ORACLE_GENERAL_RECORD_BYTES) {
          const nextLow = view.getUint32(offset + 16, true);
          const nextHigh = view.getInt32(offset + 20, true);
          let next = nextHigh * TWO_POW_32 + nextLow;
          if (next < 0 || nextHigh === 0x7fffffff) {
            if (next === -1 || (nextHigh === 0x7fffffff && nextLow === 0xffffffff)) next = -1;
            else {
              this.badNextAccess(offset, next);
              continue;
            }
          }
          times[n] = view.getUint32(offset, true);
          idLow[n] = view.getUint32(offset + 4, true);
          idHigh[n] = view.getUint32(offset + 8, true);
          sizes[n] = view.getUint32(offset + 12, true);
          nextAccess[n] = next;
          n++;
        }
      }
      this.cursor += records * ORACLE_GENERAL_RECORD_BYTES;
    }
    batch.status.fill(0, 0, n);
    batch.method.fill(0, 0, n);
    batch.count = n;
    this.recordsRead += n;
    if (n < capacity) this.close();
    return n;
  }

  /** A text file named or passed as oracleGeneral: say which format it looks like. */
  private checkHead(): void {
    const head = this.block.subarray(0, Math.min(this.filled, 512));
    if (head.length === 0 || !looksLikeText(head) || !head.includes(10)) return;
    const guess = guessFormat(head);
    const hint = guess !== undefined && guess !== 'oracleGeneral' ? `; it looks like ${describeFormat(guess)}: pass --format ${guess}` : '';
    throw new TraceError(`${this.file}: expected ${describeFormat('oracleGeneral')} (24-byte binary records), found text${hint}`, this.file, 0);
  }

  private badNextAccess(blockByte: number, value: number): void {
    const offset = this.blockOffset + blockByte;
    const record = offset / ORACLE_GENERAL_RECORD_BYTES;
    this.malformed(record, this.where(record, offset), `next_access_vtime is ${value}; expected the index of the next request or −1`);
  }

  private truncatedRecord(offset: number, bytes: number): void {
    const record = Math.floor(offset / ORACLE_GENERAL_RECORD_BYTES);
    this.malformed(
      record,
      this.where(record, offset),
      `truncated record: expected ${ORACLE_GENERAL_RECORD_BYTES} bytes, found ${bytes} before the end of the file (a partial copy or download?)`,
    );
  }

  private where(record: number, offset: number): string {
    return `${this.file}: record ${record} (byte offset ${offset})`;
  }

  /** Moves the partial record left in the block to its front and reads after it. */
  private refill(): void {
    const pending = this.filled - this.cursor;
    if (pending > 0) this.block.copyWithin(0, this.cursor, this.filled);
    this.blockOffset += this.cursor;
    this.cursor = 0;
    this.filled = pending;
    this.fill();
  }

  private fill(): void {
    const block = this.block;
    while (this.filled < block.length) {
      const got = readSync(this.fd, block, this.filled, block.length - this.filled, null);
      if (got === 0) {
        this.endOfFile = true;
        return;
      }
      this.filled += got;
    }
  }
}
