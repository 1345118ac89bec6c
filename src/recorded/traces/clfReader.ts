import { HTTP_METHODS, type TraceBatch } from './traceBatch.js';
import { LineTraceReader, NOT_A_REQUEST } from './traceFile.js';
import type { TraceReaderOptions } from './traceReader.js';
import { quoteField, quoteLine } from './textFields.js';
import { UrlKeyIds } from './urlKeyIds.js';

const SPACE = 32;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const ZERO = 48;
const MINUS = 45;
const PLUS = 43;
const SLASH = 47;
const COLON = 58;
/** `10/Oct/2000:13:55:36 -0700`: the fixed-width timestamp between the brackets. */
const TIMESTAMP_LENGTH = 26;

const METHOD_BYTES = HTTP_METHODS.map((name) => Buffer.from(name, 'latin1'));
/** Month abbreviations as three lowercase letter codes packed into one number. */
const MONTH_CODES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map(
  (name) => (name.charCodeAt(0) << 16) | (name.charCodeAt(1) << 8) | name.charCodeAt(2),
);
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const PROTOCOL_PREFIX = Buffer.from('HTTP/', 'latin1');

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant, "chrono-compatible
 * low-level date algorithms", days_from_civil). Exact integer arithmetic, no Date object.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function twoDigits(buffer: Buffer, at: number): number {
  const a = buffer[at] - ZERO;
  const b = buffer[at + 1] - ZERO;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * Seconds since the epoch of a CLF timestamp `dd/Mon/yyyy:hh:mm:ss ±hhmm` at buffer[at],
 * its zone applied; NaN if the text is not one (wrong layout or an impossible date).
 */
export function parseClfTimestamp(buffer: Buffer, at: number): number {
  if (buffer[at + 2] !== SLASH || buffer[at + 6] !== SLASH || buffer[at + 11] !== COLON || buffer[at + 14] !== COLON || buffer[at + 17] !== COLON || buffer[at + 20] !== SPACE) return NaN;
  const day = twoDigits(buffer, at);
  const monthCode = ((buffer[at + 3] | 0x20) << 16) | ((buffer[at + 4] | 0x20) << 8) | (buffer[at + 5] | 0x20);
  const month = MONTH_CODES.indexOf(monthCode) + 1;
  const year = twoDigits(buffer, at + 7) * 100 + twoDigits(buffer, at + 9);
  const hour = twoDigits(buffer, at + 12);
  const minute = twoDigits(buffer, at + 15);
  const second = twoDigits(buffer, at + 18);
  const sign = buffer[at + 21] === PLUS ? 1 : buffer[at + 21] === MINUS ? -1 : NaN;
  const zoneHours = twoDigits(buffer, at + 22);
  const zoneMinutes = twoDigits(buffer, at + 24);
  if (month === 0 || !(hour <= 23 && minute <= 59 && second <= 60 && zoneHours <= 23 && zoneMinutes <= 59)) return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (!(day >= 1 && day <= monthDays)) return NaN;
  // Local time = UTC + zone, so UTC = local − zone.
  return daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - sign * (zoneHours * 3600 + zoneMinutes * 60);
}

function methodIndex(buffer: Buffer, start: number, end: number): number {
  const length = end - start;
  for (let m = 1; m < METHOD_BYTES.length; m++) {
    const name = METHOD_BYTES[m];
    if (name.length !== length) continue;
    let same = true;
    for (let k = 0; k < length; k++) {
      if (buffer[start + k] !== name[k]) {
        same = false;
        break;
      }
    }
    if (same) return m;
  }
  return 0;
}

/**
 * Web server access logs in the Common Log Format and its Combined extension (Apache httpd
 * mod_log_config; nginx's default `combined` log_format):
 *
 *   host ident user [10/Oct/2000:13:55:36 -0700] "GET /path?q HTTP/1.1" 200 2326 "referer" "ua"
 *
 * - time: the bracketed timestamp, in seconds since the epoch with its zone applied
 *   (whole seconds: the format has no fraction);
 * - id: the request target as the CDN keys it (the policy engine's cacheKey: path and query
 *   with its parameters sorted, spec 4.3.1; the host of an absolute-form target dropped),
 *   interned to dense numbers 0, 1, 2, …, so targets that differ only in parameter order are
 *   one object, named by the first of them as logged (escapes kept). Memory grows with the
 *   distinct targets: inherent;
 * - size: the response bytes; `-` (Apache: no body) is 0;
 * - status and method into TraceBatch.status/method (unknown methods → 0).
 * Every request is passed on, whatever its method or status (POSTs, 304s, 404s): which ones
 * a cache sees is the replay engine's decision. The request line must be
 * `METHOD target HTTP/x`; anything else (a TLS handshake sent to the HTTP port, an HTTP/0.9
 * request, "-") is malformed. Fields after the size (referer, user agent, timings) are ignored.
 */
export class ClfReader extends LineTraceReader {
  readonly hasNextAccess = false;
  readonly hasSizes = true;
  private readonly targets = new UrlKeyIds();

  constructor(file: string, options: TraceReaderOptions) {
    super(file, 'clf', options);
  }

  override objectName(idLow: number, idHigh: number): string | undefined {
    return idHigh === 0 ? this.targets.name(idLow) : undefined;
  }

  protected override completeBatch(batch: TraceBatch, n: number): void {
    batch.nextAccess.fill(NaN, 0, n);
  }

  protected parseLine(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): string | undefined {
    let i = start;
    while (i < end && (buffer[i] === SPACE || buffer[i] === 9)) i++;
    if (i === end) return NOT_A_REQUEST;
    // host, ident and user: the user may be anything, so look for the timestamp's bracket.
    while (i < end && buffer[i] !== OPEN_BRACKET) i++;
    if (i === end) return `expected "host ident user [timestamp] "request" status bytes", found no [timestamp]: ${quoteLine(buffer, start, end)}`;
    const stampStart = i + 1;
    if (stampStart + TIMESTAMP_LENGTH >= end || buffer[stampStart + TIMESTAMP_LENGTH] !== CLOSE_BRACKET) {
      let close = stampStart;
      while (close < end && buffer[close] !== CLOSE_BRACKET) close++;
      return `expected a timestamp like [10/Oct/2000:13:55:36 -0700], found ${quoteField(buffer, i, Math.min(close + 1, end))}`;
    }
    const time = parseClfTimestamp(buffer, stampStart);
    if (time !== time) return `expected a timestamp like [10/Oct/2000:13:55:36 -0700], found ${quoteField(buffer, i, stampStart + TIMESTAMP_LENGTH + 1)}`;
    i = stampStart + TIMESTAMP_LENGTH + 1;
    if (i + 1 >= end || buffer[i] !== SPACE || buffer[i + 1] !== QUOTE) return `expected a quoted request line after the timestamp: ${quoteLine(buffer, start, end)}`;
    i += 2;
    const requestStart = i;
    while (i < end && buffer[i] !== QUOTE) i += buffer[i] === BACKSLASH ? 2 : 1;
    if (i >= end) return `unterminated request line: ${quoteLine(buffer, start, end)}`;
    const requestEnd = i;
    i++;

    // METHOD SP target SP HTTP/x.y
    let k = requestStart;
    while (k < requestEnd && buffer[k] !== SPACE) k++;
    const methodEnd = k;
    const targetStart = k + 1;
    k = targetStart;
    while (k < requestEnd && buffer[k] !== SPACE) k++;
    const targetEnd = k;
    const protocolStart = k + 1;
    k = protocolStart;
    while (k < requestEnd && buffer[k] !== SPACE) k++;
    if (
      methodEnd === requestStart ||
      targetEnd <= targetStart ||
      protocolStart >= requestEnd ||
      k !== requestEnd ||
      !startsWith(buffer, protocolStart, requestEnd, PROTOCOL_PREFIX)
    ) {
      return `request line ${quoteField(buffer, requestStart, requestEnd)} is not "METHOD target HTTP/version"`;
    }

    if (i >= end || buffer[i] !== SPACE) return `expected a status after the request line: ${quoteLine(buffer, start, end)}`;
    i++;
    const statusStart = i;
    while (i < end && buffer[i] !== SPACE) i++;
    const statusEnd = i;
    let status = 0;
    if (statusEnd - statusStart === 3) status = (buffer[statusStart] - ZERO) * 100 + (buffer[statusStart + 1] - ZERO) * 10 + (buffer[statusStart + 2] - ZERO);
    if (!(status >= 100 && status <= 999 && isDigits(buffer, statusStart, statusEnd))) return `status ${quoteField(buffer, statusStart, statusEnd)} is not a 3-digit HTTP status`;
    if (i < end) i++;
    const bytesStart = i;
    while (i < end && buffer[i] !== SPACE) i++;
    const bytesEnd = i;
    let size: number;
    if (bytesEnd - bytesStart === 1 && buffer[bytesStart] === MINUS) size = 0;
    else {
      size = NaN;
      if (bytesEnd > bytesStart && isDigits(buffer, bytesStart, bytesEnd)) {
        size = 0;
        for (let d = bytesStart; d < bytesEnd; d++) size = size * 10 + (buffer[d] - ZERO);
      }
      if (!(size <= Number.MAX_SAFE_INTEGER)) {
        if (bytesStart === bytesEnd) return `expected the response size after the status: ${quoteLine(buffer, start, end)}`;
        const field = quoteField(buffer, bytesStart, bytesEnd);
        return buffer[bytesStart] === MINUS ? `size ${field} is negative; sizes are bytes ≥ 0` : `size ${field} is not a number of bytes or "-"`;
      }
    }

    batch.timeSeconds[index] = time;
    batch.idLow[index] = this.targets.intern(buffer, targetStart, targetEnd);
    batch.idHigh[index] = 0;
    batch.sizes[index] = size;
    batch.status[index] = status;
    batch.method[index] = methodIndex(buffer, requestStart, methodEnd);
    return undefined;
  }
}

function isDigits(buffer: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buffer[i] < ZERO || buffer[i] > ZERO + 9) return false;
  return true;
}

function startsWith(buffer: Buffer, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (buffer[start + k] !== prefix[k]) return false;
  return true;
}
