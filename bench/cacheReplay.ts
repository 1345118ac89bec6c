import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SparseKeyStore } from '../src/cache/sparseKeyStore.js';
import type { CacheNode, CacheNodeStore } from '../src/cdn/cacheNode.js';
import { LruCacheNode } from '../src/cdn/lruCacheNode.js';
import { SharedCacheNode } from '../src/cdn/sharedCacheNode.js';
import { runScenario } from '../src/experiment/runScenario.js';
import { loadScenarioFile, parseScenarioText } from '../src/scenario/load.js';
import { CacheTraceRecorder, OP_LOOKUP, OP_REMOVE, OP_RENEW, OP_STORED_LOCAL, writeCacheTrace, type CacheNodeSpec, type CacheTrace } from './cacheTrace.js';
import { buildComparisonArguments, median } from './buildComparison.js';
import { allFeaturesScenarioText } from './featureScenario.js';

/**
 * The caches alone, this build against another (say main's, built into a folder of its own):
 *   node dist/bench/cacheReplay.js <other root> [rounds] [allFeatures|baselineFlow ...]
 * buildCompare's workloads (the same scenarios, the same measured part), but only the time
 * their cache nodes take: this build runs the scenario once and records every operation the
 * flow makes on a SharedCacheNode (bench/cacheTrace.ts); then, round after round, a child
 * process per build (bench/cacheReplayChild.ts) replays it on fresh nodes of its own code,
 * one after the other (order alternating), and reports CPU nanoseconds per measured client request. Prints one
 * JSON line per workload: both builds' medians and the median of the per-round ratios (the
 * other's time over this one's; above 1: this build's caches are faster). A round takes
 * seconds where buildCompare's takes a minute, and the flow's other costs do not blur it.
 * The builds must decide alike: their checksums of the answers must be equal.
 */
const { thisRoot, otherRoot, rounds, workloads } = buildComparisonArguments('cacheReplay.js', 7);
const child = join(thisRoot, 'dist/bench/cacheReplayChild.js');
const run = promisify(execFile);

/** Runs the workload once, recording what its cache nodes are asked (by wrapping their methods for that run). */
function record(workload: string): CacheTrace {
  const scenario =
    workload === 'allFeatures' ? parseScenarioText(allFeaturesScenarioText(1_000_000), 'bench-features.yaml') : loadScenarioFile(join(thisRoot, 'scenarios/baseline.yaml'));
  const recorder = new CacheTraceRecorder();
  const nodes: CacheNodeSpec[] = [];
  const indexOf = new Map<CacheNodeStore, number>();
  const nodeIndex = (store: CacheNodeStore): number => {
    let index = indexOf.get(store);
    if (index === undefined) {
      index = nodes.length;
      indexOf.set(store, index);
      nodes.push({ policy: store.policy, capacity: store.capacity });
    }
    return index;
  };
  // Both kinds of node (createCacheNode): LRU's own table, and any other policy's SparseKeyStore.
  const restore: (() => void)[] = [];
  for (const node of [SharedCacheNode.prototype, LruCacheNode.prototype] as CacheNode[]) {
    const { lookup, put, renew, remove } = node;
    node.lookup = function (this: CacheNode, key, nowMs) {
      recorder.add(OP_LOOKUP, nodeIndex(this.store), key);
      return lookup.call(this, key, nowMs);
    };
    node.put = function (this: CacheNode, key, bytes, ...rest) {
      recorder.addPut(nodeIndex(this.store), key, bytes);
      return put.call(this, key, bytes, ...rest);
    };
    node.renew = function (this: CacheNode, local, ...rest) {
      recorder.add(OP_RENEW, nodeIndex(this.store), local);
      renew.call(this, local, ...rest);
    };
    node.remove = function (this: CacheNode, key) {
      recorder.add(OP_REMOVE, nodeIndex(this.store), key);
      remove.call(this, key);
    };
    restore.push(() => Object.assign(node, { lookup, put, renew, remove }));
  }
  for (const store of [SparseKeyStore.prototype, LruCacheNode.prototype] as CacheNodeStore[]) {
    const { storedLocalOf } = store;
    store.storedLocalOf = function (this: CacheNodeStore, key) {
      recorder.add(OP_STORED_LOCAL, nodeIndex(this), key);
      return storedLocalOf.call(this, key);
    };
    restore.push(() => {
      store.storedLocalOf = storedLocalOf;
    });
  }
  let measuredFrom = -1;
  let flowStartRequests = 0;
  try {
    const result = runScenario(scenario, {
      onProgress: (progress) => {
        // As buildCompareChild: the flow's part, from the first progress report with requests.
        if (measuredFrom < 0 && progress.requests > 0) {
          measuredFrom = recorder.length;
          flowStartRequests = progress.requests;
        }
      },
    });
    return recorder.trace(nodes, Math.max(0, measuredFrom), result.totalRequests - flowStartRequests);
  } finally {
    for (const undo of restore) undo();
  }
}

interface Replayed {
  nanosecondsPerRequest: number;
  checksum: number;
}

/** The pair (this build's, the other's) from a round that ran the other first. */
const swapped = (theirs: Replayed, mine: Replayed): [Replayed, Replayed] => [mine, theirs];

async function replay(root: string, tracePath: string): Promise<Replayed> {
  const { stdout: output } = await run(process.execPath, [child, root, tracePath], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as Replayed;
}

const folder = mkdtempSync(join(tmpdir(), 'cdnsim-cache-replay-'));
try {
  for (const workload of workloads) {
    const trace = record(workload);
    const tracePath = join(folder, `${workload}.trace`);
    writeCacheTrace(tracePath, trace);
    const mine: number[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // One process at a time, the order alternating (issue 27: two measured processes at once on 2 cores measure each other).
      const [a, b] = round % 2 === 0 ? [await replay(thisRoot, tracePath), await replay(otherRoot, tracePath)] : swapped(await replay(otherRoot, tracePath), await replay(thisRoot, tracePath));
      if (a.checksum !== b.checksum) throw new Error(`the two builds' caches answered differently (checksums ${a.checksum} and ${b.checksum})`);
      mine.push(a.nanosecondsPerRequest);
      theirs.push(b.nanosecondsPerRequest);
      ratios.push(b.nanosecondsPerRequest / a.nanosecondsPerRequest);
    }
    process.stdout.write(
      `${JSON.stringify({
        name: `cacheReplay.${workload}`,
        rounds,
        operations: trace.length,
        measuredOperations: trace.length - trace.measuredFrom,
        measuredRequests: trace.measuredRequests,
        nanosecondsPerRequest: median(mine),
        otherNanosecondsPerRequest: median(theirs),
        medianRatio: Number(median(ratios).toFixed(3)),
        ratios: ratios.map((r) => Number(r.toFixed(3))),
      })}\n`,
    );
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
