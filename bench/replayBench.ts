import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ONLINE_CACHE_POLICY_NAMES } from '../src/cache/registry.js';
import { replay, type ReplayConfig } from '../src/experiment/replay.js';
import { RandomStreams } from '../src/sim/random.js';
import { AliasTable } from '../src/workload/aliasTable.js';
import { zipfProbabilities } from '../src/workload/zipf.js';
import { measure, report } from './harness.js';

/**
 * `replay`: `cdnsim replay` end to end (reading the file, interning 64-bit ids, first-seen
 * sizes, the caches, the counting) on a generated 10-million-request oracleGeneral trace:
 * Zipf(0.8) over 1,000,000 objects with random 64-bit ids, lognormal sizes (median 32 kB),
 * one request per millisecond, next-access indices filled in. The C reference simulator
 * (libCacheSim) replays LRU at 5–6.5 M requests/s on the development machine.
 */
const REQUESTS = 10_000_000;
const OBJECTS = 1_000_000;
const RECORD_BYTES = 24;

function writeTrace(file: string): { workingSetBytes: number } {
  const streams = new RandomStreams('replay-bench');
  const sizeStream = streams.stream('sizes');
  const idStream = streams.stream('ids');
  const sizes = new Uint32Array(OBJECTS);
  const idLow = new Uint32Array(OBJECTS);
  const idHigh = new Uint32Array(OBJECTS);
  for (let id = 0; id < OBJECTS; id++) {
    sizes[id] = Math.min(100_000_000, Math.max(100, Math.round(sizeStream.lognormal(32_000, 1))));
    idLow[id] = Math.floor(idStream.next() * 2 ** 32);
    idHigh[id] = Math.floor(idStream.next() * 2 ** 32);
  }
  const table = new AliasTable(zipfProbabilities(OBJECTS, 0.8));
  const keyStream = streams.stream('keys');
  const keys = new Int32Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i++) keys[i] = table.sample(keyStream.next());
  const nextAccess = new Float64Array(REQUESTS);
  const seenAt = new Float64Array(OBJECTS).fill(-1);
  let workingSetBytes = 0;
  for (let i = REQUESTS - 1; i >= 0; i--) {
    if (seenAt[keys[i]] < 0) workingSetBytes += sizes[keys[i]];
    nextAccess[i] = seenAt[keys[i]];
    seenAt[keys[i]] = i;
  }
  const chunkRecords = 1 << 16;
  const buffer = Buffer.alloc(chunkRecords * RECORD_BYTES);
  const fd = openSync(file, 'w');
  try {
    for (let start = 0; start < REQUESTS; start += chunkRecords) {
      const end = Math.min(REQUESTS, start + chunkRecords);
      for (let i = start; i < end; i++) {
        const offset = (i - start) * RECORD_BYTES;
        const key = keys[i];
        buffer.writeUInt32LE(Math.floor(i / 1000), offset);
        buffer.writeUInt32LE(idLow[key], offset + 4);
        buffer.writeUInt32LE(idHigh[key], offset + 8);
        buffer.writeUInt32LE(sizes[key], offset + 12);
        // i64 next_access_vtime: 1-based position of the next request, −1 for never (libCacheSim's convention).
        const next = nextAccess[i] < 0 ? -1 : nextAccess[i] + 1;
        buffer.writeInt32LE(next, offset + 16);
        buffer.writeInt32LE(next < 0 ? -1 : 0, offset + 20);
      }
      writeSync(fd, buffer, 0, (end - start) * RECORD_BYTES);
    }
  } finally {
    closeSync(fd);
  }
  return { workingSetBytes };
}

export function runReplayBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('replay')) return;
  const file = join(tmpdir(), `cdnsim-replay-bench-${process.pid}.oracleGeneral.bin`);
  try {
    const { workingSetBytes } = writeTrace(file);
    const base = { cacheSizes: [], ttlsSeconds: [null], warmup: { kind: 'requests', requests: 0 } } as const;
    const variants: { name: string; config: ReplayConfig }[] = [
      { name: 'replay.lru.bytes', config: { ...base, policies: ['lru'], countMode: false, cacheSizes: [{ kind: 'absolute', value: Math.floor(workingSetBytes * 0.1) }] } },
      { name: 'replay.lru.count', config: { ...base, policies: ['lru'], countMode: true, cacheSizes: [{ kind: 'absolute', value: 100_000 }] } },
      // Every online policy at once: one pass, ten caches (the call site turns megamorphic, as in real multi-policy use).
      { name: 'replay.allOnline.bytes', config: { ...base, policies: ONLINE_CACHE_POLICY_NAMES, countMode: false, cacheSizes: [{ kind: 'absolute', value: Math.floor(workingSetBytes * 0.1) }] } },
    ];
    let lruRate = 0;
    for (const { name, config } of variants) {
      if (!wanted(name)) continue;
      let missRatio = 0;
      const result = measure(3, () => {
        const run = replay([file], config);
        missRatio = run.rows[0].missRatio;
        return run.trace.requests;
      });
      if (name === 'replay.lru.bytes') lruRate = result.bestPerSecond;
      report({
        name,
        requests: REQUESTS,
        caches: config.policies.length * config.cacheSizes.length,
        requestsPerSecond: result.bestPerSecond,
        medianRequestsPerSecond: result.medianPerSecond,
        ...(lruRate > 0 && name !== 'replay.lru.bytes' ? { ratioToLruBytes: Number((result.bestPerSecond / lruRate).toFixed(3)) } : {}),
        firstMissRatio: Number(missRatio.toFixed(6)),
      });
    }
  } finally {
    rmSync(file, { force: true });
  }
}
