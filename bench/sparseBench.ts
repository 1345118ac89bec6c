import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RandomStreams } from '../src/sim/random.js';
import { measure, report } from './harness.js';
import { requestAt, SPARSE_BENCH_KEY_SPACE, SPARSE_BENCH_NODE_OBJECTS, SPARSE_BENCH_NODES, sparseBenchNodes, SPARSE_VARIANTS, zipfLikeKey } from './sparseNodes.js';

interface ChildResult {
  hits: number;
  startRssMiB: number;
  peakRssMiB: number;
  retainedMiB: number;
  maxLocalIds: number;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * SparseKeyStore with local ids reused (src/cache/sparseKeyStore.ts) against the wrapper
 * before reuse (bench/legacySparseKeyStore.ts), on 339 LRU nodes of 500 objects fed
 * Zipf(0.8)-like traffic over 50 million keys (bench/sparseNodes.ts).
 *
 * - `sparse.memory.<variant>`: N and 4N requests, each in a child process (node
 *   --expose-gc), peak RSS and what is live after a full GC, and their 4N/N ratios. The
 *   caches are full long before N, so with reuse the ratio stays near 1.
 * - `sparse.speed.<variant>`: requests (lookup, insert on a miss) per second on the same
 *   4 million pre-drawn requests, each repeat on fresh nodes.
 */
export function runSparseBenchmarks(wanted: (name: string) => boolean): void {
  const requests = 2_000_000;
  for (const variant of SPARSE_VARIANTS) {
    const name = `sparse.memory.${variant}`;
    if (!wanted(name)) continue;
    const child = fileURLToPath(new URL('./sparseMemoryChild.js', import.meta.url));
    const run = (count: number): ChildResult => JSON.parse(execFileSync(process.execPath, ['--expose-gc', child, variant, String(count)], { encoding: 'utf8' })) as ChildResult;
    const small = run(requests);
    const large = run(4 * requests);
    report({
      name,
      nodes: SPARSE_BENCH_NODES,
      nodeObjects: SPARSE_BENCH_NODE_OBJECTS,
      keySpace: SPARSE_BENCH_KEY_SPACE,
      requests,
      peakRssMiB: round(small.peakRssMiB),
      peakRssMiB4x: round(large.peakRssMiB),
      peakRssRatio4x: Number((large.peakRssMiB / small.peakRssMiB).toFixed(3)),
      retainedMiB: round(small.retainedMiB),
      retainedMiB4x: round(large.retainedMiB),
      retainedRatio4x: Number((large.retainedMiB / small.retainedMiB).toFixed(3)),
      startRssMiB: round(small.startRssMiB),
      maxLocalIds: small.maxLocalIds,
      maxLocalIds4x: large.maxLocalIds,
      hitRatio4x: Number((large.hits / (4 * requests)).toFixed(6)),
    });
  }

  const speedVariants = SPARSE_VARIANTS.filter((variant) => wanted(`sparse.speed.${variant}`));
  if (speedVariants.length === 0) return;
  const speedRequests = 4_000_000;
  const stream = new RandomStreams(2).stream('sparse-speed');
  const keys = new Int32Array(speedRequests);
  const nodeOf = new Uint16Array(speedRequests);
  for (let i = 0; i < speedRequests; i++) {
    nodeOf[i] = stream.int(SPARSE_BENCH_NODES);
    keys[i] = zipfLikeKey(stream);
  }
  for (const variant of speedVariants) {
    let hits = 0;
    const result = measure(3, () => {
      const nodes = sparseBenchNodes(variant);
      hits = 0;
      for (let i = 0; i < speedRequests; i++) if (requestAt(nodes[nodeOf[i]], keys[i])) hits++;
      return speedRequests;
    });
    report({
      name: `sparse.speed.${variant}`,
      nodes: SPARSE_BENCH_NODES,
      nodeObjects: SPARSE_BENCH_NODE_OBJECTS,
      requests: speedRequests,
      requestsPerSecond: result.bestPerSecond,
      medianRequestsPerSecond: result.medianPerSecond,
      hitRatio: Number((hits / speedRequests).toFixed(6)),
    });
  }
}
