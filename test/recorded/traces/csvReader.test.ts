import { describe, expect, it } from 'vitest';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, TraceError } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, fixture, readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const NEGATIVE_SIZE = fixture('negative-size.csv');
const SKIP_HINT = 'Pass --skip-bad N to skip up to N malformed lines.';

describe('csv reader', () => {
  it('stops at a negative size with file:line, column, expectation and finding', () => {
    const error = errorOf(() => readTrace(NEGATIVE_SIZE));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(`${NEGATIVE_SIZE}:3: column 3: size "-300" is negative; sizes are bytes ≥ 0. ${SKIP_HINT}`);
  });

  it('skips it under skipBad; string ids are interned densely in order of appearance', () => {
    const reader = openTrace(NEGATIVE_SIZE, { skipBad: 1 });
    expect(reader.hasSizes).toBe(true);
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(3);
    expect([...batch.idLow.subarray(0, 3)]).toEqual([0, 0, 1]);
    expect([...batch.idHigh.subarray(0, 3)]).toEqual([0, 0, 0]);
    expect([...batch.timeSeconds.subarray(0, 3)]).toEqual([1, 3, 4]);
    expect([...batch.sizes.subarray(0, 3)]).toEqual([5120, 5120, 900]);
    expect(reader.objectName?.(0, 0)).toBe('a.html');
    expect(reader.objectName?.(1, 0)).toBe('c.js');
    expect(reader.objectName?.(2, 0)).toBeUndefined();
    expect(reader.skipped).toEqual([{ line: 3, problem: 'column 3: size "-300" is negative; sizes are bytes ≥ 0' }]);
  });

  it('takes explicit 1-based columns, with or without a header, and any one-character delimiter', () => {
    const withHeader = write('a.csv', 'op|key|bytes|t\nget|7|100|0.5\nset|8|200|1.5\n');
    const decoded = readTrace(withHeader, { csv: { delimiter: '|', idColumn: 2, sizeColumn: 3, timeColumn: 4 } });
    expect(decoded.ids).toEqual([7n, 8n]);
    expect(decoded.sizes).toEqual([100, 200]);
    expect(decoded.times).toEqual([0.5, 1.5]);
    const noHeader = write('b.csv', '0.5\t7\t100\n1.5\t8\t200\n');
    expect(readTrace(noHeader, { csv: { delimiter: '\t', timeColumn: 1, idColumn: 2, sizeColumn: 3, header: false } })).toMatchObject({
      ids: [7n, 8n],
      sizes: [100, 200],
      times: [0.5, 1.5],
    });
  });

  it('detects a header (a first line without numbers) and finds columns by its names', () => {
    const file = write('named.csv', 'Timestamp, Obj-ID ,obj_size,extra\n10,5,300,x\n11,6,400,y\n');
    const reader = openTrace(file);
    expect((reader as unknown as { options: unknown }).options).toEqual({ timeColumn: 1, idColumn: 2, sizeColumn: 3, header: true, delimiter: ',' });
    reader.close();
    expect(readTrace(file).ids).toEqual([5n, 6n]);
  });

  it('without a time column uses the request index, without a size column 1 byte', () => {
    const file = write('ids.csv', 'key\nx\ny\n\nx\nz\n');
    const reader = openTrace(file);
    expect(reader.hasSizes).toBe(false);
    const batch = new TraceBatch(2);
    const times: number[] = [];
    const ids: number[] = [];
    while (reader.next(batch) > 0) {
      for (let i = 0; i < batch.count; i++) {
        times.push(batch.timeSeconds[i]);
        ids.push(batch.idLow[i]);
        expect(batch.sizes[i]).toBe(1);
      }
    }
    expect(times).toEqual([0, 1, 2, 3]);
    expect(ids).toEqual([0, 1, 0, 2]);
  });

  it('reads quoted fields, "" inside them, blanks around fields and CRLF', () => {
    const file = write('quoted.csv', 'time,url,size\r\n1, "/a,b" ,10\r\n2,"/say ""hi""",20\r\n3,"/a,b",30\r\n4,"42",40\r\n');
    const reader = openTrace(file);
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(4);
    expect([...batch.idLow.subarray(0, 4)]).toEqual([0, 1, 0, 2]);
    expect(reader.objectName?.(0, 0)).toBe('/a,b');
    expect(reader.objectName?.(1, 0)).toBe('/say "hi"');
    expect(reader.objectName?.(2, 0)).toBe('42');
    expect([...batch.sizes.subarray(0, 4)]).toEqual([10, 20, 30, 40]);
  });

  it('asks for the id column when it cannot find it, listing the header', () => {
    const file = write('unknown.csv', 'when,what,how_big\n1,a,2\n');
    expect(errorOf(() => openTrace(file)).message).toBe(
      `${file}: which CSV column holds the object id? Set the csv idColumn option (1-based); the header's columns are 1 when, 2 what, 3 how_big`,
    );
    const noHeader = write('unknown2.csv', '1,2,3\n');
    expect(errorOf(() => openTrace(noHeader)).message).toBe(
      `${noHeader}: which CSV column holds the object id? Set the csv idColumn option (1-based); the first line has 3 columns: "1,2,3"`,
    );
    expect(errorOf(() => openTrace(file, { csv: { idColumn: 9 } })).message).toBe(`${file}: csv idColumn is 9, but the header has 3 columns (when, what, how_big)`);
    expect(errorOf(() => openTrace(file, { csv: { idColumn: 0 } })).message).toBe(`${file}: csv idColumn must be a column number ≥ 1 (columns are 1-based), got 0`);
    expect(errorOf(() => openTrace(file, { csv: { idColumn: 2, delimiter: '::' } }))).toBeInstanceOf(TraceError);
  });

  it('names a line with too few columns, and a likely delimiter', () => {
    const file = write('short.csv', 'time,id,size\n1,2,3\n2;3;4\n');
    expect(errorOf(() => readTrace(file)).message).toBe(
      `${file}:3: expected 3 columns (id in column 2, size in column 3), found 1: "2;3;4" (the delimiter is ","; is it ";"?). ${SKIP_HINT}`,
    );
    const quote = write('quote.csv', 'time,id,size\n1,"abc,3\n');
    expect(errorOf(() => readTrace(quote)).message).toBe(`${quote}:2: unterminated quoted field in column 2: "1,\\"abc,3". ${SKIP_HINT}`);
  });

  it('keeps numeric and text ids apart: the first id decides, unless ids is "string"', () => {
    const file = write('mixed.csv', 'id,size\n7,1\n007,1\nabc,1\n');
    expect(errorOf(() => readTrace(file)).message).toBe(
      `${file}:4: column 1: id "abc" is not a number from 0 to 2^64−1, but the first id was numeric, so every id is read as a number (pass --ids string to read ids as text). ${SKIP_HINT}`,
    );
    const reader = openTrace(file, { ids: 'string' });
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(3);
    expect([...batch.idLow.subarray(0, 3)]).toEqual([0, 1, 2]);
    expect(reader.objectName?.(1, 0)).toBe('007');
    const textFirst = write('text-first.csv', 'id,size\nabc,1\n7,1\nabc,1\n');
    expect(readTrace(textFirst).ids).toEqual([0n, 1n, 0n]);
    expect(errorOf(() => readTrace(textFirst, { ids: 'numeric' })).message).toBe(
      `${textFirst}:2: column 1: id "abc" is not a number from 0 to 2^64−1 (ids are read as numbers). ${SKIP_HINT}`,
    );
  });

  it('reads the time column as fractional seconds and names bad times', () => {
    const file = write('times.csv', 'time,id\n0.25,1\n1e2,2\nnoon,3\n');
    expect(errorOf(() => readTrace(file)).message).toBe(`${file}:4: column 1: time "noon" is not a number of seconds (like 12 or 12.25). ${SKIP_HINT}`);
    expect(readTrace(file, { skipBad: 1 }).times).toEqual([0.25, 100]);
  });
});
