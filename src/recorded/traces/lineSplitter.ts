import { readSync } from 'node:fs';
import { TraceError } from './traceError.js';

/** Default read block: large enough that the per-read system-call cost vanishes. */
export const DEFAULT_BLOCK_BYTES = 4 << 20;
/**
 * Longest line accepted. Real trace and access-log lines are well under 64 KiB (servers cap
 * request lines at 8–64 KiB); a longer "line" means a binary file read as text, and refusing
 * it keeps memory constant instead of buffering the whole file in search of a newline.
 */
export const MAX_LINE_BYTES = 1 << 20;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/**
 * Splits a file into lines while reading it in large blocks: the reader parses each line in
 * place, as bytes, from `buffer[start, end)` (no string per line). A line cut by a block
 * boundary is moved to the front of the buffer before the next block is read after it.
 * Lines end at \n; a \r before it is dropped (files written on Windows); the last line may
 * lack its \n. A UTF-8 byte-order mark at the start of the file is skipped.
 */
export class LineSplitter {
  buffer: Buffer;
  /** The current line: bytes [start, end) of `buffer`, without its line ending. */
  start = 0;
  end = 0;
  /** 1-based number of the current line in the file. */
  lineNumber = 0;
  private filled = 0;
  /** Start of the first unconsumed byte in `buffer`. */
  private cursor = 0;
  /** File offset of buffer[0]. */
  private bufferOffset = 0;
  private endOfFile = false;

  constructor(
    private readonly fd: number,
    private readonly file: string,
    blockBytes = DEFAULT_BLOCK_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(Math.max(16, blockBytes));
    this.fill();
    if (this.filled >= 3 && this.buffer[0] === 0xef && this.buffer[1] === 0xbb && this.buffer[2] === 0xbf) this.cursor = 3;
  }

  /** Bytes of the file consumed: the start of the next line, for a progress bar. */
  get bytesConsumed(): number {
    return this.bufferOffset + this.cursor;
  }

  /** The first bytes of the file as read so far (for sniffing binary content at open). */
  head(maxBytes: number): Uint8Array {
    return this.buffer.subarray(0, Math.min(maxBytes, this.filled));
  }

  /** Advances to the next line; false at the end of the file. */
  next(): boolean {
    let buffer = this.buffer;
    let i = this.cursor;
    for (;;) {
      const filled = this.filled;
      // Buffer.indexOf (memchr) beats a byte loop even on 20-byte lines, and by far on
      // access-log lines. Bytes past `filled` are stale: a match there counts as none.
      const found = buffer.indexOf(NEWLINE, i);
      i = found < 0 || found > filled ? filled : found;
      if (i < filled) {
        this.emit(i);
        this.cursor = i + 1;
        return true;
      }
      if (this.endOfFile) {
        if (this.cursor >= filled) return false;
        this.emit(filled);
        this.cursor = filled;
        return true;
      }
      if (filled - this.cursor > MAX_LINE_BYTES) this.tooLong();
      const scanned = filled - this.cursor;
      this.compact();
      this.fill();
      buffer = this.buffer;
      i = scanned;
    }
  }

  private tooLong(): never {
    const line = this.lineNumber + 1;
    throw new TraceError(
      `${this.file}:${line}: line is longer than ${MAX_LINE_BYTES >> 20} MiB; this does not look like a text trace (for a libCacheSim binary trace pass --format oracleGeneral)`,
      this.file,
      line,
    );
  }

  private emit(lineEnd: number): void {
    if (lineEnd - this.cursor > MAX_LINE_BYTES) this.tooLong();
    let end = lineEnd;
    if (end > this.cursor && this.buffer[end - 1] === CARRIAGE_RETURN) end--;
    this.start = this.cursor;
    this.end = end;
    this.lineNumber++;
  }

  /** Moves the unconsumed tail to the front, growing the buffer if the tail fills it. */
  private compact(): void {
    const pending = this.filled - this.cursor;
    if (pending === this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(this.buffer.length * 2);
      this.buffer.copy(grown, 0, this.cursor, this.filled);
      this.buffer = grown;
    } else if (this.cursor > 0) {
      this.buffer.copyWithin(0, this.cursor, this.filled);
    }
    this.bufferOffset += this.cursor;
    this.cursor = 0;
    this.filled = pending;
  }

  /** Reads until the buffer is full or the file ends (pipes return short reads). */
  private fill(): void {
    while (this.filled < this.buffer.length) {
      const got = readSync(this.fd, this.buffer, this.filled, this.buffer.length - this.filled, null);
      if (got === 0) {
        this.endOfFile = true;
        return;
      }
      this.filled += got;
    }
  }
}
