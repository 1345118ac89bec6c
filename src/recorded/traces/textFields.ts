import type { TraceBatch } from './traceBatch.js';

/**
 * Field parsers for text traces, working on the bytes of a line in place (character codes,
 * no string or regular expression per field on the common path). Each returns NaN or false
 * for text that is not a valid field; the readers then build the message with the
 * describe… functions, so the error path alone pays for strings.
 */

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;
const MAX_UINT64 = (1n << 64n) - 1n;
/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

const ZERO = 48;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;
const SPACE = 32;
const TAB = 9;

export function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * A non-negative decimal number (`12`, `12.5`, `.5`, `1e3`), the same double Number() gives.
 * Up to 15–16 significant digits and 22 decimals it is computed as digits / 10^k, which is
 * exact: both are exact doubles and one IEEE division rounds correctly (Clinger, "How to
 * read floating point numbers accurately", PLDI 1990). Longer numbers and exponents go
 * through Number() on the field's text.
 */
export function parseDecimal(buffer: Buffer, start: number, end: number): number {
  let i = start;
  let mantissa = 0;
  let digits = 0;
  while (i < end) {
    const d = buffer[i] - ZERO;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
    i++;
  }
  let decimals = 0;
  if (i < end && buffer[i] === DOT) {
    i++;
    while (i < end) {
      const d = buffer[i] - ZERO;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      decimals++;
      i++;
    }
  }
  if (digits + decimals === 0) return NaN;
  if (i < end) {
    const c = buffer[i];
    if (c !== 101 && c !== 69) return NaN; // e, E
    i++;
    if (i < end && (buffer[i] === PLUS || buffer[i] === MINUS)) i++;
    const exponentStart = i;
    while (i < end && buffer[i] >= ZERO && buffer[i] <= ZERO + 9) i++;
    if (i === exponentStart || i !== end) return NaN;
    return slowDecimal(buffer, start, end);
  }
  if (mantissa < TWO_POW_53 && decimals <= 22) return decimals === 0 ? mantissa : mantissa / POWERS_OF_TEN[decimals];
  return slowDecimal(buffer, start, end);
}

function slowDecimal(buffer: Buffer, start: number, end: number): number {
  const value = Number(buffer.toString('latin1', start, end));
  return Number.isFinite(value) ? value : NaN;
}

/** A whole number 0 … 2^53 written in decimal digits only; NaN otherwise. */
export function parseUnsigned(buffer: Buffer, start: number, end: number): number {
  if (start >= end) return NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const d = buffer[i] - ZERO;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value <= TWO_POW_53 ? value : NaN;
}

/**
 * A 64-bit unsigned id (0 … 2^64−1) written in decimal digits, stored exactly as two 32-bit
 * halves in batch entry `index`; false if the text is not one. Up to 15 digits the value is
 * below 2^53, so plain double arithmetic is exact; longer ids (hashes) go through BigInt.
 */
export function parseId64(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number): boolean {
  const length = end - start;
  if (length <= 0) return false;
  if (length <= 15) {
    let value = 0;
    for (let i = start; i < end; i++) {
      const d = buffer[i] - ZERO;
      if (d < 0 || d > 9) return false;
      value = value * 10 + d;
    }
    batch.idLow[index] = value >>> 0;
    batch.idHigh[index] = (value / TWO_POW_32) >>> 0;
    return true;
  }
  for (let i = start; i < end; i++) {
    const d = buffer[i] - ZERO;
    if (d < 0 || d > 9) return false;
  }
  const value = BigInt(buffer.toString('latin1', start, end));
  if (value > MAX_UINT64) return false;
  batch.idLow[index] = Number(value & 0xffffffffn);
  batch.idHigh[index] = Number(value >> 32n);
  return true;
}

/** A field's text for a message: quoted, cut at 60 characters. */
export function quoteField(buffer: Buffer, start: number, end: number): string {
  const text = buffer.toString('utf8', start, Math.min(end, start + 60));
  return JSON.stringify(end - start > 60 ? `${text}…` : text);
}

/** A line's text for a message: quoted, cut at 100 characters. */
export function quoteLine(buffer: Buffer, start: number, end: number): string {
  const text = buffer.toString('utf8', start, Math.min(end, start + 100));
  return JSON.stringify(end - start > 100 ? `${text}…` : text);
}

export function describeBadTime(buffer: Buffer, start: number, end: number): string {
  const text = quoteField(buffer, start, end);
  if (start === end) return 'empty time';
  if (buffer[start] === MINUS) return `time ${text} is negative; times are seconds ≥ 0`;
  return `time ${text} is not a number of seconds (like 12 or 12.25)`;
}

export function describeBadSize(buffer: Buffer, start: number, end: number): string {
  const text = quoteField(buffer, start, end);
  if (start === end) return 'empty size';
  if (buffer[start] === MINUS) return `size ${text} is negative; sizes are bytes ≥ 0`;
  if (buffer.subarray(start, end).includes(DOT)) return `size ${text} is not a whole number of bytes`;
  let digitsOnly = true;
  for (let i = start; i < end; i++) if (buffer[i] < ZERO || buffer[i] > ZERO + 9) digitsOnly = false;
  if (digitsOnly) return `size ${text} is larger than 2^53 bytes`;
  return `size ${text} is not a number of bytes`;
}

export function describeBadNumericId(buffer: Buffer, start: number, end: number): string {
  const text = quoteField(buffer, start, end);
  if (start === end) return 'empty id';
  let digitsOnly = true;
  for (let i = start; i < end; i++) if (buffer[i] < ZERO || buffer[i] > ZERO + 9) digitsOnly = false;
  if (digitsOnly) return `id ${text} is larger than 2^64−1`;
  return `id ${text} is not a number from 0 to 2^64−1`;
}

/**
 * Interns string ids to dense numbers 0, 1, 2, … in order of first appearance. Memory grows
 * with the number of distinct ids, which is inherent: a later request for a string must
 * find its number. The table works on the line's bytes (FNV-1a hash, open addressing with
 * linear probing, the bytes kept in one growing arena), so a repeated id costs a hash and a
 * byte comparison but no string and no garbage; strings are made only for `name`. This is
 * about twice as fast as a Map<string, number> on access logs, takes less memory, and has no
 * Map size cap (2^24 entries in V8). The arena holds up to 4 GiB of distinct id bytes.
 */
export class StringIds {
  private arena = new Uint8Array(1 << 16);
  private arenaUsed = 0;
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  /** Slot → id + 1; 0 is empty. Kept at most half full. */
  private slots = new Uint32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The dense number of the id whose UTF-8 bytes are buffer[start, end). */
  intern(buffer: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ buffer[i], 0x01000193);
    hash >>>= 0;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = this.slots[slot];
      if (entry === 0) break;
      const id = entry - 1;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.sameBytes(this.starts[id], buffer, start, length)) return id;
      slot = (slot + 1) & mask;
    }
    return this.add(buffer, start, length, hash, slot);
  }

  /** The same for an id given as a string (a CSV field with escaped quotes). */
  internString(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    return this.intern(bytes, 0, bytes.length);
  }

  name(id: number): string | undefined {
    if (!(id >= 0 && id < this.count)) return undefined;
    const start = this.starts[id];
    return Buffer.from(this.arena.buffer, this.arena.byteOffset + start, this.lengths[id]).toString('utf8');
  }

  private sameBytes(at: number, buffer: Uint8Array, start: number, length: number): boolean {
    const arena = this.arena;
    for (let k = 0; k < length; k++) if (arena[at + k] !== buffer[start + k]) return false;
    return true;
  }

  private add(buffer: Uint8Array, start: number, length: number, hash: number, slot: number): number {
    const id = this.count;
    if (id === this.starts.length) this.growEntries();
    if (this.arenaUsed + length > this.arena.length) this.growArena(this.arenaUsed + length);
    this.arena.set(buffer.subarray(start, start + length), this.arenaUsed);
    this.starts[id] = this.arenaUsed;
    this.lengths[id] = length;
    this.hashes[id] = hash;
    this.arenaUsed += length;
    this.count++;
    this.slots[slot] = id + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  private growEntries(): void {
    const length = this.starts.length * 2;
    const starts = new Float64Array(length);
    starts.set(this.starts);
    const lengths = new Uint32Array(length);
    lengths.set(this.lengths);
    const hashes = new Uint32Array(length);
    hashes.set(this.hashes);
    this.starts = starts;
    this.lengths = lengths;
    this.hashes = hashes;
  }

  private growArena(minimum: number): void {
    const limit = 2 ** 32;
    if (minimum > limit) throw new RangeError('more than 4 GiB of distinct string ids; use numeric ids (hash the strings) for a trace this large');
    let length = this.arena.length;
    while (length < minimum) length *= 2;
    const arena = new Uint8Array(Math.min(length, limit));
    arena.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = arena;
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

const UNDECIDED = 0;
const NUMERIC = 1;
const TEXT = 2;

/**
 * The id field of csv and txt traces, numeric or text. In 'auto' mode the first id decides
 * for the whole file: a later id of the other kind is malformed, so that a numeric id can
 * never collide with the dense number of an interned string.
 */
export class IdField {
  private mode: number;
  readonly strings = new StringIds();

  constructor(private readonly option: 'auto' | 'numeric' | 'string') {
    this.mode = option === 'numeric' ? NUMERIC : option === 'string' ? TEXT : UNDECIDED;
  }

  /** Stores the id of buffer[start, end) in batch entry `index`; returns a problem or undefined. */
  store(buffer: Buffer, start: number, end: number, batch: TraceBatch, index: number, unescapeQuotes = false): string | undefined {
    if (start === end) return 'empty id';
    if (this.mode !== TEXT) {
      if (!unescapeQuotes && parseId64(buffer, start, end, batch, index)) {
        this.mode = NUMERIC;
        return undefined;
      }
      if (this.mode === NUMERIC) {
        const problem = describeBadNumericId(buffer, start, end);
        return this.option === 'numeric'
          ? `${problem} (ids are read as numbers)`
          : `${problem}, but the first id was numeric, so every id is read as a number (pass --ids string to read ids as text)`;
      }
      this.mode = TEXT;
    }
    batch.idLow[index] = unescapeQuotes
      ? this.strings.internString(buffer.toString('utf8', start, end).replaceAll('""', '"'))
      : this.strings.intern(buffer, start, end);
    batch.idHigh[index] = 0;
    return undefined;
  }

  name(idLow: number, idHigh: number): string | undefined {
    return this.mode === TEXT && idHigh === 0 ? this.strings.name(idLow) : undefined;
  }
}
