import type { CurveLayer } from '../cache/hitRatioCurves.js';
import { statusIn, versionIn, versionStatusOf, type CacheNode, type CacheNodeStore } from './cacheNode.js';

const EMPTY = 0;
const NIL = -1;
/** Golden-ratio multiplier (Knuth's multiplicative hashing): a key's home slot is the product's top bits. */
const HASH_MULTIPLIER = 0x9e3779b1;
/** A second, independent multiplier: a key's fingerprint is this product's top byte (odd, so never EMPTY). */
const FINGERPRINT_MULTIPLIER = 0x85ebca6b;
const INITIAL_SLOTS = 1024;
/** The table doubles before more than this share of its slots is taken. */
const MAX_LOAD = 0.75;
/** One 64-byte slot: Int32 words 0 key, 1 prev, 2 next (slots, NIL at the ends); Float64 numbers 2… the entry's fields. */
const WORDS = 16;
const NUMBERS = 8;
const KEY = 0;
const PREV = 1;
const NEXT = 2;
const SIZE = 2;
const RESPONSE_AT = 3;
const VERSION_AT = 4;
const FRESH_UNTIL = 5;
const VERSION_STATUS = 6;
/** Until when an origin error is held beside the stored copy (spec 7.1; −∞: none). */
const ERROR_UNTIL = 7;

/**
 * An LRU shared cache node (the default policy) whose hash slot holds the whole entry: the
 * key, its LRU links, its size and what HTTP caching needs (SharedCacheNode's five fields),
 * 64 bytes in one slot. SharedCacheNode over SparseKeyStore and LruStore reads a hash slot,
 * then an LRU record, then the node's record: three cache lines per hit, and the tables of
 * hundreds of PoPs do not stay in the CPU caches. Here a hit reads a fingerprint and one slot.
 *
 * Probes run over a byte per slot (the key's fingerprint, 0 when free), 64 to a cache line,
 * and read a slot only when its fingerprint matches: most lookups miss (the key is not at
 * this node), and a miss then costs one line, as before, though the slots are 8 times wider.
 * Open addressing with linear probing; an entry leaves the table as it leaves the cache
 * (LRU keeps no ghosts), by Knuth's Algorithm R (TAOCP vol. 3, 6.4), which moves later
 * entries of the probe run back: an entry's handle (its slot) changes then, so a handle is
 * valid only until the next put or remove (see CacheNode), and a moved entry's neighbours
 * are relinked to its new slot.
 *
 * Decisions are LruStore's under SharedCacheNode, exactly: the same recency order, the same
 * evictions (least recent first until the new object fits), the same refusal of an object
 * larger than the cache (after the older version is gone), the same byte sums in the same
 * order. Entries never expire here (the flow judges freshness, as with SharedCacheNode).
 * Memory: 64 bytes a slot at a load of 3/8 to 3/4, so 85–171 bytes an object (SharedCacheNode:
 * about 98, but up to twice that after its arrays double).
 */
export class LruCacheNode implements CacheNode, CacheNodeStore {
  readonly policy = 'lru';
  private words: Int32Array;
  private numbers: Float64Array;
  private prints: Uint8Array;
  private mask: number;
  private shift: number;
  /** Most recently used entry's slot, or NIL. */
  private head = NIL;
  /** Least recently used entry's slot (the next to go), or NIL. */
  private tail = NIL;
  private used = 0;
  private count = 0;
  /** Hit-ratio curves (docs/curves.md): the layer recording this node's stack distances, or null (runs without curves pay one test). */
  private curve: CurveLayer | null = null;
  private curveNode = 0;

  constructor(
    /** Bytes. */
    readonly capacity: number,
    readonly id: number,
  ) {
    if (!(capacity >= 0)) throw new RangeError(`cache capacity must be ≥ 0, got ${capacity}`);
    this.words = new Int32Array(INITIAL_SLOTS * WORDS);
    this.numbers = new Float64Array(this.words.buffer);
    this.prints = new Uint8Array(INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
    this.shift = 32 - Math.log2(INITIAL_SLOTS);
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
    if (slots > this.mask + 1) this.grow(slots);
  }

  /** Records this node's byte stack distances in `layer` as node `node` from now on (the flow and the cache-only warm-up both look keys up here). */
  recordCurve(layer: CurveLayer, node: number): void {
    this.curve = layer;
    this.curveNode = node;
  }

  lookup(key: number, _nowMs: number): number {
    const slot = this.find(key);
    if (this.curve !== null) this.curve.reference(this.curveNode, key, slot >= 0);
    if (slot >= 0 && this.head !== slot) {
      this.unlink(slot);
      this.linkAtHead(slot);
    }
    return slot;
  }

  storedLocalOf(key: number): number {
    return this.find(key);
  }

  put(key: number, bytes: number, versionAtMs: number, responseAtMs: number, freshUntilMs: number, version: number, status: number): number {
    if (!(bytes >= 0)) throw new RangeError(`object size must be ≥ 0 bytes, got ${bytes}`);
    // The curve learns the size even when the object is refused: docs/curves.md, objects larger than the cache.
    if (this.curve !== null) this.curve.stored(this.curveNode, key, bytes);
    // The old version goes even when the new one is refused (as LruStore.insert).
    const present = this.find(key);
    if (present >= 0) this.forget(present);
    if (bytes > this.capacity) return -1;
    while (this.used + bytes > this.capacity) this.forget(this.tail);
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    const slot = this.freeSlotFor(key);
    this.prints[slot] = fingerprintOf(key);
    this.words[slot * WORDS + KEY] = key;
    const numbers = this.numbers;
    const at = slot * NUMBERS;
    numbers[at + SIZE] = bytes;
    numbers[at + RESPONSE_AT] = responseAtMs;
    numbers[at + VERSION_AT] = versionAtMs;
    numbers[at + FRESH_UNTIL] = freshUntilMs;
    numbers[at + VERSION_STATUS] = versionStatusOf(version, status);
    numbers[at + ERROR_UNTIL] = -Infinity;
    this.used += bytes;
    this.count++;
    this.linkAtHead(slot);
    return slot;
  }

  renew(local: number, responseAtMs: number, freshUntilMs: number): void {
    this.numbers[local * NUMBERS + RESPONSE_AT] = responseAtMs;
    this.numbers[local * NUMBERS + FRESH_UNTIL] = freshUntilMs;
    this.numbers[local * NUMBERS + ERROR_UNTIL] = -Infinity;
  }

  holdError(local: number, untilMs: number): void {
    this.numbers[local * NUMBERS + ERROR_UNTIL] = untilMs;
  }

  remove(key: number): void {
    const slot = this.find(key);
    if (slot >= 0) this.forget(slot);
  }

  responseAtOf(local: number): number {
    return this.numbers[local * NUMBERS + RESPONSE_AT];
  }
  versionAtOf(local: number): number {
    return this.numbers[local * NUMBERS + VERSION_AT];
  }
  freshUntilOf(local: number): number {
    return this.numbers[local * NUMBERS + FRESH_UNTIL];
  }
  errorUntilOf(local: number): number {
    return this.numbers[local * NUMBERS + ERROR_UNTIL];
  }
  versionOf(local: number): number {
    return versionIn(this.numbers[local * NUMBERS + VERSION_STATUS]);
  }
  statusOf(local: number): number {
    return statusIn(this.numbers[local * NUMBERS + VERSION_STATUS]);
  }

  /** The slot of `key`, or −1: fingerprints probed, a slot read only where one matches. */
  private find(key: number): number {
    const prints = this.prints;
    const mask = this.mask;
    const print = fingerprintOf(key);
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    for (;;) {
      const found = prints[slot];
      if (found === print) {
        if (this.words[slot * WORDS + KEY] === key) return slot;
      } else if (found === EMPTY) return -1;
      slot = (slot + 1) & mask;
    }
  }

  /** The first free slot of `key`'s probe sequence (`key` is not in the table). */
  private freeSlotFor(key: number): number {
    const prints = this.prints;
    const mask = this.mask;
    let slot = Math.imul(key, HASH_MULTIPLIER) >>> this.shift;
    while (prints[slot] !== EMPTY) slot = (slot + 1) & mask;
    return slot;
  }

  /** The entry in `slot` leaves the cache: off the recency list and out of the table. */
  private forget(slot: number): void {
    this.unlink(slot);
    this.used -= this.numbers[slot * NUMBERS + SIZE];
    this.count--;
    this.deleteAt(slot);
  }

  private unlink(slot: number): void {
    const words = this.words;
    const before = words[slot * WORDS + PREV];
    const after = words[slot * WORDS + NEXT];
    if (before === NIL) this.head = after;
    else words[before * WORDS + NEXT] = after;
    if (after === NIL) this.tail = before;
    else words[after * WORDS + PREV] = before;
  }

  private linkAtHead(slot: number): void {
    const words = this.words;
    const head = this.head;
    words[slot * WORDS + PREV] = NIL;
    words[slot * WORDS + NEXT] = head;
    if (head !== NIL) words[head * WORDS + PREV] = slot;
    else this.tail = slot;
    this.head = slot;
  }

  /**
   * Empties `slot` (its entry unlinked already), moving back each later entry of its probe
   * run that may sit there (Algorithm R) and pointing the moved entry's neighbours at it.
   */
  private deleteAt(slot: number): void {
    const words = this.words;
    const prints = this.prints;
    const mask = this.mask;
    let hole = slot;
    for (let next = (slot + 1) & mask; prints[next] !== EMPTY; next = (next + 1) & mask) {
      const home = Math.imul(words[next * WORDS + KEY], HASH_MULTIPLIER) >>> this.shift;
      // The entry may move to the hole when its home is not strictly after the hole (cyclically).
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        prints[hole] = prints[next];
        for (let word = 0; word < WORDS; word++) words[hole * WORDS + word] = words[next * WORDS + word];
        const before = words[hole * WORDS + PREV];
        const after = words[hole * WORDS + NEXT];
        if (before === NIL) this.head = hole;
        else words[before * WORDS + NEXT] = hole;
        if (after === NIL) this.tail = hole;
        else words[after * WORDS + PREV] = hole;
        hole = next;
      }
    }
    prints[hole] = EMPTY;
  }

  /** Doubles the table, placing the entries again from the least recent to the most recent. */
  private grow(slots = 2 * (this.mask + 1)): void {
    const oldWords = this.words;
    const oldPrints = this.prints;
    this.words = new Int32Array(slots * WORDS);
    this.numbers = new Float64Array(this.words.buffer);
    this.prints = new Uint8Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    let from = this.tail;
    this.head = NIL;
    this.tail = NIL;
    const words = this.words;
    while (from !== NIL) {
      const slot = this.freeSlotFor(oldWords[from * WORDS + KEY]);
      // Word by word, as deleteAt moves a slot: a subarray view per entry would allocate.
      for (let word = 0; word < WORDS; word++) words[slot * WORDS + word] = oldWords[from * WORDS + word];
      this.prints[slot] = oldPrints[from];
      this.linkAtHead(slot);
      from = oldWords[from * WORDS + PREV];
    }
  }
}

/** A key's fingerprint: the top 7 bits of a second hash, made odd so it is never EMPTY (0). */
function fingerprintOf(key: number): number {
  return (Math.imul(key, FINGERPRINT_MULTIPLIER) >>> 24) | 1;
}
