import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RandomStreams } from '../src/sim/random.js';
import { AliasTable } from '../src/workload/aliasTable.js';
import { TraceBatch } from '../src/recorded/traces/traceBatch.js';
import { openTrace, type TraceFormat, type TraceReaderOptions } from '../src/recorded/traces/traceReader.js';
import { zipfProbabilities } from '../src/workload/zipf.js';
import { measure, report } from './harness.js';

/**
 * Trace decoding speed per reader: a seeded synthetic trace (Zipf 0.8 over 1M objects,
 * lognormal sizes, Poisson arrivals at 1,000 requests/s) is written to os.tmpdir() in each
 * format, read back whole in 64 Ki-request batches, and deleted. The binary and webcachesim
 * files hold 5M requests, the others fewer: their lines are longer or their ids interned.
 * Page-cache warm (the warm-up pass reads the file first), so this is decoding, not the disk.
 */
const OBJECTS = 1_000_000;

interface SyntheticTrace {
  times: Float64Array;
  ids: Int32Array;
  /** Per object: every request for an object has its size. */
  objectSizes: Float64Array;
  nextAccess: Float64Array;
}

function synthesise(requests: number): SyntheticTrace {
  const streams = new RandomStreams(20261121);
  const popularity = new AliasTable(zipfProbabilities(OBJECTS, 0.8));
  const pick = streams.stream('bench.traces.ids');
  const arrivals = streams.stream('bench.traces.arrivals');
  const sizeStream = streams.stream('bench.traces.sizes');
  const objectSizes = new Float64Array(OBJECTS);
  for (let o = 0; o < OBJECTS; o++) objectSizes[o] = Math.min(64 << 20, Math.max(1, Math.round(sizeStream.lognormal(16_384, 1.5))));
  const trace: SyntheticTrace = {
    times: new Float64Array(requests),
    ids: new Int32Array(requests),
    objectSizes,
    nextAccess: new Float64Array(requests),
  };
  let time = 1_700_000_000;
  for (let i = 0; i < requests; i++) {
    time += arrivals.exponential(1000); // seconds between requests, mean 1 ms
    trace.times[i] = Math.floor(time);
    trace.ids[i] = popularity.sample(pick.next());
  }
  // next_access_vtime: 1-based index of the object's next request, as libCacheSim writes it.
  const later = new Int32Array(OBJECTS).fill(-1);
  for (let i = requests - 1; i >= 0; i--) {
    const next = later[trace.ids[i]];
    trace.nextAccess[i] = next < 0 ? -1 : next + 1;
    later[trace.ids[i]] = i;
  }
  return trace;
}

/** Writes a file in 4 MiB pieces: the generator holds one piece, never the whole file. */
function writeChunked(path: string, requests: number, encode: (i: number, out: Buffer, at: number) => number, maxRecordBytes: number): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4 << 20);
  let used = 0;
  for (let i = 0; i < requests; i++) {
    if (used + maxRecordBytes > chunk.length) {
      writeSync(fd, chunk, 0, used);
      used = 0;
    }
    used = encode(i, chunk, used);
  }
  writeSync(fd, chunk, 0, used);
  closeSync(fd);
}

function writeOracleGeneral(path: string, trace: SyntheticTrace, requests: number): void {
  writeChunked(
    path,
    requests,
    (i, out, at) => {
      out.writeUInt32LE(trace.times[i], at);
      out.writeBigUInt64LE(BigInt(trace.ids[i]), at + 4);
      out.writeUInt32LE(trace.objectSizes[trace.ids[i]], at + 12);
      out.writeBigInt64LE(BigInt(trace.nextAccess[i]), at + 16);
      return at + 24;
    },
    24,
  );
}

function writeText(path: string, requests: number, line: (i: number) => string): void {
  writeChunked(path, requests, (i, out, at) => at + out.write(`${line(i)}\n`, at, 'utf8'), 1024);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function clfTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

interface Case {
  format: TraceFormat;
  file: string;
  requests: number;
  write: (path: string, trace: SyntheticTrace, requests: number) => void;
  options?: TraceReaderOptions;
}

const CASES: Case[] = [
  { format: 'oracleGeneral', file: 'bench.oracleGeneral.bin', requests: 5_000_000, write: writeOracleGeneral },
  {
    format: 'webcachesim',
    file: 'bench.webcachesim.tr',
    requests: 5_000_000,
    write: (path, t, n) => writeText(path, n, (i) => `${t.times[i]} ${t.ids[i]} ${t.objectSizes[t.ids[i]]}`),
  },
  {
    format: 'csv',
    file: 'bench.csv',
    requests: 2_000_000,
    write: (path, t, n) => {
      writeText(path, n + 1, (i) => (i === 0 ? 'timestamp,obj_id,obj_size,op' : `${t.times[i - 1]},${t.ids[i - 1]},${t.objectSizes[t.ids[i - 1]]},get`));
    },
  },
  {
    format: 'txt',
    file: 'bench.strings.txt',
    requests: 2_000_000,
    write: (path, t, n) => writeText(path, n, (i) => `/objects/${t.ids[i].toString(36)}.jpg`),
  },
  {
    format: 'clf',
    file: 'bench.access.log',
    requests: 1_000_000,
    write: (path, t, n) =>
      writeText(
        path,
        n,
        (i) =>
          `192.0.2.${i & 255} - - [${clfTime(t.times[i])}] "GET /objects/${t.ids[i].toString(36)}.jpg?w=800 HTTP/1.1" 200 ${t.objectSizes[t.ids[i]]} "https://www.example.com/" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"`,
      ),
  },
];

export function runTraceReaderBenchmarks(wanted: (name: string) => boolean): void {
  const cases = CASES.filter((c) => wanted(`traces.read.${c.format}`));
  if (cases.length === 0) return;
  const directory = mkdtempSync(join(tmpdir(), 'cdnsim-trace-bench-'));
  try {
    const trace = synthesise(Math.max(...cases.map((c) => c.requests)));
    const batch = new TraceBatch();
    for (const c of cases) {
      const path = join(directory, c.file);
      c.write(path, trace, c.requests);
      const bytes = statSync(path).size;
      let checksum = 0;
      const result = measure(3, () => {
        const reader = openTrace(path, c.options);
        let records = 0;
        let n: number;
        while ((n = reader.next(batch)) > 0) {
          records += n;
          checksum = (checksum + batch.idLow[n - 1] + batch.sizes[0]) % 1_000_000_007;
        }
        reader.close();
        if (records !== c.requests) throw new Error(`${c.format}: read ${records} of ${c.requests} requests`);
        return records;
      });
      rmSync(path);
      report({
        name: `traces.read.${c.format}`,
        requests: c.requests,
        fileMiB: Math.round(bytes / (1 << 20)),
        recordsPerSecond: result.bestPerSecond,
        medianRecordsPerSecond: result.medianPerSecond,
        mebibytesPerSecond: Math.round((result.bestPerSecond * bytes) / c.requests / (1 << 20)),
        checksum,
      });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
