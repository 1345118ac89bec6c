const EMPTY = -1;
/** Golden-ratio multiplier (Knuth's multiplicative hashing). */
const HASH_MULTIPLIER = 0x9e3779b1;
const NODE_MULTIPLIER = 0x85ebca6b;
/** One 16-byte slot, four to a cache line: Int32 words node (EMPTY: free), key, fetch, unused. */
const WORDS = 4;
const NODE = 0;
const KEY = 1;
const FETCH = 2;
const INITIAL_SLOTS = 1024;

/**
 * Which fetch is in flight for (node, key): the coalescing lookup every miss makes. One
 * open-addressing table for all nodes on typed arrays, sized by what is in flight (the
 * request rate × the time a fetch takes: thousands), not by the catalogue, so it stays in
 * the CPU caches; deletion shifts the probe run back (no tombstones). A slot's node, key and
 * fetch sit side by side: a probe reads one cache line, not three (issue 27).
 */
export class InFlightIndex {
  private slots = new Int32Array(INITIAL_SLOTS * WORDS).fill(EMPTY);
  private mask = INITIAL_SLOTS - 1;
  private shift = 32 - Math.log2(INITIAL_SLOTS);
  private count = 0;

  /** The fetch in flight for `key` at node `node` (any integer naming the node), or −1. */
  get(node: number, key: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let slot = this.slotOf(node, key); ; slot = (slot + 1) & mask) {
      const found = slots[slot * WORDS + NODE];
      if (found === EMPTY) return -1;
      if (found === node && slots[slot * WORDS + KEY] === key) return slots[slot * WORDS + FETCH];
    }
  }

  /** Records `fetch` as the one in flight for (node, key), replacing any other. */
  set(node: number, key: number, fetch: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash(2 * (this.mask + 1));
    const slots = this.slots;
    const mask = this.mask;
    let slot = this.slotOf(node, key);
    for (; slots[slot * WORDS + NODE] !== EMPTY; slot = (slot + 1) & mask) {
      if (slots[slot * WORDS + NODE] === node && slots[slot * WORDS + KEY] === key) {
        slots[slot * WORDS + FETCH] = fetch;
        return;
      }
    }
    slots[slot * WORDS + NODE] = node;
    slots[slot * WORDS + KEY] = key;
    slots[slot * WORDS + FETCH] = fetch;
    this.count++;
  }

  /** Forgets (node, key) if `fetch` is the one recorded for it. */
  deleteIf(node: number, key: number, fetch: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let slot = this.slotOf(node, key);
    for (; ; slot = (slot + 1) & mask) {
      const found = slots[slot * WORDS + NODE];
      if (found === EMPTY) return;
      if (found === node && slots[slot * WORDS + KEY] === key) break;
    }
    if (slots[slot * WORDS + FETCH] !== fetch) return;
    // Backward-shift deletion (Knuth 6.4, Algorithm R): move later entries of the run into the hole.
    let hole = slot;
    for (let next = (hole + 1) & mask; slots[next * WORDS + NODE] !== EMPTY; next = (next + 1) & mask) {
      const home = this.slotOf(slots[next * WORDS + NODE], slots[next * WORDS + KEY]);
      // The entry at `next` may move to `hole` when its home is not cyclically in (hole, next].
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        slots[hole * WORDS + NODE] = slots[next * WORDS + NODE];
        slots[hole * WORDS + KEY] = slots[next * WORDS + KEY];
        slots[hole * WORDS + FETCH] = slots[next * WORDS + FETCH];
        hole = next;
      }
    }
    slots[hole * WORDS + NODE] = EMPTY;
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  private slotOf(node: number, key: number): number {
    return (Math.imul(key, HASH_MULTIPLIER) ^ Math.imul(node + 1, NODE_MULTIPLIER)) >>> this.shift;
  }

  private rehash(slotCount: number): void {
    const old = this.slots;
    this.slots = new Int32Array(slotCount * WORDS).fill(EMPTY);
    this.mask = slotCount - 1;
    this.shift = 32 - Math.log2(slotCount);
    this.count = 0;
    for (let at = 0; at < old.length; at += WORDS) if (old[at + NODE] !== EMPTY) this.set(old[at + NODE], old[at + KEY], old[at + FETCH]);
  }
}
