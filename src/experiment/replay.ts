import { needsFutureKnowledge, type CacheStore } from '../cache/cacheStore.js';
import { createCacheStore, OFFLINE_CACHE_POLICY_NAMES, type CachePolicyName } from '../cache/registry.js';
import { IdInterner } from '../workload/idInterner.js';
import { TraceBatch } from '../workload/traces/traceBatch.js';
import { openTrace, type TraceReader, type TraceReaderOptions } from '../workload/traces/traceReader.js';

/**
 * Trace replay: one pass over one or more trace files feeds every (policy × cache size ×
 * TTL) cache, as libCacheSim's multi-size simulation does, and counts hits and bytes after
 * the warm-up. Semantics where the reference simulators disagree (../shared/traces/README):
 * an id seen again with another size keeps its first size (as libCacheSim); zero-size
 * requests are counted; an object larger than the cache is never admitted (the store's rule).
 */

/** A cache size as asked: bytes (or objects in count mode), or a fraction of the trace's working set. */
export type CacheSizeSpec = { readonly kind: 'absolute'; readonly value: number } | { readonly kind: 'fraction'; readonly fraction: number };

export type ReplayWarmup = { readonly kind: 'requests'; readonly requests: number } | { readonly kind: 'fraction'; readonly fraction: number };

export interface ReplayConfig {
  readonly policies: readonly CachePolicyName[];
  readonly cacheSizes: readonly CacheSizeSpec[];
  readonly countMode: boolean;
  /** Freshness set at insertion, not extended by hits; null: no expiry. */
  readonly ttlsSeconds: readonly (number | null)[];
  readonly warmup: ReplayWarmup;
}

/** One cache's result. Field names are stable (`cdnsim replay --json`). */
export interface ReplayRow {
  readonly policy: CachePolicyName;
  /** Bytes, or objects in count mode: the resolved number. */
  readonly cacheSize: number;
  /** The working-set fraction asked for, when the size was given as one. */
  readonly cacheSizeFraction: number | null;
  readonly ttlSeconds: number | null;
  readonly countMode: boolean;
  readonly requests: number;
  readonly hits: number;
  readonly misses: number;
  readonly missRatio: number;
  readonly bytes: number;
  readonly missBytes: number;
  readonly byteMissRatio: number;
}

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

export interface ReplayResult {
  readonly files: readonly string[];
  readonly trace: TraceFacts;
  readonly warmupRequests: number;
  readonly rows: readonly ReplayRow[];
}

export interface ReplayProgress {
  /** 0..1 over both passes when a first pass is needed. */
  readonly fraction: number;
  readonly requests: number;
}

export interface ReplayOptions {
  readonly reader?: TraceReaderOptions;
  readonly onProgress?: (progress: ReplayProgress) => void;
}

interface ReplayCache {
  readonly row: Omit<ReplayRow, 'requests' | 'hits' | 'misses' | 'missRatio' | 'bytes' | 'missBytes' | 'byteMissRatio'>;
  readonly store: CacheStore;
  readonly ttlMs: number;
  readonly future: boolean;
  hits: number;
  missBytes: number;
}

export function replay(files: readonly string[], config: ReplayConfig, options: ReplayOptions = {}): ReplayResult {
  if (files.length === 0) throw new RangeError('replay needs at least one trace file');
  const readerOptions = options.reader ?? {};
  const needsFuture = config.policies.some((policy) => (OFFLINE_CACHE_POLICY_NAMES as readonly string[]).includes(policy));
  const readers = () => files.map((file) => openTrace(file, readerOptions));
  // A first pass is needed for working-set fractions, a fractional warm-up, and future
  // knowledge the trace does not carry (every format but oracleGeneral).
  const probe = readers();
  // A file's next-access field speaks of that file only ("−1: not again in this file"), so it
  // holds for the whole replay only when there is one file; several are surveyed instead.
  const traceHasFuture = probe.length === 1 && probe[0].hasNextAccess;
  for (const reader of probe) reader.close();
  const firstPassNeeded =
    config.cacheSizes.some((size) => size.kind === 'fraction') || config.warmup.kind === 'fraction' || (needsFuture && !traceHasFuture);
  const passes = firstPassNeeded ? 2 : 1;
  const report = (pass: number, withinPass: number, requests: number) => options.onProgress?.({ fraction: (pass + withinPass) / passes, requests });

  const survey = firstPassNeeded ? surveyTrace(readers(), needsFuture && !traceHasFuture, (f, n) => report(0, f, n)) : undefined;
  const warmupRequests =
    config.warmup.kind === 'requests' ? config.warmup.requests : Math.floor(config.warmup.fraction * (survey?.facts.requests ?? 0));

  const caches: ReplayCache[] = [];
  for (const policy of config.policies) {
    for (const size of config.cacheSizes) {
      const workingSet = config.countMode ? (survey?.facts.objects ?? 0) : (survey?.facts.distinctBytes ?? 0);
      const capacity = size.kind === 'absolute' ? size.value : Math.floor(size.fraction * workingSet);
      for (const ttlSeconds of config.ttlsSeconds) {
        const store = createCacheStore(policy, { capacity, countMode: config.countMode, keySpace: survey?.facts.objects ?? 1 << 16 });
        caches.push({
          row: { policy, cacheSize: capacity, cacheSizeFraction: size.kind === 'fraction' ? size.fraction : null, ttlSeconds, countMode: config.countMode },
          store,
          ttlMs: ttlSeconds === null ? Infinity : ttlSeconds * 1000,
          future: needsFutureKnowledge(store),
          hits: 0,
          missBytes: 0,
        });
      }
    }
  }

  const main = simulate(readers(), caches, warmupRequests, survey?.nextAccess, (f, n) => report(passes - 1, f, n));
  const measured = Math.max(0, main.facts.requests - warmupRequests);
  const rows = caches.map((cache): ReplayRow => {
    const misses = measured - cache.hits;
    return {
      ...cache.row,
      requests: measured,
      hits: cache.hits,
      misses,
      missRatio: measured === 0 ? 0 : misses / measured,
      bytes: main.measuredBytes,
      missBytes: cache.missBytes,
      byteMissRatio: main.measuredBytes === 0 ? 0 : cache.missBytes / main.measuredBytes,
    };
  });
  return { files, trace: main.facts, warmupRequests: Math.min(warmupRequests, main.facts.requests), rows };
}

interface PassFacts {
  facts: TraceFacts;
  measuredBytes: number;
}

/** One batch of requests as the caches see them: dense ids, first-seen sizes, times, next accesses. */
interface DenseBatch {
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
function scan(readers: TraceReader[], consume: (batch: DenseBatch) => void, onProgress: (fraction: number, requests: number) => void): TraceFacts {
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

/** The first pass: trace facts, and each request's next access when the trace does not say. */
function surveyTrace(readers: TraceReader[], computeNextAccess: boolean, onProgress: (fraction: number, requests: number) => void): { facts: TraceFacts; nextAccess?: Float64Array } {
  if (!computeNextAccess) return { facts: scan(readers, () => {}, onProgress) };
  let nextAccess = new Float64Array(1 << 16).fill(Infinity);
  let lastSeen = new Float64Array(1 << 16).fill(-1);
  const facts = scan(
    readers,
    (batch) => {
      if (batch.start + batch.count > nextAccess.length) nextAccess = grow(nextAccess, batch.start + batch.count, Infinity);
      for (let j = 0; j < batch.count; j++) {
        const id = batch.ids[j];
        const index = batch.start + j;
        if (id >= lastSeen.length) lastSeen = grow(lastSeen, id + 1, -1);
        const previous = lastSeen[id];
        if (previous >= 0) nextAccess[previous] = index;
        lastSeen[id] = index;
      }
    },
    onProgress,
  );
  return { facts, nextAccess };
}

function grow(array: Float64Array<ArrayBuffer>, minimum: number, fill: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(Math.max(array.length * 2, minimum)).fill(fill);
  grown.set(array);
  return grown;
}

function simulate(
  readers: TraceReader[],
  caches: ReplayCache[],
  warmupRequests: number,
  precomputedNextAccess: Float64Array | undefined,
  onProgress: (fraction: number, requests: number) => void,
): PassFacts {
  let measuredBytes = 0;
  const facts = scan(
    readers,
    (batch) => {
      const { ids, sizes, timesMs, nextAccess, count, start } = batch;
      // Requests of this batch before `from` are warm-up.
      const from = Math.min(count, Math.max(0, warmupRequests - start));
      for (let j = from; j < count; j++) measuredBytes += sizes[j];
      // Cache by cache over the whole batch: each store's arrays stay warm for the batch.
      for (const cache of caches) {
        const store = cache.store;
        const ttlMs = cache.ttlMs;
        let hits = 0;
        let missBytes = 0;
        for (let j = 0; j < count; j++) {
          const id = ids[j];
          const nowMs = timesMs[j];
          if (cache.future) store.setNextAccess!(id, precomputedNextAccess ? precomputedNextAccess[start + j] : nextAccess[j]);
          if (store.lookup(id, nowMs)) {
            if (j >= from) hits++;
          } else {
            store.insert(id, sizes[j], nowMs + ttlMs);
            if (j >= from) missBytes += sizes[j];
          }
        }
        cache.hits += hits;
        cache.missBytes += missBytes;
      }
    },
    onProgress,
  );
  return { facts, measuredBytes };
}
