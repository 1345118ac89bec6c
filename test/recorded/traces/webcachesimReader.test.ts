import { describe, expect, it } from 'vitest';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, TraceError } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, fixture, readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const MISSING_FIELD = fixture('missing-field.tr');
const SKIP_HINT = 'Pass --skip-bad N to skip up to N malformed lines.';

/** The message a one-bad-line webcachesim file gives, for the problem on its line 2. */
function problemOf(badLine: string): string {
  const file = write('bad.tr', `1 10 100\n${badLine}\n3 10 100\n`);
  const error = errorOf(() => readTrace(file));
  expect(error).toBeInstanceOf(TraceError);
  const prefix = `${file}:2: `;
  expect(error.message.startsWith(prefix)).toBe(true);
  expect(error.message.endsWith(`. ${SKIP_HINT}`)).toBe(true);
  return error.message.slice(prefix.length, -SKIP_HINT.length - 2);
}

describe('webcachesim reader', () => {
  it('stops at a line with a missing field with file:line, expectation and finding', () => {
    const error = errorOf(() => readTrace(MISSING_FIELD));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(`${MISSING_FIELD}:3: expected 3 fields "time id size", found 2: "3 102". ${SKIP_HINT}`);
    expect((error as TraceError).line).toBe(3);
  });

  it('skips it under skipBad and reports it', () => {
    const reader = openTrace(MISSING_FIELD, { skipBad: 1 });
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(3);
    expect([...batch.idLow.subarray(0, 3)]).toEqual([100, 101, 100]);
    expect([...batch.timeSeconds.subarray(0, 3)]).toEqual([1, 2, 4]);
    expect(reader.skipped).toEqual([{ line: 3, problem: 'expected 3 fields "time id size", found 2: "3 102"' }]);
    expect(reader.skippedCount).toBe(1);
  });

  it('says how many were skipped when more than skipBad lines are malformed', () => {
    const file = write('many-bad.tr', '1 1 1\nx 2 2\n3 3 3\n4 4 -4\n5 5 5\n6 6\n');
    const error = errorOf(() => readTrace(file, { skipBad: 2 }));
    expect(error.message).toBe(
      `${file}:6: expected 3 fields "time id size", found 2: "6 6". That is more than --skip-bad 2: 2 malformed lines were skipped before this one (the first at line 2).`,
    );
    const one = errorOf(() => readTrace(file, { skipBad: 1 }));
    expect(one.message).toBe(
      `${file}:4: size "-4" is negative; sizes are bytes ≥ 0. That is more than --skip-bad 1: 1 malformed line was skipped before this one (the first at line 2).`,
    );
  });

  it('names what is wrong with each field', () => {
    expect(problemOf('2 10 -5')).toBe('size "-5" is negative; sizes are bytes ≥ 0');
    expect(problemOf('2 10 1.5')).toBe('size "1.5" is not a whole number of bytes');
    expect(problemOf('2 10 12kB')).toBe('size "12kB" is not a number of bytes');
    expect(problemOf('12:00 10 5')).toBe('time "12:00" is not a number of seconds (like 12 or 12.25)');
    expect(problemOf('-3 10 5')).toBe('time "-3" is negative; times are seconds ≥ 0');
    expect(problemOf('2 abc 5')).toBe('id "abc" is not a number from 0 to 2^64−1');
    expect(problemOf('2 18446744073709551616 5')).toBe('id "18446744073709551616" is larger than 2^64−1');
    expect(problemOf('2')).toBe('expected 3 fields "time id size", found 1: "2"');
  });

  it('reads tabs and runs of blanks, CRLF, blank lines, a last line without newline, a BOM and extra columns', () => {
    const file = write('edge.tr', '\ufeff1\t10\t100\r\n\n   \r\n2   11  200 extra 7 features\n\t3 12 300  \n4 13 400');
    const decoded = readTrace(file);
    expect(decoded.times).toEqual([1, 2, 3, 4]);
    expect(decoded.ids).toEqual([10n, 11n, 12n, 13n]);
    expect(decoded.sizes).toEqual([100, 200, 300, 400]);
    expect(decoded.nextAccess.every(Number.isNaN)).toBe(true);
  });

  it('reads 64-bit ids exactly and fractional times as Number() does', () => {
    const times = ['0.1', '1700000000.123456', '12.', '.5', '1e3', '2.5E-3', '123456789012345678', '0.30000000000000004', '007'];
    const ids = ['18446744073709551615', '9007199254740993', '123456789012345', '1234567890123456', '0', '000000000000000000042', '4294967296', '4294967295', '1'];
    const file = write('exact.tr', times.map((t, i) => `${t} ${ids[i]} 1`).join('\n'));
    const decoded = readTrace(file);
    expect(decoded.times).toEqual(times.map(Number));
    expect(decoded.ids).toEqual(ids.map(BigInt));
  });

  it('suggests the right format when the first line is of another', () => {
    const file = write('trace.tr', 'time,id,size\n1,2,3\n');
    expect(errorOf(() => readTrace(file)).message).toBe(
      `${file}:1: expected 3 fields "time id size", found 1: "time,id,size". It looks like a CSV trace: pass --format csv. ${SKIP_HINT}`,
    );
  });

  it('keeps the first 100 skipped lines with details and counts the rest', () => {
    const lines: string[] = [];
    for (let i = 0; i < 150; i++) lines.push(`${i} ${i} 1`, `${i} ${i}`);
    const reader = openTrace(write('lots.tr', lines.join('\n')), { skipBad: Infinity });
    const batch = new TraceBatch(64);
    let total = 0;
    while (reader.next(batch) > 0) total += batch.count;
    expect(total).toBe(150);
    expect(reader.skippedCount).toBe(150);
    expect(reader.skipped.length).toBe(100);
    expect(reader.skipped[99].line).toBe(200);
  });

  it('refuses binary content and absurdly long lines', () => {
    const binary = write('binary.tr', Buffer.from([49, 32, 50, 32, 51, 10, 0, 0, 0, 1]));
    expect(errorOf(() => openTrace(binary)).message).toBe(
      `${binary}: the file contains NUL bytes: it is binary, not webcachesim text ("time id size" per line) (for a libCacheSim binary trace pass --format oracleGeneral)`,
    );
    const long = write('long.tr', `1 1 1\n${'9'.repeat((1 << 20) + 10)}\n`);
    const error = errorOf(() => readTrace(long));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(
      `${long}:2: line is longer than 1 MiB; this does not look like a text trace (for a libCacheSim binary trace pass --format oracleGeneral)`,
    );
  });
});
