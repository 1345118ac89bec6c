import { Transform, type TransformCallback } from 'node:stream';

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in characters (Unicode code points). */
  column: number;
}

const NEWLINE = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * stream-json's tokens carry no positions, so this scanner reads the same bytes just before
 * the tokenizer does and queues the line and column of every `{` that opens an object at
 * `depth` (counting objects and arrays; strings and their escapes skipped). On any valid
 * JSON prefix it sees the same structure as the tokenizer, so the n-th such startObject
 * token matches the n-th queued position. `{`, `[`, `"` and `\` never occur inside a UTF-8
 * multi-byte sequence, so bytes are enough; columns count code points (non-continuation bytes).
 */
export class ObjectStartScanner {
  private line = 1;
  private column = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private lines: number[] = [];
  private columns: number[] = [];
  private head = 0;

  constructor(private readonly recordedDepth: number) {}

  scan(chunk: Uint8Array): void {
    let { line, column, depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === NEWLINE) {
        line++;
        column = 1;
        continue;
      }
      const at = column;
      if ((c & 0xc0) !== 0x80) column++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (c === OPEN_BRACE && depth === this.recordedDepth) {
          this.lines.push(line);
          this.columns.push(at);
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    }
    Object.assign(this, { line, column, depth, inString, escaped });
  }

  /** The position of the next recorded `{`, in order; undefined when none is queued. */
  next(): TextPosition | undefined {
    if (this.head >= this.lines.length) return undefined;
    const position = { line: this.lines[this.head], column: this.columns[this.head] };
    this.head++;
    if (this.head === this.lines.length) {
      this.lines = [];
      this.columns = [];
      this.head = 0;
    }
    return position;
  }
}

/** Passes the file's bytes on unchanged after the scanner has seen them. */
export class ScanningPassThrough extends Transform {
  constructor(private readonly scanner: ObjectStartScanner) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.scanner.scan(chunk);
    done(null, chunk);
  }
}
