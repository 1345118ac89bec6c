import { readFileSync, writeFileSync } from 'node:fs';

/**
 * What a run asks of its shared cache nodes, in order (bench/cacheReplay.ts): enough to
 * replay the caches alone. Only what the stores' decisions depend on is kept — which node,
 * which key, the size of what is put, the local id a 304 renews — since every entry goes into
 * a store with no expiry (freshness is the flow's question), so times do not matter.
 */
export const OP_LOOKUP = 1;
export const OP_PUT = 2;
export const OP_RENEW = 3;
export const OP_REMOVE = 4;
export const OP_STORED_LOCAL = 5;

export interface CacheNodeSpec {
  policy: string;
  capacity: number;
}

export interface CacheTrace {
  nodes: CacheNodeSpec[];
  /** Operations before this index fill the caches (a warm-up, the run's setup); the rest are measured. */
  measuredFrom: number;
  /** Client requests of the measured part. */
  measuredRequests: number;
  length: number;
  ops: Uint8Array;
  nodeOf: Uint16Array;
  /** The key, or for OP_RENEW the local id renewed. */
  keys: Int32Array;
  /** The bytes of each OP_PUT, in order. */
  putBytes: Float64Array;
}

/** Appends operations to growing typed arrays. */
export class CacheTraceRecorder {
  length = 0;
  private puts = 0;
  private ops = new Uint8Array(1 << 16);
  private nodeOf = new Uint16Array(1 << 16);
  private keys = new Int32Array(1 << 16);
  private putBytes = new Float64Array(1 << 14);

  add(op: number, node: number, key: number): void {
    if (this.length === this.ops.length) {
      this.ops = grown(this.ops, new Uint8Array(this.length * 2));
      this.nodeOf = grown(this.nodeOf, new Uint16Array(this.length * 2));
      this.keys = grown(this.keys, new Int32Array(this.length * 2));
    }
    this.ops[this.length] = op;
    this.nodeOf[this.length] = node;
    this.keys[this.length++] = key;
  }

  addPut(node: number, key: number, bytes: number): void {
    this.add(OP_PUT, node, key);
    if (this.puts === this.putBytes.length) this.putBytes = grown(this.putBytes, new Float64Array(this.puts * 2));
    this.putBytes[this.puts++] = bytes;
  }

  trace(nodes: CacheNodeSpec[], measuredFrom: number, measuredRequests: number): CacheTrace {
    const { length } = this;
    return { nodes, measuredFrom, measuredRequests, length, ops: this.ops.subarray(0, length), nodeOf: this.nodeOf.subarray(0, length), keys: this.keys.subarray(0, length), putBytes: this.putBytes.subarray(0, this.puts) };
  }
}

function grown<T extends Uint8Array | Uint16Array | Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** One file: a JSON header line, then the four arrays' bytes. */
export function writeCacheTrace(path: string, trace: CacheTrace): void {
  const { ops, nodeOf, keys, putBytes, ...header } = trace;
  const bytes = (array: Uint8Array | Uint16Array | Int32Array | Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, puts: putBytes.length })}\n`), bytes(keys), bytes(putBytes), bytes(nodeOf), bytes(ops)]));
}

export function readCacheTrace(path: string): CacheTrace {
  const file = readFileSync(path);
  const newline = file.indexOf(10);
  const header = JSON.parse(file.subarray(0, newline).toString('utf8')) as Omit<CacheTrace, 'ops' | 'nodeOf' | 'keys' | 'putBytes'> & { puts: number };
  // Copied out so each array starts at an offset its element size divides.
  let at = newline + 1;
  const take = (byteLength: number): ArrayBuffer => {
    const copy = new Uint8Array(byteLength);
    copy.set(file.subarray(at, at + byteLength));
    at += byteLength;
    return copy.buffer;
  };
  const { length, puts, ...rest } = header;
  const keys = new Int32Array(take(length * 4));
  const putBytes = new Float64Array(take(puts * 8));
  const nodeOf = new Uint16Array(take(length * 2));
  const ops = new Uint8Array(take(length));
  return { ...rest, length, ops, nodeOf, keys, putBytes };
}
