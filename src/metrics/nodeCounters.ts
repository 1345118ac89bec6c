/**
 * Per-node request counters of one cache layer (one entry per PoP, say): requests that
 * reached the node, the hits among them, and the bytes of each. Fixed memory.
 */
export interface NodeFigures {
  requests: number;
  hits: number;
  bytes: number;
  hitBytes: number;
}

export class NodeCounters {
  /** Per node, its requests, hits, bytes and hit bytes side by side ([4i] … [4i + 3]): one cache line a record. */
  private readonly counts: Float64Array;

  constructor(readonly nodeCount: number) {
    this.counts = new Float64Array(4 * nodeCount);
  }

  /** A request reaching the node, asking it for `bytes`, of which it served `hitBytes` (all or none for a whole object; per chunk for a range, spec 4.8). */
  record(node: number, hit: boolean, bytes: number, hitBytes: number): void {
    const counts = this.counts;
    const at = 4 * node;
    counts[at]++;
    counts[at + 2] += bytes;
    counts[at + 3] += hitBytes;
    if (hit) counts[at + 1]++;
  }

  figures(node: number): NodeFigures {
    const at = 4 * node;
    return { requests: this.counts[at], hits: this.counts[at + 1], bytes: this.counts[at + 2], hitBytes: this.counts[at + 3] };
  }
}
