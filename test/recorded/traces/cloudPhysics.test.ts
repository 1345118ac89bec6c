import { describe, expect, it } from 'vitest';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace } from '../../../src/recorded/traces/traceReader.js';
import type { TraceReaderOptions } from '../../../src/recorded/traces/traceReader.js';
import { CLOUD_PHYSICS } from './helpers.js';

/**
 * The CloudPhysics block-I/O sample from libCacheSim's data folder, in three encodings
 * (test/fixtures/traces/README.md). All three must decode to the same requests.
 */
interface Columns {
  times: Float64Array;
  /** Exact: every id here is below 2^53 (idNumber). */
  ids: Float64Array;
  sizes: Float64Array;
  nextAccess: Float64Array;
  status: Uint16Array;
  method: Uint8Array;
  batches: number;
}

/** The whole trace in typed arrays (113,872 requests: cheaper to compare than arrays of objects). */
function readColumns(file: string, options: TraceReaderOptions = {}, capacity = 65_536): Columns {
  const length = CLOUD_PHYSICS.requests;
  const out: Columns = {
    times: new Float64Array(length),
    ids: new Float64Array(length),
    sizes: new Float64Array(length),
    nextAccess: new Float64Array(length),
    status: new Uint16Array(length),
    method: new Uint8Array(length),
    batches: 0,
  };
  const reader = openTrace(file, options);
  const batch = new TraceBatch(capacity);
  let at = 0;
  let n: number;
  while ((n = reader.next(batch)) > 0) {
    if (at + n > length) throw new Error(`more than ${length} requests in ${file}`);
    for (let i = 0; i < n; i++) out.ids[at + i] = batch.idNumber(i);
    out.times.set(batch.timeSeconds.subarray(0, n), at);
    out.sizes.set(batch.sizes.subarray(0, n), at);
    out.nextAccess.set(batch.nextAccess.subarray(0, n), at);
    out.status.set(batch.status.subarray(0, n), at);
    out.method.set(batch.method.subarray(0, n), at);
    at += n;
    out.batches++;
  }
  expect(at).toBe(length);
  return out;
}

/** The first index where two sequences differ (NaN equals NaN), or -1. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

const bin = readColumns(CLOUD_PHYSICS.bin);
const tr = readColumns(CLOUD_PHYSICS.tr);
const csv = readColumns(CLOUD_PHYSICS.csv, { csv: CLOUD_PHYSICS.csvOptions });

/** Distinct objects and their bytes, each object counted at its first-seen size. */
function workingSet(decoded: Columns): { objects: number; bytes: number; firstSizes: Float64Array } {
  const seen = new Map<number, number>();
  const firstSizes = new Float64Array(decoded.ids.length);
  let bytes = 0;
  for (let i = 0; i < decoded.ids.length; i++) {
    let size = seen.get(decoded.ids[i]);
    if (size === undefined) {
      size = decoded.sizes[i];
      seen.set(decoded.ids[i], size);
      bytes += size;
    }
    firstSizes[i] = size;
  }
  return { objects: seen.size, bytes, firstSizes };
}

describe('the CloudPhysics sample trace', () => {
  it.each([
    ['oracleGeneral', bin],
    ['webcachesim', tr],
    ['csv', csv],
  ] as const)('%s: 113,872 requests, 48,974 objects, 2,029,769,728 distinct bytes', (_format, decoded) => {
    expect(decoded.ids.length).toBe(CLOUD_PHYSICS.requests);
    const set = workingSet(decoded);
    expect(set.objects).toBe(CLOUD_PHYSICS.objects);
    expect(set.bytes).toBe(CLOUD_PHYSICS.distinctBytes);
    // 7,200 s of trace time.
    expect(decoded.times[decoded.times.length - 1] - decoded.times[0]).toBe(7200);
  });

  it('decodes identical (id, first-seen size) sequences and times in all three encodings', () => {
    // The ids coincide: the binary's obj_id and the webcachesim id are the CSV's lbn column.
    expect(firstDifference(tr.ids, bin.ids)).toBe(-1);
    expect(firstDifference(csv.ids, bin.ids)).toBe(-1);
    const firstSizes = workingSet(bin).firstSizes;
    expect(firstDifference(workingSet(tr).firstSizes, firstSizes)).toBe(-1);
    expect(firstDifference(workingSet(csv).firstSizes, firstSizes)).toBe(-1);
    // The binary and webcachesim files already carry first-seen sizes; the CSV has the raw ones.
    expect(firstDifference(bin.sizes, firstSizes)).toBe(-1);
    expect(firstDifference(tr.sizes, firstSizes)).toBe(-1);
    expect(csv.sizes.filter((size, i) => size !== firstSizes[i]).length).toBe(13_671);
    for (const other of [tr.times, csv.times]) {
      let worst = 0;
      for (let i = 0; i < bin.times.length; i++) worst = Math.max(worst, Math.abs(other[i] - bin.times[i]));
      expect(worst).toBeLessThanOrEqual(1e-9);
    }
    expect(bin.ids[0]).toBe(42_932_745);
    expect(bin.times[0]).toBe(5_633_898);
  });

  it('fills the columns each format lacks: NaN next access outside oracleGeneral, status and method 0', () => {
    expect(tr.nextAccess.every(Number.isNaN)).toBe(true);
    expect(csv.nextAccess.every(Number.isNaN)).toBe(true);
    expect(bin.nextAccess.some(Number.isNaN)).toBe(false);
    for (const decoded of [bin, tr, csv]) {
      expect(decoded.status.every((s) => s === 0)).toBe(true);
      expect(decoded.method.every((m) => m === 0)).toBe(true);
    }
  });

  it("oracleGeneral's next_access_vtime is the 1-based index of the next request for the object, or −1", () => {
    // Walk backwards remembering each id's latest 0-based index.
    const later = new Map<number, number>();
    const expected = new Float64Array(bin.ids.length);
    for (let i = bin.ids.length - 1; i >= 0; i--) {
      const next = later.get(bin.ids[i]);
      expected[i] = next === undefined ? -1 : next + 1;
      later.set(bin.ids[i], i);
    }
    expect(firstDifference(bin.nextAccess, expected)).toBe(-1);
    expect(bin.nextAccess.filter((v) => v === -1).length).toBe(CLOUD_PHYSICS.objects);
  });

  it.each([7, 1000, 65_536])('gives the same requests whatever the batch capacity (%i)', (capacity) => {
    const binary = readColumns(CLOUD_PHYSICS.bin, {}, capacity);
    expect(binary.batches).toBe(Math.ceil(CLOUD_PHYSICS.requests / capacity));
    const text = readColumns(CLOUD_PHYSICS.tr, {}, capacity);
    const table = readColumns(CLOUD_PHYSICS.csv, { csv: CLOUD_PHYSICS.csvOptions }, capacity);
    for (const [decoded, reference] of [
      [binary, bin],
      [text, tr],
      [table, csv],
    ] as const) {
      for (const column of ['times', 'ids', 'sizes', 'nextAccess'] as const) expect(firstDifference(decoded[column], reference[column])).toBe(-1);
    }
  });

  it('gives the same requests with read blocks that cut records and lines', () => {
    expect(firstDifference(readColumns(CLOUD_PHYSICS.bin, { blockBytes: 1000 }, 333).nextAccess, bin.nextAccess)).toBe(-1);
    const text = readColumns(CLOUD_PHYSICS.tr, { blockBytes: 1001 }, 333);
    expect(firstDifference(text.ids, tr.ids)).toBe(-1);
    expect(firstDifference(text.sizes, tr.sizes)).toBe(-1);
    expect(firstDifference(readColumns(CLOUD_PHYSICS.csv, { csv: CLOUD_PHYSICS.csvOptions, blockBytes: 997 }).sizes, csv.sizes)).toBe(-1);
  });

  it("finds the CSV's columns from its header names (time, size, lbn) without options", () => {
    const reader = openTrace(CLOUD_PHYSICS.csv);
    expect(reader.format).toBe('csv');
    expect((reader as unknown as { options: unknown }).options).toEqual({ ...CLOUD_PHYSICS.csvOptions, delimiter: ',' });
    reader.close();
  });

  it('reports progress: bytes consumed up to the file size, records read', () => {
    for (const file of [CLOUD_PHYSICS.bin, CLOUD_PHYSICS.tr]) {
      const reader = openTrace(file);
      expect(reader.bytesRead).toBe(0);
      const batch = new TraceBatch(10_000);
      const steps: number[] = [];
      while (reader.next(batch) > 0) steps.push(reader.bytesRead);
      expect(steps.length).toBe(12);
      expect(steps.every((step, i) => i === 0 || step > steps[i - 1])).toBe(true);
      expect(reader.bytesRead).toBe(reader.fileBytes);
      expect(reader.recordsRead).toBe(CLOUD_PHYSICS.requests);
      expect(reader.skippedCount).toBe(0);
      expect(reader.next(batch)).toBe(0);
    }
  });
});
