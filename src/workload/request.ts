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
  /** Dense object id (also the cache key id while there are no variants). */
  objectId: number;
  /** Response body size in bytes. */
  sizeBytes: number;
}

export type RequestSink = (request: ClientRequest) => void;
