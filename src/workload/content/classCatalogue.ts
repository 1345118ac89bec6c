import { mix32 } from '../mix32.js';
import type { ObjectCatalogue } from '../objectCatalogue.js';
import type { RandomStream, RandomStreams } from '../../sim/random.js';
import { AliasTable } from '../aliasTable.js';
import { zipfProbabilities } from '../zipf.js';
import { parsePathPattern, renderPath, type ContentClass, type FileType, type PathToken, type SizeDistribution } from './contentClasses.js';

/** What the catalogue needs of a class (a resolved ContentClass has it all). */
export type CatalogueClass = Pick<ContentClass, 'name' | 'share' | 'objects' | 'zipfExponent' | 'size' | 'path' | 'fileTypes'>;

export interface ClassCatalogueOptions {
  /** Framework path segment for `{framework}` (spec 4.3: `/_<framework>/static/*`); default "next". */
  readonly framework?: string;
  /** Extra ids per class, after its initial objects, for churn (see `churnReservation`); default none. */
  readonly reservedIds?: readonly number[];
  /**
   * Per class, whether its reserved ids get their sizes from whoever creates their objects (a
   * model class's streams, docs/traffic-models.md "Cost"): no sizes are drawn for them (about
   * 1.3 s for eu-2's 10 M ids on the baseline), and they read 0 until created. Default none.
   */
  readonly sizesSetOnCreation?: readonly boolean[];
}

/** At most this many classes: a class index fits a byte. */
export const MAX_CONTENT_CLASSES = 255;

/** Object ids are Int32Array entries. */
const MAX_OBJECT_IDS = 2 ** 31 - 1;

/**
 * The multi-class content catalogue, built once per run. Object ids are dense integers;
 * class c owns the contiguous range [classStart[c], classStart[c + 1]): first its initial
 * objects in popularity order (rank 1 first), then ids reserved for churn. A request picks
 * a class by share and a rank by the class's Zipf law (two alias tables, one uniform draw
 * each), then reads the id at that rank from a typed array: no strings, no allocation.
 *
 * The rank → id table is a ring per class so that churn (churn.ts) can push a new object in
 * at the top, or swap the id at one rank, in O(1); only ContentChurn writes it.
 *
 * Sizes are drawn at construction from one named stream per class
 * (`content.<name>.sizes`, then `content.<name>.newSizes` for reserved ids), so adding or
 * changing a class leaves every other class's sizes as they were. Paths are built only
 * when asked (`pathOf`, for reports and explain), from the id and a per-class salt drawn
 * from `content.<name>.paths`.
 */
export class ClassCatalogue {
  readonly classes: readonly CatalogueClass[];
  readonly classCount: number;
  /** classStart[c] is the first id of class c; classStart[classCount] is idCapacity. */
  readonly classStart: Int32Array;
  /** Ids of all classes, reserved ones included. */
  readonly idCapacity: number;
  /** Bytes per object id (reserved ids hold sizes drawn ahead for objects churn will add). */
  readonly objectSizes: Float64Array;
  /** Per class: its reserved ids' sizes are set as its objects are created (ClassCatalogueOptions), 0 until then. */
  readonly sizesSetOnCreation: readonly boolean[];
  /**
   * Request probability of each id in the initial catalogue (share × Zipf), 0 for reserved
   * ids. Churn moves ids between ranks without touching this; `livePopularity()` gives the
   * current one.
   */
  readonly popularity: Float64Array;
  /** Class index of each id. */
  readonly classOfId: Uint8Array;
  /** Index into the class's fileTypes of each id. */
  readonly fileTypeOfId: Uint8Array;
  /** Ranking ring: the id at rank r of class c is idOfRankSlot[rankSlotBase[c] + (rankHead[c] + r) mod objects]. */
  readonly idOfRankSlot: Int32Array;
  readonly rankSlotBase: Int32Array;
  readonly rankHead: Int32Array;
  /** Ranked objects per class (constant: churn replaces, never grows, the ranking). */
  readonly rankedObjects: Int32Array;

  private readonly framework: string;
  /** Over all ranking slots at once (weights share × Zipf): one draw per request, see pickOne. */
  private readonly slotSampler: AliasTable;
  private readonly classOfSlot: Uint8Array;
  private readonly classSampler: AliasTable;
  private readonly rankSamplers: readonly AliasTable[];
  private readonly pathTokens: readonly (readonly PathToken[])[];
  private readonly pathSalt: Uint32Array;

  constructor(classes: readonly CatalogueClass[], streams: RandomStreams, options: ClassCatalogueOptions = {}) {
    if (classes.length === 0) throw new RangeError('a content catalogue needs at least one class');
    if (classes.length > MAX_CONTENT_CLASSES) throw new RangeError(`at most ${MAX_CONTENT_CLASSES} content classes, found ${classes.length}`);
    // Streams are named after classes: two classes of one name would share their draws.
    const names = new Set(classes.map((klass) => klass.name));
    if (names.size !== classes.length) throw new RangeError('content class names must be unique');
    const reserved = options.reservedIds ?? [];
    this.classes = classes;
    this.classCount = classes.length;
    this.framework = options.framework ?? 'next';

    this.classStart = new Int32Array(classes.length + 1);
    this.rankSlotBase = new Int32Array(classes.length);
    this.rankedObjects = new Int32Array(classes.length);
    let ids = 0;
    let slots = 0;
    classes.forEach((klass, c) => {
      if (!(Number.isInteger(klass.objects) && klass.objects >= 1)) throw new RangeError(`class '${klass.name}' needs at least 1 object, found ${klass.objects}`);
      const extra = reserved[c] ?? 0;
      if (!(Number.isInteger(extra) && extra >= 0)) throw new RangeError(`class '${klass.name}': reserved ids must be a whole number ≥ 0, found ${extra}`);
      this.classStart[c] = ids;
      this.rankSlotBase[c] = slots;
      this.rankedObjects[c] = klass.objects;
      ids += klass.objects + extra;
      slots += klass.objects;
      if (ids > MAX_OBJECT_IDS) throw new RangeError(`the catalogue needs ${ids} object ids; at most ${MAX_OBJECT_IDS} fit`);
    });
    this.classStart[classes.length] = ids;
    this.idCapacity = ids;

    this.objectSizes = new Float64Array(ids);
    this.sizesSetOnCreation = classes.map((_, c) => options.sizesSetOnCreation?.[c] === true);
    this.popularity = new Float64Array(ids);
    this.classOfId = new Uint8Array(ids);
    this.fileTypeOfId = new Uint8Array(ids);
    this.idOfRankSlot = new Int32Array(slots);
    this.rankHead = new Int32Array(classes.length);
    this.pathSalt = new Uint32Array(classes.length);

    let shareTotal = 0;
    for (const klass of classes) shareTotal += klass.share;
    this.classSampler = new AliasTable(classes.map((klass) => klass.share));
    const rankSamplers: AliasTable[] = [];
    const pathTokens: (readonly PathToken[])[] = [];
    classes.forEach((klass, c) => {
      const start = this.classStart[c];
      const end = this.classStart[c + 1];
      const zipf = zipfProbabilities(klass.objects, klass.zipfExponent);
      rankSamplers.push(new AliasTable(zipf));
      rankClass(this.popularity, this.idOfRankSlot, start, this.rankSlotBase[c], klass.share / shareTotal, zipf);
      this.classOfId.fill(c, start, end);
      drawSizes(this.objectSizes, start, start + klass.objects, klass.size, streams.stream(`content.${klass.name}.sizes`));
      // Each class has its own named stream: skipping one class's draws moves no other class's.
      if (!this.sizesSetOnCreation[c]) drawSizes(this.objectSizes, start + klass.objects, end, klass.size, streams.stream(`content.${klass.name}.newSizes`));

      const parsed = parsePathPattern(klass.path);
      if (!parsed.ok) throw new RangeError(`class '${klass.name}': bad path pattern '${klass.path}': expected ${parsed.expected}`);
      pathTokens.push(parsed.tokens);
      if (klass.fileTypes.length === 0 || klass.fileTypes.length > 255) throw new RangeError(`class '${klass.name}' needs 1 to 255 file types`);
      this.pathSalt[c] = streams.stream(`content.${klass.name}.paths`).int(2 ** 32);
      assignFileTypes(this.fileTypeOfId, start, end, klass.fileTypes, this.pathSalt[c]);
    });
    this.rankSamplers = rankSamplers;
    this.pathTokens = pathTokens;
    this.classOfSlot = new Uint8Array(slots);
    const slotWeights = new Float64Array(slots);
    classes.forEach((klass, c) => {
      const base = this.rankSlotBase[c];
      this.classOfSlot.fill(c, base, base + klass.objects);
      slotWeights.set(this.popularity.subarray(this.classStart[c], this.classStart[c] + klass.objects), base);
    });
    this.slotSampler = new AliasTable(slotWeights);
  }

  /** A class index drawn by share from one uniform draw in [0, 1). */
  pickClass(u: number): number {
    return this.classSampler.sample(u);
  }

  /** A rank (0 = most popular) of class c drawn by the class's Zipf law from one uniform draw. */
  pickRank(classIndex: number, u: number): number {
    return this.rankSamplers[classIndex].sample(u);
  }

  /** The object id at `rank` of class c now (churn moves ids between ranks). */
  idAtRank(classIndex: number, rank: number): number {
    let slot = this.rankHead[classIndex] + rank;
    const n = this.rankedObjects[classIndex];
    if (slot >= n) slot -= n;
    return this.idOfRankSlot[this.rankSlotBase[classIndex] + slot];
  }

  /** An object of class c drawn by popularity. */
  pickObject(classIndex: number, u: number): number {
    return this.idAtRank(classIndex, this.rankSamplers[classIndex].sample(u));
  }

  /** An object drawn by class share, then by popularity within the class: the per-request call. */
  pick(uClass: number, uObject: number): number {
    const c = this.classSampler.sample(uClass);
    return this.idAtRank(c, this.rankSamplers[c].sample(uObject));
  }

  /**
   * The same distribution as pick() from one uniform draw instead of two: one alias table
   * over every (class, rank) slot. Faster, and it halves the random draws per request
   * (a seedrandom draw costs more than the table lookups); use it when the class is not
   * chosen separately.
   */
  pickOne(u: number): number {
    const slot = this.slotSampler.sample(u);
    const c = this.classOfSlot[slot];
    const n = this.rankedObjects[c];
    // slot = base + rank; the id sits at base + (rank + head) mod n.
    let ring = slot + this.rankHead[c];
    if (ring >= this.rankSlotBase[c] + n) ring -= n;
    return this.idOfRankSlot[ring];
  }

  classOf(objectId: number): number {
    return this.classOfId[objectId];
  }

  fileTypeOf(objectId: number): FileType {
    return this.classes[this.classOfId[objectId]].fileTypes[this.fileTypeOfId[objectId]];
  }

  /**
   * The URL path of an object, built on demand (reports, explain; never per request). It
   * depends only on the class's pattern, the id's place in its class, the class's salt
   * (from the seed) and the framework: `{hash}` is 16 hex digits of a hash of (salt, index),
   * `{id}` the id's index within its class, `{slug}` two words and that index.
   */
  pathOf(objectId: number): string {
    if (!(Number.isInteger(objectId) && objectId >= 0 && objectId < this.idCapacity)) throw new RangeError(`no object id ${objectId}`);
    const c = this.classOfId[objectId];
    const salt = this.pathSalt[c];
    const index = objectId - this.classStart[c];
    // Hashes take the index within the class, not the global id, so adding a class before
    // this one leaves its paths as they were.
    const word = mix32(salt ^ 0x5bd1e995, index);
    return renderPath(this.pathTokens[c], {
      framework: this.framework,
      hash: hex8(mix32(salt, index)) + hex8(mix32(salt ^ 0x9e3779b9, index)),
      id: String(index),
      slug: `${SLUG_ADJECTIVES[word & 31]}-${SLUG_NOUNS[(word >>> 5) & 31]}-${index}`,
      ext: this.fileTypeOf(objectId).extension,
    });
  }

  /**
   * The objects in the ranking now, with their request probabilities and sizes, compacted
   * (for theory such as Che's approximation, which wants only requestable objects). One
   * allocation per call; not for the hot path.
   */
  livePopularity(): { ids: Int32Array; popularity: Float64Array; sizes: Float64Array } {
    const count = this.idOfRankSlot.length;
    const ids = new Int32Array(count);
    const popularity = new Float64Array(count);
    const sizes = new Float64Array(count);
    let i = 0;
    for (let c = 0; c < this.classCount; c++) {
      const start = this.classStart[c];
      for (let rank = 0; rank < this.rankedObjects[c]; rank++, i++) {
        const id = this.idAtRank(c, rank);
        ids[i] = id;
        // The rank keeps its probability; only the id at the rank changes.
        popularity[i] = this.popularity[start + rank];
        sizes[i] = this.objectSizes[id];
      }
    }
    return { ids, popularity, sizes };
  }
}

/** Lognormal sizes clamped to [min, max], rounded to whole bytes, for ids [from, to). */
/**
 * A class's objects in rank order: each one's popularity (the class's share × its Zipf
 * weight) and its slot in the rank table. A module function, not a loop inside the
 * constructor's per-class callback: that callback is a new closure in every run, so V8
 * compiled its hot loop again in each run of a sweep's worker (about 0.1 CPU-s a run on a
 * background thread, which two busy workers then wait for).
 */
function rankClass(popularity: Float64Array, idOfRankSlot: Int32Array, start: number, slotBase: number, share: number, zipf: Float64Array): void {
  for (let rank = 0; rank < zipf.length; rank++) {
    popularity[start + rank] = share * zipf[rank];
    idOfRankSlot[slotBase + rank] = start + rank;
  }
}

function drawSizes(sizes: Float64Array, from: number, to: number, size: SizeDistribution, stream: RandomStream): void {
  const { median, sigma, min, max } = size;
  for (let id = from; id < to; id++) {
    const drawn = Math.round(stream.lognormal(median, sigma));
    sizes[id] = Math.min(max, Math.max(min, drawn));
  }
}

/** Each id's file type by weight, from a hash of (salt, index within the class): independent of draw order and of other classes. */
function assignFileTypes(fileTypeOfId: Uint8Array, from: number, to: number, fileTypes: readonly FileType[], salt: number): void {
  if (fileTypes.length === 1) return; // index 0 already
  const cumulative = new Float64Array(fileTypes.length);
  let total = 0;
  fileTypes.forEach((type, i) => {
    total += type.weight;
    cumulative[i] = total;
  });
  for (let id = from; id < to; id++) {
    const u = (mix32(salt ^ 0x27d4eb2f, id - from) / 2 ** 32) * total;
    let i = 0;
    while (i < fileTypes.length - 1 && u >= cumulative[i]) i++;
    fileTypeOfId[id] = i;
  }
}


function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}

const SLUG_ADJECTIVES = [
  'quiet', 'bright', 'early', 'hidden', 'simple', 'rapid', 'gentle', 'bold', 'silent', 'golden', 'little', 'modern', 'open', 'plain', 'clear', 'brave',
  'calm', 'deep', 'fresh', 'green', 'honest', 'lucky', 'mild', 'noble', 'proud', 'rare', 'sharp', 'tidy', 'vivid', 'warm', 'wise', 'young',
];
const SLUG_NOUNS = [
  'harbor', 'river', 'garden', 'signal', 'engine', 'bridge', 'forest', 'meadow', 'pixel', 'cache', 'packet', 'planet', 'market', 'island', 'canyon', 'valley',
  'lantern', 'compass', 'summit', 'orbit', 'quartz', 'ember', 'glacier', 'harvest', 'journey', 'kernel', 'ledger', 'mosaic', 'needle', 'paper', 'record', 'window',
];

/** The catalogue as the workload and the flows see it (ids reserved for churn included). */
export function classCatalogueObjects(catalogue: ClassCatalogue): ObjectCatalogue {
  return {
    size: catalogue.idCapacity,
    objectSizes: catalogue.objectSizes,
    popularity: catalogue.popularity,
    // null with one class, as the interface says: every id is class 0, and the flow and the
    // cache-only warm-up then read no class per request (a random read of one byte per id
    // over 3-5 M ids for a traffic model, an L2 miss a request; issue 28, "Cost").
    classOf: catalogue.classCount === 1 ? null : catalogue.classOfId,
    pick: (u) => catalogue.pickOne(u),
  };
}
