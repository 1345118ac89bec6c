import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CHUNK_SIZE_BYTES,
  planRange,
  chunkBounds,
  chunkCount,
  chunksForRange,
  parseRangeHeader,
  resolveRange,
  servedBytesPerChunk,
  type ByteRangeSpec,
} from '../../src/policy/ranges.js';

const FC_OPTIONS = { numRuns: 300, seed: 5_000_000 };

// Any UTF-16 code unit (lone surrogates and controls included) mixed with tokens that make
// near-valid inputs likely. Cheaper to set up than fast-check's 'binary' unit tables.
const arbitraryText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    fc.constantFrom(...['bytes=', '-', ',', ' ', '0', '9', '99999999999999999999']),
  ),
  maxLength: 40,
});
const MB = 1_000_000;

describe('CHUNK_SIZE_BYTES', () => {
  it('spec 4.8 / spec 8: 5 MB chunks, MB = 10^6 bytes', () => {
    expect(CHUNK_SIZE_BYTES).toBe(5_000_000);
  });
});

describe('parseRangeHeader (RFC 9110 §14.1.2)', () => {
  it.each<[string, string, ByteRangeSpec[] | undefined]>([
    ['spec 4.8: bytes=0-0 is the first byte', 'bytes=0-0', [{ kind: 'closed', first: 0, last: 0 }]],
    ['spec 4.8: bytes=0-4999999 is exactly chunk 0', 'bytes=0-4999999', [{ kind: 'closed', first: 0, last: 4_999_999 }]],
    ['spec 4.8: bytes=4999999-5000000', 'bytes=4999999-5000000', [{ kind: 'closed', first: 4_999_999, last: 5_000_000 }]],
    ['RFC 9110 §14.1.2: suffix range bytes=-500', 'bytes=-500', [{ kind: 'suffix', length: 500 }]],
    ['RFC 9110 §14.1.2: open range bytes=10000000-', 'bytes=10000000-', [{ kind: 'open', first: 10_000_000 }]],
    ['RFC 9110 §14.1.2: several ranges, OWS around commas', 'bytes=0-99, 200-299 ,-10', [
      { kind: 'closed', first: 0, last: 99 },
      { kind: 'closed', first: 200, last: 299 },
      { kind: 'suffix', length: 10 },
    ]],
    ['RFC 9110 §5.6.1: empty list members are ignored', 'bytes=,0-1,,', [{ kind: 'closed', first: 0, last: 1 }]],
    ['RFC 9110 §14.1: the unit is case-insensitive', 'Bytes=0-1', [{ kind: 'closed', first: 0, last: 1 }]],
    ['RFC 9110 §14.1.2: leading zeros are digits', 'bytes=007-010', [{ kind: 'closed', first: 7, last: 10 }]],
    ['RFC 9110 §14.1.2: bytes=-0 parses (it is unsatisfiable, not malformed)', 'bytes=-0', [{ kind: 'suffix', length: 0 }]],
    ['RFC 9110 §14.1.2: huge last-pos is clamped to 2^53-1', 'bytes=0-99999999999999999999', [{ kind: 'closed', first: 0, last: Number.MAX_SAFE_INTEGER }]],
    ['RFC 9110 §14.1.1: bytes=5-1 (last < first) is invalid', 'bytes=5-1', undefined],
    ['RFC 9110 §14.1.1: huge last < huge first is invalid (exact compare)', 'bytes=99999999999999999999-99999999999999999998', undefined],
    ['RFC 9110 §14.1: another unit, items=0-1', 'items=0-1', undefined],
    ['RFC 9110 §14.1.2: bytes=a-b is not a range', 'bytes=a-b', undefined],
    ['RFC 9110 §14.1.2: no ranges at all', 'bytes=', undefined],
    ['RFC 9110 §14.1.2: a bare dash', 'bytes=-', undefined],
    ['RFC 9110 §14.1.2: one bad member spoils the set', 'bytes=0-1,x', undefined],
    ['RFC 9110 §14.1.2: negative numbers', 'bytes=-5-10', undefined],
    ['RFC 9110 §14.1.2: no whitespace inside a range', 'bytes=0 - 1', undefined],
    ['RFC 9110 §14.1.2: decimals are not digits', 'bytes=0.5-1', undefined],
    ['RFC 9110 §14.1.2: missing "="', 'bytes 0-1', undefined],
    ['RFC 9110 §14.1.2: empty header', '', undefined],
  ])('%s', (_name, header, expected) => {
    expect(parseRangeHeader(header)).toEqual(expected);
  });

  it('RFC 9110 §14.2: never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(arbitraryText, fc.string().map((s) => `bytes=${s}`)), (header) => {
        const parsed = parseRangeHeader(header);
        expect(parsed === undefined || parsed.length > 0).toBe(true);
      }),
      FC_OPTIONS,
    );
  });

  const position = fc.nat({ max: Number.MAX_SAFE_INTEGER });
  const rangeSpec: fc.Arbitrary<ByteRangeSpec> = fc.oneof(
    fc.tuple(position, position).map(([a, b]): ByteRangeSpec => ({ kind: 'closed', first: Math.min(a, b), last: Math.max(a, b) })),
    position.map((first): ByteRangeSpec => ({ kind: 'open', first })),
    position.map((length): ByteRangeSpec => ({ kind: 'suffix', length })),
  );
  const format = (spec: ByteRangeSpec): string =>
    spec.kind === 'closed' ? `${spec.first}-${spec.last}` : spec.kind === 'open' ? `${spec.first}-` : `-${spec.length}`;

  it('RFC 9110 §14.1.2: round-trips generated valid range sets', () => {
    fc.assert(
      fc.property(
        fc.array(rangeSpec, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('bytes', 'BYTES', 'Bytes'),
        fc.constantFrom(',', ', ', ' ,', ',\t'),
        (specs, unit, separator) => {
          expect(parseRangeHeader(`${unit}=${specs.map(format).join(separator)}`)).toEqual(specs);
        },
      ),
      FC_OPTIONS,
    );
  });
});

describe('resolveRange (RFC 9110 §14.1.1)', () => {
  const size12MB = 12 * MB;
  it.each<[string, ByteRangeSpec, number, { first: number; last: number } | undefined]>([
    ['RFC 9110 §14.1.1: bytes=0-0', { kind: 'closed', first: 0, last: 0 }, size12MB, { first: 0, last: 0 }],
    ['RFC 9110 §14.1.1: bytes=-500 on a 12 MB object is its last 500 bytes', { kind: 'suffix', length: 500 }, size12MB, { first: 11_999_500, last: 11_999_999 }],
    ['RFC 9110 §14.1.1: bytes=10000000- on a 12 MB object', { kind: 'open', first: 10 * MB }, size12MB, { first: 10_000_000, last: 11_999_999 }],
    ['RFC 9110 §14.1.1: last clamped to size - 1', { kind: 'closed', first: 11_999_000, last: 99 * MB }, size12MB, { first: 11_999_000, last: 11_999_999 }],
    ['RFC 9110 §14.1.1: suffix longer than the object = whole object', { kind: 'suffix', length: 20 * MB }, size12MB, { first: 0, last: 11_999_999 }],
    ['RFC 9110 §14.1.1: first = size is unsatisfiable', { kind: 'closed', first: size12MB, last: size12MB + 5 }, size12MB, undefined],
    ['RFC 9110 §14.1.1: open range past the end is unsatisfiable', { kind: 'open', first: 13 * MB }, size12MB, undefined],
    ['RFC 9110 §14.1.1: suffix length 0 is unsatisfiable', { kind: 'suffix', length: 0 }, size12MB, undefined],
    ['cdnsim reading: an empty object has no partial content', { kind: 'suffix', length: 10 }, 0, undefined],
    ['RFC 9110 §14.1.1: last byte only', { kind: 'closed', first: 11_999_999, last: 11_999_999 }, size12MB, { first: 11_999_999, last: 11_999_999 }],
  ])('%s', (_name, spec, size, expected) => {
    expect(resolveRange(spec, size)).toEqual(expected);
  });

  it('rejects bad arguments with a RangeError', () => {
    expect(() => resolveRange({ kind: 'open', first: 0 }, -1)).toThrow(RangeError);
    expect(() => resolveRange({ kind: 'open', first: 0 }, 1.5)).toThrow(/objectSize must be a non-negative integer/);
    expect(() => resolveRange({ kind: 'closed', first: 5, last: 1 }, 10)).toThrow(/first byte 5 is after last byte 1/);
    expect(() => resolveRange({ kind: 'suffix', length: -1 }, 10)).toThrow(RangeError);
  });
});

describe('chunk arithmetic (spec 4.8)', () => {
  it.each<[number, number]>([
    [0, 0],
    [1, 1],
    [4_999_999, 1],
    [5_000_000, 1],
    [5_000_001, 2],
    [12 * MB, 3],
    [15 * MB, 3],
  ])('spec 4.8: an object of %i bytes has %i chunks of 5 MB', (size, expected) => {
    expect(chunkCount(size)).toBe(expected);
  });

  it('spec 4.8: chunk bounds of a 12 MB object; the last chunk is short', () => {
    expect(chunkBounds(0, 12 * MB)).toEqual({ first: 0, last: 4_999_999, size: 5_000_000 });
    expect(chunkBounds(1, 12 * MB)).toEqual({ first: 5_000_000, last: 9_999_999, size: 5_000_000 });
    expect(chunkBounds(2, 12 * MB)).toEqual({ first: 10_000_000, last: 11_999_999, size: 2_000_000 });
    expect(() => chunkBounds(3, 12 * MB)).toThrow(/chunk index 3 is out of range: an object of 12000000 bytes has 3 chunks/);
  });

  it.each<[string, number, number, { firstChunk: number; lastChunk: number }]>([
    ['spec 4.8: bytes=0-0 needs chunk 0', 0, 0, { firstChunk: 0, lastChunk: 0 }],
    ['spec 4.8: bytes=0-4999999 is exactly chunk 0', 0, 4_999_999, { firstChunk: 0, lastChunk: 0 }],
    ['spec 4.8: bytes=4999999-5000000 spans chunks 0 and 1', 4_999_999, 5_000_000, { firstChunk: 0, lastChunk: 1 }],
    ['spec 4.8: bytes=10000000- on 12 MB needs chunk 2 only', 10 * MB, 12 * MB - 1, { firstChunk: 2, lastChunk: 2 }],
    ['spec 4.8: bytes=-500 on 12 MB needs chunk 2 only', 11_999_500, 11_999_999, { firstChunk: 2, lastChunk: 2 }],
  ])('%s', (_name, first, last, expected) => {
    expect(chunksForRange(first, last)).toEqual(expected);
  });

  it.each<[string, number, number, number, { firstChunkBytes: number; lastChunkBytes: number; totalBytes: number; chunks: number }]>([
    ['spec 4.8: bytes=0-0 serves 1 byte of chunk 0', 0, 0, 12 * MB, { firstChunkBytes: 1, lastChunkBytes: 1, totalBytes: 1, chunks: 1 }],
    ['spec 4.8: bytes=0-4999999 serves chunk 0 whole', 0, 4_999_999, 12 * MB, { firstChunkBytes: 5_000_000, lastChunkBytes: 5_000_000, totalBytes: 5_000_000, chunks: 1 }],
    ['spec 4.8: bytes=4999999-5000000 serves 1 byte of each of two chunks', 4_999_999, 5_000_000, 12 * MB, { firstChunkBytes: 1, lastChunkBytes: 1, totalBytes: 2, chunks: 2 }],
    ['spec 4.8: bytes=1000-10999999 spans three chunks', 1_000, 10_999_999, 12 * MB, { firstChunkBytes: 4_999_000, lastChunkBytes: 1_000_000, totalBytes: 10_999_000, chunks: 3 }],
    ['spec 4.8: whole 12 MB object', 0, 11_999_999, 12 * MB, { firstChunkBytes: 5_000_000, lastChunkBytes: 2_000_000, totalBytes: 12_000_000, chunks: 3 }],
  ])('%s', (_name, first, last, size, expected) => {
    expect(servedBytesPerChunk(first, last, size)).toEqual(expected);
  });

  it('validates arguments with clear RangeErrors', () => {
    expect(() => chunkCount(-1)).toThrow(/objectSize must be a non-negative integer, got -1/);
    expect(() => chunkCount(10, 0)).toThrow(/chunkSize must be a positive integer/);
    expect(() => chunkCount(Number.NaN)).toThrow(RangeError);
    expect(() => chunksForRange(10, 5)).toThrow(/first byte 10 is after last byte 5/);
    expect(() => chunksForRange(0.5, 5)).toThrow(RangeError);
    expect(() => chunkBounds(-1, 10)).toThrow(RangeError);
    expect(() => servedBytesPerChunk(0, 12 * MB, 12 * MB)).toThrow(/last byte 12000000 is outside an object of 12000000 bytes/);
  });

  // Small chunk sizes make multi-chunk cases common without large numbers.
  const objectAndRange = fc
    .record({ size: fc.integer({ min: 1, max: 10_000 }), chunk: fc.integer({ min: 1, max: 700 }), a: fc.nat(), b: fc.nat() })
    .map(({ size, chunk, a, b }) => {
      const x = a % size;
      const y = b % size;
      return { size, chunk, first: Math.min(x, y), last: Math.max(x, y) };
    });

  it('spec 4.8: chunk sizes sum to objectSize and chunks tile it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 60 }), (size, parts) => {
        const chunk = Math.max(1, Math.ceil(size / parts)); // at most 60 chunks per run
        let next = 0;
        let total = 0;
        for (let i = 0; i < chunkCount(size, chunk); i++) {
          const bounds = chunkBounds(i, size, chunk);
          expect(bounds.first).toBe(next);
          expect(bounds.size).toBeGreaterThan(0);
          expect(bounds.size).toBeLessThanOrEqual(chunk);
          next = bounds.last + 1;
          total += bounds.size;
        }
        expect(total).toBe(size);
      }),
      FC_OPTIONS,
    );
  });

  it('spec 4.8: needed chunks cover exactly [first, last]', () => {
    fc.assert(
      fc.property(objectAndRange, ({ size, chunk, first, last }) => {
        const { firstChunk, lastChunk } = chunksForRange(first, last, chunk);
        const start = chunkBounds(firstChunk, size, chunk);
        const end = chunkBounds(lastChunk, size, chunk);
        expect(start.first).toBeLessThanOrEqual(first);
        expect(first).toBeLessThanOrEqual(start.last);
        expect(end.first).toBeLessThanOrEqual(last);
        expect(last).toBeLessThanOrEqual(end.last);
      }),
      FC_OPTIONS,
    );
  });

  it('spec 4.8: served bytes = last − first + 1, split over first, middle and last chunks', () => {
    fc.assert(
      fc.property(objectAndRange, ({ size, chunk, first, last }) => {
        const served = servedBytesPerChunk(first, last, size, chunk);
        expect(served.totalBytes).toBe(last - first + 1);
        const { firstChunk, lastChunk } = chunksForRange(first, last, chunk);
        expect(served.chunks).toBe(lastChunk - firstChunk + 1);
        if (served.chunks === 1) {
          expect(served.firstChunkBytes).toBe(served.totalBytes);
          expect(served.lastChunkBytes).toBe(served.totalBytes);
        } else {
          let middle = 0;
          for (let i = firstChunk + 1; i < lastChunk; i++) middle += chunkBounds(i, size, chunk).size;
          expect(served.firstChunkBytes + middle + served.lastChunkBytes).toBe(served.totalBytes);
          expect(served.firstChunkBytes).toBe(chunkBounds(firstChunk, size, chunk).last - first + 1);
          expect(served.lastChunkBytes).toBe(last - chunkBounds(lastChunk, size, chunk).first + 1);
        }
      }),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §14.1.1 + spec 4.8: a resolved range never needs a chunk past the end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 * MB }), fc.nat({ max: 40 * MB }), fc.nat({ max: 40 * MB }), (size, a, b) => {
        const resolved = resolveRange({ kind: 'closed', first: Math.min(a, b), last: Math.max(a, b) }, size);
        if (resolved === undefined) {
          expect(Math.min(a, b)).toBeGreaterThanOrEqual(size);
          return;
        }
        const { lastChunk } = chunksForRange(resolved.first, resolved.last);
        expect(lastChunk).toBeLessThan(chunkCount(size));
        expect(servedBytesPerChunk(resolved.first, resolved.last, size).totalBytes).toBe(resolved.last - resolved.first + 1);
      }),
      FC_OPTIONS,
    );
  });
});

describe('planRange (spec 4.8: the chunks one Range request needs)', () => {
  it('spec 4.8: two ranges in the same chunk need it once; a suffix range needs the last chunk', () => {
    expect(planRange('bytes=0-99, 200-299, -10', 12_000_000)).toEqual({
      objectBytes: 12_000_000,
      chunkBytes: CHUNK_SIZE_BYTES,
      chunkCount: 3,
      ranges: [
        { first: 0, last: 99, firstChunk: 0, lastChunk: 0, bytes: 100 },
        { first: 200, last: 299, firstChunk: 0, lastChunk: 0, bytes: 100 },
        { first: 11_999_990, last: 11_999_999, firstChunk: 2, lastChunk: 2, bytes: 10 },
      ],
      chunksNeeded: 2,
    });
  });

  it('RFC 9110 §14.2 / §14.1.1: invalid and unsatisfiable sets', () => {
    expect(planRange('items=0-1', 100)).toBe('invalid');
    expect(planRange('bytes=100-', 100)).toBe('unsatisfiable');
  });
});
