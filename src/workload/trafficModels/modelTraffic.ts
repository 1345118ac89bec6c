import type { RandomStream, RandomStreams } from '../../sim/random.js';
import { UserError } from '../../userError.js';
import { AliasTable } from '../aliasTable.js';
import type { ClassCatalogue } from '../content/classCatalogue.js';
import { ObjectSizes, StackModelGenerator, type HeldMarks, type NewObjects } from './stackGenerator.js';
import { deepestStackBytes, descriptorFor, modelHitRate, type Fidelity, type TrafficModel } from './trafficModel.js';

/**
 * Content classes whose requests come from a traffic model, generated per PoP
 * (docs/traffic-models.md, "In a scenario"): each PoP with traffic draws its own stream from
 * the class's model (its own LRU stack), so every edge sees the locality the model
 * describes at the rate routed to it. Objects live in one CDN-wide namespace, the class's id
 * range of the run's ClassCatalogue, which grows as streams ask for new objects.
 */

/** What a scenario asks of a model class (content.classes[i].model …), resolved. */
export interface ClassTrafficModel {
  /** The model as written: a shipped class name or a folder. */
  readonly model: string;
  /** The folder it names, absolute (set when the scenario is loaded); absent: a shipped class. */
  readonly folder?: string;
  readonly fidelity: Fidelity;
  /** Probability that a PoP's new object is one requested elsewhere in the CDN. */
  readonly sharing: number;
  /** The class's last requests across the CDN that a shared new object is drawn from (a count). */
  readonly sharingWindow: number;
  /** Deepest byte a PoP's stack keeps; absent: the PoP's default (defaultDepthCaps). */
  readonly depthCapBytes?: number;
}

/** The default `sharing` (docs/traffic-models.md defends it). */
export const DEFAULT_SHARING = 0.5;
/** Without `depthCap`, a PoP's stack reaches this many times its share of its regional cache. */
const REGIONAL_SHARE_MARGIN = 2;
/**
 * The default `sharingWindow`: a shared new object is drawn from the class's last this many
 * requests across the CDN. A fixed count, so what sharing means does not change with the
 * run's length (docs/traffic-models.md "One stream per PoP"; what the window does to a regional site:
 * docs/library/regional-sharing.md).
 */
export const DEFAULT_SHARING_WINDOW = 1_000_000;
/** The longest `sharingWindow` (4 bytes a request in memory: 200 MB). */
export const MAX_SHARING_WINDOW = 50_000_000;
/** Draws of a shared object before a new object is made instead (the draw was this PoP's own). */
const SHARED_ATTEMPTS = 4;
/**
 * Sharing windows a class's streams run alone before their stacks go through the caches
 * (ModelTraffic's settling, docs/traffic-models.md "The model's warm-up in a run").
 */
const SETTLING_WINDOWS = 2;
/** Requests per round of the settling, over all PoPs (each PoP its share of them in turn), at least. */
const SETTLING_ROUND = 4_096;
/**
 * Requests a PoP's turn of the settling makes on average, at least: a round is at least this
 * many times the PoPs. A PoP's window and trees are out of the processor's cache by its next
 * turn, so short turns are slow: rounds of 4,096 over the baseline's 224 PoPs were 18 requests
 * a turn; 64 took its 2 M settling requests from 2.1-2.5 to 1.5-1.6 s of CPU. Up to 64 PoPs the
 * rounds stay 4,096 requests and nothing moves; long turns over few PoPs would (eight PoPs at
 * `sharing: 1` in turns of 2,048 requests: regional hit ratio 0.5 points lower;
 * docs/traffic-models.md, "Where a model run's time goes").
 */
const SETTLING_TURN = 64;

/** Requests of one round of the settling over `pops` PoPs: 4,096, or 64 a PoP over more than 64 PoPs. */
export function settlingRound(pops: number): number {
  return Math.max(SETTLING_ROUND, SETTLING_TURN * pops);
}

/**
 * Requests a model class's streams make alone, before their stacks are replayed through
 * the caches, so that the stacks and the sharing log hold objects shared as steady traffic
 * shares them: none without sharing or with one PoP (no object is then shared).
 */
export function settlingRequests(traffic: ClassTrafficModel, pops: number): number {
  return traffic.sharing > 0 && pops > 1 ? Math.round(SETTLING_WINDOWS * traffic.sharingWindow) : 0;
}

/** Most object ids a run reserves for its model classes (22 bytes each in the catalogue and here, 26 with sharing). */
export const MAX_MODEL_IDS = 60_000_000;

/** One model class of a run: its model and what the PoPs' stacks need. */
export interface ModelClassInput {
  readonly classIndex: number;
  readonly name: string;
  readonly share: number;
  readonly traffic: ClassTrafficModel;
  readonly model: TrafficModel;
}

/** A PoP's stack depth cap: the class's `depthCap`, else the PoP's default (defaultDepthCaps). */
export function depthCapFor(traffic: ClassTrafficModel, defaultCap: number): number {
  return traffic.depthCapBytes ?? Math.max(1, defaultCap);
}

/**
 * Each PoP's default stack depth cap (docs/traffic-models.md, "Depth cap"): the deepest reuse
 * one of its caches could still answer. Its edge answers reuses down to its capacity; its
 * regional cache, shared with the other PoPs of its site, holds about its share of the
 * site's requests of the regional's bytes, doubled as a margin for the streams' interleaving.
 * Deeper reuses would miss both, so drawing them as new objects changes no hit.
 */
export function defaultDepthCaps(edgeCapacity: readonly number[], regionalOf: readonly number[], regionalCapacity: readonly number[], edgeDemand: readonly number[]): number[] {
  const siteDemand = new Float64Array(regionalCapacity.length);
  edgeCapacity.forEach((_, e) => {
    if (regionalOf[e] >= 0) siteDemand[regionalOf[e]] += edgeDemand[e];
  });
  return edgeCapacity.map((capacity, e) => {
    const r = regionalOf[e];
    const regionalShare = r < 0 || siteDemand[r] === 0 ? 0 : (REGIONAL_SHARE_MARGIN * regionalCapacity[r] * edgeDemand[e]) / siteDemand[r];
    return Math.max(capacity, regionalShare);
  });
}

/**
 * Object ids a model class needs over a run of `requests` requests (warm-up included) on
 * the PoPs with traffic (their default caps `depthCaps`): the PoPs' initial stacks (down to the cap or the
 * model's deepest bin, whichever is shallower) and its new objects (at most the share of
 * draws below the cap's hit rate), each with a margin: ids that run out stop the run.
 */
export function modelIdReservation(input: ModelClassInput, depthCaps: readonly number[], requests: number): number {
  const descriptor = descriptorFor(input.model, input.traffic.fidelity);
  const meanBytes = new ObjectSizes(input.model.sizes).meanBytes;
  // TRAGEN's bins are 200 MB wide: the deepest's far edge is at most that below its lower edge.
  const deepest = deepestStackBytes(descriptor) + 200e6;
  let stacks = 0;
  let shallowest = Infinity;
  for (const defaultCap of depthCaps) {
    const cap = Math.min(depthCapFor(input.traffic, defaultCap), deepest);
    shallowest = Math.min(shallowest, cap);
    stacks += Math.ceil((1.5 * cap) / meanBytes) + 1_000;
  }
  const missing = depthCaps.length === 0 ? 0 : 1 - modelHitRate(descriptor, shallowest);
  const fresh = Math.ceil(1.2 * (requests * input.share + settlingRequests(input.traffic, depthCaps.length)) * missing) + 10_000;
  return stacks + fresh;
}

/** CdnObjects' row: creator, last asker, and with sharing the held marks. */
const CREATOR = 0;
const LAST_ASKER = 1;
const UNTABLED = 2;
const TABLED = 3;

/**
 * A class's objects across the CDN: a new object is, with probability `sharing`, one of the
 * class's recent requests elsewhere (drawn from a log of them, so by how often each was
 * requested), otherwise a brand-new id of the class's range with a size from the model.
 * "Elsewhere": a draw that the asking PoP created or asked for last, or that its stack holds,
 * is drawn again (a PoP's own objects are already in its stack; a single PoP never shares).
 * It keeps the marks of which stacks hold an id (HeldMarks) in the id's row beside its
 * creator and last asker, so the check and a new object's mark read the row's one line.
 */
class CdnObjects implements NewObjects, HeldMarks {
  lastSize = 0;
  /** The PoP whose stream asks now, and its stack (which ids it holds). */
  currentEdge = 0;
  holder: StackModelGenerator | null = null;
  private nextId: number;
  private readonly log: Int32Array;
  private logged = 0;
  private logAt = 0;
  /**
   * Per id of the class, a row at (id − firstId) << rowShift: the PoP that created it
   * (CREATOR), the PoP that asked for it last (LAST_ASKER), and with sharing the held marks:
   * one PoP whose stack holds it, + 1 (UNTABLED; 0: none), and how many other stacks hold it,
   * each in its own table (TABLED). 2 or 4 Uint16 a row, one cache line.
   */
  private readonly rows: Uint16Array;
  private readonly rowShift: number;
  /** New objects made, and shared ones handed out (from the run's start: the settling's are not counted). */
  created = 0;
  shared = 0;

  constructor(
    private readonly name: string,
    private readonly firstId: number,
    private readonly endId: number,
    private readonly objectSizes: Float64Array,
    private readonly sizes: ObjectSizes,
    private readonly sharing: number,
    sharingWindow: number,
    private readonly random: RandomStream,
  ) {
    this.nextId = firstId;
    const ids = endId - firstId;
    this.rowShift = sharing > 0 ? 2 : 1;
    this.rows = new Uint16Array(ids << this.rowShift);
    this.log = new Int32Array(sharing > 0 ? sharingWindow : 0);
  }

  next(): number {
    if (this.sharing > 0 && this.logged > 0 && this.random.next() < this.sharing) {
      const edge = this.currentEdge;
      for (let attempt = 0; attempt < SHARED_ATTEMPTS; attempt++) {
        const id = this.log[Math.floor(this.random.next() * this.logged)];
        const row = (id - this.firstId) << this.rowShift;
        const rows = this.rows;
        // Not one the asking PoP's stack holds: a reuse of it there would hit where the model says miss.
        // Its stack holds it when its mark is the row's, or (other stacks' tables holding it) its table has it.
        if (
          rows[row + CREATOR] !== edge &&
          rows[row + LAST_ASKER] !== edge &&
          rows[row + UNTABLED] !== edge + 1 &&
          !(rows[row + TABLED] > 0 && this.holder !== null && this.holder.holds(id))
        ) {
          this.shared++;
          this.lastSize = this.objectSizes[id];
          return id;
        }
      }
    }
    if (this.nextId === this.endId) {
      throw new UserError(
        `content class ${this.name}: its model asked for more new objects than the ${this.endId - this.firstId} ids reserved for it; shorten the run or its warm-up, or lower depthCap (docs/traffic-models.md)`,
      );
    }
    const id = this.nextId++;
    const size = this.sizes.draw(this.random.next());
    this.objectSizes[id] = size;
    this.rows[((id - this.firstId) << this.rowShift) + CREATOR] = this.currentEdge;
    this.lastSize = size;
    this.created++;
    return id;
  }

  /** Stack `pop` took `id`: the row's mark when free, else its table (HeldMarks). */
  take(pop: number, id: number): boolean {
    const row = (id - this.firstId) << this.rowShift;
    if (this.rows[row + UNTABLED] === 0) {
      this.rows[row + UNTABLED] = pop + 1;
      return false;
    }
    this.rows[row + TABLED]++;
    return true;
  }

  /** Stack `pop` forgot `id`: its mark freed, or one table fewer (HeldMarks). */
  forget(pop: number, id: number): boolean {
    const row = (id - this.firstId) << this.rowShift;
    if (this.rows[row + UNTABLED] === pop + 1) {
      this.rows[row + UNTABLED] = 0;
      return false;
    }
    this.rows[row + TABLED]--;
    return true;
  }

  /** A request of the class at the current PoP: logged for sharing. */
  requested(id: number): void {
    this.rows[((id - this.firstId) << this.rowShift) + LAST_ASKER] = this.currentEdge;
    const log = this.log;
    if (log.length === 0) return;
    log[this.logAt] = id;
    this.logAt = this.logAt + 1 === log.length ? 0 : this.logAt + 1;
    if (this.logged < log.length) this.logged++;
  }
}

/** Per model class, what its streams did (summary and docs). */
export interface ModelClassFacts {
  /** The content class's name. */
  name: string;
  /** A shipped class (`eu-2`, `eu-3`, `tc-0`, `v`) or the model folder as the scenario gives it. */
  model: string;
  fidelity: Fidelity;
  sharing: number;
  /** The requests a shared object is drawn from (`sharingWindow`). */
  sharingWindow: number;
  /** PoPs (edges) with a stream of their own. */
  pops: number;
  /** Objects in the PoPs' initial stacks (the model's warm-up), and the deepest stack cap, bytes. */
  stackObjects: number;
  depthCapBytes: number;
  /** Requests the streams made alone before their stacks went through the caches (ModelTraffic's settling; 0 without sharing or with one PoP). */
  settlingRequests: number;
  /** Brand-new objects made before the run's first request: the stacks' and the settling's (the stacks' alone without settling). */
  startObjects: number;
  /** Brand-new objects the streams made (the start's included): the class's catalogue by the run's end. */
  createdObjects: number;
  /** New-object draws after the start handed an object another PoP had asked for (`sharing`). */
  sharedObjects: number;
}

interface ModelClassState {
  readonly input: ModelClassInput;
  readonly objects: CdnObjects;
  stackObjects: number;
  depthCapBytes: number;
  settlingRequests: number;
  startObjects: number;
}

/**
 * The requests of a run's classes when some take theirs from a model: a class by share,
 * then for a model class the next request of the asking place's PoP's stream, for another
 * class an object by its Zipf law.
 */
export class ModelTraffic {
  private readonly classSampler: AliasTable;
  /** Per class: its index among the model classes, −1 for a Zipf class. */
  private readonly modelOf: Int32Array;
  private readonly states: ModelClassState[];
  /** generators[m * edgeCount + edge]; null for a PoP without traffic. */
  readonly generators: (StackModelGenerator | null)[];
  readonly edgeCount: number;
  private readonly zipfStream: RandomStream;

  constructor(
    private readonly catalogue: ClassCatalogue,
    inputs: readonly ModelClassInput[],
    /** The PoP a place's requests are routed to when none is misrouted (its nearest). */
    private readonly homeEdgeOfPlace: Int32Array,
    /** Per edge, the share of the clients' demand routed to it (edgeDemand): a stream where above 0. */
    edgeDemand: Float64Array,
    /** Per edge, its default stack depth cap (defaultDepthCaps). */
    depthCaps: readonly number[],
    edgeNames: readonly string[],
    streams: RandomStreams,
  ) {
    this.edgeCount = depthCaps.length;
    this.classSampler = new AliasTable(catalogue.classes.map((klass) => klass.share));
    this.modelOf = new Int32Array(catalogue.classCount).fill(-1);
    this.zipfStream = streams.stream('workload.zipfClasses');
    const popsWithTraffic = edgeDemand.reduce((pops, demand) => (demand > 0 ? pops + 1 : pops), 0);
    this.generators = new Array<StackModelGenerator | null>(inputs.length * this.edgeCount).fill(null);
    this.states = inputs.map((input, m) => {
      this.modelOf[input.classIndex] = m;
      const c = input.classIndex;
      const firstId = catalogue.classStart[c];
      // The class's one ranked id is no object of the model: no popularity (stationary fill, flash crowds).
      catalogue.popularity[firstId] = 0;
      const sizes = new ObjectSizes(input.model.sizes);
      const objects = new CdnObjects(input.name, firstId, catalogue.classStart[c + 1], catalogue.objectSizes, sizes, input.traffic.sharing, input.traffic.sharingWindow, streams.stream(`model.${input.name}.objects`));
      const state: ModelClassState = { input, objects, stackObjects: 0, depthCapBytes: 0, settlingRequests: settlingRequests(input.traffic, popsWithTraffic), startObjects: 0 };
      const descriptor = descriptorFor(input.model, input.traffic.fidelity);
      for (let edge = 0; edge < this.edgeCount; edge++) {
        if (!(edgeDemand[edge] > 0)) continue;
        objects.currentEdge = edge;
        const generator = new StackModelGenerator(descriptor, objects, streams.stream(`model.${input.name}.${edgeNames[edge]}`), sizes, {
          fidelity: input.traffic.fidelity,
          depthCapBytes: depthCapFor(input.traffic, depthCaps[edge]),
          trackHeld: state.settlingRequests > 0,
          heldMarks: objects,
          pop: edge,
        });
        this.generators[m * this.edgeCount + edge] = generator;
        state.depthCapBytes = Math.max(state.depthCapBytes, depthCapFor(input.traffic, depthCaps[edge]));
      }
      this.settle(m, state, edgeDemand);
      for (let edge = 0; edge < this.edgeCount; edge++) state.stackObjects += this.generators[m * this.edgeCount + edge]?.warmupRequests ?? 0;
      state.startObjects = objects.created;
      objects.created = 0;
      objects.shared = 0;
      return state;
    });
  }

  /**
   * A class's streams run alone (no cache sees them) for `settlingRequests`, each PoP its
   * share of them by demand, in rounds of SETTLING_ROUND requests over all PoPs, before their
   * stacks are the warm-up. A PoP's initial stack is new objects of its own, and a stream
   * started from it shares only once other PoPs' objects reach the log; in steady traffic,
   * `sharing` of a PoP's first requests are objects other PoPs asked for, which are what a
   * regional cache answers, and an object shared once is requested again and so drawn more
   * often (docs/traffic-models.md, "The model's warm-up in a run"). Settled, every PoP's
   * stack holds shared objects as steady traffic leaves them, the log holds the last
   * `sharingWindow` of those requests, and the replay of the stacks leaves the regional
   * caches what those PoPs fetched: the regional tier starts at its level, as the edges do.
   */
  private settle(m: number, state: ModelClassState, demand: Float64Array): void {
    const requests = state.settlingRequests;
    if (requests === 0) return;
    let total = 0;
    let pops = 0;
    for (let edge = 0; edge < this.edgeCount; edge++) {
      if (this.generators[m * this.edgeCount + edge] === null) continue;
      total += demand[edge];
      pops++;
    }
    const objects = state.objects;
    for (let edge = 0; edge < this.edgeCount; edge++) this.generators[m * this.edgeCount + edge]?.skipWarmup();
    const rounds = Math.max(1, Math.ceil(requests / settlingRound(pops)));
    const made = new Float64Array(this.edgeCount);
    for (let round = 1; round <= rounds; round++) {
      for (let edge = 0; edge < this.edgeCount; edge++) {
        const generator = this.generators[m * this.edgeCount + edge];
        if (generator === null) continue;
        const until = Math.round((requests * demand[edge] * round) / (total * rounds));
        objects.currentEdge = edge;
        objects.holder = generator;
        for (let done = made[edge]; done < until; done++) {
          generator.next();
          objects.requested(generator.objectId);
        }
        if (until > made[edge]) made[edge] = until;
      }
    }
    for (let edge = 0; edge < this.edgeCount; edge++) this.generators[m * this.edgeCount + edge]?.replayStack();
  }

  /**
   * The objects a steady warm-up's default block counts (src/experiment/steadyRule.ts: one
   * request per object a block): the catalogue's, with each model class's reserved range
   * counted as its sharing window instead. Its PoPs' stacks (3.4 M objects on the baseline)
   * already start every edge in the model's steady state, and what is left to fill is the
   * regional tier, fed by the shared objects drawn from the class's last `sharingWindow`
   * requests; without sharing, only each PoP's own deep reuses, which the stacks carried.
   */
  startingObjects(): number {
    let objects = this.catalogue.idCapacity;
    for (const state of this.states) {
      const c = state.input.classIndex;
      const traffic = state.input.traffic;
      objects += (traffic.sharing > 0 ? traffic.sharingWindow : 0) - (this.catalogue.classStart[c + 1] - this.catalogue.classStart[c]);
    }
    return objects;
  }

  /**
   * The size of the object the last `pick` returned: the one its stream carries, which is the
   * catalogue's (a model object's size is written once, when it is created), so the caller
   * need not read the catalogue's size column again (one memory miss a request over 3–5 M ids).
   */
  pickedSize = 0;

  /** The object of a request from `place`, from one uniform draw `u` (the class); its size in `pickedSize`. */
  pick(place: number, u: number): number {
    const c = this.classSampler.sample(u);
    const m = this.modelOf[c];
    if (m < 0) {
      const objectId = this.catalogue.pickObject(c, this.zipfStream.next());
      this.pickedSize = this.catalogue.objectSizes[objectId];
      return objectId;
    }
    const edge = this.homeEdgeOfPlace[place];
    const generator = this.generators[m * this.edgeCount + edge] as StackModelGenerator;
    const objects = this.states[m].objects;
    objects.currentEdge = edge;
    objects.holder = generator;
    generator.next();
    objects.requested(generator.objectId);
    this.pickedSize = generator.size;
    return generator.objectId;
  }

  /**
   * The model's warm-up: every PoP's initial stack, bottom to top, each object handed to
   * `warm` with its PoP and its content class, interleaved across PoPs in 256 rounds (each PoP's stack a 256th at a
   * time) so a regional cache sees its PoPs' objects mixed, as they would arrive. After it,
   * every stream's next request is a draw of the model's steady state.
   */
  warmStacks(warm: (edge: number, objectId: number, sizeBytes: number, classIndex: number) => void): number {
    const rounds = 256;
    let warmed = 0;
    for (let round = 1; round <= rounds; round++) {
      for (let m = 0; m < this.states.length; m++) {
        const objects = this.states[m].objects;
        const classIndex = this.states[m].input.classIndex;
        for (let edge = 0; edge < this.edgeCount; edge++) {
          const generator = this.generators[m * this.edgeCount + edge];
          if (generator === null) continue;
          const until = Math.ceil((generator.warmupRequests * round) / rounds);
          objects.currentEdge = edge;
          objects.holder = generator;
          // Settled, the log already holds steady traffic's last requests; the replay of a stack is not a request of its PoP.
          const logged = this.states[m].settlingRequests === 0;
          while (generator.inWarmup && generator.warmupProgress < until) {
            generator.next();
            if (logged) objects.requested(generator.objectId);
            warm(edge, generator.objectId, generator.size, classIndex);
            warmed++;
          }
        }
      }
    }
    return warmed;
  }

  /** The requests `warmStacks` hands out: every PoP's stack objects, over the model classes. */
  get stackRequests(): number {
    let requests = 0;
    for (const generator of this.generators) if (generator !== null && generator.inWarmup) requests += generator.warmupRequests - generator.warmupProgress;
    return requests;
  }

  /** The content classes whose requests come from a model. */
  get classIndices(): number[] {
    return this.states.map((state) => state.input.classIndex);
  }

  /** Class `classIndex`'s place among the model classes (in `generators` and `facts()`), −1 for a Zipf class. */
  modelIndexOf(classIndex: number): number {
    return this.modelOf[classIndex];
  }

  facts(): ModelClassFacts[] {
    return this.states.map((state, m) => ({
      name: state.input.name,
      model: state.input.traffic.model,
      fidelity: state.input.traffic.fidelity,
      sharing: state.input.traffic.sharing,
      sharingWindow: state.input.traffic.sharingWindow,
      pops: this.generators.slice(m * this.edgeCount, (m + 1) * this.edgeCount).filter((g) => g !== null).length,
      stackObjects: state.stackObjects,
      depthCapBytes: state.depthCapBytes,
      settlingRequests: state.settlingRequests,
      startObjects: state.startObjects,
      createdObjects: state.startObjects + state.objects.created,
      sharedObjects: state.objects.shared,
    }));
  }
}
