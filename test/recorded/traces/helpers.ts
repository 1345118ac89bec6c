import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { TraceBatch } from '../../../src/recorded/traces/traceBatch.js';
import { openTrace, type TraceReader, type TraceReaderOptions } from '../../../src/recorded/traces/traceReader.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/traces');
export const fixture = (name: string): string => join(FIXTURES, name);

export const CLOUD_PHYSICS = {
  bin: fixture('cloudPhysicsIO.oracleGeneral.bin'),
  tr: fixture('cloudPhysicsIO.oracleSizes.webcachesim.tr'),
  csv: fixture('cloudPhysicsIO.csv'),
  /** libCacheSim's test reads this CSV with these columns (time 2, id 5 = lbn, size 4, header). */
  csvOptions: { timeColumn: 2, idColumn: 5, sizeColumn: 4, header: true },
  requests: 113_872,
  objects: 48_974,
  distinctBytes: 2_029_769_728,
};

/** Everything a reader delivers, as plain arrays (ids as exact numbers: all test ids < 2^53, or bigint). */
export interface Decoded {
  times: number[];
  ids: bigint[];
  sizes: number[];
  nextAccess: number[];
  status: number[];
  method: number[];
  batches: number;
}

export function drain(reader: TraceReader, capacity = 65_536): Decoded {
  const batch = new TraceBatch(capacity);
  const out: Decoded = { times: [], ids: [], sizes: [], nextAccess: [], status: [], method: [], batches: 0 };
  for (;;) {
    const n = reader.next(batch);
    if (n !== batch.count) throw new Error('next() must return batch.count');
    if (n === 0) break;
    out.batches++;
    for (let i = 0; i < n; i++) {
      out.times.push(batch.timeSeconds[i]);
      out.ids.push(batch.idBigInt(i));
      out.sizes.push(batch.sizes[i]);
      out.nextAccess.push(batch.nextAccess[i]);
      out.status.push(batch.status[i]);
      out.method.push(batch.method[i]);
    }
  }
  return out;
}

export function readTrace(file: string, options: TraceReaderOptions = {}, capacity = 65_536): Decoded {
  const reader = openTrace(file, options);
  try {
    return drain(reader, capacity);
  } finally {
    reader.close();
  }
}

/** The thrown error's message (fails the test when nothing is thrown). */
export function errorOf(body: () => unknown): Error {
  try {
    body();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

/** A scratch directory for generated traces, removed after the file's tests. */
export function scratchDirectory(): (name: string, content: string | Uint8Array) => string {
  const directory = mkdtempSync(join(tmpdir(), 'cdnsim-traces-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  let counter = 0;
  return (name, content) => {
    const path = join(directory, `${counter++}-${name}`);
    writeFileSync(path, content);
    return path;
  };
}

/** oracleGeneral records from (time, id, size, nextAccess) tuples. */
export function oracleGeneralBytes(records: readonly (readonly [number, bigint, number, bigint])[]): Uint8Array {
  const bytes = Buffer.alloc(records.length * 24);
  records.forEach(([time, id, size, next], i) => {
    bytes.writeUInt32LE(time, i * 24);
    bytes.writeBigUInt64LE(id, i * 24 + 4);
    bytes.writeUInt32LE(size, i * 24 + 12);
    bytes.writeBigInt64LE(next, i * 24 + 16);
  });
  return bytes;
}
