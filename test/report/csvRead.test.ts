import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, typedRows } from '../../src/report/csvRead.js';
import { isUserError } from '../../src/userError.js';

/** RFC 4180 writing: a field with a comma, quote or line break is quoted, a quote doubled. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

describe('run-folder CSV reading (RFC 4180)', () => {
  it('property: any table written with RFC 4180 quoting reads back cell for cell, with \\n or \\r\\n line ends', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', 'é', '1', '.') });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), fc.infiniteStream(cell), (columns, rows, crlf, cells) => {
        const header = Array.from({ length: columns }, (_, i) => `c${i}`);
        const body = Array.from({ length: rows }, () => header.map(() => cells.next().value as string));
        // A one-column row of a single empty cell is indistinguishable from a blank line; the reader skips those.
        const data = columns === 1 ? body.filter((row) => row[0] !== '') : body;
        const eol = crlf ? '\r\n' : '\n';
        const text = [header, ...data].map((row) => row.map(field).join(',')).join(eol) + eol;
        const table = parseCsv(text, 'table.csv');
        expect(table.columns).toEqual(header);
        expect(table.records).toEqual(data.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]))));
      }),
      { numRuns: 300 },
    );
  });

  it('an empty cell is null ("not applicable" in the run-folder contract), a number parses, text stays text', () => {
    const rows = typedRows<{ layer: string; hit_ratio: number | null; requests: number }>('layer,requests,hit_ratio\nbrowser,0,\nedge,4055,0.3379\n', 'layers.csv', {
      text: ['layer'],
      numbers: ['requests', 'hit_ratio'],
    });
    expect(rows).toEqual([
      { layer: 'browser', requests: 0, hit_ratio: null },
      { layer: 'edge', requests: 4055, hit_ratio: 0.3379 },
    ]);
  });

  it('mistakes name the file, the line and what was expected', () => {
    const problems: [string, RegExp][] = [
      ['', /table.csv: the file is empty; expected a header row first/],
      ['a,b\n1\n', /table.csv, line 2: expected 2 fields as in the header, found 1/],
      ['a,b\n"1,2\n', /table.csv, line 3: a quoted field is not closed/],
    ];
    for (const [text, message] of problems) {
      const error = (() => {
        try {
          parseCsv(text, 'table.csv');
        } catch (caught) {
          return caught;
        }
      })();
      expect(isUserError(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
    expect(() => typedRows('a,b\nx,1\n', 'pops.csv', { text: ['a'], numbers: ['b'] })).not.toThrow();
    expect(() => typedRows('a,b\nx,ten\n', 'pops.csv', { text: ['a'], numbers: ['b'] })).toThrow(/pops.csv, line 2, column b: expected a number or an empty cell, found "ten"/);
  });
});
