import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RandomStreams } from '../../sim/random.js';
import { DEFAULT_DEPTH_CAP_BYTES, FreshObjects, ObjectSizes, StackModelGenerator } from './stackGenerator.js';
import { descriptorFor, type Fidelity, type TrafficModel } from './trafficModel.js';

/** The trace formats `cdnsim traffic` writes, each one `cdnsim replay` reads. */
export const EXPORT_FORMATS = ['oracleGeneral', 'csv', 'webcachesim'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface TraceExportOptions {
  model: TrafficModel;
  fidelity: Fidelity;
  /** Requests after the model's warm-up (the warm-up's requests come first in the file). */
  requests: number;
  /** Mean requests per second (Poisson arrivals); the model's own rate by default. */
  ratePerSecond?: number;
  depthCapBytes?: number;
  seed: number;
  format: ExportFormat;
  out: string;
  /** Called now and then with the requests written so far and the total. */
  progress?: (done: number, total: number) => void;
}

export interface TraceExportResult {
  warmupRequests: number;
  requests: number;
  objects: number;
  ratePerSecond: number;
  /** Requests whose size was above oracleGeneral's u32 and written as 2^32 − 1 bytes. */
  clampedSizes: number;
}

const U32_MAX = 4294967295;
const CHUNK_RECORDS = 1 << 16;

/**
 * A model's stream as a trace file (docs/traffic-models.md): the warm-up (the initial stack,
 * bottom to top, so a replaying LRU starts in the model's steady state; replay with
 * `--warmup <warm-up requests>`), then `requests` draws; times from a Poisson process at the
 * rate (streams `traffic.draws`, `traffic.sizes`, `traffic.arrivals` of the seed: the same
 * seed gives the same file). oracleGeneral needs each request's next access, so the stream
 * is generated into typed arrays first (20 bytes a request), then written in chunks to a
 * temporary file renamed over `out` (a reader never sees half a trace).
 */
export function exportTrace(options: TraceExportOptions): TraceExportResult {
  const { model, fidelity } = options;
  const descriptor = descriptorFor(model, fidelity);
  const streams = new RandomStreams(options.seed);
  const sizes = new ObjectSizes(model.sizes);
  const fresh = new FreshObjects(sizes, streams.stream('traffic.sizes'));
  const generator = new StackModelGenerator(descriptor, fresh, streams.stream('traffic.draws'), sizes, { fidelity, depthCapBytes: options.depthCapBytes ?? DEFAULT_DEPTH_CAP_BYTES });
  const rate = options.ratePerSecond ?? descriptor.requests / Math.max(1, descriptor.endSeconds - descriptor.startSeconds);
  const arrivals = streams.stream('traffic.arrivals');
  const total = generator.warmupRequests + options.requests;
  const ids = new Int32Array(total);
  const bytes = new Float64Array(total);
  const times = new Float64Array(total);
  let now = 0;
  for (let i = 0; i < total; i++) {
    generator.next();
    ids[i] = generator.objectId;
    bytes[i] = generator.size;
    now += arrivals.exponential(rate);
    times[i] = now;
    if ((i & 0xfffff) === 0) options.progress?.(i, 2 * total);
  }
  const clampedSizes = writeTrace({ ids, bytes, timesSeconds: times }, options.format, options.out, options.progress === undefined ? undefined : (done) => options.progress?.(total + done, 2 * total));
  return { warmupRequests: generator.warmupRequests, requests: options.requests, objects: fresh.count, ratePerSecond: rate, clampedSizes };
}

/** Requests to write, in order: object id, size in bytes, time in seconds; with a scenario's PoPs, each request's PoP. */
export interface TraceRecords {
  readonly ids: Int32Array;
  readonly bytes: Float64Array;
  readonly timesSeconds: Float64Array;
  /** Per request, an index into `popNames`: csv gets a `pop` column (oracleGeneral's and webcachesim's records have no field for it). */
  readonly pops?: Uint16Array;
  readonly popNames?: readonly string[];
}

/**
 * Writes `records` as a trace in `format` to a temporary file renamed over `out` (a reader
 * never sees half a trace); returns the requests whose size was above oracleGeneral's u32.
 * `progress` gets the requests written so far.
 */
export function writeTrace(records: TraceRecords, format: ExportFormat, out: string, progress?: (written: number) => void): number {
  const { ids, bytes, timesSeconds: times } = records;
  const total = ids.length;
  let clampedSizes = 0;
  mkdirSync(dirname(out), { recursive: true });
  const temporary = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w');
  try {
    if (format === 'oracleGeneral') {
      // next_access_vtime: the 1-based position of the object's next request, −1 for none (oracleGeneralReader.ts).
      const nextAccess = new Float64Array(total);
      let idEnd = 0;
      for (let i = 0; i < total; i++) if (ids[i] >= idEnd) idEnd = ids[i] + 1;
      const seenAt = new Int32Array(idEnd).fill(-1);
      for (let i = total - 1; i >= 0; i--) {
        const id = ids[i];
        nextAccess[i] = seenAt[id] < 0 ? -1 : seenAt[id] + 1;
        seenAt[id] = i;
      }
      const buffer = Buffer.alloc(CHUNK_RECORDS * 24);
      for (let start = 0; start < total; start += CHUNK_RECORDS) {
        const end = Math.min(total, start + CHUNK_RECORDS);
        for (let i = start; i < end; i++) {
          const at = (i - start) * 24;
          buffer.writeUInt32LE(Math.min(U32_MAX, Math.floor(times[i])), at);
          buffer.writeBigUInt64LE(BigInt(ids[i]), at + 4);
          if (bytes[i] > U32_MAX) clampedSizes++;
          buffer.writeUInt32LE(Math.min(U32_MAX, bytes[i]), at + 12);
          buffer.writeBigInt64LE(BigInt(nextAccess[i]), at + 16);
        }
        writeSync(fd, buffer, 0, (end - start) * 24);
        progress?.(end);
      }
    } else {
      const separator = format === 'csv' ? ',' : ' ';
      // Only csv names its columns, so only csv can carry one more (webcachesim's readers take extra columns as numeric features).
      const pops = format === 'csv' ? records.pops : undefined;
      const popNames = records.popNames ?? [];
      if (format === 'csv') writeSync(fd, pops === undefined ? 'time,id,size\n' : 'time,id,size,pop\n');
      for (let start = 0; start < total; start += CHUNK_RECORDS) {
        const end = Math.min(total, start + CHUNK_RECORDS);
        let text = '';
        if (pops === undefined) for (let i = start; i < end; i++) text += `${times[i].toFixed(3)}${separator}${ids[i]}${separator}${bytes[i]}\n`;
        else for (let i = start; i < end; i++) text += `${times[i].toFixed(3)},${ids[i]},${bytes[i]},${popNames[pops[i]]}\n`;
        writeSync(fd, text);
        progress?.(end);
      }
    }
    closeSync(fd);
    renameSync(temporary, out);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temporary, { force: true });
    throw error;
  }
  return clampedSizes;
}
