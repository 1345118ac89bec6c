import { TraceError } from '../traces/traceError.js';

/**
 * One request of real traffic, as a HAR export or an access log recorded it: what the
 * client asked and what the origin answered, with the real headers, so that a user's own
 * Cache-Control runs through the simulated CDN. Strings stay strings here (the workload
 * interns them when it turns records into simulator requests, DESIGN.md "Hot path").
 */
export interface TrafficRecord {
  /** Start time, ms since the Unix epoch. */
  epochMs: number;
  /** Upper case. */
  method: string;
  /** HAR: the absolute URL as given; CLF: the request target (path + query) as logged. */
  url: string;
  /** HTTP status. */
  status: number;
  /**
   * Names as given (HTTP/2 exports write them in lower case). HAR: HTTP/2 pseudo-headers
   * (`:path`, `:authority`, …) are left out: they repeat method and URL and are not header
   * fields (RFC 9113 §8.3). CLF: Referer and User-Agent when the combined format has them.
   */
  requestHeaders: ReadonlyArray<readonly [string, string]>;
  /** CLF: empty (access logs do not record response headers). */
  responseHeaders: ReadonlyArray<readonly [string, string]>;
  /**
   * Response body bytes. HAR: content.size if ≥ 0, else bodySize if ≥ 0, else the
   * Content-Length response header, else 0. CLF: the bytes field ("-" = 0).
   */
  bodyBytes: number;
  source: TrafficSource;
}

/** Where a record (or a skipped one) is in its file. */
export interface TrafficSource {
  file: string;
  /** HAR: the 0-based index in log.entries. */
  entry?: number;
  /** HAR: the 1-based line where the entry starts; CLF: the 1-based line. */
  line?: number;
}

/**
 * Why a record was passed over:
 * - `non-http-url`: a HAR entry for data:, blob:, chrome-extension:, ws: … (no HTTP request
 *   reached a server, or not one a CDN caches);
 * - `no-response`: a HAR entry with status 0 (blocked by the client or cancelled, as Chrome
 *   exports them: nothing came back from the origin);
 * - `bad-entry` / `bad-line`: a malformed HAR entry / access-log line, skipped because
 *   `skipBad` allowed it.
 */
export type SkipReason = 'non-http-url' | 'no-response' | 'bad-entry' | 'bad-line';
export const SKIP_REASONS: readonly SkipReason[] = ['non-http-url', 'no-response', 'bad-entry', 'bad-line'];

export interface SkipExample {
  reason: SkipReason;
  source: TrafficSource;
  /** What it was: the URL, the browser's error, or what is wrong with the line. */
  detail: string;
}

/** What a reader passed over. */
export interface SkippedTraffic {
  total: number;
  /** Every reason is present; 0 when none was skipped for it. */
  byReason: Readonly<Record<SkipReason, number>>;
  /** The first MAX_SKIP_EXAMPLES skipped records, in file order; the rest are only counted. */
  examples: readonly SkipExample[];
}

export const MAX_SKIP_EXAMPLES = 100;

/**
 * Real traffic read from one file. Iterating reads the file from its start (each iteration
 * is a fresh read), yielding records in file order; `skipped` describes the latest
 * iteration and is complete once it has finished. Errors are TraceErrors (UserErrors) that
 * name the file and the entry or line. Records before a malformed entry or line are yielded
 * before its error; a HAR's JSON syntax error may cut off the last few entries before it
 * (the tokenizer hands tokens over in batches).
 */
export interface TrafficReader extends AsyncIterable<TrafficRecord> {
  readonly file: string;
  readonly skipped: SkippedTraffic;
}

export interface TrafficReaderOptions {
  /**
   * Malformed entries (HAR) or lines (access log) tolerated, skipped and counted; default 0.
   * Infinity allowed. Malformed JSON is never skipped: nothing after it can be trusted.
   */
  skipBad?: number;
  /** Read-block size in bytes (default 64 KiB); tests shrink it to cut tokens across blocks. */
  blockBytes?: number;
}

/**
 * Counts skipped records and keeps the first few, and enforces the `skipBad` budget for
 * malformed ones. One per read.
 */
export class SkipTally {
  private readonly counts: Record<SkipReason, number> = { 'non-http-url': 0, 'no-response': 0, 'bad-entry': 0, 'bad-line': 0 };
  private readonly kept: SkipExample[] = [];
  private count = 0;

  constructor(
    private readonly file: string,
    readonly skipBad: number,
    /** "entry" or "line", for messages. */
    private readonly unit: string,
  ) {}

  add(reason: SkipReason, source: TrafficSource, detail: string): void {
    this.counts[reason]++;
    this.count++;
    if (this.kept.length < MAX_SKIP_EXAMPLES) this.kept.push({ reason, source: { ...source }, detail });
  }

  /**
   * Skips a malformed entry or line, or throws the TraceError when it is one more than
   * `skipBad` allows. `where` starts the message (`file:line` or `file:line:column: entry n`).
   */
  malformed(reason: 'bad-entry' | 'bad-line', source: TrafficSource, where: string, problem: string): void {
    const before = this.counts[reason];
    if (before >= this.skipBad) {
      const unit = this.unit;
      const plural = unit === 'entry' ? 'entries' : `${unit}s`;
      const first = this.kept.find((example) => example.reason === reason)?.source;
      const firstAt = first === undefined ? '' : ` (the first at ${unit === 'entry' ? `entry ${first.entry}` : `line ${first.line}`})`;
      const budget =
        this.skipBad === 0
          ? `Pass --skip-bad N to skip up to N malformed ${plural}.`
          : `That is more than --skip-bad ${this.skipBad}: ${before} malformed ${before === 1 ? `${unit} was` : `${plural} were`} skipped before this one${firstAt}.`;
      throw new TraceError(`${where}: ${problem}. ${budget}`, this.file, source.line);
    }
    this.add(reason, source, problem);
  }

  summary(): SkippedTraffic {
    return { total: this.count, byReason: { ...this.counts }, examples: [...this.kept] };
  }
}

/** Checks a `skipBad` option: a whole number ≥ 0 or Infinity. */
export function checkSkipBad(file: string, skipBad: number | undefined): number {
  const value = skipBad ?? 0;
  if (!(value === Infinity || (Number.isInteger(value) && value >= 0))) throw new TraceError(`--skip-bad must be a whole number ≥ 0, got ${value}`, file);
  return value;
}

/** Checks a `blockBytes` option (a programming error, not the user's, when wrong). */
export function checkBlockBytes(blockBytes: number | undefined, fallback: number): number {
  const value = blockBytes ?? fallback;
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`blockBytes must be a whole number ≥ 1, got ${value}`);
  return value;
}

/** RFC 9110 §5.6.2 token characters: what an HTTP method is made of (§9.1). */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isHttpToken(text: string): boolean {
  return HTTP_TOKEN.test(text);
}

/** A value for a message: quoted text, cut at `limit` characters. */
export function quoteText(text: string, limit = 60): string {
  return JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);
}
