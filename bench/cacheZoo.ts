import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { needsFutureKnowledge, type CacheStore } from '../src/cache/cacheStore.js';
import { CACHE_POLICY_NAMES, createCacheStore, type CachePolicyName } from '../src/cache/registry.js';
import { RandomStreams } from '../src/sim/random.js';
import { AliasTable } from '../src/workload/aliasTable.js';
import { zipfProbabilities } from '../src/workload/zipf.js';
import { measure, report } from './harness.js';

/**
 * `cache-zoo`: every registered eviction policy on one seeded trace, one JSON line per
 * policy and mode: throughput (requests/s, best and median of the repeats), hit and byte
 * hit ratio, and throughput relative to LRU measured in the same run (compare those
 * ratios, not absolute rates across machines or days).
 *
 * Trace: 1,000,000 requests, Zipf(0.8) over 100,000 objects, sizes lognormal around
 * 32 kB (sigma 1, 100 B–100 MB: the scenario defaults). Capacity: 10 % of the working set
 * (distinct objects requested) — of its bytes in byte mode, of its objects in count mode.
 * Belady is driven with the trace's next-access indices (its rate includes those calls).
 *
 * Each policy is measured in a child process of its own (this file, run with a policy and
 * a mode): in one process the replay loop's call site sees eleven store classes, turns
 * megamorphic, and whichever policy runs first gets an unfair head start. The trace is
 * rebuilt from the same seed in every child.
 */
const REQUESTS = 1_000_000;
const OBJECTS = 100_000;
const EXPONENT = 0.8;
const REPEATS = 3;

interface ZooTrace {
  keys: Int32Array;
  sizes: Float64Array;
  nextAccess: Float64Array;
  workingSetObjects: number;
  workingSetBytes: number;
}

function buildTrace(): ZooTrace {
  const streams = new RandomStreams('cache-zoo');
  const sizeStream = streams.stream('sizes');
  const sizes = new Float64Array(OBJECTS);
  for (let id = 0; id < OBJECTS; id++) sizes[id] = Math.min(100_000_000, Math.max(100, Math.round(sizeStream.lognormal(32_000, 1))));
  const table = new AliasTable(zipfProbabilities(OBJECTS, EXPONENT));
  const keyStream = streams.stream('keys');
  const keys = new Int32Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i++) keys[i] = table.sample(keyStream.next());
  // One backward pass gives each request's next access and the working set.
  const nextAccess = new Float64Array(REQUESTS);
  const seenAt = new Float64Array(OBJECTS).fill(Infinity);
  let workingSetObjects = 0;
  let workingSetBytes = 0;
  for (let i = REQUESTS - 1; i >= 0; i--) {
    const key = keys[i];
    if (seenAt[key] === Infinity) {
      workingSetObjects++;
      workingSetBytes += sizes[key];
    }
    nextAccess[i] = seenAt[key];
    seenAt[key] = i;
  }
  return { keys, sizes, nextAccess, workingSetObjects, workingSetBytes };
}

interface Tally {
  hits: number;
  hitBytes: number;
}

/** Lookup, insert on a miss. Kept apart from the oracle loop so online policies pay nothing for it. */
function replay(store: CacheStore, trace: ZooTrace, tally: Tally): void {
  const { keys, sizes } = trace;
  let hits = 0;
  let hitBytes = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (store.lookup(key, 0)) {
      hits++;
      hitBytes += sizes[key];
    } else store.insert(key, sizes[key], Infinity);
  }
  tally.hits = hits;
  tally.hitBytes = hitBytes;
}

function replayWithOracle(store: CacheStore & { setNextAccess(key: number, next: number): void }, trace: ZooTrace, tally: Tally): void {
  const { keys, sizes, nextAccess } = trace;
  let hits = 0;
  let hitBytes = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    store.setNextAccess(key, nextAccess[i]);
    if (store.lookup(key, 0)) {
      hits++;
      hitBytes += sizes[key];
    } else store.insert(key, sizes[key], Infinity);
  }
  tally.hits = hits;
  tally.hitBytes = hitBytes;
}

interface Measurement {
  capacity: number;
  requestsPerSecond: number;
  medianRequestsPerSecond: number;
  hitRatio: number;
  byteHitRatio: number;
}

/** Measures one policy in this process (the child side). */
function measurePolicy(policy: CachePolicyName, countMode: boolean): Measurement {
  const trace = buildTrace();
  let totalBytes = 0;
  for (let i = 0; i < trace.keys.length; i++) totalBytes += trace.sizes[trace.keys[i]];
  const capacity = Math.round((countMode ? trace.workingSetObjects : trace.workingSetBytes) / 10);
  const tally: Tally = { hits: 0, hitBytes: 0 };
  const result = measure(REPEATS, () => {
    const store = createCacheStore(policy, { capacity, countMode, keySpace: OBJECTS });
    if (needsFutureKnowledge(store)) replayWithOracle(store, trace, tally);
    else replay(store, trace, tally);
    return REQUESTS;
  });
  return {
    capacity,
    requestsPerSecond: result.bestPerSecond,
    medianRequestsPerSecond: result.medianPerSecond,
    hitRatio: Number((tally.hits / REQUESTS).toFixed(6)),
    byteHitRatio: Number((tally.hitBytes / totalBytes).toFixed(6)),
  };
}

const SELF = fileURLToPath(import.meta.url);

/** Prints one JSON line per policy and mode; LRU first, so the others can be given as ratios to it. */
export function runCacheZoo(): void {
  for (const countMode of [false, true]) {
    const mode = countMode ? 'countMode' : 'byteMode';
    let lruPerSecond = 0;
    for (const policy of CACHE_POLICY_NAMES) {
      const output = execFileSync(process.execPath, [SELF, policy, mode], { encoding: 'utf8' });
      const measured = JSON.parse(output) as Measurement;
      if (policy === 'lru') lruPerSecond = measured.requestsPerSecond;
      report({
        name: `cache-zoo.${policy}.${mode}`,
        policy,
        mode,
        requests: REQUESTS,
        objects: OBJECTS,
        capacity: measured.capacity,
        requestsPerSecond: measured.requestsPerSecond,
        medianRequestsPerSecond: measured.medianRequestsPerSecond,
        relativeToLru: Number((measured.requestsPerSecond / lruPerSecond).toFixed(3)),
        hitRatio: measured.hitRatio,
        byteHitRatio: measured.byteHitRatio,
      });
    }
  }
}

// Child side: `node cacheZoo.js <policy> <byteMode|countMode>` prints one Measurement.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === SELF) {
  const [policy, mode] = process.argv.slice(2);
  if (!(CACHE_POLICY_NAMES as string[]).includes(policy) || (mode !== 'byteMode' && mode !== 'countMode')) {
    throw new Error(`usage: cacheZoo.js <${CACHE_POLICY_NAMES.join('|')}> <byteMode|countMode>`);
  }
  process.stdout.write(JSON.stringify(measurePolicy(policy as CachePolicyName, mode === 'countMode')));
}
