import type { CurveLayer } from '../cache/hitRatioCurves.js';
import { statusIn, TIMES_RESPONSE_AT, TIMES_VERSION_AT, versionIn, versionStatusOf, type CacheNode, type CacheNodeStore } from './cacheNode.js';

/** An index slot's entry when the slot is free. */
const FREE = -1;
const NIL = -1;
/** Golden-ratio multiplier (Knuth's multiplicative hashing): a key's home slot is the product's top bits. */
const HASH_MULTIPLIER = 0x9e3779b1;
const INITIAL_SLOTS = 1024;
/** The index doubles before more than this share of its slots is taken. */
const MAX_LOAD = 0.75;
/**
 * Entries first allocated; the arena then doubles. Its untouched end costs address space, not
 * memory (pages are committed when first written), and a cold run copies each entry about once,
 * not four times as when it grew by a quarter (issue 27, fourth round: newEntry 2.8 % → 1 % of a
 * cold profile, the garbage collector 2.8 % → 1.3–1.8 %).
 */
const INITIAL_ENTRIES = 256;
/**
 * One 48-byte entry: Int32 words 0 when the entry was last used (USED_AT, FREED once it
 * leaves), 1 next (links the free list), 10 key;
 * Float64 numbers 1… the entry's fields. What a hit reads and writes (the stamp, the response
 * time, version and status, when the origin read the version) is in the first 32 bytes, so it
 * spans two cache lines for a quarter of the entries (48-byte strides start at 0, 16, 32 or 48
 * in a 64-byte line), not half as when those fields were spread over the whole entry (issue 27,
 * fourth round). 48 bytes, not 64: the end of freshness is not kept (reuse recomputes it from
 * the response time and the lifetime in force, spec 1.2 item 6) and a held error lives beside
 * the arena (`heldErrors`): 2 M cold baseline requests store about 2 M entries, so 16 bytes an
 * entry is about 32 MB (issue 27, memory).
 */
const WORDS = 12;
const NUMBERS = 6;
/** When the entry was last used (the node's use count then): its place in the recency order. */
const USED_AT = 0;
const NEXT = 1;
const KEY = 10;
/** USED_AT of an entry that has left the cache: above every stamp, so the eviction queue passes it over. */
const FREED = 2 ** 31 - 1;
/** Stamps stay below this; a node that reaches it numbers its entries' stamps afresh from 0 (Int32 words). */
const MAX_STAMP = FREED - 1;
/**
 * orderByStamps places entries through a table by stamp (4 bytes a stamp) while their stamps
 * span at most this many per entry: always after a fill, and after the queue ran out (its
 * stamps then span the uses since the last ordering); a node that served many hits before its
 * first eviction sorts its entries instead.
 */
const STAMP_TABLE_PER_ENTRY = 8;
/** The table by stamp, shared by every node (one ordering at a time; it grows to the largest span). */
let stampTable = new Int32Array(0);
const RESPONSE_AT = 1;
const VERSION_STATUS = 2;
const VERSION_AT = 3;
const SIZE = 4;

/**
 * An LRU shared cache node (the default policy): an index from key to entry, and the entries
 * in one arena, each 48 bytes holding the key, its last use (a stamp), its size and what HTTP caching
 * needs (SharedCacheNode's fields; a held error beside the arena). SharedCacheNode over SparseKeyStore and LruStore
 * reads a hash slot, then an LRU record, then the node's record: three cache lines per hit,
 * and the tables of hundreds of PoPs do not stay in the CPU caches. Here a hit reads an index
 * slot and its entry.
 *
 * The index is open addressing with linear probing over 8-byte slots (key, entry), 8 to a
 * cache line: most lookups miss (the key is not at this node) and a miss reads one or two
 * lines of the index alone. It doubles before it is three quarters full, moving only its
 * 8-byte slots, in slot order: the entries stay where they are (issue 27: when whole 64-byte
 * entries lived in the hash slots, re-placing them in recency order was 8 % of a cold run).
 * The arena doubles, a copy of memory (its untouched end is address space only, pages being
 * committed when first written); an entry that leaves goes on a free list for the next put.
 * Memory: 48 bytes an entry written plus 8 an index slot at 3/8–3/4, about 59–69 bytes an
 * object (85–171 with 64-byte entries in the slots), and 4 in the eviction queue once the
 * node evicts. An entry leaves the index as it leaves
 * the cache (LRU keeps no ghosts), by Knuth's Algorithm R (TAOCP vol. 3, 6.4), which moves
 * later index slots of the probe run back; an entry's handle (its place in the arena) does
 * not change while stored.
 *
 * Decisions are LruStore's under SharedCacheNode, exactly: the same recency order, the same
 * evictions (least recent first until the new object fits), the same refusal of an object
 * larger than the cache (after the older version is gone), the same byte sums in the same
 * order. Entries never expire here (the flow judges freshness, as with SharedCacheNode).
 */
export class LruCacheNode implements CacheNode, CacheNodeStore {
  readonly policy = 'lru';
  /** Slot s: Int32 2s the key, 2s + 1 its entry (FREE: the slot is free). */
  private index: Int32Array;
  private mask: number;
  private shift: number;
  private words: Int32Array;
  private numbers: Float64Array;
  /** Entries the arena has room for, and entries ever handed out (those at and past it are untouched). */
  private entryRoom = INITIAL_ENTRIES;
  private entryTop = 0;
  /** First entry of the free list (linked through NEXT), or NIL. */
  private freeEntry = NIL;
  /** Uses so far (lookup hits and puts), since the stamps were last numbered afresh: the next stamp. */
  private uses = 0;
  /**
   * The eviction queue: the entries stored when it was made (`queueFrom`, the stamp count
   * then), least recently used first. A use only stamps its entry (USED_AT); it does not
   * relink a recency list, which read the entry's two neighbours, two cache misses a hit
   * (issue 27: unlink was 6 % of a cold baseline run and a quarter of a warmed request,
   * docs/warmup.md "Speed"). An eviction takes the queue's first entry still stamped before
   * `queueFrom`: every entry used or stored since has a later stamp, and every other entry
   * left in the queue comes after it, so that entry is the least recently used, exactly. Entries
   * used since, or freed (FREED), are passed over; when the queue runs out it is made again
   * from the stamps (orderByStamps). Made first at the first eviction: until then nothing
   * reads the order.
   */
  private queue = new Int32Array(0);
  private queueAt = 0;
  private queueEnd = 0;
  private queueFrom = 0;
  private used = 0;
  private count = 0;
  /**
   * The index slot where `storedLocalOf(probedKey)` ended (the key's slot, or the free slot
   * its search stopped at), or −1 once the index has changed since: the put that usually
   * follows on the same key (a fetch's answer is stored) starts from it instead of searching
   * twice more (issue 27, fourth round).
   */
  private probedKey = 0;
  private probedSlot = -1;
  /** Hit-ratio curves (docs/curves.md): the layer recording this node's stack distances, or null (runs without curves pay one test). */
  private curve: CurveLayer | null = null;
  private curveNode = 0;
  /**
   * spec 7.1: entry → until when an origin error is held beside its copy. Held errors come
   * only with error bursts and outages, so they live here rather than 8 bytes in every entry;
   * created on the first hold, and an entry's goes when it is renewed, replaced or leaves.
   */
  private heldErrors: Map<number, number> | null = null;

  constructor(
    /** Bytes. */
    readonly capacity: number,
    readonly id: number,
  ) {
    if (!(capacity >= 0)) throw new RangeError(`cache capacity must be ≥ 0, got ${capacity}`);
    this.index = new Int32Array(2 * INITIAL_SLOTS).fill(FREE);
    this.mask = INITIAL_SLOTS - 1;
    this.shift = 32 - Math.log2(INITIAL_SLOTS);
    this.words = new Int32Array(INITIAL_ENTRIES * WORDS);
    this.numbers = new Float64Array(this.words.buffer);
  }

  /** The node is its own store: one table holds both. */
  get store(): CacheNodeStore {
    return this;
  }
  get occupancy(): number {
    return this.used;
  }
  get objectCount(): number {
    return this.count;
  }

  /**
   * Grows the table at once to hold `entries` more entries without rehashing: a stationary
   * start (src/cdn/stationaryFill.ts) knows how many it is about to put, and growing by
   * doubling took most of its time.
   */
  reserve(entries: number): void {
    let slots = this.mask + 1;
    while (this.count + entries > slots * MAX_LOAD) slots *= 2;
    // One rehash to the final size: doubling step by step left gigabytes of dropped tables to collect over 339 edges.
    if (slots > this.mask + 1) this.growIndex(slots);
    // And the entry arena once, to what the fill will hold (freed entries are reused first).
    const room = this.entryTop + Math.max(0, entries - this.freeEntries());
    if (room > this.entryRoom) {
      const words = new Int32Array(room * WORDS);
      words.set(this.words);
      this.words = words;
      this.numbers = new Float64Array(words.buffer);
      this.entryRoom = room;
    }
  }

  /** How many entries wait on the free list. */
  private freeEntries(): number {
    let n = 0;
    for (let entry = this.freeEntry; entry !== NIL; entry = this.words[entry * WORDS + NEXT]) n++;
    return n;
  }

  /** Records this node's byte stack distances in `layer` as node `node` from now on (the flow and the cache-only warm-up both look keys up here). */
  recordCurve(layer: CurveLayer, node: number): void {
    this.curve = layer;
    this.curveNode = node;
  }

  lookup(key: number, _nowMs: number): number {
    const entry = this.find(key);
    if (this.curve !== null) this.curve.reference(this.curveNode, key, entry >= 0);
    if (entry >= 0) this.use(entry);
    return entry;
  }

  storedLocalOf(key: number): number {
    const index = this.index;
    const mask = this.mask;
    this.probedKey = key;
    for (let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift; ; slot = (slot + 1) & mask) {
      const entry = index[2 * slot + 1];
      if (entry === FREE || index[2 * slot] === key) {
        this.probedSlot = slot;
        return entry;
      }
    }
  }

  put(key: number, bytes: number, versionAtMs: number, responseAtMs: number, version: number, status: number): number {
    if (!(bytes >= 0)) throw new RangeError(`object size must be ≥ 0 bytes, got ${bytes}`);
    // The curve learns the size even when the object is refused: docs/curves.md, objects larger than the cache.
    if (this.curve !== null) this.curve.stored(this.curveNode, key, bytes);
    // The key's slot, or the free slot where its search ends: from the probe just made, if any.
    let slot = this.probedSlot >= 0 && this.probedKey === key ? this.probedSlot : this.slotOrEndOf(key);
    this.probedSlot = -1;
    // The old version goes even when the new one is refused (as LruStore.insert).
    if (this.index[2 * slot + 1] !== FREE) {
      this.forget(slot);
      slot = -1;
    }
    if (bytes > this.capacity) return -1;
    // Evictions and growth move index slots: the free slot is then searched again.
    while (this.used + bytes > this.capacity) {
      this.forget(this.slotOf(this.words[this.leastRecent() * WORDS + KEY]));
      slot = -1;
    }
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) {
      this.growIndex();
      slot = -1;
    }
    // Before the new entry is handed out: a fresh one's stamp word is not yet written.
    if (this.uses === MAX_STAMP) this.orderByStamps(true);
    const entry = this.newEntry();
    if (slot < 0) slot = this.freeSlotFor(key);
    this.index[2 * slot] = key;
    this.index[2 * slot + 1] = entry;
    this.words[entry * WORDS + KEY] = key;
    const numbers = this.numbers;
    const at = entry * NUMBERS;
    numbers[at + SIZE] = bytes;
    numbers[at + RESPONSE_AT] = responseAtMs;
    numbers[at + VERSION_AT] = versionAtMs;
    numbers[at + VERSION_STATUS] = versionStatusOf(version, status);
    this.used += bytes;
    this.count++;
    this.words[entry * WORDS + USED_AT] = this.uses++;
    return entry;
  }

  setTimes(local: number, times: Float64Array): void {
    this.numbers[local * NUMBERS + VERSION_AT] = times[TIMES_VERSION_AT];
    this.numbers[local * NUMBERS + RESPONSE_AT] = times[TIMES_RESPONSE_AT];
  }

  renew(local: number, responseAtMs: number): void {
    this.numbers[local * NUMBERS + RESPONSE_AT] = responseAtMs;
    if (this.heldErrors !== null) this.heldErrors.delete(local);
  }

  holdError(local: number, untilMs: number): void {
    if (this.heldErrors === null) this.heldErrors = new Map();
    this.heldErrors.set(local, untilMs);
  }

  remove(key: number): void {
    const slot = this.slotOf(key);
    if (slot >= 0) this.forget(slot);
  }

  responseAtOf(local: number): number {
    return this.numbers[local * NUMBERS + RESPONSE_AT];
  }
  versionAtOf(local: number): number {
    return this.numbers[local * NUMBERS + VERSION_AT];
  }
  errorUntilOf(local: number): number {
    const held = this.heldErrors;
    if (held === null || held.size === 0) return -Infinity;
    const untilMs = held.get(local);
    return untilMs === undefined ? -Infinity : untilMs;
  }
  versionOf(local: number): number {
    return versionIn(this.numbers[local * NUMBERS + VERSION_STATUS]);
  }
  statusOf(local: number): number {
    return statusIn(this.numbers[local * NUMBERS + VERSION_STATUS]);
  }

  /** The entry of `key`, or −1. */
  private find(key: number): number {
    const index = this.index;
    const mask = this.mask;
    for (let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift; ; slot = (slot + 1) & mask) {
      const entry = index[2 * slot + 1];
      if (entry === FREE) return -1;
      if (index[2 * slot] === key) return entry;
    }
  }

  /** The index slot of `key`, or −1. */
  private slotOf(key: number): number {
    const index = this.index;
    const mask = this.mask;
    for (let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift; ; slot = (slot + 1) & mask) {
      if (index[2 * slot + 1] === FREE) return -1;
      if (index[2 * slot] === key) return slot;
    }
  }

  /** The index slot of `key`, or the free slot where its search ends. */
  private slotOrEndOf(key: number): number {
    const index = this.index;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    while (index[2 * slot + 1] !== FREE && index[2 * slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  /** The first free index slot of `key`'s probe sequence (`key` is not in the index). */
  private freeSlotFor(key: number): number {
    const index = this.index;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    while (index[2 * slot + 1] !== FREE) slot = (slot + 1) & mask;
    return slot;
  }

  /** An entry for a new object: a freed one, else the next of the arena (doubled when full). */
  private newEntry(): number {
    const freed = this.freeEntry;
    if (freed !== NIL) {
      this.freeEntry = this.words[freed * WORDS + NEXT];
      return freed;
    }
    if (this.entryTop === this.entryRoom) {
      // Twice the room, one copy of memory: the entries keep their places (handles), so nothing is re-placed.
      this.entryRoom *= 2;
      const words = new Int32Array(this.entryRoom * WORDS);
      words.set(this.words);
      this.words = words;
      this.numbers = new Float64Array(words.buffer);
    }
    return this.entryTop++;
  }

  /** The entry indexed at `slot` leaves the cache: marked FREED (the eviction queue passes it over), out of the index, onto the free list. */
  private forget(slot: number): void {
    const entry = this.index[2 * slot + 1];
    this.words[entry * WORDS + USED_AT] = FREED;
    this.used -= this.numbers[entry * NUMBERS + SIZE];
    this.count--;
    this.deleteAt(slot);
    // A held error goes with its entry (a replacing put starts without one).
    if (this.heldErrors !== null) this.heldErrors.delete(entry);
    this.words[entry * WORDS + NEXT] = this.freeEntry;
    this.freeEntry = entry;
  }

  /** A lookup hit: `entry` becomes the most recently used. */
  private use(entry: number): void {
    if (this.uses === MAX_STAMP) this.orderByStamps(true);
    this.words[entry * WORDS + USED_AT] = this.uses++;
  }

  /** The least recently used entry (the cache holds one at least): the eviction queue's first entry not used since it was made. */
  private leastRecent(): number {
    const words = this.words;
    for (;;) {
      const queue = this.queue;
      const from = this.queueFrom;
      for (let at = this.queueAt; at < this.queueEnd; at++) {
        const entry = queue[at];
        if (words[entry * WORDS + USED_AT] < from) {
          this.queueAt = at + 1;
          return entry;
        }
      }
      this.orderByStamps(false);
    }
  }

  /**
   * Makes the eviction queue: every stored entry, least recently used first. `renumber`: the
   * stamps are numbered afresh 0, 1, … in that order (when they would pass MAX_STAMP).
   */
  private orderByStamps(renumber: boolean): void {
    const words = this.words;
    const top = this.entryTop;
    let oldest = FREED;
    for (let entry = 0; entry < top; entry++) if (words[entry * WORDS + USED_AT] < oldest) oldest = words[entry * WORDS + USED_AT];
    if (this.queue.length < this.count) this.queue = new Int32Array(Math.max(this.count, 2 * this.queue.length));
    const queue = this.queue;
    let n = 0;
    const span = this.uses - oldest;
    if (span <= STAMP_TABLE_PER_ENTRY * this.count + 1024) {
      // Stamps are distinct: a table by stamp orders the entries in one pass over the arena, in
      // memory order, with no sort (a stationary start orders 238 full caches, 17 M entries, at
      // their first evictions: a sort and a walk of the index took about 400 ns an entry).
      if (stampTable.length < span) stampTable = new Int32Array(Math.max(span, 2 * stampTable.length));
      const table = stampTable;
      table.fill(NIL, 0, span);
      for (let entry = 0; entry < top; entry++) if (words[entry * WORDS + USED_AT] !== FREED) table[words[entry * WORDS + USED_AT] - oldest] = entry;
      for (let stamp = 0; stamp < span; stamp++) if (table[stamp] !== NIL) queue[n++] = table[stamp];
    } else {
      if (span * top < 2 ** 53) {
        // (stamp − oldest) × top + entry sorts as the stamps and is exact in a double: a native
        // numeric sort, without a comparator call per comparison.
        const keys = new Float64Array(this.count);
        for (let entry = 0; entry < top; entry++) if (words[entry * WORDS + USED_AT] !== FREED) keys[n++] = (words[entry * WORDS + USED_AT] - oldest) * top + entry;
        keys.sort();
        for (let i = 0; i < n; i++) queue[i] = keys[i] - Math.floor(keys[i] / top) * top;
      } else {
        // n is still 0 here: the stored entries are `count`.
        const entries = new Int32Array(this.count);
        for (let entry = 0; entry < top; entry++) if (words[entry * WORDS + USED_AT] !== FREED) entries[n++] = entry;
        entries.sort((a, b) => words[a * WORDS + USED_AT] - words[b * WORDS + USED_AT]);
        queue.set(entries);
      }
    }
    this.queueAt = 0;
    this.queueEnd = n;
    if (renumber) {
      for (let i = 0; i < n; i++) words[queue[i] * WORDS + USED_AT] = i;
      this.uses = n;
    }
    this.queueFrom = this.uses;
  }

  /** Frees index slot `slot`, moving back each later slot of its probe run that may sit there (Algorithm R). */
  private deleteAt(slot: number): void {
    const index = this.index;
    const mask = this.mask;
    this.probedSlot = -1;
    let hole = slot;
    for (let next = (slot + 1) & mask; index[2 * next + 1] !== FREE; next = (next + 1) & mask) {
      const home = Math.imul(index[2 * next], HASH_MULTIPLIER) >>> this.shift;
      // The slot may move to the hole when its home is not strictly after the hole (cyclically).
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        index[2 * hole] = index[2 * next];
        index[2 * hole + 1] = index[2 * next + 1];
        hole = next;
      }
    }
    index[2 * hole] = FREE;
    index[2 * hole + 1] = FREE;
  }

  /** Grows the index to `slots` (twice its size by default), placing its slots again in slot order (the entries stay where they are). */
  private growIndex(slots = 2 * (this.mask + 1)): void {
    const old = this.index;
    this.probedSlot = -1;
    this.index = new Int32Array(2 * slots).fill(FREE);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    const index = this.index;
    for (let from = 0; from < old.length; from += 2) {
      if (old[from + 1] === FREE) continue;
      const slot = this.freeSlotFor(old[from]);
      index[2 * slot] = old[from];
      index[2 * slot + 1] = old[from + 1];
    }
  }
}
