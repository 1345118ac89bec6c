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
  private readonly requests: Float64Array;
  private readonly hits: Float64Array;
  private readonly bytes: Float64Array;
  private readonly hitBytes: Float64Array;

  constructor(readonly nodeCount: number) {
    this.requests = new Float64Array(nodeCount);
    this.hits = new Float64Array(nodeCount);
    this.bytes = new Float64Array(nodeCount);
    this.hitBytes = new Float64Array(nodeCount);
  }

  record(node: number, hit: boolean, bytes: number): void {
    this.requests[node]++;
    this.bytes[node] += bytes;
    if (hit) {
      this.hits[node]++;
      this.hitBytes[node] += bytes;
    }
  }

  figures(node: number): NodeFigures {
    return { requests: this.requests[node], hits: this.hits[node], bytes: this.bytes[node], hitBytes: this.hitBytes[node] };
  }
}
