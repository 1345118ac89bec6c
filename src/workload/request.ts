/**
 * One client request as the workload hands it to the CDN. The record is reused from
 * request to request (no allocation per request): read it in the sink, do not keep it.
 */
export interface ClientRequest {
  /** Simulated time the client sends the request, in ms. */
  timeMs: number;
  /** Index into REGIONS of the client's region. */
  region: number;
  /** The client's place (index into the topology's client places), or −1 when the workload has none. */
  place: number;
  /** Dense object id. */
  objectId: number;
  /** Response body bytes: the whole object, or the window a range request asks for (spec 4.8). */
  sizeBytes: number;
  /** The whole object's bytes (equals sizeBytes for a request without Range). */
  objectBytes: number;
  /**
   * Cache key id of the first cache entry the request needs: the object, its variant (spec
   * 4.4, 4.5) or its first 5 MB chunk (4.8). The others follow as key + 1, key + 2, …
   */
  key: number;
  /** Cache entries the request needs: 1, or the chunks a range touches. */
  pieces: number;
  /** Chunk index of the first piece; −1 when the request is for the whole object. */
  firstChunk: number;
  /** First byte of the range (spec 4.8; the range is sizeBytes long); −1 for a whole-object request. */
  rangeStart: number;
  /** The client's slot in the population (its browser cache), or −1 for an anonymous client without one. */
  clientSlot: number;
  /** 1 when the client arrives for the first time (its browser cache is empty). */
  newClient: number;
  /** 1 when the client sends its query parameters in the other order (traffic.clients.queryReorderShare); 0 without a client. */
  queryReordered: number;
  /**
   * −1, or the key the client's browser files this URL under when that differs from `key`: a
   * browser cache is keyed by the exact URL, as the client spelled it, so a query in the
   * other parameter order, or with a tracking parameter the CDN's query handling leaves out,
   * is an entry of its own there, while the CDN sorts the parameters into `key` (spec 4.3.1)
   * and drops what its handling ignores. Read it through browserKeyOf.
   */
  otherSpellingKey: number;
}

/** The key of `request`'s URL in the client's browser cache (spec 4.9 layer 1: the exact URL; see otherSpellingKey). */
export function browserKeyOf(request: ClientRequest): number {
  return request.otherSpellingKey < 0 ? request.key : request.otherSpellingKey;
}

/** A whole-object request record with no client, for workloads and tests to fill. */
export function newClientRequest(): ClientRequest {
  return { timeMs: 0, region: 0, place: -1, objectId: 0, sizeBytes: 0, objectBytes: 0, key: 0, pieces: 1, firstChunk: -1, rangeStart: -1, clientSlot: -1, newClient: 0, queryReordered: 0, otherSpellingKey: -1 };
}

/** Fills a request for the whole of `objectId` from an anonymous client without a browser cache: its key is the object id. */
export function fillWholeObject(request: ClientRequest, objectId: number, sizeBytes: number): void {
  request.objectId = objectId;
  request.sizeBytes = sizeBytes;
  request.objectBytes = sizeBytes;
  request.key = objectId;
  request.pieces = 1;
  request.firstChunk = -1;
  request.rangeStart = -1;
  request.clientSlot = -1;
  request.newClient = 0;
  request.queryReordered = 0;
  request.otherSpellingKey = -1;
}

export type RequestSink = (request: ClientRequest) => void;
