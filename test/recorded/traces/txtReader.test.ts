import { describe, expect, it } from 'vitest';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, TraceError } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, fixture, readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const TWO_FIELDS = fixture('two-fields.txt');

describe('txt reader', () => {
  it('reads one numeric id per line: 64-bit exact, blanks trimmed, blank lines and CRLF passed over', () => {
    const reader = openTrace(fixture('ids.txt'));
    expect(reader.format).toBe('txt');
    expect(reader.hasSizes).toBe(false);
    expect(reader.hasNextAccess).toBe(false);
    reader.close();
    const decoded = readTrace(fixture('ids.txt'), {}, 3);
    expect(decoded.ids).toEqual([42n, 7n, 42n, 2n ** 64n - 1n, 7n, 9007199254740993n, 1000000n]);
    // No times in the format: the request index, across batches.
    expect(decoded.times).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(decoded.sizes).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('stops at a line with more than one field', () => {
    const error = errorOf(() => readTrace(TWO_FIELDS));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(
      `${TWO_FIELDS}:3: expected one id per line, found several fields: "/img/a b.png". Pass --skip-bad N to skip up to N malformed lines.`,
    );
  });

  it('interns text ids under skipBad and names them', () => {
    const reader = openTrace(TWO_FIELDS, { skipBad: 1 });
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(3);
    expect([...batch.idLow.subarray(0, 3)]).toEqual([0, 1, 0]);
    expect([...batch.timeSeconds.subarray(0, 3)]).toEqual([0, 1, 2]);
    expect(reader.objectName?.(1, 0)).toBe('/about.html');
    expect(reader.skipped).toEqual([{ line: 3, problem: 'expected one id per line, found several fields: "/img/a b.png"' }]);
  });

  it('suggests webcachesim for "time id size" lines', () => {
    const file = write('trace.txt', '1 2 3\n');
    expect(errorOf(() => readTrace(file)).message).toBe(
      `${file}:1: expected one id per line, found several fields: "1 2 3". It looks like webcachesim text ("time id size" per line): pass --format webcachesim. Pass --skip-bad N to skip up to N malformed lines.`,
    );
  });

  it('reads UTF-8 ids byte for byte', () => {
    const file = write('utf8.txt', '/café\n/cafe\n/café\n/日本\n');
    const reader = openTrace(file);
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(4);
    expect([...batch.idLow.subarray(0, 4)]).toEqual([0, 1, 0, 2]);
    expect(reader.objectName?.(2, 0)).toBe('/日本');
  });
});
