import { EntryAssembler } from './entryAssembler.js';
import { describeIssues } from './harEntryIssues.js';
import { harEntrySchema, toRecord } from './harEntrySchema.js';
import type { ObjectStartScanner, TextPosition } from './jsonPositionScanner.js';
import type { JsonToken } from './jsonToken.js';
import { notHarFileError } from './notHarFile.js';
import type { SkipTally, TrafficRecord, TrafficSource } from './trafficRecord.js';

/** Nesting depth of an entry object: root object → log object → entries array → entry. */
export const ENTRY_DEPTH = 4;

type Role = 'root' | 'log' | 'entries' | 'other';

interface Frame {
  array: boolean;
  role: Role;
  /** The current key, in an object. */
  key: string | undefined;
  /** Values completed so far, in an array. */
  index: number;
}

/**
 * Follows the token stream to `log.entries`, assembles each entry, and turns it into a
 * record or a skip. Everything outside the entries is only walked through.
 */
export class HarWalker {
  private readonly frames: Frame[] = [];
  private entry: EntryAssembler | undefined;
  private entryIndex = 0;
  private entryStart: TextPosition | undefined;
  private sawRoot = false;
  private sawLog = false;
  private sawEntries = false;
  private sawTopLevelEntries = false;
  private records: TrafficRecord[] = [];

  constructor(
    private readonly file: string,
    private readonly starts: ObjectStartScanner,
    private readonly tally: SkipTally,
  ) {}

  push(token: JsonToken): void {
    if (this.entry !== undefined) {
      if (this.entry.push(token)) this.completeEntry(this.entry.value);
      return;
    }
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.open(token);
        break;
      case 'endObject':
      case 'endArray':
        this.close();
        break;
      case 'keyValue':
        this.top().key = token.value as string;
        if (this.top().role === 'root' && token.value === 'entries') this.sawTopLevelEntries = true;
        break;
      case 'stringChunk':
        break;
      case 'endString':
        this.valueDone();
        break;
      default:
        // startString, numberValue, trueValue, falseValue, nullValue
        if (this.startsEntry(token)) return;
        this.checkScalarPlace(describeToken(token));
        if (token.name !== 'startString') this.valueDone();
    }
  }

  /** Records completed since the last call. */
  takeRecords(): TrafficRecord[] {
    const records = this.records;
    this.records = [];
    return records;
  }

  /** At the end of the input: a JSON file that was not a HAR says so here. */
  finish(): void {
    if (!this.sawRoot) this.notHar('the file is empty');
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1];
  }

  private open(token: JsonToken): void {
    const array = token.name === 'startArray';
    const parent = this.frames.length === 0 ? undefined : this.top();
    // Every object at the entries' depth took a place in the scanner's queue; an entry's is
    // where it starts, the others (log.pages[i]) are dropped.
    const start = !array && this.frames.length + 1 === ENTRY_DEPTH ? this.starts.next() : undefined;
    if (this.startsEntry(token, start)) return;
    let role: Role = 'other';
    if (parent === undefined) {
      this.sawRoot = true;
      if (array) this.notHar('the top level is an array, not an object');
      role = 'root';
    } else if (parent.role === 'root' && parent.key === 'log') {
      if (array) this.notHar('"log" is an array, expected an object');
      role = 'log';
      this.sawLog = true;
    } else if (parent.role === 'log' && parent.key === 'entries') {
      if (!array) this.notHar('log.entries is an object, expected an array of entries');
      role = 'entries';
      this.sawEntries = true;
    }
    this.frames.push({ array, role, key: undefined, index: 0 });
  }

  private close(): void {
    const frame = this.frames.pop() as Frame;
    if (frame.role === 'log' && !this.sawEntries) this.notHar('"log" has no "entries" array');
    if (frame.role === 'root' && !this.sawLog) {
      this.notHar(this.sawTopLevelEntries ? 'it has "entries" at the top level, but a HAR has them in a "log" object' : 'there is no "log" object at the top level');
    }
    this.valueDone();
  }

  /** A value that starts in log.entries is an entry, whatever its type: the schema judges it. */
  private startsEntry(token: JsonToken, start?: TextPosition): boolean {
    const parent = this.frames.length === 0 ? undefined : this.top();
    if (parent?.role !== 'entries') return false;
    this.entry = new EntryAssembler();
    this.entryIndex = parent.index;
    this.entryStart = start;
    if (this.entry.push(token)) this.completeEntry(this.entry.value);
    return true;
  }

  private checkScalarPlace(found: string): void {
    const parent = this.frames.length === 0 ? undefined : this.top();
    if (parent === undefined) {
      this.sawRoot = true;
      this.notHar(`the top level is ${found}, not an object`);
    }
    if (parent.role === 'root' && parent.key === 'log') this.notHar(`"log" is ${found}, expected an object`);
    if (parent.role === 'log' && parent.key === 'entries') this.notHar(`log.entries is ${found}, expected an array of entries`);
  }

  private valueDone(): void {
    const parent = this.frames.length === 0 ? undefined : this.top();
    if (parent?.array) parent.index++;
  }

  private completeEntry(value: unknown): void {
    this.entry = undefined;
    const index = this.entryIndex;
    const start = this.entryStart;
    const source: TrafficSource = { file: this.file, entry: index };
    if (start !== undefined) source.line = start.line;
    this.valueDone();

    // Entries the CDN never sees are passed over before their shape is judged.
    const url = fieldOf(fieldOf(value, 'request'), 'url');
    if (typeof url === 'string' && !isHttpScheme(url)) {
      this.tally.add('non-http-url', source, shorten(url, 100));
      return;
    }
    const parsed = harEntrySchema.safeParse(value);
    if (!parsed.success) {
      const where = start === undefined ? `${this.file}: entry ${index}` : `${this.file}:${start.line}:${start.column}: entry ${index}`;
      this.tally.malformed('bad-entry', source, where, describeIssues(parsed.error.issues, value, index));
      return;
    }
    const entry = parsed.data;
    if (entry.response.status === 0) {
      const error = fieldOf(fieldOf(value, 'response'), '_error');
      this.tally.add('no-response', source, typeof error === 'string' && error !== '' ? `${error}: ${shorten(entry.request.url, 100)}` : shorten(entry.request.url, 100));
      return;
    }
    this.records.push(toRecord(entry, source));
  }

  private notHar(what: string): never {
    throw notHarFileError(this.file, what);
  }
}

function describeToken(token: JsonToken): string {
  switch (token.name) {
    case 'startString':
      return 'a string';
    case 'numberValue':
      return 'a number';
    case 'trueValue':
    case 'falseValue':
      return 'a boolean';
    default:
      return 'null';
  }
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** True for http: and https: URLs, and for text with no scheme (the schema rejects it then). */
function isHttpScheme(url: string): boolean {
  const scheme = SCHEME.exec(url)?.[1].toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https';
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
