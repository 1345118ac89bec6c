const EMPTY = -1;
/** Golden-ratio multiplier (Knuth's multiplicative hashing). */
const HASH_MULTIPLIER = 0x9e3779b1;
const NODE_MULTIPLIER = 0x85ebca6b;

/**
 * Which fetch is in flight for (node, key): the coalescing lookup every miss makes. One
 * open-addressing table for all nodes on typed arrays, sized by what is in flight (the
 * request rate × the time a fetch takes: thousands), not by the catalogue, so it stays in
 * the CPU caches; deletion shifts the probe run back (no tombstones).
 */
export class InFlightIndex {
  private nodes = new Int32Array(1024).fill(EMPTY);
  private keys = new Int32Array(1024);
  private fetches = new Int32Array(1024);
  private mask = 1023;
  private shift = 22;
  private count = 0;

  /** The fetch in flight for `key` at node `node` (any integer naming the node), or −1. */
  get(node: number, key: number): number {
    const nodes = this.nodes;
    const keys = this.keys;
    for (let slot = this.slotOf(node, key); ; slot = (slot + 1) & this.mask) {
      const found = nodes[slot];
      if (found === EMPTY) return -1;
      if (found === node && keys[slot] === key) return this.fetches[slot];
    }
  }

  /** Records `fetch` as the one in flight for (node, key), replacing any other. */
  set(node: number, key: number, fetch: number): void {
    if ((this.count + 1) * 2 > this.nodes.length) this.rehash(this.nodes.length * 2);
    const nodes = this.nodes;
    let slot = this.slotOf(node, key);
    for (; nodes[slot] !== EMPTY; slot = (slot + 1) & this.mask) {
      if (nodes[slot] === node && this.keys[slot] === key) {
        this.fetches[slot] = fetch;
        return;
      }
    }
    nodes[slot] = node;
    this.keys[slot] = key;
    this.fetches[slot] = fetch;
    this.count++;
  }

  /** Forgets (node, key) if `fetch` is the one recorded for it. */
  deleteIf(node: number, key: number, fetch: number): void {
    const nodes = this.nodes;
    const mask = this.mask;
    let slot = this.slotOf(node, key);
    for (; ; slot = (slot + 1) & mask) {
      const found = nodes[slot];
      if (found === EMPTY) return;
      if (found === node && this.keys[slot] === key) break;
    }
    if (this.fetches[slot] !== fetch) return;
    // Backward-shift deletion (Knuth 6.4, Algorithm R): move later entries of the run into the hole.
    let hole = slot;
    for (let next = (hole + 1) & mask; nodes[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.slotOf(nodes[next], this.keys[next]);
      // The entry at `next` may move to `hole` when its home is not cyclically in (hole, next].
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        nodes[hole] = nodes[next];
        this.keys[hole] = this.keys[next];
        this.fetches[hole] = this.fetches[next];
        hole = next;
      }
    }
    nodes[hole] = EMPTY;
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  private slotOf(node: number, key: number): number {
    return (Math.imul(key, HASH_MULTIPLIER) ^ Math.imul(node + 1, NODE_MULTIPLIER)) >>> this.shift;
  }

  private rehash(slots: number): void {
    const { nodes, keys, fetches } = this;
    this.nodes = new Int32Array(slots).fill(EMPTY);
    this.keys = new Int32Array(slots);
    this.fetches = new Int32Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    this.count = 0;
    for (let i = 0; i < nodes.length; i++) if (nodes[i] !== EMPTY) this.set(nodes[i], keys[i], fetches[i]);
  }
}
