import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError } from '../userError.js';
import { IdInterner } from '../workload/idInterner.js';
import { DEFAULT_TRACE_BATCH_CAPACITY, TraceBatch } from '../recorded/traces/traceBatch.js';
import { TraceError } from '../recorded/traces/traceError.js';
import { openTrace, type TraceReader, type TraceReaderOptions } from '../recorded/traces/traceReader.js';

/**
 * One pass over one or more trace files, handed on a batch at a time with object ids
 * interned to dense ids and sizes fixed to each object's first-seen size (the replay's
 * semantics). Two ways to run it, with identical results: in this thread, or — when the
 * compiled worker is available — in a worker thread that reads and interns while this
 * thread runs the caches (a two-stage pipeline over a shared-memory ring; the machine
 * has two cores, and the two stages cost about the same per request).
 */

export type ScanProgress = (fraction: number, requests: number) => void;

/** What the trace held (first-seen sizes; warm-up included). */
export interface TraceFacts {
  readonly requests: number;
  readonly objects: number;
  readonly distinctBytes: number;
  readonly requestBytes: number;
  readonly firstTimeSeconds: number;
  readonly lastTimeSeconds: number;
  /** Malformed records skipped under --skip-bad, per file. */
  readonly skipped: readonly { file: string; count: number; examples: readonly { line: number; problem: string }[] }[];
}


/** One batch of requests as the caches see them: dense ids, first-seen sizes, times, next accesses. */
export interface DenseBatch {
  readonly ids: Int32Array;
  readonly sizes: Float64Array;
  readonly timesMs: Float64Array;
  /** 0-based index of the next request for the same object; Infinity: never; NaN: the trace does not say. */
  readonly nextAccess: Float64Array;
  count: number;
  /** Index of the batch's first request in the whole replay. */
  start: number;
}

/**
 * Reads every file in order and hands the requests on a batch at a time, ids interned and
 * sizes fixed to the first-seen size, so each consumer runs its own tight loop per cache.
 */
export function scanInThread(readers: TraceReader[], consume: (batch: DenseBatch) => void, onProgress: ScanProgress): TraceFacts {
  const batch = new TraceBatch();
  const dense: DenseBatch = {
    ids: new Int32Array(batch.capacity),
    sizes: new Float64Array(batch.capacity),
    timesMs: new Float64Array(batch.capacity),
    nextAccess: new Float64Array(batch.capacity),
    count: 0,
    start: 0,
  };
  const interner = new IdInterner();
  const totalBytes = readers.reduce((sum, reader) => sum + reader.fileBytes, 0) || 1;
  let doneBytes = 0;
  let index = 0;
  let requestBytes = 0;
  let distinctBytes = 0;
  let firstTime = NaN;
  let lastTime = NaN;
  const skipped: TraceFacts['skipped'][number][] = [];
  for (const reader of readers) {
    // oracleGeneral's next_access_vtime is the 1-based position of the next request in its own
    // file (−1: never); concatenated files shift it. The engine uses 0-based request indices.
    const offset = index - 1;
    try {
      for (let n = reader.next(batch); n > 0; n = reader.next(batch)) {
        const known = interner.size;
        interner.internBatch(batch.idLow, batch.idHigh, batch.sizes, n, dense.ids, dense.sizes);
        // New ids are numbered in order, so the batch's new objects are the ids ≥ known, each once, at its first request.
        let nextNew = known;
        for (let j = 0; j < n; j++) {
          const size = dense.sizes[j];
          if (dense.ids[j] === nextNew) {
            distinctBytes += size;
            nextNew++;
          }
          requestBytes += size;
          dense.timesMs[j] = batch.timeSeconds[j] * 1000;
          const next = batch.nextAccess[j];
          dense.nextAccess[j] = next < 0 ? Infinity : next + offset;
        }
        if (index === 0) firstTime = batch.timeSeconds[0];
        lastTime = batch.timeSeconds[n - 1];
        dense.count = n;
        dense.start = index;
        consume(dense);
        index += n;
        onProgress((doneBytes + reader.bytesRead) / totalBytes, index);
      }
      if (reader.skippedCount > 0) skipped.push({ file: reader.file, count: reader.skippedCount, examples: reader.skipped.slice(0, 5) });
      doneBytes += reader.fileBytes;
    } finally {
      reader.close();
    }
  }
  onProgress(1, index);
  return {
    requests: index,
    objects: interner.size,
    distinctBytes,
    requestBytes,
    firstTimeSeconds: index === 0 ? 0 : firstTime,
    lastTimeSeconds: index === 0 ? 0 : lastTime,
    skipped,
  };
}

/** Batches in flight between the reading worker and the caches. */
const RING_SLOTS = 4;
/** The readers' default batch, so a dense batch always fits one slot. */
const SLOT_CAPACITY = DEFAULT_TRACE_BATCH_CAPACITY;
const RESULT_BYTES = 1 << 20;
/** Control words: batches produced, batches consumed, done, failed, result length. */
const PRODUCED = 0;
const CONSUMED = 1;
const DONE = 2;
const FAILED = 3;
const RESULT_LENGTH = 4;
/** Shared numbers: per slot [count, start], then the latest [fraction, requests]. */
const PROGRESS = RING_SLOTS * 2;

/** The shared memory of the pipeline; plain SharedArrayBuffers, so it crosses to the worker as is. */
export interface ScanRingBuffers {
  readonly control: SharedArrayBuffer;
  readonly numbers: SharedArrayBuffer;
  readonly ids: SharedArrayBuffer;
  readonly sizes: SharedArrayBuffer;
  readonly timesMs: SharedArrayBuffer;
  readonly nextAccess: SharedArrayBuffer;
  readonly result: SharedArrayBuffer;
}

/** What the worker is started with. */
export interface ScanWorkerData {
  readonly files: readonly string[];
  readonly readerOptions: TraceReaderOptions;
  readonly buffers: ScanRingBuffers;
}

export class ScanRing {
  readonly control: Int32Array;
  readonly numbers: Float64Array;
  readonly slots: DenseBatch[];
  readonly result: Uint8Array;

  constructor(readonly buffers: ScanRingBuffers) {
    this.control = new Int32Array(buffers.control);
    this.numbers = new Float64Array(buffers.numbers);
    this.result = new Uint8Array(buffers.result);
    this.slots = Array.from({ length: RING_SLOTS }, (_, slot) => {
      const from = slot * SLOT_CAPACITY;
      return {
        ids: new Int32Array(buffers.ids, from * 4, SLOT_CAPACITY),
        sizes: new Float64Array(buffers.sizes, from * 8, SLOT_CAPACITY),
        timesMs: new Float64Array(buffers.timesMs, from * 8, SLOT_CAPACITY),
        nextAccess: new Float64Array(buffers.nextAccess, from * 8, SLOT_CAPACITY),
        count: 0,
        start: 0,
      };
    });
  }

  static create(): ScanRing {
    return new ScanRing({
      control: new SharedArrayBuffer(8 * 4),
      numbers: new SharedArrayBuffer((PROGRESS + 2) * 8),
      ids: new SharedArrayBuffer(RING_SLOTS * SLOT_CAPACITY * 4),
      sizes: new SharedArrayBuffer(RING_SLOTS * SLOT_CAPACITY * 8),
      timesMs: new SharedArrayBuffer(RING_SLOTS * SLOT_CAPACITY * 8),
      nextAccess: new SharedArrayBuffer(RING_SLOTS * SLOT_CAPACITY * 8),
      result: new SharedArrayBuffer(RESULT_BYTES),
    });
  }

  /** Worker side: copies a batch into the next free slot, waiting while the ring is full. */
  put(batch: DenseBatch): void {
    const produced = Atomics.load(this.control, PRODUCED);
    for (let consumed = Atomics.load(this.control, CONSUMED); produced - consumed >= RING_SLOTS; consumed = Atomics.load(this.control, CONSUMED)) {
      Atomics.wait(this.control, CONSUMED, consumed);
    }
    const slotIndex = produced % RING_SLOTS;
    const slot = this.slots[slotIndex];
    const n = batch.count;
    slot.ids.set(batch.ids.subarray(0, n));
    slot.sizes.set(batch.sizes.subarray(0, n));
    slot.timesMs.set(batch.timesMs.subarray(0, n));
    slot.nextAccess.set(batch.nextAccess.subarray(0, n));
    this.numbers[slotIndex * 2] = n;
    this.numbers[slotIndex * 2 + 1] = batch.start;
    Atomics.store(this.control, PRODUCED, produced + 1);
    Atomics.notify(this.control, PRODUCED);
  }

  progress(fraction: number, requests: number): void {
    this.numbers[PROGRESS] = fraction;
    this.numbers[PROGRESS + 1] = requests;
  }

  /** Worker side: the end, with the facts or the error as JSON. */
  finish(outcome: { facts: TraceFacts } | { error: { message: string; userError: boolean } }): void {
    if (Atomics.load(this.control, DONE) === 1) return;
    let bytes = new TextEncoder().encode(JSON.stringify(outcome));
    if (bytes.length > RESULT_BYTES) bytes = new TextEncoder().encode(JSON.stringify({ error: { message: 'the trace scan result is too large to pass back', userError: false } }));
    this.result.set(bytes);
    Atomics.store(this.control, RESULT_LENGTH, bytes.length);
    Atomics.store(this.control, FAILED, 'error' in outcome ? 1 : 0);
    Atomics.store(this.control, DONE, 1);
    Atomics.notify(this.control, PRODUCED);
  }

  /** This thread: hands every batch to `consume` as it arrives; returns the facts or throws the worker's error. */
  drain(consume: (batch: DenseBatch) => void, onProgress: ScanProgress): TraceFacts {
    let consumed = 0;
    for (;;) {
      const produced = Atomics.load(this.control, PRODUCED);
      if (consumed < produced) {
        const slotIndex = consumed % RING_SLOTS;
        const slot = this.slots[slotIndex];
        slot.count = this.numbers[slotIndex * 2];
        slot.start = this.numbers[slotIndex * 2 + 1];
        consume(slot);
        consumed++;
        Atomics.store(this.control, CONSUMED, consumed);
        Atomics.notify(this.control, CONSUMED);
        onProgress(this.numbers[PROGRESS], slot.start + slot.count);
        continue;
      }
      if (Atomics.load(this.control, DONE) === 1) {
        if (consumed === Atomics.load(this.control, PRODUCED)) break;
        continue;
      }
      Atomics.wait(this.control, PRODUCED, produced, 1000);
    }
    const text = new TextDecoder().decode(this.result.slice(0, Atomics.load(this.control, RESULT_LENGTH)));
    const outcome = JSON.parse(text) as { facts: TraceFacts } | { error: { message: string; userError: boolean } };
    if ('error' in outcome) throw outcome.error.userError ? new UserError(outcome.error.message) : new Error(outcome.error.message);
    onProgress(1, outcome.facts.requests);
    return outcome.facts;
  }
}

/** Where the compiled worker lives, when this module runs from the build (dist/). */
const WORKER_URL = new URL('./traceScanWorker.js', import.meta.url);

export interface ScanOptions {
  /** Read and intern in a worker thread when the compiled worker is there (default true). */
  readonly pipeline?: boolean;
  /** Another worker script (tests point at the built one). */
  readonly workerUrl?: URL;
}

/** One pass over `files`: in a worker thread when possible, else in this thread; the same batches either way. */
export function scanTrace(
  files: readonly string[],
  readerOptions: TraceReaderOptions,
  consume: (batch: DenseBatch) => void,
  onProgress: ScanProgress,
  options: ScanOptions = {},
): TraceFacts {
  const workerUrl = options.workerUrl ?? WORKER_URL;
  if (options.pipeline === false || !existsSync(fileURLToPath(workerUrl))) {
    return scanInThread(openAll(files, readerOptions), consume, onProgress);
  }
  // Open (and so check) every file here first: a missing file or a bad format is reported
  // at once, from this thread, with the readers' own messages.
  for (const reader of openAll(files, readerOptions)) reader.close();
  const ring = ScanRing.create();
  const data: ScanWorkerData = { files, readerOptions, buffers: ring.buffers };
  const worker = new Worker(workerUrl, { workerData: data });
  try {
    return ring.drain(consume, onProgress);
  } finally {
    void worker.terminate();
  }
}

function openAll(files: readonly string[], readerOptions: TraceReaderOptions): TraceReader[] {
  const readers: TraceReader[] = [];
  try {
    for (const file of files) readers.push(openTrace(file, readerOptions));
  } catch (error) {
    for (const reader of readers) reader.close();
    throw error;
  }
  return readers;
}

/** The worker's side of `scanTrace` (src/experiment/traceScanWorker.ts runs it). */
export function runScanWorker(data: ScanWorkerData): void {
  const ring = new ScanRing(data.buffers);
  try {
    const facts = scanInThread(openAll(data.files, data.readerOptions), (batch) => ring.put(batch), (fraction, requests) => ring.progress(fraction, requests));
    ring.finish({ facts });
  } catch (error) {
    const userError = error instanceof UserError || error instanceof TraceError;
    ring.finish({ error: { message: error instanceof Error ? (userError ? error.message : (error.stack ?? error.message)) : String(error), userError } });
  }
}

/** If the worker dies without finishing (an uncaught failure), this thread must not wait forever. */
export function finishOnExit(data: ScanWorkerData): void {
  new ScanRing(data.buffers).finish({ error: { message: 'the trace reading worker stopped unexpectedly', userError: false } });
}
