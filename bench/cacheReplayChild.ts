import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { OP_LOOKUP, OP_PUT, OP_REMOVE, OP_RENEW, OP_STORED_LOCAL, readCacheTrace } from './cacheTrace.js';
import type { KeyId, SimMs } from '../src/sim/ids.js';

/**
 * One timed replay for bench/cacheReplay.ts, in a process of its own, with the cache code of
 * `<root>/dist`: `node dist/bench/cacheReplayChild.js <root> <trace file>`. Builds fresh nodes
 * as runNetwork does (createCacheNode), replays the trace untimed up to its measured part,
 * then the measured part timed, reading each found entry's fields as the flow does. Prints one JSON line: CPU nanoseconds per
 * measured client request, and a checksum of what the caches answered and held (equal across
 * builds that decide alike; an entry's handle is not in it, since builds may name entries
 * differently).
 */
const [rootArgument, tracePath] = process.argv.slice(2);
if (rootArgument === undefined || tracePath === undefined) {
  process.stderr.write('usage: cacheReplayChild.js <root holding dist/> <trace file>\n');
  process.exit(2);
}
const root = resolve(rootArgument);
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, 'dist/src', path)).href)) as T;
const { SharedCacheNode } = await load<typeof import('../src/cdn/sharedCacheNode.js')>('cdn/sharedCacheNode.js');
const { SparseKeyStore } = await load<typeof import('../src/cache/sparseKeyStore.js')>('cache/sparseKeyStore.js');
const { createCacheStore } = await load<typeof import('../src/cache/registry.js')>('cache/registry.js');
type Node = import('../src/cdn/cacheNode.js').CacheNode;
// A build with createCacheNode builds its nodes as runNetwork does; an older one had only SharedCacheNode.
const factoryPath = join(root, 'dist/src/cdn/createCacheNode.js');
const factory = existsSync(factoryPath) ? ((await import(pathToFileURL(factoryPath).href)) as typeof import('../src/cdn/createCacheNode.js')) : undefined;
type Policy = Parameters<typeof createCacheStore>[0] & Parameters<NonNullable<typeof factory>['createCacheNode']>[0];

const trace = readCacheTrace(tracePath);
const nodes: Node[] = trace.nodes.map(({ policy, capacity }, id) =>
  factory !== undefined
    ? factory.createCacheNode(policy as Policy, capacity, id)
    : new SharedCacheNode(new SparseKeyStore(createCacheStore(policy as Policy, { capacity })), id),
);
const { ops, nodeOf, keys, putBytes } = trace;
let puts = 0;

/** Replays operations [from, to); returns a checksum of the answers. */
function replay(from: number, to: number): number {
  let checksum = 0;
  for (let i = from; i < to; i++) {
    const node = nodes[nodeOf[i]];
    // The trace's keys and op numbers become a node's ids and clock here (src/sim/ids.ts).
    const key = keys[i] as KeyId;
    switch (ops[i]) {
      case OP_LOOKUP: {
        const local = node.lookup(key, i as SimMs);
        if (local >= 0) checksum += 1 + node.statusOf(local) + node.responseAtOf(local) + node.versionAtOf(local) + node.versionOf(local);
        break;
      }
      case OP_PUT:
        checksum += node.put(key, putBytes[puts++], i, i, 1, 200) >= 0 ? 1 : 0;
        break;
      case OP_RENEW:
        node.renew(key, i);
        break;
      case OP_REMOVE:
        node.remove(key);
        break;
      case OP_STORED_LOCAL: {
        const local = node.store.storedLocalOf(key);
        if (local >= 0) checksum += 1 + node.statusOf(local) + node.versionOf(local);
        break;
      }
    }
  }
  return checksum;
}

const warm = replay(0, trace.measuredFrom);
const start = process.cpuUsage();
const measured = replay(trace.measuredFrom, trace.length);
const used = process.cpuUsage(start);
const nanoseconds = (used.user + used.system) * 1000;
process.stdout.write(`${JSON.stringify({ nanosecondsPerRequest: Math.round(nanoseconds / trace.measuredRequests), checksum: warm + measured + nodes.reduce((sum, node) => sum + node.store.objectCount * 7 + node.store.occupancy, 0) })}\n`);
