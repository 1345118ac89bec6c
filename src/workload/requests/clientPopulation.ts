import type { RandomStream } from '../../sim/random.js';

/**
 * Who sends a request: a returning client or a new one (so browser caches, spec 4.9 layer 1,
 * see repeat traffic), and which of its recent objects a returning client asks for again.
 *
 * The model, per population group (a region, or a client place if the caller groups by place):
 * - The group holds the N most recently arrived clients (`clientsPerGroup`), each in a slot.
 * - A request comes from a returning client with probability `revisitShare`: one of the
 *   group's current clients, uniformly. Otherwise a new client arrives; it takes the slot of
 *   the group's oldest client (slots are reused round-robin), so the population is a sliding
 *   window of the N latest clients and memory stays fixed. The group's first request is
 *   always from a new client.
 * - A returning client re-asks one of its last R objects (`recentObjects`, uniformly) with
 *   probability `repeatShare`; otherwise the caller draws an object by popularity. Repeats
 *   are what a browser cache can answer; a popularity draw may also hit a recent object,
 *   which is not counted as a repeat.
 *
 * Everything lives in typed arrays indexed by slot: no Map and no allocation per request.
 */

/**
 * Defaults, approximate and a cdnsim choice rather than a measurement of this service. For
 * scale: Yahoo! measured in 2007 that 40–60 % of daily visitors came with an empty browser
 * cache and about 20 % of page views were empty-cache views (T. Theurer, "Performance
 * Research, Part 2: Browser Cache Usage – Exposed!", Yahoo! User Interface Blog, 2007); a
 * site with loyal users sees more returning traffic than 40 %, an anonymous audience less.
 */
export const DEFAULT_CLIENTS_PER_GROUP = 100_000;
export const DEFAULT_REVISIT_SHARE = 0.4;
export const DEFAULT_REPEAT_SHARE = 0.3;
/** Objects remembered per client: the ring a repeat draws from. */
export const DEFAULT_RECENT_OBJECTS = 8;
/** Upper bound of `recentObjects`: the ring cursor is a byte. */
export const MAX_RECENT_OBJECTS = 255;

export interface ClientPopulationSpec {
  /** Number of population groups (regions, or client places). */
  readonly groups: number;
  /** Distinct clients kept per group (N). */
  readonly clientsPerGroup: number;
  /** Share of requests from a returning client, in [0, 1]. */
  readonly revisitShare: number;
  /** Share of a returning client's requests that re-ask one of its recent objects, in [0, 1]. */
  readonly repeatShare: number;
  /** Length of each client's ring of recent objects (R). */
  readonly recentObjects: number;
}

export class ClientPopulation {
  /** Slots in all groups: slot = group × clientsPerGroup + index within the group. */
  readonly slots: number;
  /** Unique id of each slot's current client (a reused slot gets a new id). */
  readonly clientIds: Float64Array;
  /** Result of the last arrive(): 1 when the client is new, 0 when it returns. */
  arrivedNew = 0;
  private readonly groups: number;
  private readonly perGroup: number;
  /** Recent objects remembered per client (R): the ring a repeat draws from. */
  readonly recentObjects: number;
  /** Clients created so far per group; also the next round-robin slot. */
  private readonly created: Float64Array;
  /** Recent object ids, `recentObjects` per slot. */
  private readonly recent: Int32Array;
  private readonly recentCount: Uint8Array;
  private readonly recentNext: Uint8Array;

  constructor(private readonly spec: ClientPopulationSpec) {
    requireWhole('groups', spec.groups, 1);
    requireWhole('clientsPerGroup', spec.clientsPerGroup, 1);
    requireWhole('recentObjects', spec.recentObjects, 1, MAX_RECENT_OBJECTS);
    requireShare('revisitShare', spec.revisitShare);
    requireShare('repeatShare', spec.repeatShare);
    this.groups = spec.groups;
    this.perGroup = spec.clientsPerGroup;
    this.recentObjects = spec.recentObjects;
    this.slots = spec.groups * spec.clientsPerGroup;
    this.clientIds = new Float64Array(this.slots).fill(-1);
    this.created = new Float64Array(spec.groups);
    this.recent = new Int32Array(this.slots * spec.recentObjects);
    this.recentCount = new Uint8Array(this.slots);
    this.recentNext = new Uint8Array(this.slots);
  }

  /** The group a slot belongs to. */
  groupOf(slot: number): number {
    return Math.floor(slot / this.perGroup);
  }

  /** Clients created in a group so far (new arrivals, including those whose slot was reused). */
  createdIn(group: number): number {
    return this.created[group];
  }

  /**
   * The slot of the client that sends the next request of `group`, drawn from `stream`.
   * Sets `arrivedNew`; a new client's ring is empty and its id fresh. Ids are unique over
   * the run: id = (clients created before it in the group) × groups + group.
   */
  arrive(group: number, stream: RandomStream): number {
    const created = this.created[group];
    const base = group * this.perGroup;
    if (created > 0 && stream.next() < this.spec.revisitShare) {
      this.arrivedNew = 0;
      return base + stream.int(created < this.perGroup ? created : this.perGroup);
    }
    const slot = base + (created % this.perGroup);
    this.clientIds[slot] = created * this.groups + group;
    this.recentCount[slot] = 0;
    this.recentNext[slot] = 0;
    this.created[group] = created + 1;
    this.arrivedNew = 1;
    return slot;
  }

  /** Whether a returning client's request re-asks a recent object (one draw). */
  drawsRepeat(slot: number, stream: RandomStream): boolean {
    return this.recentCount[slot] > 0 && stream.next() < this.spec.repeatShare;
  }

  /** One of the slot's recent objects, uniformly (one draw); the ring must not be empty. */
  recentObject(slot: number, stream: RandomStream): number {
    return this.recent[slot * this.recentObjects + stream.int(this.recentCount[slot])];
  }

  /** Records that the slot's client asked for `objectId` (overwrites the oldest when full). */
  remember(slot: number, objectId: number): void {
    const next = this.recentNext[slot];
    this.recent[slot * this.recentObjects + next] = objectId;
    this.recentNext[slot] = next + 1 === this.recentObjects ? 0 : next + 1;
    if (this.recentCount[slot] < this.recentObjects) this.recentCount[slot]++;
  }

  /** How many objects the slot remembers (≤ recentObjects). */
  recentCountOf(slot: number): number {
    return this.recentCount[slot];
  }
}

function requireWhole(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
}

function requireShare(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be a share in [0, 1], got ${value}`);
}
