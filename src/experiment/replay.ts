import { statSync } from 'node:fs';
import { needsFutureKnowledge, type CacheStore } from '../cache/cacheStore.js';
import { createCacheStore, OFFLINE_CACHE_POLICY_NAMES, type CachePolicyName } from '../cache/registry.js';
import { UserError } from '../userError.js';
import { formatFromFileName, openTrace, type TraceReaderOptions } from '../recorded/traces/traceReader.js';
import { scanTrace, type DenseBatch, type ScanOptions, type ScanProgress, type TraceFacts } from './traceScan.js';

export type { TraceFacts } from './traceScan.js';

/**
 * Trace replay: one pass over one or more trace files feeds every (policy × cache size ×
 * TTL) cache, as libCacheSim's multi-size simulation does, and counts hits and bytes after
 * the warm-up. Semantics where the reference simulators disagree (test/fixtures/traces/README.md):
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
  /** How the trace is read: in a worker thread (the default, when built) or in this one. */
  readonly scan?: ScanOptions;
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
  // A pipe (`<(zstd -dc trace.zst)`) can be read once only: no probing, no second pass, no worker re-opening it.
  const streamed = files.some((file) => !isRegularFile(file));
  const scanOptions: ScanOptions = streamed ? { ...options.scan, pipeline: false } : (options.scan ?? {});
  const pass = (consume: (batch: DenseBatch) => void, onProgress: ScanProgress): TraceFacts => scanTrace(files, readerOptions, consume, onProgress, scanOptions);
  // A file's next-access field speaks of that file only ("−1: not again in this file"), so it
  // holds for the whole replay only when there is one file; several are surveyed instead.
  const traceHasFuture = files.length === 1 && hasNextAccess(files[0], readerOptions);
  // A first pass is needed for working-set fractions, a fractional warm-up, and future
  // knowledge the trace does not carry (every format but oracleGeneral).
  const firstPassNeeded =
    config.cacheSizes.some((size) => size.kind === 'fraction') || config.warmup.kind === 'fraction' || (needsFuture && !traceHasFuture);
  if (firstPassNeeded && streamed) {
    throw new UserError(
      'a pipe can be read only once, and this replay needs two passes (for working-set fractions, a warm-up given as a share, or belady without next-access data): ' +
        'give cache sizes in bytes or objects and the warm-up as a request count, or write the trace to a file first',
    );
  }
  const passes = firstPassNeeded ? 2 : 1;
  const report = (pass: number, withinPass: number, requests: number) => options.onProgress?.({ fraction: (pass + withinPass) / passes, requests });

  const survey = firstPassNeeded ? surveyTrace(pass, needsFuture && !traceHasFuture, (f, n) => report(0, f, n)) : undefined;
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

  const main = simulate(pass, caches, warmupRequests, survey?.nextAccess, (f, n) => report(passes - 1, f, n));
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

/** The first pass: trace facts, and each request's next access when the trace does not say. */
type Pass = (consume: (batch: DenseBatch) => void, onProgress: ScanProgress) => TraceFacts;

function surveyTrace(pass: Pass, computeNextAccess: boolean, onProgress: ScanProgress): { facts: TraceFacts; nextAccess?: Float64Array } {
  if (!computeNextAccess) return { facts: pass(() => {}, onProgress) };
  let nextAccess = new Float64Array(1 << 16).fill(Infinity);
  let lastSeen = new Float64Array(1 << 16).fill(-1);
  const facts = pass(
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

function simulate(pass: Pass, caches: ReplayCache[], warmupRequests: number, precomputedNextAccess: Float64Array | undefined, onProgress: ScanProgress): PassFacts {
  let measuredBytes = 0;
  const facts = pass(
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

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    // A missing file is reported by the reader, with its own message.
    return true;
  }
}

/** Whether the trace carries each request's next access (oracleGeneral), without reading a pipe. */
function hasNextAccess(file: string, readerOptions: TraceReaderOptions): boolean {
  if (!isRegularFile(file)) return (readerOptions.format ?? formatFromFileName(file)) === 'oracleGeneral';
  const reader = openTrace(file, readerOptions);
  try {
    return reader.hasNextAccess;
  } finally {
    reader.close();
  }
}
