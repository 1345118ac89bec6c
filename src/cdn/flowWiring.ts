import type { CompiledDecisionTable } from '../policy/compile.js';
import type { BrowserCaches } from './browserCaches.js';
import type { CacheNode } from './cacheNode.js';
import type { FlowNetwork } from './flowNetwork.js';
import type { OriginModel } from './origin.js';

/**
 * What a client request meets on its way (spec 4.9): the network, the caches of each layer,
 * the compiled policy and the origin. The layered flow and the cache-only warm-up
 * (cacheWarmer.ts) both take this one object, so the warm-up acts on exactly the caches and
 * rules the measured run does and an option added here reaches both.
 */
export interface FlowWiring {
  readonly network: FlowNetwork;
  readonly edges: readonly CacheNode[];
  /** One per regional site; empty without a regional tier. */
  readonly regionals: readonly CacheNode[];
  /** The policy engine's compiled decisions per content class and layer. */
  readonly decisions: CompiledDecisionTable;
  /** Per error status (index status − 500): its class in `decisions` (a 5xx without headers, spec 7.1), −1 when not compiled. */
  readonly errorClassOf: Int32Array;
  /** Class id per object id; null: every object is class 0. */
  readonly classOf: Uint8Array | null;
  readonly origin: OriginModel;
  /** Clients' browser caches (spec 4.9 layer 1), or null when requests come from anonymous clients. */
  readonly browsers: BrowserCaches | null;
  /** spec 1.3: false sends every request straight to the origin (a container deployment without the CDN). */
  readonly cdnEnabled: boolean;
  /** How long a purge takes to reach every node, ms (spec 1.2 item 6). */
  readonly purgeDelayMs: number;
}
