import type { RandomStream, RandomStreams } from '../../sim/random.js';
import { ClientPopulation, type ClientPopulationSpec } from './clientPopulation.js';
import { MediaSessions, WHOLE_OBJECT, type MediaSessionSpec, type MediaWindow } from './seekBehaviour.js';

/**
 * The per-request inputs of the cache key and the browser layer, as small integers: which
 * client (and whether it is new), its device class (spec 4.5), whether its browser accepts
 * AVIF (spec 4.4), whether the query parameters arrive in another order (spec 4.3.1), and a
 * byte range for large media (spec 4.8). No strings: the engine maps the codes to the
 * `User-Agent`/`Accept`/query it stands for once per distinct value, not per request.
 *
 * Device and AVIF support belong to the client, drawn once when it first arrives, so a
 * returning client keeps them (its browser cache holds the matching variants). Because
 * returning clients are drawn uniformly from the population, whatever their device, each
 * request is mobile with the group's mobile share.
 */

export const DEVICE_DESKTOP = 0;
export const DEVICE_MOBILE = 1;

/** Bits of a client's traits byte (ClientPopulation.clientTraits): its device and AVIF support. */
const TRAIT_MOBILE = 1;
const TRAIT_AVIF = 2;

/**
 * Default share of browsers that accept AVIF (send `image/avif` in Accept for images).
 * Approximate: caniuse.com's "AVIF image format" page, weighting support by StatCounter usage
 * data, put global support at roughly 90–93 % in 2025 (Chrome 85+, Firefox 93+, Safari 16+,
 * Edge 121+); 0.92 sits in that range. Re-check for a scenario where it matters.
 */
export const DEFAULT_AVIF_SHARE = 0.92;

/**
 * Default size of an image's AVIF variant as a share of the image it replaces (the JPEG,
 * PNG, … the origin holds): spec 4.4 states AVIF as about 90 % smaller than JPEG, so 10 %.
 */
export const DEFAULT_AVIF_SIZE_SHARE = 0.1;

/**
 * The body bytes of an AVIF variant (spec 4.4) of an image of `imageBytes`: the share of them,
 * rounded to the nearest whole byte, and at least 1 byte for a non-empty image (an encoder
 * never answers a picture with an empty body). 0 stays 0.
 */
export function avifVariantBytes(imageBytes: number, avifSizeShare: number): number {
  if (imageBytes <= 0) return imageBytes;
  const bytes = Math.round(imageBytes * avifSizeShare);
  return bytes < 1 ? 1 : bytes;
}

/**
 * Default share of requests whose query parameters come in another order than the canonical
 * one (spec 4.3.1 sorts them into one key). A cdnsim choice, not a measured figure: links
 * built by different code paths, analytics tags and hand-written URLs.
 */
export const DEFAULT_QUERY_REORDER_SHARE = 0.1;

/** One request's attributes. The sampler reuses one record: read it, do not keep it. */
export interface RequestAttributes extends MediaWindow {
  /** Population group (region index) of the client. */
  group: number;
  /** Dense slot of the client, [0, groups × clientsPerGroup): index per-client typed arrays (browser caches) by it. */
  clientSlot: number;
  /** Unique id of the client over the run (a reused slot gets a new id). */
  clientId: number;
  /** 1 on a client's first request: its slot was just (re)assigned, so its browser cache is empty. */
  newClient: number;
  /** 1 when a returning client deliberately re-asks one of its recent objects. */
  repeat: number;
  /** 1 for a later window of a media session (from continueSession). */
  continuation: number;
  objectId: number;
  sizeBytes: number;
  /** DEVICE_DESKTOP (0) or DEVICE_MOBILE (1), spec 4.5. */
  device: number;
  /** 1 when the client's Accept lists image/avif, spec 4.4. */
  acceptsAvif: number;
  /**
   * 1 when the query parameters arrive in a non-canonical order, spec 4.3.1. Drawn for every
   * request; it only changes anything for a URL with two or more parameters.
   */
  queryReordered: number;
}

/** A blank record for the sampler to fill. */
export function newRequestAttributes(): RequestAttributes {
  return {
    group: 0,
    clientSlot: 0,
    clientId: 0,
    newClient: 0,
    repeat: 0,
    continuation: 0,
    objectId: 0,
    sizeBytes: 0,
    device: DEVICE_DESKTOP,
    acceptsAvif: 0,
    queryReordered: 0,
    rangeStart: WHOLE_OBJECT,
    rangeEnd: WHOLE_OBJECT,
    seek: 0,
    sessionSerial: -1,
    sessionContinues: 0,
  };
}

/** Where object ids and sizes come from (the Catalogue fits). */
export interface ObjectSource {
  readonly objectSizes: ArrayLike<number>;
  /** An object id by popularity from one uniform draw in [0, 1). */
  pick(u: number): number;
  /**
   * Per object: 1 when clients read it with Range requests (its content class says so, spec
   * 4.8). Absent or null: any object of at least media.minBytes is read with ranges.
   */
  readonly rangesOf?: Uint8Array | null;
}

export interface RequestAttributeSpec {
  /** Share of mobile clients per group, in group order (from the topology, spec 4.5). */
  readonly mobileShares: readonly number[];
  readonly avifShare: number;
  /** Size of an image's AVIF variant as a share of the image's bytes, in (0, 1] (spec 4.4). */
  readonly avifSizeShare: number;
  readonly queryReorderShare: number;
  /** `groups` must equal mobileShares.length. */
  readonly population: ClientPopulationSpec;
  readonly media: MediaSessionSpec & {
    /** Objects at least this large are read as media sessions with ranges; smaller ones whole. */
    readonly minBytes: number;
  };
}

export class RequestAttributeSampler {
  readonly population: ClientPopulation;
  readonly sessions: MediaSessions;
  /** spec 4.4: an AVIF variant's bytes as a share of the image's; the request keys say which requests get one. */
  readonly avifSizeShare: number;
  private readonly streams: RandomStream[];
  private readonly mobileShares: Float64Array;
  private readonly avifShare: number;
  private readonly queryReorderShare: number;
  private readonly mediaMinBytes: number;
  private readonly objectSizes: ArrayLike<number>;
  private readonly rangesOf: Uint8Array | null;

  /**
   * `groupNames` name each group's random stream (`workload.clients.<name>`), so a group's
   * draws do not depend on the other groups' traffic (DESIGN "Determinism").
   */
  constructor(spec: RequestAttributeSpec, private readonly objects: ObjectSource, randomStreams: RandomStreams, groupNames: readonly string[]) {
    const groups = spec.population.groups;
    if (spec.mobileShares.length !== groups || groupNames.length !== groups) {
      throw new RangeError(`expected ${groups} mobile shares and group names, got ${spec.mobileShares.length} and ${groupNames.length}`);
    }
    requireShare('avifShare', spec.avifShare);
    requireShare('queryReorderShare', spec.queryReorderShare);
    if (!(spec.avifSizeShare > 0 && spec.avifSizeShare <= 1)) throw new RangeError(`avifSizeShare must be a share in (0, 1], got ${spec.avifSizeShare}`);
    spec.mobileShares.forEach((share, g) => requireShare(`mobileShares[${g}]`, share));
    if (!(spec.media.minBytes >= 1)) throw new RangeError(`media.minBytes must be ≥ 1, got ${spec.media.minBytes}`);
    this.population = new ClientPopulation(spec.population);
    this.sessions = new MediaSessions(spec.media, this.population.slots);
    this.streams = groupNames.map((name) => randomStreams.stream(`workload.clients.${name}`));
    this.mobileShares = Float64Array.from(spec.mobileShares);
    this.avifShare = spec.avifShare;
    this.avifSizeShare = spec.avifSizeShare;
    this.queryReorderShare = spec.queryReorderShare;
    this.mediaMinBytes = spec.media.minBytes;
    this.objectSizes = objects.objectSizes;
    this.rangesOf = objects.rangesOf ?? null;
  }

  /**
   * Fills `out` for the next request from `group`: the client, its object (a repeat or a
   * popularity draw), variant inputs and, for a media object, the first window of a new
   * viewing session (sessionContinues = 1: schedule continueSession for the next window).
   * `forcedObjectId` ≥ 0 asks for that object instead (a flash crowd's set): no repeat draw.
   */
  sample(group: number, out: RequestAttributes, forcedObjectId = -1): void {
    const stream = this.streams[group];
    const population = this.population;
    const slot = population.arrive(group, stream);
    const arrivedNew = population.arrivedNew;
    let traits: number;
    if (arrivedNew === 1) {
      // The client's device and AVIF support (TRAIT_MOBILE, TRAIT_AVIF), drawn once: it keeps them.
      traits = stream.next() < this.mobileShares[group] ? TRAIT_MOBILE : 0;
      if (stream.next() < this.avifShare) traits |= TRAIT_AVIF;
      population.setClientTraits(slot, traits);
      this.sessions.end(slot); // the slot's previous client is gone
    } else {
      traits = population.clientTraits(slot);
    }
    let objectId: number;
    let repeat = 0;
    if (forcedObjectId >= 0) {
      objectId = forcedObjectId;
      population.remember(slot, objectId);
    } else if (arrivedNew === 0 && population.drawsRepeat(slot, stream)) {
      objectId = population.recentObject(slot, stream);
      repeat = 1;
    } else {
      objectId = this.objects.pick(stream.next());
      population.remember(slot, objectId);
    }
    const sizeBytes = this.objectSizes[objectId];
    out.group = group;
    out.clientSlot = slot;
    out.clientId = population.clientIdOf(slot);
    out.newClient = arrivedNew;
    out.repeat = repeat;
    out.continuation = 0;
    out.objectId = objectId;
    out.sizeBytes = sizeBytes;
    setClientTraits(out, traits);
    out.queryReordered = stream.next() < this.queryReorderShare ? 1 : 0;
    const rangesOf = this.rangesOf;
    if (sizeBytes >= this.mediaMinBytes && (rangesOf === null || rangesOf[objectId] === 1)) {
      this.sessions.start(slot, objectId, sizeBytes, stream, out);
    } else {
      out.rangeStart = WHOLE_OBJECT;
      out.rangeEnd = WHOLE_OBJECT;
      out.seek = 0;
      out.sessionSerial = -1;
      out.sessionContinues = 0;
    }
  }

  /**
   * Fills `out` with the next window of session `sessionSerial` of the client in `clientSlot`
   * (both from the record that said sessionContinues = 1). False, `out` untouched, when the
   * session has ended or was replaced (the client started another, or left). A player builds
   * these URLs itself, so queryReordered is 0.
   */
  continueSession(clientSlot: number, sessionSerial: number, out: RequestAttributes): boolean {
    const group = this.population.groupOf(clientSlot);
    if (!this.sessions.advance(clientSlot, sessionSerial, this.streams[group], out)) return false;
    const objectId = this.sessions.objectOf(clientSlot);
    out.group = group;
    out.clientSlot = clientSlot;
    out.clientId = this.population.clientIdOf(clientSlot);
    out.newClient = 0;
    out.repeat = 0;
    out.continuation = 1;
    out.objectId = objectId;
    out.sizeBytes = this.objectSizes[objectId];
    setClientTraits(out, this.population.clientTraits(clientSlot));
    out.queryReordered = 0;
    return true;
  }
}

/** `out`'s device and AVIF support from a client's traits byte (TRAIT_MOBILE, TRAIT_AVIF). */
function setClientTraits(out: RequestAttributes, traits: number): void {
  out.device = traits & TRAIT_MOBILE ? DEVICE_MOBILE : DEVICE_DESKTOP;
  out.acceptsAvif = traits & TRAIT_AVIF ? 1 : 0;
}

function requireShare(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be a share in [0, 1], got ${value}`);
}
