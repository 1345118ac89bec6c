import { closeSync } from 'node:fs';
import { parseClfTimestamp } from '../traces/clfReader.js';
import { LineSplitter } from '../traces/lineSplitter.js';
import { quoteField, quoteLine } from '../traces/textFields.js';
import { TraceError } from '../traces/traceError.js';
import { openTraceFile } from '../traces/traceFile.js';
import {
  checkBlockBytes,
  checkSkipBad,
  isHttpToken,
  SkipTally,
  type SkippedTraffic,
  type TrafficReader,
  type TrafficReaderOptions,
  type TrafficRecord,
} from './trafficRecord.js';

/**
 * Web server access logs in the Common Log Format and its Combined extension (Apache httpd
 * mod_log_config; nginx's default `combined` log_format) as real traffic:
 *
 *   host ident user [10/Oct/2000:13:55:36 -0700] "GET /path?q HTTP/1.1" 200 2326 "referer" "ua"
 *
 * The replay command's ClfReader (traces/clfReader.ts) reads the same lines faster into
 * interned ids; this reader keeps what a workload source needs as text: method, target,
 * status, bytes, and the Referer and User-Agent of the combined format.
 *
 * Records come in file order. Their times may step back a little: Apache stamps a line with
 * the request's start (%t) but writes it when the request finishes, so a long request's
 * line follows shorter, later ones; nginx stamps the time of logging ($time_local), and its
 * worker processes write interleaved. The reader does not reorder: the disorder is bounded
 * by the longest request duration, so a consumer that needs time order (the kernel refuses
 * events in the past) holds records back for that long; logs are too large to sort whole.
 */

const DEFAULT_BLOCK_BYTES = 64 << 10;

const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const MINUS = 45;
const ZERO = 48;
/** `10/Oct/2000:13:55:36 -0700`: the fixed-width timestamp between the brackets. */
const TIMESTAMP_LENGTH = 26;
const TIMESTAMP_EXAMPLE = '[10/Oct/2000:13:55:36 -0700]';
const PROTOCOL_PREFIX = 'HTTP/';
const GZIP_MAGIC = [0x1f, 0x8b];

/** One access-log line's fields. */
export interface AccessLogFields {
  /** The bracketed timestamp with its zone applied, ms since the epoch (whole seconds). */
  epochMs: number;
  /** Upper case. */
  method: string;
  /** The request target (path and query) exactly as logged, escapes kept. */
  target: string;
  /** `HTTP/1.1` and the like. */
  protocol: string;
  status: number;
  /** The bytes field; "-" (Apache: no body) is 0. */
  bytes: number;
  /** Combined format only; absent when logged as "-". Escapes (`\"`, `\\`, `\xHH`) undone. */
  referer?: string;
  userAgent?: string;
}

export type ParsedAccessLogLine = { ok: true; fields: AccessLogFields } | { ok: false; problem: string };

/** Opens an access log as real traffic, one record per line; blank lines are passed over. */
export function readAccessLog(file: string, options: TrafficReaderOptions = {}): TrafficReader {
  const skipBad = checkSkipBad(file, options.skipBad);
  const blockBytes = checkBlockBytes(options.blockBytes, DEFAULT_BLOCK_BYTES);
  let tally = new SkipTally(file, skipBad, 'line');
  return {
    file,
    get skipped(): SkippedTraffic {
      return tally.summary();
    },
    [Symbol.asyncIterator](): AsyncIterator<TrafficRecord> {
      tally = new SkipTally(file, skipBad, 'line');
      return accessLogRecords(file, blockBytes, tally);
    },
  };
}

async function* accessLogRecords(file: string, blockBytes: number, tally: SkipTally): AsyncGenerator<TrafficRecord> {
  const { fd } = openTraceFile(file, 'access log');
  try {
    const lines = new LineSplitter(fd, file, blockBytes);
    checkLooksLikeText(file, lines.head(4096));
    while (lines.next()) {
      const { buffer, start, end, lineNumber } = lines;
      if (isBlank(buffer, start, end)) continue;
      const parsed = parseAccessLogLine(buffer, start, end);
      if (!parsed.ok) {
        tally.malformed('bad-line', { file, line: lineNumber }, `${file}:${lineNumber}`, `${parsed.problem}, in ${quoteLine(buffer, start, end)}`);
        continue;
      }
      yield toRecord(parsed.fields, file, lineNumber);
    }
  } finally {
    closeSync(fd);
  }
}

function toRecord(fields: AccessLogFields, file: string, line: number): TrafficRecord {
  const requestHeaders: Array<readonly [string, string]> = [];
  if (fields.referer !== undefined) requestHeaders.push(['Referer', fields.referer]);
  if (fields.userAgent !== undefined) requestHeaders.push(['User-Agent', fields.userAgent]);
  return {
    epochMs: fields.epochMs,
    method: fields.method,
    url: fields.target,
    status: fields.status,
    requestHeaders,
    responseHeaders: [],
    bodyBytes: fields.bytes,
    source: { file, line },
  };
}

/** A compressed or binary file read as a log gives a pile of "bad lines": say what it is instead. */
function checkLooksLikeText(file: string, head: Uint8Array): void {
  if (head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    throw new TraceError(`${file}: the file is gzip-compressed; decompress it first (gunzip -k ${file}) and read the .log`, file);
  }
  if (head.includes(0)) throw new TraceError(`${file}: the file contains NUL bytes: it is binary, not an access log in Common/Combined Log Format`, file);
}

function isBlank(buffer: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buffer[i] !== SPACE && buffer[i] !== TAB) return false;
  return true;
}

/**
 * Parses one Common or Combined Log Format line, buffer[start, end) without its line end.
 * The host, ident and user fields are not kept (the user may contain blanks, so the parser
 * looks for the timestamp's bracket). Fields after the bytes other than a quoted referer and
 * user agent (nginx timings, Apache %D) are ignored. Never throws.
 */
export function parseAccessLogLine(buffer: Buffer, start = 0, end = buffer.length): ParsedAccessLogLine {
  let i = start;
  while (i < end && buffer[i] !== OPEN_BRACKET) i++;
  if (i === end) return bad(`expected "host ident user [timestamp] "request" status bytes", found no [timestamp]`);
  const stampStart = i + 1;
  if (stampStart + TIMESTAMP_LENGTH >= end || buffer[stampStart + TIMESTAMP_LENGTH] !== CLOSE_BRACKET) {
    let close = stampStart;
    while (close < end && buffer[close] !== CLOSE_BRACKET) close++;
    return bad(`expected a timestamp like ${TIMESTAMP_EXAMPLE}, found ${quoteField(buffer, i, Math.min(close + 1, end))}`);
  }
  const seconds = parseClfTimestamp(buffer, stampStart);
  if (seconds !== seconds) return bad(`expected a timestamp like ${TIMESTAMP_EXAMPLE}, found ${quoteField(buffer, i, stampStart + TIMESTAMP_LENGTH + 1)}`);
  i = stampStart + TIMESTAMP_LENGTH + 1;

  if (i + 1 >= end || buffer[i] !== SPACE || buffer[i + 1] !== QUOTE) return bad(`expected a quoted request line after the timestamp, found ${describeRest(buffer, i, end)}`);
  const requestStart = i + 2;
  const requestEnd = closingQuote(buffer, requestStart, end);
  if (requestEnd === end) return bad(`expected the request line to end with a quote, found the end of the line`);
  const request = splitRequestLine(buffer, requestStart, requestEnd);
  if (typeof request === 'string') return bad(request);
  i = requestEnd + 1;

  if (i >= end || buffer[i] !== SPACE) return bad(`expected a status after the request line, found ${describeRest(buffer, i, end)}`);
  const statusStart = ++i;
  while (i < end && buffer[i] !== SPACE) i++;
  const status = wholeNumber(buffer, statusStart, i);
  if (!(i - statusStart === 3 && status >= 100 && status <= 999)) {
    return bad(statusStart === i ? `expected a status after the request line, found ${describeRest(buffer, statusStart, end)}` : `status ${quoteField(buffer, statusStart, i)} is not a 3-digit HTTP status`);
  }

  if (i >= end) return bad('expected the response bytes after the status, found the end of the line');
  const bytesStart = ++i;
  while (i < end && buffer[i] !== SPACE) i++;
  const bytesEnd = i;
  let bytes: number;
  if (bytesEnd - bytesStart === 1 && buffer[bytesStart] === MINUS) bytes = 0;
  else {
    bytes = wholeNumber(buffer, bytesStart, bytesEnd);
    if (bytes !== bytes) {
      if (bytesStart === bytesEnd) return bad(`expected the response bytes after the status, found ${describeRest(buffer, bytesStart, end)}`);
      const field = quoteField(buffer, bytesStart, bytesEnd);
      return bad(buffer[bytesStart] === MINUS ? `bytes ${field} is negative; expected a whole number ≥ 0 or "-"` : `bytes ${field} is not a whole number of bytes or "-"`);
    }
  }

  const fields: AccessLogFields = { epochMs: seconds * 1000, method: request.method, target: request.target, protocol: request.protocol, status, bytes };
  // Combined format: ` "referer" "user agent"`. Anything else after the bytes is ignored.
  const referer = quotedAfterSpace(buffer, bytesEnd, end);
  if (referer !== undefined) {
    if (referer.value !== '-') fields.referer = referer.value;
    const userAgent = quotedAfterSpace(buffer, referer.end, end);
    if (userAgent !== undefined && userAgent.value !== '-') fields.userAgent = userAgent.value;
  }
  return { ok: true, fields };
}

function bad(problem: string): ParsedAccessLogLine {
  return { ok: false, problem };
}

function describeRest(buffer: Buffer, at: number, end: number): string {
  return at >= end ? 'the end of the line' : quoteField(buffer, at, end);
}

/** The index of the quote that ends a quoted field starting at `at` (escapes skipped), or `end`. */
function closingQuote(buffer: Buffer, at: number, end: number): number {
  let i = at;
  while (i < end && buffer[i] !== QUOTE) i += buffer[i] === BACKSLASH ? 2 : 1;
  return Math.min(i, end);
}

/** `METHOD SP target SP HTTP/x` (RFC 9112 §3); a problem string otherwise. */
function splitRequestLine(buffer: Buffer, start: number, end: number): { method: string; target: string; protocol: string } | string {
  const parts = buffer.toString('utf8', start, end).split(' ');
  const [method, target, protocol] = parts;
  const shape = `expected a request line "METHOD target HTTP/version", found ${quoteField(buffer, start, end)}`;
  if (parts.length !== 3 || method === '' || target === '' || !protocol.startsWith(PROTOCOL_PREFIX)) return shape;
  if (!isHttpToken(method)) return `expected an HTTP method (a token, RFC 9110 §9.1), found ${JSON.stringify(method)} in the request line`;
  return { method: method.toUpperCase(), target, protocol };
}

/** A whole number of decimal digits up to 2^53; NaN otherwise. */
function wholeNumber(buffer: Buffer, start: number, end: number): number {
  if (start >= end) return NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = buffer[i] - ZERO;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value <= Number.MAX_SAFE_INTEGER ? value : NaN;
}

/** A quoted field after one space at `at`, unescaped, and where it ends; undefined if there is none. */
function quotedAfterSpace(buffer: Buffer, at: number, end: number): { value: string; end: number } | undefined {
  if (at + 1 >= end || buffer[at] !== SPACE || buffer[at + 1] !== QUOTE) return undefined;
  const close = closingQuote(buffer, at + 2, end);
  if (close === end) return undefined;
  return { value: unescapeLogged(buffer, at + 2, close), end: close + 1 };
}

/**
 * Undoes the servers' log escaping: nginx writes `"`, `\` and bytes outside printable ASCII
 * as `\xHH`; Apache writes `\"`, `\\` and `\xHH`. The bytes are then read as UTF-8.
 */
function unescapeLogged(buffer: Buffer, start: number, end: number): string {
  if (buffer.indexOf(BACKSLASH, start) < 0 || buffer.indexOf(BACKSLASH, start) >= end) return buffer.toString('utf8', start, end);
  const out = Buffer.allocUnsafe(end - start);
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = buffer[i];
    if (c === BACKSLASH && i + 1 < end) {
      const next = buffer[i + 1];
      if (next === QUOTE || next === BACKSLASH) {
        out[n++] = next;
        i++;
        continue;
      }
      if (next === 0x78 && i + 3 < end) {
        const high = hexDigit(buffer[i + 2]);
        const low = hexDigit(buffer[i + 3]);
        if (high >= 0 && low >= 0) {
          out[n++] = high * 16 + low;
          i += 3;
          continue;
        }
      }
    }
    out[n++] = c;
  }
  return out.toString('utf8', 0, n);
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}
