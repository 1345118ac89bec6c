/**
 * Chunk arithmetic for range requests on large media (spec 4.8): the object is split into
 * fixed-size chunks, each cached on its own, and a range is served from the chunks it needs.
 * Byte positions are inclusive, as in RFC 9110 §14.1.2. Pure numbers; strings only in
 * parseRangeHeader.
 */

/**
 * spec 4.8 / spec 8: "5 MB" chunks. MB = 10^6 bytes, as everywhere in cdnsim
 * (src/units.ts: decimal units are powers of 1000, binary ones are spelt MiB).
 */
export const CHUNK_SIZE_BYTES = 5_000_000;

export type ByteRangeSpec =
  | { kind: 'closed'; first: number; last: number } // bytes=first-last
  | { kind: 'open'; first: number } // bytes=first-
  | { kind: 'suffix'; length: number }; // bytes=-length

// int-range / suffix-range (RFC 9110 §14.1.2): 1*DIGIT "-" [ 1*DIGIT ] or "-" 1*DIGIT.
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;
const UNIT = /^bytes=/i;

/**
 * A `Range` field value as RFC 9110 §14.1.2 byte ranges: `bytes=` (unit case-insensitive,
 * RFC 9110 §14.1) then one or more comma-separated int-range / suffix-range, with optional
 * whitespace and empty members around commas (RFC 9110 §5.6.1). undefined when the value is
 * not a valid byte-range set (another unit, a bad number, or last < first in an int-range,
 * RFC 9110 §14.1.1); a cache then ignores the Range field (RFC 9110 §14.2). Positions longer
 * than 2^53 − 1 are clamped to it: they exceed any object, so the meaning is unchanged.
 * Never throws.
 */
export function parseRangeHeader(value: string): ByteRangeSpec[] | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!UNIT.test(trimmed)) return undefined;
  const specs: ByteRangeSpec[] = [];
  for (const member of trimmed.slice(6).split(',')) {
    const text = member.trim();
    if (text === '') continue;
    const match = RANGE_SPEC.exec(text);
    if (match === null) return undefined;
    const [, first, last, suffix] = match;
    if (suffix !== undefined) specs.push({ kind: 'suffix', length: toPosition(suffix) });
    else if (last === '') specs.push({ kind: 'open', first: toPosition(first) });
    else if (compareDigits(first, last) > 0) return undefined;
    else specs.push({ kind: 'closed', first: toPosition(first), last: toPosition(last) });
  }
  return specs.length === 0 ? undefined : specs;
}

function toPosition(digits: string): number {
  const parsed = Number(digits);
  return parsed > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : parsed;
}

/** Compares two decimal digit strings exactly (leading zeros allowed), without rounding. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The inclusive bytes a range selects from an object of `objectSize` bytes (RFC 9110 §14.1.1),
 * or undefined when unsatisfiable: first ≥ size, or a suffix of length 0. last is clamped to
 * size − 1 and a suffix longer than the object selects all of it. cdnsim reading: for an
 * empty object RFC 9110 still calls a non-zero suffix satisfiable, but there is no byte to
 * serve as partial content, so this returns undefined and the caller serves the whole (empty)
 * representation.
 */
export function resolveRange(spec: ByteRangeSpec, objectSize: number): { first: number; last: number } | undefined {
  requireCount('objectSize', objectSize);
  if (objectSize === 0) return undefined;
  switch (spec.kind) {
    case 'closed':
      requireCount('first', spec.first);
      requireCount('last', spec.last);
      requireOrdered(spec.first, spec.last);
      return spec.first >= objectSize ? undefined : { first: spec.first, last: Math.min(spec.last, objectSize - 1) };
    case 'open':
      requireCount('first', spec.first);
      return spec.first >= objectSize ? undefined : { first: spec.first, last: objectSize - 1 };
    case 'suffix':
      requireCount('length', spec.length);
      return spec.length === 0 ? undefined : { first: Math.max(0, objectSize - spec.length), last: objectSize - 1 };
  }
}

/** spec 4.8: how many chunks an object is split into; 0 for an empty object. */
export function chunkCount(objectSize: number, chunkSize: number = CHUNK_SIZE_BYTES): number {
  requireCount('objectSize', objectSize);
  requireChunkSize(chunkSize);
  return Math.ceil(objectSize / chunkSize);
}

/** spec 4.8: inclusive bytes of chunk `index`; the last chunk may be shorter than chunkSize. */
export function chunkBounds(
  index: number,
  objectSize: number,
  chunkSize: number = CHUNK_SIZE_BYTES,
): { first: number; last: number; size: number } {
  const count = chunkCount(objectSize, chunkSize);
  requireCount('index', index);
  if (index >= count) {
    throw new RangeError(`chunk index ${index} is out of range: an object of ${objectSize} bytes has ${count} chunks of ${chunkSize} bytes`);
  }
  const first = index * chunkSize;
  const last = Math.min(first + chunkSize, objectSize) - 1;
  return { first, last, size: last - first + 1 };
}

/** spec 4.8: the first and last chunk (inclusive) that hold bytes first..last. */
export function chunksForRange(
  first: number,
  last: number,
  chunkSize: number = CHUNK_SIZE_BYTES,
): { firstChunk: number; lastChunk: number } {
  requireCount('first', first);
  requireCount('last', last);
  requireOrdered(first, last);
  requireChunkSize(chunkSize);
  return { firstChunk: Math.floor(first / chunkSize), lastChunk: Math.floor(last / chunkSize) };
}

/**
 * spec 4.8: how many bytes of the first and of the last needed chunk the client receives for
 * bytes first..last (inclusive; last < objectSize, i.e. a resolved range). When the range lies
 * in one chunk, that chunk is both first and last and both counts equal totalBytes. Chunks in
 * between are served whole.
 */
export function servedBytesPerChunk(
  first: number,
  last: number,
  objectSize: number,
  chunkSize: number = CHUNK_SIZE_BYTES,
): { firstChunkBytes: number; lastChunkBytes: number; totalBytes: number; chunks: number } {
  requireCount('objectSize', objectSize);
  const { firstChunk, lastChunk } = chunksForRange(first, last, chunkSize);
  if (last >= objectSize) {
    throw new RangeError(`last byte ${last} is outside an object of ${objectSize} bytes; resolve the range first`);
  }
  const totalBytes = last - first + 1;
  if (firstChunk === lastChunk) return { firstChunkBytes: totalBytes, lastChunkBytes: totalBytes, totalBytes, chunks: 1 };
  return {
    firstChunkBytes: (firstChunk + 1) * chunkSize - first,
    lastChunkBytes: last - lastChunk * chunkSize + 1,
    totalBytes,
    chunks: lastChunk - firstChunk + 1,
  };
}

function requireCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

function requireChunkSize(chunkSize: number): void {
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0) {
    throw new RangeError(`chunkSize must be a positive integer (bytes), got ${chunkSize}`);
  }
}

function requireOrdered(first: number, last: number): void {
  if (first > last) throw new RangeError(`first byte ${first} is after last byte ${last}`);
}

/** What a `Range` request needs from a chunked object (spec 4.8). */
export interface RangePlan {
  readonly objectBytes: number;
  readonly chunkBytes: number;
  /** Chunks the whole object is cached as. */
  readonly chunkCount: number;
  /** Each requested range, resolved, with the chunks it needs. */
  readonly ranges: readonly { first: number; last: number; firstChunk: number; lastChunk: number; bytes: number }[];
  /** Distinct chunks the request needs, all ranges together. */
  readonly chunksNeeded: number;
}

/**
 * spec 4.8 for one request: which 5 MB chunks `Range: bytes=…` needs from an object of
 * `objectSize` bytes. `invalid` when the header is not a byte-range set (the range is then
 * ignored, RFC 9110 §14.2); `unsatisfiable` when no range overlaps the object (416, RFC 9110 §14.1.1).
 */
export function planRange(rangeHeader: string, objectSize: number, chunkSize: number = CHUNK_SIZE_BYTES): RangePlan | 'invalid' | 'unsatisfiable' {
  const specs = parseRangeHeader(rangeHeader);
  if (specs === undefined) return 'invalid';
  const ranges: { first: number; last: number; firstChunk: number; lastChunk: number; bytes: number }[] = [];
  const needed = new Set<number>();
  for (const spec of specs) {
    const resolved = resolveRange(spec, objectSize);
    if (!resolved) continue;
    const { firstChunk, lastChunk } = chunksForRange(resolved.first, resolved.last, chunkSize);
    for (let chunk = firstChunk; chunk <= lastChunk; chunk++) needed.add(chunk);
    ranges.push({ ...resolved, firstChunk, lastChunk, bytes: resolved.last - resolved.first + 1 });
  }
  if (ranges.length === 0) return 'unsatisfiable';
  return { objectBytes: objectSize, chunkBytes: chunkSize, chunkCount: chunkCount(objectSize, chunkSize), ranges, chunksNeeded: needed.size };
}
