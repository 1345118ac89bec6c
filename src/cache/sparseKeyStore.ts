import { needsFutureKnowledge, type CacheStore } from './cacheStore.js';
import { growInt32 } from './typedArrays.js';

const EMPTY = -1;
const INITIAL_SLOTS = 1024;
/** Golden-ratio multiplier (Knuth's multiplicative hashing): spreads dense ids over the slots. */
const HASH_MULTIPLIER = 0x9e3779b1;
/** Below this many local ids handed out, a node never sweeps (sweeping tiny tables buys nothing). */
const DEFAULT_SWEEP_FLOOR = 1024;

export interface SparseKeyStoreOptions {
  /**
   * No sweep while fewer local ids than this have been handed out (default 1024). It only
   * trades a little memory for fewer sweeps; decisions never depend on it. Tests lower it
   * to sweep often on short traces.
   */
  sweepFloor?: number;
}

/**
 * A cache store over a sparse key space. A store sizes its per-key arrays to the largest key
 * id it is given (32 bytes a key for LRU), which is right when one cache sees the whole
 * catalogue and wrong for hundreds of PoPs that each see a part of it: 339 PoPs × 200,000
 * keys × 32 B is 2 GB. This wrapper gives each node local ids through an open-addressing
 * table of its own, so the inner store's arrays grow with the keys this node holds, not with
 * the catalogue nor with how many keys it has ever stored.
 *
 * Local ids are reused once their key has left the node entirely: the inner store neither
 * holds it (`expiryOf` is NaN) nor remembers it in a ghost list (`remembers`). Reuse is
 * pull-based, with nothing on the request path: when a new key needs a local id and none is
 * free, and at least max(sweepFloor, 2 × the ids referenced at the last sweep) have been
 * handed out, a sweep checks every mapped key, deletes from the table (in place, no
 * tombstones) those no longer referenced and clears their ids in a bitmap of used ids; new
 * keys then take the lowest free id. A sweep of L ids frees at least half of them or lets
 * the id space double first, so it costs O(1) amortised per new key. Memory over never
 * reusing: one bit an id.
 * Bound: `localLimit` ≤ max(sweepFloor, 2 × the most ids ever referenced at once), where
 * referenced means held or remembered — the capacity in objects plus the policy's bounded
 * ghost history.
 *
 * Decisions are exactly those of the inner policy on global ids: a policy's state for a key
 * lives only while the key is held or remembered, and that is exactly when its local id is
 * kept (ghosts count, or a reused id would inherit another key's ghost). A stored key keeps
 * the same local id for as long as it stays stored (and while it is remembered).
 *
 * A lookup of a key the node does not map is answered from the table alone, without taking
 * a local id.
 */
export class SparseKeyStore implements CacheStore {
  /**
   * The open-addressing table: slot s holds its key at [2s] (EMPTY when free) and the key's
   * local id at [2s + 1], side by side, so a probe reads one cache line (the tables of
   * hundreds of PoPs do not stay in the CPU caches).
   */
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  /** Keys in the table (each with a local id): referenced ones, and any that left since the last sweep. */
  private mapped = 0;
  /**
   * Bit `local` set: the id is given to a key in the table. One bit a local id, so reuse
   * costs the baseline (where caches rarely evict) next to nothing over never reusing.
   */
  private usedLocals: Int32Array;
  /** Clear bits below `limit`: ids freed by the last sweep and not yet taken again. */
  private freeCount = 0;
  /** Word of `usedLocals` where the search for the lowest free id resumes (nothing free below it). */
  private freeCursor = 0;
  /** Local ids handed out so far are 0 … limit − 1. */
  private limit = 0;
  /** Ids found referenced by the last sweep: the next waits until twice as many are handed out. */
  private referencedAtSweep = 0;
  private readonly sweepFloor: number;
  /** Where the last find() stopped (see find). */
  private probeEnd = 0;

  constructor(
    private readonly inner: CacheStore,
    options: SparseKeyStoreOptions = {},
  ) {
    // An offline policy's future knowledge is indexed by key and kept after eviction; it
    // has no place behind reusable ids (and this wrapper does not forward setNextAccess).
    if (needsFutureKnowledge(inner)) throw new Error(`SparseKeyStore needs an online policy; "${inner.policy}" needs to know the future`);
    this.sweepFloor = Math.max(1, options.sweepFloor ?? DEFAULT_SWEEP_FLOOR);
    this.slots = emptySlots(INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
    this.shift = 32 - Math.log2(INITIAL_SLOTS);
    this.usedLocals = new Int32Array(INITIAL_SLOTS / 32);
  }

  get policy(): string {
    return this.inner.policy;
  }
  get capacity(): number {
    return this.inner.capacity;
  }
  get countMode(): boolean {
    return this.inner.countMode;
  }
  get occupancy(): number {
    return this.inner.occupancy;
  }
  get objectCount(): number {
    return this.inner.objectCount;
  }

  /**
   * Every local id handed out so far is below this, so a caller can keep per-local metadata
   * in arrays of this length (a Float64Array indexed by local id) and grow them when it grows.
   * It grows only when a new key finds no free id, and stays at most max(1024, 2 × the most
   * keys held or remembered at once). A reused id may have belonged to another key: write
   * the metadata when the key is inserted.
   */
  get localLimit(): number {
    return this.limit;
  }

  /**
   * The local id of `key` while this node holds it (stored, fresh or not) or its policy
   * remembers it in a ghost list; −1 otherwise. No policy state is touched. A stored key
   * keeps the same local id for as long as it stays stored.
   */
  localOf(key: number): number {
    const local = this.find(key);
    return local >= 0 && this.referenced(local) ? local : -1;
  }

  /** The local id of `key` while this node stores it (a ghost does not count), −1 otherwise; no policy state touched. */
  storedLocalOf(key: number): number {
    const local = this.find(key);
    return local >= 0 && !Number.isNaN(this.inner.expiryOf(local)) ? local : -1;
  }

  /** A lookup (policy state updated on a hit) that answers the hit's local id, or −1 on a miss: one probe. */
  lookupLocal(key: number, nowMs: number): number {
    const local = this.find(key);
    return local >= 0 && this.inner.lookup(local, nowMs) ? local : -1;
  }

  lookup(key: number, nowMs: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.lookup(local, nowMs);
  }

  contains(key: number, nowMs: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.contains(local, nowMs);
  }

  expiryOf(key: number): number {
    const local = this.find(key);
    return local >= 0 ? this.inner.expiryOf(local) : NaN;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    return this.inner.insert(this.localFor(key), size, expiresAtMs);
  }

  /** insert() that answers the stored key's local id (−1 when not admitted): one probe. */
  insertLocal(key: number, size: number, expiresAtMs: number): number {
    const local = this.localFor(key);
    return this.inner.insert(local, size, expiresAtMs) ? local : -1;
  }

  remove(key: number): boolean {
    const local = this.find(key);
    return local >= 0 && this.inner.remove(local);
  }

  /**
   * The local id `key` is mapped to, or −1 (never stored, or gone and swept). Leaves in
   * `probeEnd` the slot the probe stopped at: the key's, or the empty slot where it would go.
   */
  private find(key: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    for (;;) {
      const found = slots[2 * slot];
      if (found === key) {
        this.probeEnd = slot;
        return slots[2 * slot + 1];
      }
      if (found === EMPTY) {
        this.probeEnd = slot;
        return -1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Held (an entry, expired or not) or remembered by the policy. */
  private referenced(local: number): boolean {
    const inner = this.inner;
    return !Number.isNaN(inner.expiryOf(local)) || (inner.remembers !== undefined && inner.remembers(local));
  }

  private localFor(key: number): number {
    const found = this.find(key);
    if (found >= 0) return found;
    let local: number;
    if (this.freeCount === 0 && this.limit >= Math.max(this.sweepFloor, 2 * this.referencedAtSweep)) {
      // A sweep moves keys: probe again for the key's empty slot.
      this.sweep();
      local = this.freeCount > 0 ? this.takeFreeLocal() : this.newLocal();
      this.place(key, local);
    } else {
      // find() stopped at the empty slot the key goes to.
      local = this.freeCount > 0 ? this.takeFreeLocal() : this.newLocal();
      this.slots[2 * this.probeEnd] = key;
      this.slots[2 * this.probeEnd + 1] = local;
    }
    // Half full at most, so probes stay short.
    if (++this.mapped * 2 > this.slots.length / 2) this.grow(this.slots.length);
    return local;
  }

  /** The lowest free id below `limit` (there is one: freeCount > 0), marked used. */
  private takeFreeLocal(): number {
    const used = this.usedLocals;
    let word = this.freeCursor;
    while (used[word] === -1) word++;
    this.freeCursor = word;
    const bits = used[word];
    const lowestClear = ~bits & (bits + 1);
    used[word] = bits | lowestClear;
    this.freeCount--;
    return word * 32 + 31 - Math.clz32(lowestClear);
  }

  private newLocal(): number {
    const local = this.limit++;
    if (local >> 5 >= this.usedLocals.length) this.usedLocals = growInt32(this.usedLocals, this.usedLocals.length * 2, 0);
    this.usedLocals[local >> 5] |= 1 << (local & 31);
    return local;
  }

  /** Puts `key` (not in the table) in the first empty slot of its probe sequence. */
  private place(key: number, local: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    while (slots[2 * slot] !== EMPTY) slot = (slot + 1) & mask;
    slots[2 * slot] = key;
    slots[2 * slot + 1] = local;
  }

  /**
   * Frees the ids of keys that have left the node entirely and deletes those keys from the
   * table in place, without tombstones and without allocating: Knuth's Algorithm R for
   * linear probing (TAOCP vol. 3, 6.4), which moves later keys of the probe run back into
   * the hole. A moved key only ever lands on the slot being examined or on a later one
   * (or, across the wrap, on a slot already examined and kept), so one pass sees every key.
   */
  private sweep(): void {
    const slots = this.slots;
    const count = slots.length / 2;
    const used = this.usedLocals;
    let freed = 0;
    for (let slot = 0; slot < count; slot++) {
      while (slots[2 * slot] !== EMPTY && !this.referenced(slots[2 * slot + 1])) {
        const local = slots[2 * slot + 1];
        used[local >> 5] &= ~(1 << (local & 31));
        freed++;
        this.deleteAt(slot);
      }
    }
    // Every id below limit was mapped (a sweep runs only with none free).
    this.freeCount = freed;
    this.freeCursor = 0;
    this.referencedAtSweep = this.limit - freed;
    this.mapped = this.limit - freed;
  }

  /** Empties `slot`, moving back each later key of its probe run that may sit there. */
  private deleteAt(slot: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let hole = slot;
    for (let next = (slot + 1) & mask; slots[2 * next] !== EMPTY; next = (next + 1) & mask) {
      const home = Math.imul(slots[2 * next], HASH_MULTIPLIER) >>> this.shift;
      // The key may move to the hole when its home is not strictly after the hole (cyclically).
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        slots[2 * hole] = slots[2 * next];
        slots[2 * hole + 1] = slots[2 * next + 1];
        hole = next;
      }
    }
    slots[2 * hole] = EMPTY;
  }

  /** Moves the table to `count` slots. */
  private grow(count: number): void {
    const old = this.slots;
    this.slots = emptySlots(count);
    this.mask = count - 1;
    this.shift = 32 - Math.log2(count);
    for (let slot = 0; slot < old.length / 2; slot++) if (old[2 * slot] !== EMPTY) this.place(old[2 * slot], old[2 * slot + 1]);
  }
}

/** A table of `count` empty slots (key EMPTY, local 0). */
function emptySlots(count: number): Int32Array {
  const slots = new Int32Array(2 * count);
  for (let slot = 0; slot < count; slot++) slots[2 * slot] = EMPTY;
  return slots;
}
