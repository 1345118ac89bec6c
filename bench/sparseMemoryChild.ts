import { SparseKeyStore } from '../src/cache/sparseKeyStore.js';
import { RandomStreams } from '../src/sim/random.js';
import { LegacySparseKeyStore } from './legacySparseKeyStore.js';
import { requestAt, SPARSE_BENCH_NODES, sparseBenchNodes, type SparseVariant, zipfLikeKey } from './sparseNodes.js';

/**
 * One measurement of `sparse.memory`, in a process of its own so that peak RSS is this
 * run's alone: `node --expose-gc sparseMemoryChild.js <reusing|legacy> <requests>`. Prints
 * one JSON line: peak RSS (the kernel's high-water mark), and the heap and typed-array
 * bytes still live after a full collection at the end.
 */
const [variant, requestsText] = process.argv.slice(2);
if ((variant !== 'reusing' && variant !== 'legacy') || !(Number(requestsText) > 0)) {
  process.stderr.write('usage: node --expose-gc sparseMemoryChild.js <reusing|legacy> <requests>\n');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  process.stderr.write('sparseMemoryChild needs node --expose-gc\n');
  process.exit(2);
}
const requests = Number(requestsText);
const MiB = 1024 * 1024;
gc();
const startRss = process.memoryUsage().rss;
const nodes = sparseBenchNodes(variant as SparseVariant);
const stream = new RandomStreams(1).stream('sparse-memory');
let hits = 0;
for (let i = 0; i < requests; i++) {
  const node = nodes[stream.int(SPARSE_BENCH_NODES)];
  if (requestAt(node, zipfLikeKey(stream))) hits++;
}
gc();
const usage = process.memoryUsage();
// Local ids a node has handed out: reusing → its localLimit; legacy → every key it ever stored.
const localIds = nodes.map((node) => (node instanceof SparseKeyStore ? node.localLimit : node instanceof LegacySparseKeyStore ? node.localKeys : 0));
process.stdout.write(
  `${JSON.stringify({
    variant,
    requests,
    hits,
    startRssMiB: startRss / MiB,
    peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB,
    retainedMiB: (usage.heapUsed + usage.arrayBuffers) / MiB,
    maxLocalIds: Math.max(...localIds),
  })}\n`,
);
