import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SparseKeyStore } from '../src/cache/sparseKeyStore.js';
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
 * both at the same time, and reports CPU nanoseconds per measured client request. Prints one
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
  const indexOf = new Map<SparseKeyStore, number>();
  const nodeIndex = (store: SparseKeyStore): number => {
    let index = indexOf.get(store);
    if (index === undefined) {
      index = nodes.length;
      indexOf.set(store, index);
      nodes.push({ policy: store.policy, capacity: store.capacity });
    }
    return index;
  };
  const node = SharedCacheNode.prototype;
  const store = SparseKeyStore.prototype;
  const { lookup, put, renew, remove } = node;
  const { storedLocalOf } = store;
  node.lookup = function (this: SharedCacheNode, key, nowMs) {
    recorder.add(OP_LOOKUP, nodeIndex(this.store), key);
    return lookup.call(this, key, nowMs);
  };
  node.put = function (this: SharedCacheNode, key, bytes, ...rest) {
    recorder.addPut(nodeIndex(this.store), key, bytes);
    return put.call(this, key, bytes, ...rest);
  };
  node.renew = function (this: SharedCacheNode, local, ...rest) {
    recorder.add(OP_RENEW, nodeIndex(this.store), local);
    renew.call(this, local, ...rest);
  };
  node.remove = function (this: SharedCacheNode, key) {
    recorder.add(OP_REMOVE, nodeIndex(this.store), key);
    remove.call(this, key);
  };
  store.storedLocalOf = function (this: SparseKeyStore, key) {
    recorder.add(OP_STORED_LOCAL, nodeIndex(this), key);
    return storedLocalOf.call(this, key);
  };
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
    Object.assign(node, { lookup, put, renew, remove });
    store.storedLocalOf = storedLocalOf;
  }
}

interface Replayed {
  nanosecondsPerRequest: number;
  checksum: number;
}

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
      const [a, b] = await Promise.all([replay(thisRoot, tracePath), replay(otherRoot, tracePath)]);
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
