import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TraceError, type TraceFormat, type TraceReaderOptions } from '../../../src/recorded/traces/traceReader.js';
import { readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const RUNS = { numRuns: 150 };

/** Text with the characters traces are made of, often enough to get past the first line. */
const traceText = fc
  .array(
    fc.oneof(
      fc.constantFrom('0', '1', '9', ' ', '\t', '\n', '\r\n', ',', ';', '"', '.', '-', 'e', '+', 'a', 'é', '\u0000', '[', ']', '/', '18446744073709551616', '99999999999999999999999'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

const textOrBytes = fc.oneof(
  traceText.map((text) => Buffer.from(text, 'utf8')),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

const readerOptions: fc.Arbitrary<TraceReaderOptions> = fc.record({
  skipBad: fc.constantFrom(0, 1, 3, Infinity),
  blockBytes: fc.constantFrom(1, 7, 64, 4096),
});

describe('text readers on arbitrary input', () => {
  it.each([
    ['webcachesim', {}],
    ['txt', {}],
    ['csv', { csv: { idColumn: 2, timeColumn: 1, sizeColumn: 3 } }],
    ['csv', { csv: { idColumn: 1 }, ids: 'string' }],
    ['clf', {}],
  ] as [TraceFormat, TraceReaderOptions][])('%s throws nothing but TraceError (%j)', (format, extra) => {
    fc.assert(
      fc.property(textOrBytes, readerOptions, fc.integer({ min: 1, max: 9 }), (content, options, capacity) => {
        const file = write(`arbitrary.${format}`, content);
        try {
          const decoded = readTrace(file, { ...options, ...extra, format }, capacity);
          for (const size of decoded.sizes) expect(size >= 0).toBe(true);
          for (const time of decoded.times) expect(Number.isFinite(time) && (format === 'clf' || time >= 0)).toBe(true);
        } catch (error) {
          if (!(error instanceof TraceError)) throw error;
          expect(error.message.startsWith(file)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

interface Request {
  time: number;
  id: bigint;
  size: number;
}

const uint64 = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 1000n }), fc.constantFrom(0n, 2n ** 53n + 1n, 2n ** 64n - 1n));
const seconds = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 32 }),
  fc.double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true }).map((t) => (Object.is(t, -0) ? 0 : t)),
  fc.integer({ min: 0, max: 10_000_000 }).map((ms) => ms / 1000),
);
const request: fc.Arbitrary<Request> = fc.record({ time: seconds, id: uint64, size: fc.oneof(fc.nat(), fc.maxSafeNat()) });
const blanks = fc.constantFrom(' ', '\t', '  ', ' \t ');
const newline = fc.constantFrom('\n', '\r\n');

describe('round trips of generated valid traces', () => {
  it('webcachesim: 64-bit ids, fractional times, any blanks and line endings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(request, blanks, blanks, newline, fc.boolean()), { maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom(1, 5, 64, 1 << 20),
        (lines, capacity, blockBytes) => {
          const text = lines.map(([r, a, b, end, blankAfter]) => `${r.time}${a}${r.id}${b}${r.size}${end}${blankAfter ? end : ''}`).join('');
          const decoded = readTrace(write('generated.tr', text), { blockBytes }, capacity);
          expect(decoded.times).toEqual(lines.map(([r]) => r.time));
          expect(decoded.ids).toEqual(lines.map(([r]) => r.id));
          expect(decoded.sizes).toEqual(lines.map(([r]) => r.size));
        },
      ),
      RUNS,
    );
  });

  /** Ids a CSV or txt trace can hold: all numeric, or all text (characters that need quoting included). */
  const idList = fc.oneof(
    fc.array(uint64, { minLength: 1, maxLength: 30 }).map((ids) => ({ numeric: true as const, ids: ids.map(String) })),
    fc
      .array(fc.oneof(fc.constantFrom('/a', '/b?x=1', 'κλειδί', '/a', 'x'), fc.string({ minLength: 1, maxLength: 8 })), { minLength: 1, maxLength: 30 })
      .map((ids) => ({ numeric: false as const, ids: ids.map((id) => `k${id}`) })),
  );

  /** What a reader must return for these ids: the numbers, or dense numbers in order of first appearance. */
  function expectedIds(list: { numeric: boolean; ids: string[] }): bigint[] {
    if (list.numeric) return list.ids.map(BigInt);
    const dense = new Map<string, number>();
    return list.ids.map((id) => {
      if (!dense.has(id)) dense.set(id, dense.size);
      return BigInt(dense.get(id)!);
    });
  }

  it('csv: any column order, delimiter, header or not, quoted fields', () => {
    fc.assert(
      fc.property(
        idList,
        fc.constantFrom(',', '\t', ';', '|'),
        fc.boolean(),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom(3, 64, 1 << 20),
        fc.infiniteStream(fc.tuple(seconds, fc.maxSafeNat())),
        (list, delimiter, header, order, capacity, blockBytes, values) => {
          const columns = ['time', 'id', 'size', 'other'];
          const quote = (text: string) => (/["\n\r]/.test(text) || text.includes(delimiter) || text.trim() !== text || text === '' ? `"${text.replaceAll('"', '""')}"` : text);
          const rows = list.ids.map((id) => {
            const [time, size] = values.next().value as [number, number];
            return { fields: { time: String(time), id, size: String(size), other: 'x,"y"' } as Record<string, string>, time, size };
          });
          const lines = rows.map((row) => order.map((c) => quote(row.fields[columns[c]])).join(delimiter));
          if (header) lines.unshift(order.map((c) => columns[c]).join(delimiter));
          const csv = { delimiter, header, timeColumn: order.indexOf(0) + 1, idColumn: order.indexOf(1) + 1, sizeColumn: order.indexOf(2) + 1 };
          const decoded = readTrace(write('generated.csv', `${lines.join('\n')}\n`), { csv, blockBytes, ids: list.numeric ? 'auto' : 'string' }, capacity);
          expect(decoded.ids).toEqual(expectedIds(list));
          expect(decoded.times).toEqual(rows.map((row) => row.time));
          expect(decoded.sizes).toEqual(rows.map((row) => row.size));
        },
      ),
      RUNS,
    );
  });

  it('txt: numeric or text ids, one a line', () => {
    fc.assert(
      fc.property(
        idList.filter((list) => list.ids.every((id) => !/[\s]/.test(id))),
        newline,
        fc.integer({ min: 1, max: 10 }),
        (list, end, capacity) => {
          const decoded = readTrace(write('generated.txt', list.ids.join(end)), { ids: list.numeric ? 'auto' : 'string' }, capacity);
          expect(decoded.ids).toEqual(expectedIds(list));
          expect(decoded.times).toEqual(list.ids.map((_, i) => i));
        },
      ),
      RUNS,
    );
  });
});
