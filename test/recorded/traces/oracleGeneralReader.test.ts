import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/userError.js';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, TraceError } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, fixture, oracleGeneralBytes, readTrace, scratchDirectory } from './helpers.js';

const write = scratchDirectory();
const TRUNCATED = fixture('truncated.oracleGeneral.bin');
const TRUNCATION = 'truncated record: expected 24 bytes, found 10 before the end of the file (a partial copy or download?)';

describe('oracleGeneral reader', () => {
  it('refuses a truncated file at open, naming the record and its byte offset', () => {
    const error = errorOf(() => openTrace(TRUNCATED));
    expect(error).toBeInstanceOf(TraceError);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(`${TRUNCATED}: record 3 (byte offset 72): ${TRUNCATION}. Pass --skip-bad N to skip up to N malformed records.`);
    expect((error as TraceError).line).toBe(3);
  });

  it('skips the partial record under skipBad and reports it', () => {
    const reader = openTrace(TRUNCATED, { skipBad: 1 });
    const batch = new TraceBatch(16);
    expect(reader.next(batch)).toBe(3);
    expect([...batch.timeSeconds.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect([...batch.idLow.subarray(0, 3)]).toEqual([100, 101, 100]);
    expect([...batch.sizes.subarray(0, 3)]).toEqual([2048, 512, 2048]);
    expect([...batch.nextAccess.subarray(0, 3)]).toEqual([3, -1, -1]);
    expect(reader.next(batch)).toBe(0);
    expect(reader.skippedCount).toBe(1);
    expect(reader.skipped).toEqual([{ line: 3, problem: TRUNCATION }]);
    expect(reader.bytesRead).toBe(82);
  });

  it('decodes 64-bit ids exactly, sizes up to 2^32−1 and zero, and next access beyond 2^32', () => {
    const file = write(
      'wide.oracleGeneral.bin',
      oracleGeneralBytes([
        [0, 2n ** 64n - 1n, 4294967295, 2n ** 40n + 3n],
        [4294967295, 2n ** 53n + 1n, 0, -1n],
        [7, 0n, 1, 2n ** 63n - 1n], // INT64_MAX: "never", as libCacheSim reads it
      ]),
    );
    const decoded = readTrace(file);
    expect(decoded.ids).toEqual([2n ** 64n - 1n, 2n ** 53n + 1n, 0n]);
    expect(decoded.times).toEqual([0, 4294967295, 7]);
    expect(decoded.sizes).toEqual([4294967295, 0, 1]);
    expect(decoded.nextAccess).toEqual([2 ** 40 + 3, -1, -1]);
  });

  it('treats a next access below −1 as malformed', () => {
    const file = write('negative.oracleGeneral.bin', oracleGeneralBytes([[1, 5n, 10, -1n], [2, 6n, 10, -7n], [3, 5n, 10, -1n]]));
    expect(errorOf(() => readTrace(file)).message).toBe(
      `${file}: record 1 (byte offset 24): next_access_vtime is -7; expected the index of the next request or −1. Pass --skip-bad N to skip up to N malformed records.`,
    );
    const reader = openTrace(file, { skipBad: 5 });
    const batch = new TraceBatch();
    expect(reader.next(batch)).toBe(2);
    expect([...batch.timeSeconds.subarray(0, 2)]).toEqual([1, 3]);
    expect(reader.skipped).toEqual([{ line: 1, problem: 'next_access_vtime is -7; expected the index of the next request or −1' }]);
  });

  it('says which text format a .bin file that holds text looks like', () => {
    const file = write('trace.bin', '5633898 42932745 512\n5633898 42932746 512\n');
    const error = errorOf(() => openTrace(file));
    expect(error).toBeInstanceOf(TraceError);
    expect(error.message).toBe(
      `${file}: expected a libCacheSim oracleGeneral binary trace (24-byte binary records), found text; it looks like webcachesim text ("time id size" per line): pass --format webcachesim`,
    );
  });

  it('reads an empty file as an empty trace', () => {
    const reader = openTrace(write('empty.bin', ''));
    expect(reader.next(new TraceBatch())).toBe(0);
    expect(reader.fileBytes).toBe(0);
    expect(reader.hasNextAccess).toBe(true);
    expect(reader.hasSizes).toBe(true);
  });

  it('returns 0 after close, and close is idempotent', () => {
    const reader = openTrace(fixture('cloudPhysicsIO.oracleGeneral.bin'));
    const batch = new TraceBatch(10);
    expect(reader.next(batch)).toBe(10);
    reader.close();
    reader.close();
    expect(reader.next(batch)).toBe(0);
    expect(batch.count).toBe(0);
  });

  it('reads records cut across read blocks, with a trailing partial record skipped at the end', () => {
    const records = Array.from({ length: 50 }, (_, i) => [i, BigInt(i % 7), 100 + i, -1n] as const);
    const bytes = oracleGeneralBytes(records);
    const file = write('blocks.bin', Buffer.concat([bytes, Buffer.alloc(5)]));
    const decoded = readTrace(file, { blockBytes: 50, skipBad: 1 }, 3);
    expect(decoded.times).toEqual(records.map((r) => r[0]));
    expect(decoded.sizes).toEqual(records.map((r) => r[2]));
  });
});
