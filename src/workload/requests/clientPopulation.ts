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
  /** Result of the last arrive(): 1 when the client is new, 0 when it returns. */
  arrivedNew = 0;
  private readonly groups: number;
  private readonly perGroup: number;
  private readonly revisitShare: number;
  private readonly repeatShare: number;
  /** Recent objects remembered per client (R): the ring a repeat draws from. */
  readonly recentObjects: number;
  /** Clients created so far per group; also the next round-robin slot. */
  private readonly created: Float64Array;
  /** Per group, the index within the group of the slot the next new client takes (created mod N, kept as an integer). */
  private readonly nextIndex: Int32Array;
  /** Recent object ids, `recentObjects` per slot. */
  private readonly recent: Int32Array;
  /**
   * The rest of a client's state, 8 bytes per slot side by side, so a returning client (a
   * uniformly drawn slot among hundreds of thousands) costs one cache miss here, not one per
   * field: bytes 0–3 are the ring's count, the ring's cursor, the client's traits (see
   * clientTraits) and a spare byte; word 1 is the client's place.
   */
  private readonly slotWords: Int32Array;
  private readonly slotBytes: Uint8Array;

  constructor(spec: ClientPopulationSpec) {
    requireWhole('groups', spec.groups, 1);
    requireWhole('clientsPerGroup', spec.clientsPerGroup, 1);
    requireWhole('recentObjects', spec.recentObjects, 1, MAX_RECENT_OBJECTS);
    requireShare('revisitShare', spec.revisitShare);
    requireShare('repeatShare', spec.repeatShare);
    this.groups = spec.groups;
    this.perGroup = spec.clientsPerGroup;
    this.revisitShare = spec.revisitShare;
    this.repeatShare = spec.repeatShare;
    this.recentObjects = spec.recentObjects;
    this.slots = spec.groups * spec.clientsPerGroup;
    this.created = new Float64Array(spec.groups);
    this.nextIndex = new Int32Array(spec.groups);
    this.recent = new Int32Array(this.slots * spec.recentObjects);
    this.slotWords = new Int32Array(2 * this.slots);
    this.slotBytes = new Uint8Array(this.slotWords.buffer);
    for (let slot = 0; slot < this.slots; slot++) this.slotWords[2 * slot + 1] = -1;
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
   * Unique id of the slot's current client, −1 before its first: id = (clients created
   * before it in the group) × groups + group. The slot's client is the group's latest one
   * whose round-robin index is the slot's, so the id follows from the group's count alone.
   */
  clientIdOf(slot: number): number {
    const group = Math.floor(slot / this.perGroup);
    const index = slot - group * this.perGroup;
    const created = this.created[group];
    if (index >= created) return -1;
    return (index + this.perGroup * Math.floor((created - 1 - index) / this.perGroup)) * this.groups + group;
  }

  /**
   * The slot of the client that sends the next request of `group`, drawn from `stream`.
   * Sets `arrivedNew`; a new client's ring is empty, its traits 0 and its place −1 until the
   * caller sets them. Ids are unique over the run (clientIdOf).
   */
  arrive(group: number, stream: RandomStream): number {
    const created = this.created[group];
    const perGroup = this.perGroup;
    const base = group * perGroup;
    if (created > 0 && stream.next() < this.revisitShare) {
      this.arrivedNew = 0;
      return base + stream.int(created < perGroup ? created : perGroup);
    }
    const index = this.nextIndex[group];
    this.nextIndex[group] = index + 1 === perGroup ? 0 : index + 1;
    const slot = base + index;
    this.slotWords[2 * slot] = 0;
    this.slotWords[2 * slot + 1] = -1;
    this.created[group] = created + 1;
    this.arrivedNew = 1;
    return slot;
  }

  /** Whether a returning client's request re-asks a recent object (one draw). */
  drawsRepeat(slot: number, stream: RandomStream): boolean {
    return this.slotBytes[8 * slot] > 0 && stream.next() < this.repeatShare;
  }

  /** One of the slot's recent objects, uniformly (one draw); the ring must not be empty. */
  recentObject(slot: number, stream: RandomStream): number {
    return this.recent[slot * this.recentObjects + stream.int(this.slotBytes[8 * slot])];
  }

  /** Records that the slot's client asked for `objectId` (overwrites the oldest when full). */
  remember(slot: number, objectId: number): void {
    const bytes = this.slotBytes;
    const at = 8 * slot;
    const recentObjects = this.recentObjects;
    const next = bytes[at + 1];
    this.recent[slot * recentObjects + next] = objectId;
    bytes[at + 1] = next + 1 === recentObjects ? 0 : next + 1;
    if (bytes[at] < recentObjects) bytes[at]++;
  }

  /** How many objects the slot remembers (≤ recentObjects). */
  recentCountOf(slot: number): number {
    return this.slotBytes[8 * slot];
  }

  /** The traits (a byte the caller defines: device, AVIF support) of the slot's client; 0 for a new client. */
  clientTraits(slot: number): number {
    return this.slotBytes[8 * slot + 2];
  }

  setClientTraits(slot: number, traits: number): void {
    this.slotBytes[8 * slot + 2] = traits;
  }

  /** The place the slot's client came from; −1 for a new client until setPlace. */
  placeOf(slot: number): number {
    return this.slotWords[2 * slot + 1];
  }

  setPlace(slot: number, place: number): void {
    this.slotWords[2 * slot + 1] = place;
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
