import type { RandomStream } from '../../sim/random.js';
import { AliasTable } from '../aliasTable.js';
import type { FootprintDescriptor, SizeDistribution } from './modelFiles.js';
import { missShare, type Fidelity } from './trafficModel.js';

/**
 * Stack-model generation of a footprint descriptor (docs/traffic-models.md; Sundarrajan et
 * al., CoNEXT 2017; the idea of TRAGEN, Sabnis and Sitaraman, IMC 2021): each request draws
 * either a new object (the model's miss share) or a byte stack-distance bin of the descriptor,
 * then asks for one of the LRU stack's objects in that bin (its bytes from the top, itself
 * included, in the bin), drawn uniformly by count, and moves it to the top. Replayed through
 * an LRU of capacity C, a request hits exactly when its stack distance is ≤ C, so the stream
 * has the model's hit-rate curve at every bin edge (where no object is larger than a bin). By
 * count, not by bytes: an object picked by a uniform byte depth is picked by its size, and
 * large objects then take the reuses (eu-2's byte hit rate came out 97.5 % against the
 * model's 71 %); by count, a reused object's size is the stack's, as the files suggest (their
 * request and byte curves are close).
 *
 * The stack in two parts (docs/traffic-models.md, "Where a model run's time goes"), each a
 * time axis of slots (its top the latest use, a hole where an object left). Its top, the
 * objects whose bytes above them are below the first bin's far edge (200 MB in TRAGEN's
 * files), is a window of a few hundred objects where most reuses land (eu-2: 99 % of them):
 * a draw there is the k-th object from the top, found by live counts per 32 slots, with no
 * byte sums (the whole window is the bin). Below it, a long axis with two Fenwick trees, the
 * slots' bytes and their live count: finding a deeper bin's slots, the k-th of them and
 * moving it up are O(log n). An object leaves the window at its bottom when the objects
 * above it reach the edge, and is then the newest of the long axis, so it goes on its top. Typed arrays only, no allocation per request; the
 * stream is the one a single stack in LRU order would give, draw for draw (the test compares
 * them). The stack holds at most `depthCapBytes`: objects pushed below it are forgotten (a
 * later draw that deep asks for a new object instead); the curve is exact up to the cap and
 * flat beyond it.
 */

const EMPTY = -1;
/** Draws of spanned bins before a request falls back to a new object (docs/traffic-models.md). */
const MAX_REDRAWS = 16;
const INITIAL_SLOTS = 1 << 12;
/** The window's first length in slots (eu-2 holds about 670 objects above 200 MB); it is compacted when full, onto twice its objects. */
const INITIAL_WINDOW = 1 << 10;
/** Slots per block of the window (log2): a block's live count and its mask of live slots are one 32-bit word each. */
const WINDOW_BLOCK_BITS = 5;
/**
 * Slots per leaf block of the axis's trees (log2): the trees sum blocks of 32 slots, and a
 * search ends with a scan of one block's slots. 224 stacks of 4-16.5 GB fit no processor
 * cache; a tree per slot made each update and search 15 or so misses, a tree per block is
 * 32 times smaller (docs/traffic-models.md, "Where a model run's time goes").
 */
const AXIS_BLOCK_BITS = 5;

/** Where a new object comes from: a fresh id, or (across PoPs) one requested elsewhere. */
export interface NewObjects {
  /** The id of the next new object; its size in bytes is `lastSize` afterwards. */
  next(): number;
  readonly lastSize: number;
}

/** Object sizes in whole bytes, drawn from the model's size distribution (1 KB = 1000 bytes). */
export class ObjectSizes {
  private readonly table: AliasTable;
  private readonly bytes: Float64Array;
  /** Mean size over objects, in bytes. */
  readonly meanBytes: number;

  constructor(sizes: SizeDistribution) {
    this.table = new AliasTable(sizes.probability);
    this.bytes = Float64Array.from(sizes.sizeKB, (kb) => Math.max(1, Math.round(kb * 1000)));
    let mean = 0;
    for (let i = 0; i < this.bytes.length; i++) mean += sizes.probability[i] * this.bytes[i];
    this.meanBytes = mean;
  }

  draw(u: number): number {
    return this.bytes[this.table.sample(u)];
  }
}

/** New objects with ids 0, 1, 2 … and sizes from the model. */
export class FreshObjects implements NewObjects {
  private nextId = 0;
  lastSize = 0;

  constructor(
    private readonly sizes: ObjectSizes,
    private readonly random: RandomStream,
  ) {}

  next(): number {
    this.lastSize = this.sizes.draw(this.random.next());
    return this.nextId++;
  }

  /** Ids handed out so far. */
  get count(): number {
    return this.nextId;
  }
}

/**
 * Marks, per id, of which of a class's stacks hold it (ModelTraffic's CdnObjects), so that a
 * stack's own table of held ids need keep only the ids the marks cannot answer for: one
 * holder per id is kept in the id's own mark, the others in their tables. A new object's
 * mark is on the line its creation writes anyway; a table is a miss per probe
 * (docs/traffic-models.md, "Where a model run's time goes").
 */
export interface HeldMarks {
  /** Stack `pop` took `id` (it held it not): whether the stack must keep `id` in its own table. */
  take(pop: number, id: number): boolean;
  /** Stack `pop` forgot `id`: whether `id` was in the stack's own table. */
  forget(pop: number, id: number): boolean;
}

export interface StackGeneratorOptions {
  fidelity: Fidelity;
  /** Deepest byte the stack keeps (memory: about 25 bytes per object it holds at worst). */
  depthCapBytes: number;
  /** Keep a set of the ids the stack holds (`holds`; 8 more bytes per object): for sharing across PoPs. */
  trackHeld?: boolean;
  /** With `trackHeld`: the class's marks, which answer for some held ids; the stack's table (`holds`) then keeps only the others. */
  heldMarks?: HeldMarks;
  /** The stack's index in the marks (its PoP). */
  pop?: number;
}

/** The default stack depth cap: 1 TB (10^12 bytes), where every shipped class's curve is within 0.01 points of its ceiling (docs/traffic-models.md). */
export const DEFAULT_DEPTH_CAP_BYTES = 1e12;

export class StackModelGenerator {
  /** Outcome 0: a new object; outcome k ≥ 1: stack-distance bin k − 1. */
  private readonly outcomes: AliasTable;
  private readonly binLow: Float64Array;
  private readonly binWidth: Float64Array;
  /** The window's far edge: it holds the objects whose bytes above them are below it (the first bin's high edge). */
  private readonly windowEdge: number;
  /**
   * The window's slots, each its id (EMPTY: a hole) and its size side by side (slot s at 2s
   * and 2s + 1: one cache line for both), and per block of 32 slots its live count and its
   * mask of live slots (block b at 2b and 2b + 1), so a draw finds its slot from the block's
   * mask without reading the slots. 224 windows fit no processor cache beside the caches'
   * tables: every line a draw reads is a miss (docs/traffic-models.md, "Where a model run's time goes").
   */
  private windowEntry: Float64Array;
  private windowBlock: Int32Array;
  /** The window's lowest slot that may be live, its next free slot, its objects and bytes. */
  private windowBottom = 0;
  private windowClock = 0;
  private windowCount = 0;
  private windowBytes = 0;
  /** The axis below the window: Fenwick tree of its blocks' bytes (AXIS_BLOCK_BITS slots a block). */
  private tree: Float64Array;
  /** Fenwick tree of its blocks' live slots, for the k-th object of a bin. */
  private countTree: Int32Array;
  private keyAt: Int32Array;
  /** The axis's slots' sizes; 0 at a hole, so a block's scan sums them as the trees do. */
  private sizeAt: Float64Array;
  /** The axis's next free slot (its top is clock − 1), its lowest slot that may be live, its live slots and bytes. */
  private clock = 0;
  private bottom = 0;
  private axisLive = 0;
  private axisBytes = 0;
  /** The whole stack's objects and bytes (window and axis). */
  private live = 0;
  private total = 0;
  private depthCap: number;
  /** Warm-up: the initial stack's objects, bottom to top, are the first `warmupRequests` requests. */
  private warmupLength: number;
  private warmupCursor = 0;
  /** The last request's object id and size in bytes, and whether it was a new object. */
  objectId = 0;
  size = 0;
  isNew = false;
  /** Draws deeper than the stack held (asked as new objects): the cap's cost in curve. */
  tooDeep = 0;
  /** Draws of a bin no object's distance was in (spanned by a larger object), drawn again. */
  spanned = 0;
  /** The share of draws the cap turns into new objects (bins at or below the cap). */
  readonly beyondCapShare: number;

  constructor(
    descriptor: FootprintDescriptor,
    private readonly newObjects: NewObjects,
    private readonly random: RandomStream,
    sizes: ObjectSizes,
    options: StackGeneratorOptions,
  ) {
    this.depthCap = options.depthCapBytes;
    this.heldMarks = options.heldMarks ?? null;
    this.pop = options.pop ?? 0;
    // Bins: the distinct stack distances, each as wide as the grid (200 MB in TRAGEN's files).
    const byBin = new Map<number, number>();
    for (let i = 0; i < descriptor.fraction.length; i++) byBin.set(descriptor.stackDistanceKB[i], (byBin.get(descriptor.stackDistanceKB[i]) ?? 0) + descriptor.fraction[i]);
    const lows = [...byBin.keys()].sort((a, b) => a - b);
    let width = Infinity;
    for (let i = 1; i < lows.length; i++) width = Math.min(width, lows[i] - lows[i - 1]);
    if (lows.length > 0 && lows[0] > 0) width = Math.min(width, lows[0]);
    const binWidthKB = Number.isFinite(width) ? width : 200_000;
    // bfd: the byte share of first requests and the bytes' bins drawn per request; a reuse
    // picks by count, so reused and new objects have the same mean size and the bytes follow
    // the draws (docs/traffic-models.md gives the measured byte curves).
    const miss = missShare(descriptor, options.fidelity);
    let reuse = 0;
    for (const low of lows) reuse += byBin.get(low) ?? 0;
    const weights: number[] = [miss];
    const keptLow: number[] = [];
    let beyond = 0;
    for (const low of lows) {
      // Fractions scaled so that reuses are 1 − the (corrected) miss share.
      const weight = reuse > 0 ? ((byBin.get(low) ?? 0) * (1 - miss)) / reuse : 0;
      if (low * 1000 >= this.depthCap) {
        beyond += weight;
        weights[0] += weight;
      } else {
        weights.push(weight);
        keptLow.push(low * 1000);
      }
    }
    this.beyondCapShare = beyond;
    this.outcomes = new AliasTable(weights);
    this.binLow = Float64Array.from(keptLow);
    this.binWidth = new Float64Array(keptLow.length).fill(binWidthKB * 1000);
    this.windowEdge = keptLow.length === 0 ? 1 : Math.max(1, keptLow[0] + binWidthKB * 1000);
    this.windowEntry = new Float64Array(2 * INITIAL_WINDOW).fill(EMPTY);
    this.windowBlock = new Int32Array(2 * (INITIAL_WINDOW >> WINDOW_BLOCK_BITS));
    // The initial stack: new objects down to the deepest bin's far edge (or the cap), so the
    // first draw finds the model's steady state; a stream replays it bottom to top first.
    const deepest = keptLow.length === 0 ? 0 : keptLow[keptLow.length - 1] + binWidthKB * 1000;
    // Nothing below the deepest bin is ever asked for again: the stack stops there (v's would
    // otherwise grow with every new object to the 1 TB cap, 1.2 M objects instead of 0.13 M).
    this.depthCap = Math.min(this.depthCap, Math.max(deepest, 1));
    const initialDepth = this.depthCap;
    // The axis and the held set sized once for the initial stack's expected objects (its depth
    // over the mean size), as compaction and growth would leave them: built step by step, they
    // were copied and rehashed at every doubling (224 stacks of 15,000 objects on the baseline).
    // Slots and the held set's layout change no draw (draws go by rank and depth, `holds` by id).
    const room = 2 * (Math.ceil(initialDepth / sizes.meanBytes) + 1);
    const slots = Math.max(INITIAL_SLOTS, 2 ** Math.ceil(Math.log2(room)));
    this.tree = new Float64Array((slots >> AXIS_BLOCK_BITS) + 1);
    this.countTree = new Int32Array((slots >> AXIS_BLOCK_BITS) + 1);
    this.keyAt = new Int32Array(slots).fill(EMPTY);
    this.sizeAt = new Float64Array(slots);
    if (options.trackHeld === true) this.held = new Int32Array(Math.max(1 << 12, 2 ** Math.ceil(Math.log2(room + 1)))).fill(EMPTY);
    // Built without forgetting: the last object may reach past the cap until the first draw.
    while (this.total < initialDepth) {
      const id = newObjects.next();
      this.push(id, newObjects.lastSize);
      this.hold(id);
    }
    this.warmupLength = this.live;
    this.warmupOnAxis = this.axisLive;
  }

  /** Ids the stack holds (with `heldMarks`, those the marks do not answer for), open addressing with linear probing (EMPTY: free); null unless `trackHeld`. */
  private held: Int32Array | null = null;
  private heldCount = 0;
  private readonly heldMarks: HeldMarks | null;
  private readonly pop: number;

  /** Whether the stack's table holds `id`: whether the stack holds it, or with `heldMarks` whether it holds it and the marks do not say so (false unless `trackHeld`). */
  holds(id: number): boolean {
    const table = this.held;
    if (table === null) return false;
    const mask = table.length - 1;
    for (let i = Math.imul(id, 0x9e3779b1) & mask; ; i = (i + 1) & mask) {
      const key = table[i];
      if (key === id) return true;
      if (key === EMPTY) return false;
    }
  }

  private hold(id: number): void {
    if (this.held === null || (this.heldMarks !== null && !this.heldMarks.take(this.pop, id))) return;
    this.tableHeld(id);
  }

  private tableHeld(id: number): void {
    let table = this.held as Int32Array;
    if (2 * (this.heldCount + 1) > table.length) table = this.growHeld();
    const mask = table.length - 1;
    let i = Math.imul(id, 0x9e3779b1) & mask;
    while (table[i] !== EMPTY) {
      if (table[i] === id) return;
      i = (i + 1) & mask;
    }
    table[i] = id;
    this.heldCount++;
  }

  /** `id` left the stack: removed, and the probe runs after it shifted back (no tombstones). */
  private release(id: number): void {
    const table = this.held;
    if (table === null || (this.heldMarks !== null && !this.heldMarks.forget(this.pop, id))) return;
    const mask = table.length - 1;
    let i = Math.imul(id, 0x9e3779b1) & mask;
    while (table[i] !== id) {
      if (table[i] === EMPTY) return;
      i = (i + 1) & mask;
    }
    table[i] = EMPTY;
    this.heldCount--;
    for (let j = (i + 1) & mask; table[j] !== EMPTY; j = (j + 1) & mask) {
      const key = table[j];
      const home = Math.imul(key, 0x9e3779b1) & mask;
      // key may move to the hole at i when its home is not cyclically in (i, j].
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
        table[i] = key;
        table[j] = EMPTY;
        i = j;
      }
    }
  }

  private growHeld(): Int32Array {
    const old = this.held as Int32Array;
    const table = new Int32Array(old.length * 2).fill(EMPTY);
    this.held = table;
    this.heldCount = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== EMPTY) this.tableHeld(old[i]);
    return table;
  }

  /** The warm-up's requests: the stack's objects, bottom to top, before the first draw. */
  get warmupRequests(): number {
    return this.warmupLength;
  }

  /**
   * Draws from now on, the warm-up not replayed: the stack is taken as it stands (a run
   * settles its PoPs' streams this way before their stacks go through the caches,
   * ModelTraffic's settling). `replayStack` then makes what the stack holds the warm-up.
   */
  skipWarmup(): void {
    this.warmupCursor = this.warmupLength;
  }

  /** The stack as it is now, bottom to top, is the next requests (the warm-up again); draws follow it. */
  replayStack(): void {
    // The window's replay reads its slots in order from its bottom: no holes.
    this.compactWindow();
    this.warmupLength = this.live;
    this.warmupOnAxis = this.axisLive;
    this.warmupCursor = 0;
    this.warmupSlot = 0;
  }

  /** Whether the next request is still one of the warm-up's. */
  get inWarmup(): boolean {
    return this.warmupCursor < this.warmupLength;
  }

  /** Warm-up requests handed out so far. */
  get warmupProgress(): number {
    return this.warmupCursor;
  }

  /** Bytes the stack holds, and its objects. */
  get stackBytes(): number {
    return this.total;
  }
  get stackObjects(): number {
    return this.live;
  }

  /** The next request: sets `objectId`, `size`, `isNew`. */
  next(): void {
    if (this.warmupCursor < this.warmupLength) {
      // The initial stack bottom to top (the long axis's slots, then the window's, no holes in either):
      // pushing no object, it leaves the stack as it is. A replaying cache sees each for the first time.
      if (this.warmupCursor < this.warmupOnAxis) {
        let slot = this.warmupCursor === 0 ? this.bottom : this.warmupSlot + 1;
        while (this.keyAt[slot] === EMPTY) slot++;
        this.warmupSlot = slot;
        this.objectId = this.keyAt[slot];
        this.size = this.sizeAt[slot];
      } else {
        const slot = this.windowBottom + this.warmupCursor - this.warmupOnAxis;
        this.objectId = this.windowEntry[2 * slot] | 0;
        this.size = this.windowEntry[2 * slot + 1];
      }
      this.warmupCursor++;
      this.isNew = true;
      return;
    }
    // A draw whose bin no object's distance is in (one larger than the bin spans it) is drawn
    // again: the trace the model was measured on asked at that depth only when an object was
    // there, so its requests follow the model given the stack. Asking for the spanning object
    // puts it on top, where it spans the first bins too and every draw there asks for it
    // again (tc-0's 1 GB hit rate fell from 90.6 % to 28 %); a new object instead is a miss
    // at every capacity (tc-0 fell 2-4 points).
    for (let attempt = 0; attempt < MAX_REDRAWS; attempt++) {
      const outcome = this.outcomes.sample(this.random.next());
      if (outcome === 0) break;
      const bin = outcome - 1;
      const low = this.binLow[bin];
      if (low === 0 && this.windowCount > 0) {
        // The first bin when it starts at the top is the window, whole: its objects are the
        // stack's top windowCount (the axis's top object reaches the window's edge), so the
        // general path's count is windowCount and its rank a window index; no search.
        this.windowToTop(this.windowCount - 1 - Math.floor(this.random.next() * this.windowCount));
        this.forgetBelowCap();
        this.isNew = false;
        return;
      }
      if (low >= this.total) {
        this.tooDeep++;
        break;
      }
      // The bin's objects, whose stack distance is in [low, high): from the one covering
      // depth low down to the one above the object covering depth high (whose distance is ≥ high).
      const high = low + this.binWidth[bin];
      this.coverDepth(low > 1 ? low : 1);
      const upTo = this.liveBelow + 1;
      let below = 0;
      if (high <= this.total) {
        this.coverDepth(high);
        below = this.liveBelow + 1;
      }
      const count = upTo - below;
      if (count > 0) {
        this.reuse(below + Math.floor(this.random.next() * count));
        this.forgetBelowCap();
        this.isNew = false;
        return;
      }
      this.spanned++;
    }
    const id = this.newObjects.next();
    const size = this.newObjects.lastSize;
    this.push(id, size);
    this.hold(id);
    this.forgetBelowCap();
    this.objectId = id;
    this.size = size;
    this.isNew = true;
  }

  private warmupSlot = 0;
  /** The initial stack's objects on the axis (the warm-up replays them first). */
  private warmupOnAxis = 0;
  /** Live objects below the one the last `coverDepth` found. */
  private liveBelow = 0;

  /** Finds the object whose bytes cover `depth` (0 < depth ≤ total) counted from the top: sets `liveBelow`. */
  private coverDepth(depth: number): void {
    if (depth <= this.windowBytes) {
      // In the window (only when the first bin starts below its edge): its objects top down until their bytes reach the depth.
      let bytes = 0;
      let above = 0;
      for (let slot = this.windowClock - 1; ; slot--) {
        if (this.windowEntry[2 * slot] === EMPTY) continue;
        bytes += this.windowEntry[2 * slot + 1];
        if (bytes >= depth) {
          this.liveBelow = this.live - 1 - above;
          return;
        }
        above++;
      }
    }
    // On the axis, at depth − windowBytes from its top: most often its top object (the first
    // bin's far edge lies in it, by the window's definition), else a descent of the trees.
    const axisDepth = depth - this.windowBytes;
    const top = this.axisTop();
    if (axisDepth <= this.sizeAt[top]) {
      this.liveBelow = this.axisLive - 1;
      return;
    }
    this.slotAtDepth(axisDepth);
  }

  /** The axis's top live slot (the axis holds at least one object). */
  private axisTop(): number {
    let slot = this.clock - 1;
    while (this.keyAt[slot] === EMPTY) slot--;
    return slot;
  }

  /** The object with `rank` live objects below it moves to the top: sets `objectId` and `size`. */
  private reuse(rank: number): void {
    if (rank >= this.axisLive) {
      this.windowToTop(this.live - 1 - rank);
      return;
    }
    const slot = this.liveSlot(rank);
    const id = this.keyAt[slot];
    const size = this.sizeAt[slot];
    this.removeSlot(slot);
    this.push(id, size);
    this.objectId = id;
    this.size = size;
  }

  /** The window's `index`-th object from the top (0: the top) moves to the top; the window's bytes stay. */
  private windowToTop(index: number): void {
    const blocks = this.windowBlock;
    // Whole blocks from the top while the rank passes them (slots from the clock up are holes),
    // then the block's live slots from its highest, by its mask.
    let block = (this.windowClock - 1) >> WINDOW_BLOCK_BITS;
    let remaining = index;
    while (remaining >= blocks[2 * block]) remaining -= blocks[2 * block--];
    let mask = blocks[2 * block + 1];
    for (; remaining > 0; remaining--) mask ^= 1 << (31 - Math.clz32(mask));
    const bit = 31 - Math.clz32(mask);
    const slot = (block << WINDOW_BLOCK_BITS) + bit;
    const entries = this.windowEntry;
    const id = entries[2 * slot] | 0;
    const size = entries[2 * slot + 1];
    entries[2 * slot] = EMPTY;
    blocks[2 * block]--;
    blocks[2 * block + 1] ^= 1 << bit;
    this.windowCount--;
    this.onWindowTop(id, size);
    this.objectId = id;
    this.size = size;
  }

  /** `id` on the window's top slot (its bytes are counted by the caller). */
  private onWindowTop(id: number, size: number): void {
    if (2 * this.windowClock === this.windowEntry.length) this.compactWindow();
    const slot = this.windowClock++;
    this.windowEntry[2 * slot] = id;
    this.windowEntry[2 * slot + 1] = size;
    const block = slot >> WINDOW_BLOCK_BITS;
    this.windowBlock[2 * block]++;
    this.windowBlock[2 * block + 1] |= 1 << (slot & 31);
    this.windowCount++;
  }

  /** The window's bottom object leaves it: its id and size in `leftId` and `leftSize`. */
  private offWindowBottom(): void {
    const entries = this.windowEntry;
    let slot = this.windowBottom;
    while (entries[2 * slot] === EMPTY) slot++;
    this.windowBottom = slot + 1;
    this.leftId = entries[2 * slot] | 0;
    this.leftSize = entries[2 * slot + 1];
    entries[2 * slot] = EMPTY;
    const block = slot >> WINDOW_BLOCK_BITS;
    this.windowBlock[2 * block]--;
    this.windowBlock[2 * block + 1] ^= 1 << (slot & 31);
    this.windowCount--;
    this.windowBytes -= this.leftSize;
  }
  private leftId = 0;
  private leftSize = 0;

  /** The live axis slot covering `depth` (0 < depth ≤ axisBytes) counted from the axis's top; sets `liveBelow`. */
  private slotAtDepth(depth: number): number {
    // The largest prefix of slots holding at most axisBytes − depth bytes ends just below it:
    // whole blocks by the trees, then the block's slots (holes weigh 0) until one passes it.
    let remaining = this.axisBytes - depth;
    const tree = this.tree;
    const counts = this.countTree;
    const n = tree.length - 1;
    let position = 0;
    let below = 0;
    for (let step = 1 << (31 - Math.clz32(n)); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= n && tree[next] <= remaining) {
        position = next;
        remaining -= tree[next];
        below += counts[next];
      }
    }
    // The block at `position` holds more than `remaining` (the whole axis does), so the scan ends in it.
    const sizes = this.sizeAt;
    const keys = this.keyAt;
    let slot = position << AXIS_BLOCK_BITS;
    for (; sizes[slot] <= remaining; slot++) {
      remaining -= sizes[slot];
      if (keys[slot] !== EMPTY) below++;
    }
    this.liveBelow = below;
    return slot;
  }

  /** The live axis slot with `rank` live slots below it. */
  private liveSlot(rank: number): number {
    const tree = this.countTree;
    const n = tree.length - 1;
    let position = 0;
    let remaining = rank;
    for (let step = 1 << (31 - Math.clz32(n)); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= n && tree[next] <= remaining) {
        position = next;
        remaining -= tree[next];
      }
    }
    const keys = this.keyAt;
    for (let slot = position << AXIS_BLOCK_BITS; ; slot++) {
      if (keys[slot] === EMPTY) continue;
      if (remaining === 0) return slot;
      remaining--;
    }
  }

  private removeSlot(slot: number): void {
    const size = this.sizeAt[slot];
    this.add(slot, -size, -1);
    this.keyAt[slot] = EMPTY;
    this.sizeAt[slot] = 0;
    this.axisLive--;
    this.axisBytes -= size;
    this.live--;
    this.total -= size;
  }

  /** An object on top of the stack; the window's back objects leave it for the axis's top while the bytes above them reach its edge. */
  private push(id: number, size: number): void {
    this.onWindowTop(id, size);
    this.windowBytes += size;
    this.live++;
    this.total += size;
    while (this.windowBytes >= this.windowEdge) {
      this.offWindowBottom();
      this.pushOnAxis(this.leftId, this.leftSize);
    }
  }

  private pushOnAxis(id: number, size: number): void {
    if (this.clock === this.keyAt.length) this.compact();
    const slot = this.clock++;
    this.keyAt[slot] = id;
    this.sizeAt[slot] = size;
    this.add(slot, size, 1);
    this.axisLive++;
    this.axisBytes += size;
  }

  /** Objects pushed below the cap are forgotten (docs/traffic-models.md, "Depth cap"): the axis's bottom, or the window's back when the axis is empty. */
  private forgetBelowCap(): void {
    while (this.total > this.depthCap && this.live > 1) {
      if (this.axisLive > 0) {
        while (this.keyAt[this.bottom] === EMPTY) this.bottom++;
        this.release(this.keyAt[this.bottom]);
        this.removeSlot(this.bottom);
      } else {
        this.offWindowBottom();
        this.release(this.leftId);
        this.live--;
        this.total -= this.leftSize;
      }
    }
  }

  private add(slot: number, bytes: number, count: number): void {
    const tree = this.tree;
    const counts = this.countTree;
    const n = tree.length;
    for (let i = (slot >> AXIS_BLOCK_BITS) + 1; i < n; i += i & -i) {
      tree[i] += bytes;
      counts[i] += count;
    }
  }

  /** The window's top reached its end: its objects move down in order onto slots twice their number (at least the first length). */
  private compactWindow(): void {
    const length = Math.max(INITIAL_WINDOW, 2 ** Math.ceil(Math.log2(2 * (this.windowCount + 1))));
    const old = this.windowEntry;
    const entries = 2 * length === old.length ? old : new Float64Array(2 * length);
    let next = 0;
    for (let slot = this.windowBottom; slot < this.windowClock; slot++) {
      const key = old[2 * slot];
      if (key === EMPTY) continue;
      entries[2 * next] = key;
      entries[2 * next + 1] = old[2 * slot + 1];
      next++;
    }
    for (let slot = next; slot < length; slot++) entries[2 * slot] = EMPTY;
    const blocks = 2 * (length >> WINDOW_BLOCK_BITS) === this.windowBlock.length ? this.windowBlock.fill(0) : new Int32Array(2 * (length >> WINDOW_BLOCK_BITS));
    for (let slot = 0; slot < next; slot++) {
      const block = slot >> WINDOW_BLOCK_BITS;
      blocks[2 * block]++;
      blocks[2 * block + 1] |= 1 << (slot & 31);
    }
    this.windowEntry = entries;
    this.windowBlock = blocks;
    this.windowBottom = 0;
    this.windowClock = next;
  }

  /** The axis is full: live slots move down in order onto an axis twice as long as they need. */
  private compact(): void {
    const length = Math.max(INITIAL_SLOTS, 2 ** Math.ceil(Math.log2(2 * (this.axisLive + 1))));
    const keyAt = length === this.keyAt.length ? this.keyAt : new Int32Array(length);
    const sizeAt = length === this.sizeAt.length ? this.sizeAt : new Float64Array(length);
    const oldKeys = this.keyAt;
    const oldSizes = this.sizeAt;
    let next = 0;
    const warmupPending = this.warmupCursor > 0 && this.warmupCursor < this.warmupOnAxis;
    for (let slot = this.bottom; slot < this.clock; slot++) {
      const key = oldKeys[slot];
      if (key === EMPTY) continue;
      if (warmupPending && slot === this.warmupSlot) this.warmupSlot = next;
      keyAt[next] = key;
      sizeAt[next] = oldSizes[slot];
      next++;
    }
    keyAt.fill(EMPTY, next);
    sizeAt.fill(0, next);
    this.keyAt = keyAt;
    this.sizeAt = sizeAt;
    this.clock = next;
    this.bottom = 0;
    const blocks = length >> AXIS_BLOCK_BITS;
    const tree = blocks + 1 === this.tree.length ? this.tree.fill(0) : new Float64Array(blocks + 1);
    const counts = blocks + 1 === this.countTree.length ? this.countTree.fill(0) : new Int32Array(blocks + 1);
    for (let slot = 0; slot < next; slot++) {
      tree[(slot >> AXIS_BLOCK_BITS) + 1] += sizeAt[slot];
      counts[(slot >> AXIS_BLOCK_BITS) + 1]++;
    }
    // Linear Fenwick build: each node passes its sum to its parent.
    for (let i = 1; i <= blocks; i++) {
      const parent = i + (i & -i);
      if (parent <= blocks) {
        tree[parent] += tree[i];
        counts[parent] += counts[i];
      }
    }
    this.tree = tree;
    this.countTree = counts;
  }
}
