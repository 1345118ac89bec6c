import type { Region } from '../topology/regions.js';
import { nearest } from '../suggest.js';

/**
 * Per-node cache capacities (issue 25 item 3, docs/plan.md): a layer's `capacity` is every
 * node's default; `capacityByRegion` replaces it for the nodes of a region, and a node's own
 * entry (`edge.capacityByPop`, `regional.capacityBySite`) replaces both. PoP over region over
 * default, so a plan can size one PoP without restating its region.
 */
export interface LayerCapacities {
  /** The layer's default, bytes. */
  capacity: number;
  /** By region, bytes (absent: none given). */
  capacityByRegion?: Partial<Record<Region, number>>;
  /** By node code (a PoP's or a regional site's), bytes. */
  capacityByNode?: Readonly<Record<string, number>>;
}

/** The capacity of the node `code` in `region`: its own entry, else its region's, else the layer's. */
export function nodeCapacity(layer: LayerCapacities, code: string, region: Region | undefined): number {
  const own = layer.capacityByNode?.[code];
  if (own !== undefined) return own;
  const ofRegion = region === undefined ? undefined : layer.capacityByRegion?.[region];
  return ofRegion ?? layer.capacity;
}

/** A per-node entry naming no node of the topology: its key and what to say. */
export interface UnknownNode {
  code: string;
  message: string;
}

/**
 * The entries of `byNode` that name none of `codes` (the topology's PoPs or regional sites),
 * each with a did-you-mean from those codes.
 */
export function unknownNodes(byNode: Readonly<Record<string, number>> | undefined, codes: readonly string[], what: string): UnknownNode[] {
  if (byNode === undefined) return [];
  const known = new Set(codes);
  return Object.keys(byNode)
    .filter((code) => !known.has(code))
    .map((code) => {
      const guess = nearest(code, codes);
      return { code, message: `no ${what} with code '${code}' in this scenario's topology${guess ? `; did you mean '${guess}'?` : ` (its ${codes.length} codes: ${codes.slice(0, 8).join(', ')}${codes.length > 8 ? ', …' : ''})`}` };
    });
}
