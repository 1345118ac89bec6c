import { chunksForRange } from '../../policy/ranges.js';
import type { ClientRequest } from '../request.js';
import { isAvifVariant, RequestKeys } from './requestKeys.js';
import { avifVariantBytes, newRequestAttributes, type RequestAttributeSampler, type RequestAttributes } from './requestAttributes.js';

/**
 * Requests from a population of clients (the scenario's `traffic.clients`): who sends each
 * request (new or returning, with its browser cache), its device and AVIF support, the cache
 * key those give (spec 4.4, 4.5), the smaller body of an image's AVIF variant (4.4), and for
 * media the viewing session's windows as 5 MB chunk keys (4.8). Fills the workload's reused ClientRequest; no allocation per request.
 *
 * A client keeps the place it first came from, so a returning client and the later windows
 * of its viewing session reach the same PoP. The population is per region: a returning client
 * answers its region's arrival process, whichever of the region's time zones it lives in.
 */
export class ClientTraffic {
  private readonly attributes: RequestAttributes = newRequestAttributes();
  /** spec 4.4: an AVIF variant's bytes as a share of the image's (the sampler's setting). */
  private readonly avifSizeShare: number;

  constructor(
    readonly sampler: RequestAttributeSampler,
    readonly keys: RequestKeys,
    /** Simulated ms between a viewing session's windows (the player's pace). */
    readonly windowIntervalMs: number,
  ) {
    if (!(windowIntervalMs > 0)) throw new RangeError(`windowIntervalMs must be > 0, got ${windowIntervalMs}`);
    this.avifSizeShare = sampler.avifSizeShare;
  }

  /**
   * Fills `request` (its time set by the caller) for an arrival in `region`: the client, its
   * object (`forcedObjectId` ≥ 0 for a flash crowd's pick), key and range. `newPlace` is the
   * place a new client comes from. True when a media session continues: schedule
   * continueSession(sessionSlot, sessionSerial) after windowIntervalMs.
   */
  arrive(region: number, newPlace: number, forcedObjectId: number, request: ClientRequest): boolean {
    const attributes = this.attributes;
    this.sampler.sample(region, attributes, forcedObjectId);
    if (attributes.newClient === 1) this.sampler.population.setPlace(attributes.clientSlot, newPlace);
    request.region = region;
    this.fill(request);
    return attributes.sessionContinues === 1;
  }

  /** Slot and serial of the session the last arrive/continueSession left running. */
  get sessionSlot(): number {
    return this.attributes.clientSlot;
  }
  get sessionSerial(): number {
    return this.attributes.sessionSerial;
  }

  /**
   * Fills `request` with the next window of a session; false when the session has ended or
   * was replaced (the request is then untouched). `continues()` says whether another follows.
   */
  continueSession(slot: number, serial: number, request: ClientRequest): boolean {
    const attributes = this.attributes;
    if (!this.sampler.continueSession(slot, serial, attributes)) return false;
    request.region = attributes.group;
    this.fill(request);
    return true;
  }

  /** Whether the session of the last filled request asks for another window. */
  continues(): boolean {
    return this.attributes.sessionContinues === 1;
  }

  private fill(request: ClientRequest): void {
    const attributes = this.attributes;
    const keys = this.keys;
    const objectId = attributes.objectId;
    const code = keys.variantCode(objectId, attributes.acceptsAvif, attributes.device);
    request.place = this.sampler.population.placeOf(attributes.clientSlot);
    request.objectId = objectId;
    request.clientSlot = attributes.clientSlot;
    request.newClient = attributes.newClient;
    request.queryReordered = attributes.queryReordered;
    request.otherSpellingKey = -1; // QueryKeys sets it when the exact URL is not the CDN's key
    if (attributes.rangeStart < 0 || !keys.isChunked(objectId)) {
      // spec 4.4: the avif-support variant is its own, smaller response; caches store and
      // uplinks carry that body. Ranges (below) are media, never an image variant.
      const bytes = isAvifVariant(code) ? avifVariantBytes(attributes.sizeBytes, this.avifSizeShare) : attributes.sizeBytes;
      request.objectBytes = bytes;
      request.sizeBytes = bytes;
      request.key = keys.wholeKey(objectId, code);
      request.pieces = 1;
      request.firstChunk = -1;
      request.rangeStart = -1;
    } else {
      const { firstChunk, lastChunk } = chunksForRange(attributes.rangeStart, attributes.rangeEnd, keys.chunkBytes);
      request.objectBytes = attributes.sizeBytes;
      request.sizeBytes = attributes.rangeEnd - attributes.rangeStart + 1;
      request.key = keys.chunkKey(objectId, code, firstChunk);
      request.pieces = lastChunk - firstChunk + 1;
      request.firstChunk = firstChunk;
      request.rangeStart = attributes.rangeStart;
    }
  }
}
