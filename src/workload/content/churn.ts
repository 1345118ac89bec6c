import type { RandomStream, RandomStreams } from '../../sim/random.js';
import type { Simulation } from '../../sim/simulation.js';
import type { ClassCatalogue } from './classCatalogue.js';
import type { ChurnSpec } from './contentClasses.js';

/** Lifecycle of an object id. */
export const ObjectState = {
  /** Reserved for churn, not yet handed out. */
  reserved: 0,
  /** In its class's popularity ranking: requests can pick it. */
  ranked: 1,
  /** A one-hit wonder: requested once when it appeared, never ranked. */
  oneHitWonder: 2,
  /** Pushed out of the ranking (aged out, replaced, or given a new URL): never requested again. */
  retired: 3,
} as const;

/** Optional notifications; set once when attaching, so nothing is allocated per event. */
export interface ChurnHooks {
  /** A one-hit wonder appeared: the workload sends its single request now. */
  onOneHitWonder?(objectId: number, classIndex: number): void;
  /** A ranked new object appeared (it is picked by popularity from now on). */
  onNewObject?(objectId: number, classIndex: number): void;
  /**
   * An object got a new version; `objectId === previousId` unless the update gave it a new
   * URL, in which case the fresh id has taken `previousId`'s file type (traits derived from
   * the file type must follow it).
   */
  onUpdate?(objectId: number, previousId: number, classIndex: number): void;
}

/** Draws beyond the mean reserved for churn: ids would run out with probability ~1e-9 (a 6σ Poisson tail). */
const RESERVE_SIGMAS = 6;

/**
 * Ids a class needs for churn over `horizonMs` of simulated time, so the catalogue can
 * reserve them up front and never reallocate: new objects (ranked or one-hit wonders)
 * plus, for updates with new URLs, one id per update; `deploys` deploy events each update
 * a binomial share of the class (spec-free: see UpdateSpec.onDeployShare).
 */
export function churnReservation(churn: ChurnSpec, objects: number, horizonMs: number, deploys = 0): number {
  const perSecond = churn.newObjectsPerSecond + (churn.updates.newUrl ? churn.updates.perSecond : 0);
  const mean = (perSecond * horizonMs) / 1000;
  let ids = mean > 0 ? Math.ceil(mean + RESERVE_SIGMAS * Math.sqrt(mean)) + 8 : 0;
  const p = churn.updates.onDeployShare ?? 0;
  if (churn.updates.newUrl && deploys > 0 && p > 0) {
    const perDeploy = Math.min(objects, Math.ceil(objects * p + RESERVE_SIGMAS * Math.sqrt(objects * p * (1 - p))) + 1);
    ids += deploys * perDeploy;
  }
  return ids;
}

/**
 * Content churn over a ClassCatalogue, on typed arrays with no allocation per event:
 * - new objects: a share are one-hit wonders (one request when they appear, never
 *   ranked); the rest enter the class's ranking at the top, pushing every object down one
 *   rank (popularity decays with age, the last-ranked retires), or at a rank drawn from the
 *   class's Zipf law, replacing the object there (ChurnSpec.entry);
 * - updates: with `newUrl` (hashed names) the object at the rank is retired and a fresh id
 *   with the next version takes its rank, keeping its file type, with the fresh id's own
 *   size (drawn ahead, like a new object's: a new version is new content); without, the id
 *   stays and `versionOf` increments (the CDN flow compares versions to spot stale copies).
 * Ids come from each class's reserved range (churnReservation); running out is an error.
 * Randomness comes from per-class streams (`content.<name>.newObjects`, `.updates`,
 * `.deploys`), so one class's churn never shifts another's.
 */
export class ContentChurn {
  /** Content version of each id: 0 at first, +1 per update (a new-URL update carries the count to the fresh id). */
  readonly versionOf: Uint32Array;
  /** ObjectState of each id. */
  readonly stateOf: Uint8Array;
  /** Next unused reserved id per class. */
  readonly nextFreeId: Int32Array;
  readonly newObjectCount: Int32Array;
  readonly oneHitWonderCount: Int32Array;
  readonly updateCount: Int32Array;
  readonly retiredCount: Int32Array;
  /** Whether the last addNewObject made a one-hit wonder. */
  lastWasOneHitWonder = false;

  private readonly oneHitWonderShare: Float64Array;
  private readonly entersAtTop: Uint8Array;
  private readonly updateTakesNewUrl: Uint8Array;
  private readonly newObjectStreams: readonly RandomStream[];
  private readonly updateStreams: readonly RandomStream[];
  private readonly deployStreams: readonly RandomStream[];

  constructor(
    private readonly catalogue: ClassCatalogue,
    private readonly specs: readonly ChurnSpec[],
    streams: RandomStreams,
  ) {
    if (specs.length !== catalogue.classCount) throw new RangeError(`expected ${catalogue.classCount} churn specs (one per class), found ${specs.length}`);
    const classes = catalogue.classCount;
    this.versionOf = new Uint32Array(catalogue.idCapacity);
    this.stateOf = new Uint8Array(catalogue.idCapacity);
    this.nextFreeId = new Int32Array(classes);
    this.newObjectCount = new Int32Array(classes);
    this.oneHitWonderCount = new Int32Array(classes);
    this.updateCount = new Int32Array(classes);
    this.retiredCount = new Int32Array(classes);
    this.oneHitWonderShare = Float64Array.from(specs, (spec) => spec.oneHitWonderShare);
    this.entersAtTop = Uint8Array.from(specs, (spec) => (spec.entry === 'top' ? 1 : 0));
    this.updateTakesNewUrl = Uint8Array.from(specs, (spec) => (spec.updates.newUrl ? 1 : 0));
    for (let c = 0; c < classes; c++) {
      const start = catalogue.classStart[c];
      this.nextFreeId[c] = start + catalogue.rankedObjects[c];
      this.stateOf.fill(ObjectState.ranked, start, start + catalogue.rankedObjects[c]);
    }
    const names = catalogue.classes.map((klass) => klass.name);
    this.newObjectStreams = names.map((name) => streams.stream(`content.${name}.newObjects`));
    this.updateStreams = names.map((name) => streams.stream(`content.${name}.updates`));
    this.deployStreams = names.map((name) => streams.stream(`content.${name}.deploys`));
  }

  /**
   * A new object of class c: a one-hit wonder when uOneHit < the class's one-hit-wonder
   * share (then `lastWasOneHitWonder` is true and the id is not ranked), otherwise it enters
   * the ranking (uRank draws the rank for entry 'drawn'). Returns the new id.
   */
  addNewObject(classIndex: number, uOneHit: number, uRank = 0): number {
    const id = this.takeId(classIndex);
    this.newObjectCount[classIndex]++;
    if (uOneHit < this.oneHitWonderShare[classIndex]) {
      this.stateOf[id] = ObjectState.oneHitWonder;
      this.oneHitWonderCount[classIndex]++;
      this.lastWasOneHitWonder = true;
      return id;
    }
    this.lastWasOneHitWonder = false;
    const catalogue = this.catalogue;
    const n = catalogue.rankedObjects[classIndex];
    let slot: number;
    if (this.entersAtTop[classIndex] === 1) {
      // Moving the ring's head back one slot makes the last rank's slot the new rank 0.
      const head = catalogue.rankHead[classIndex] === 0 ? n - 1 : catalogue.rankHead[classIndex] - 1;
      catalogue.rankHead[classIndex] = head;
      slot = catalogue.rankSlotBase[classIndex] + head;
    } else {
      slot = this.slotOfRank(classIndex, catalogue.pickRank(classIndex, uRank));
    }
    this.retire(catalogue.idOfRankSlot[slot], classIndex);
    catalogue.idOfRankSlot[slot] = id;
    this.stateOf[id] = ObjectState.ranked;
    return id;
  }

  /** A new version of the object at `rank` of class c (0 = most popular). Returns the id at that rank afterwards. */
  applyUpdate(classIndex: number, rank: number): number {
    const catalogue = this.catalogue;
    const slot = this.slotOfRank(classIndex, rank);
    const current = catalogue.idOfRankSlot[slot];
    this.updateCount[classIndex]++;
    if (this.updateTakesNewUrl[classIndex] === 0) {
      this.versionOf[current]++;
      return current;
    }
    const fresh = this.takeId(classIndex);
    // The next version at a new hashed name: the same kind of file (a script stays a
    // script), with the size drawn for the fresh id from the class's size law. The request
    // keys of every id were laid out before the run from that size (spec 4.8 chunk keys),
    // so copying the old size would run its chunks into the next id's keys; the file type
    // only decides the key's variants, which the ChurnHooks.onUpdate listener re-derives.
    catalogue.fileTypeOfId[fresh] = catalogue.fileTypeOfId[current];
    this.versionOf[fresh] = this.versionOf[current] + 1;
    this.retire(current, classIndex);
    this.stateOf[fresh] = ObjectState.ranked;
    catalogue.idOfRankSlot[slot] = fresh;
    return fresh;
  }

  /**
   * One deploy event: every ranked object of every class is updated with its class's
   * `onDeployShare` probability (drawn from `content.<name>.deploys`). O(objects); deploys
   * are rare. Returns the number of updates.
   */
  deploy(hooks: ChurnHooks = {}): number {
    let updates = 0;
    for (let c = 0; c < this.catalogue.classCount; c++) updates += this.deployClass(c, hooks);
    return updates;
  }

  /**
   * What one deploy does to class c (spec 1.2 item 6): each ranked object is updated with
   * the class's `onDeployShare` probability, one draw per rank from `content.<name>.deploys`
   * (so the objects a deploy changes do not depend on other classes). With `newUrl` the
   * updated objects get fresh ids (cold keys: a new hashed URL nobody has cached), else the
   * next version at the same URL, as `applyUpdate` does. Returns the number of updates.
   */
  deployClass(classIndex: number, hooks: ChurnHooks = {}): number {
    const share = this.specs[classIndex].updates.onDeployShare ?? 0;
    if (share <= 0) return 0;
    const stream = this.deployStreams[classIndex];
    let updates = 0;
    for (let rank = 0; rank < this.catalogue.rankedObjects[classIndex]; rank++) {
      if (stream.next() >= share) continue;
      const previous = this.catalogue.idAtRank(classIndex, rank);
      const id = this.applyUpdate(classIndex, rank);
      hooks.onUpdate?.(id, previous, classIndex);
      updates++;
    }
    return updates;
  }

  /**
   * Schedules each class's new objects and updates as Poisson processes on `simulation`,
   * from the current time on. Each new-object event draws two uniforms (one-hit wonder?,
   * rank), each update one (a ranked object, uniformly), so the streams stay aligned
   * whatever the entry mode.
   */
  attach(simulation: Simulation, hooks: ChurnHooks = {}): void {
    const newObject = simulation.defineEvent('content.newObject', (classIndex) => {
      const stream = this.newObjectStreams[classIndex];
      const uOneHit = stream.next();
      const uRank = stream.next();
      const id = this.addNewObject(classIndex, uOneHit, uRank);
      if (this.lastWasOneHitWonder) hooks.onOneHitWonder?.(id, classIndex);
      else hooks.onNewObject?.(id, classIndex);
      simulation.scheduleAfter(stream.exponential(this.specs[classIndex].newObjectsPerSecond / 1000), newObject, classIndex);
    });
    const update = simulation.defineEvent('content.update', (classIndex) => {
      const stream = this.updateStreams[classIndex];
      const rank = stream.int(this.catalogue.rankedObjects[classIndex]);
      const previous = this.catalogue.idAtRank(classIndex, rank);
      const id = this.applyUpdate(classIndex, rank);
      hooks.onUpdate?.(id, previous, classIndex);
      simulation.scheduleAfter(stream.exponential(this.specs[classIndex].updates.perSecond / 1000), update, classIndex);
    });
    this.specs.forEach((spec, c) => {
      if (spec.newObjectsPerSecond > 0) simulation.scheduleAfter(this.newObjectStreams[c].exponential(spec.newObjectsPerSecond / 1000), newObject, c);
      if (spec.updates.perSecond > 0) simulation.scheduleAfter(this.updateStreams[c].exponential(spec.updates.perSecond / 1000), update, c);
    });
  }

  private slotOfRank(classIndex: number, rank: number): number {
    const catalogue = this.catalogue;
    let slot = catalogue.rankHead[classIndex] + rank;
    const n = catalogue.rankedObjects[classIndex];
    if (slot >= n) slot -= n;
    return catalogue.rankSlotBase[classIndex] + slot;
  }

  private retire(id: number, classIndex: number): void {
    this.stateOf[id] = ObjectState.retired;
    this.retiredCount[classIndex]++;
  }

  private takeId(classIndex: number): number {
    const id = this.nextFreeId[classIndex];
    if (id >= this.catalogue.classStart[classIndex + 1]) {
      const klass = this.catalogue.classes[classIndex];
      const reserved = this.catalogue.classStart[classIndex + 1] - this.catalogue.classStart[classIndex] - klass.objects;
      throw new RangeError(
        `content class '${klass.name}' used all ${reserved} ids reserved for churn; reserve them with churnReservation() for the run's real length`,
      );
    }
    this.nextFreeId[classIndex] = id + 1;
    return id;
  }
}
