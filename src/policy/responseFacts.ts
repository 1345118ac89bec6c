import { formatCacheControl, parseCacheControl, parseDeltaSeconds, type CacheControl } from './cacheControl.js';
import { readCdnCacheControl, type CdnCacheControlReading } from './cdnCacheControl.js';
import { isSharedLayer, type CacheLayer } from './deployment.js';
import { splitList, type HeaderFields } from './headers.js';
import { parseHttpDate } from './httpDate.js';

/** An origin response as the engine sees it: status and header fields. */
export interface PolicyResponse {
  readonly status: number;
  readonly headers: HeaderFields;
}

/** A request as the engine sees it. `url` is absolute or origin-form (`/path?query`). */
export interface PolicyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderFields;
}

/** What a layer reads from a response's header fields, parsed once (spec 2.1; RFC 9111 §4.2, §5). */
export interface ResponseFacts {
  readonly status: number;
  /** The directives this layer obeys: CDN-Cache-Control when valid at a CDN layer, else Cache-Control (RFC 9213 §2.1). */
  readonly cacheControl: CacheControl;
  readonly directivesFrom: 'Cache-Control' | 'CDN-Cache-Control';
  readonly cdnCacheControl: CdnCacheControlReading;
  /** Expires as ms since the epoch; -Infinity when present but invalid ("already expired", RFC 9111 §5.3); undefined when absent or overridden. */
  readonly expiresMs?: number;
  readonly dateMs?: number;
  readonly lastModifiedMs?: number;
  /** Age in seconds (RFC 9111 §5.1, first member of a list); 0 when absent or invalid (an invalid Age is ignored). */
  readonly ageSeconds: number;
  readonly etag?: string;
  readonly hasSetCookie: boolean;
  /** Lower-case field names listed in Vary; contains "*" for `Vary: *`. */
  readonly vary: readonly string[];
  /** The media type without parameters, lower case, e.g. "text/html". */
  readonly mediaType?: string;
}

export function readResponseFacts(response: PolicyResponse, layer: CacheLayer, nowMs: number): ResponseFacts {
  const headers = response.headers;
  const cdnCacheControl = readCdnCacheControl(headers.get('cdn-cache-control'));
  const useCdnField = isSharedLayer(layer) && cdnCacheControl.status === 'valid';
  const expiresText = headers.get('expires');
  let expiresMs: number | undefined;
  if (expiresText !== undefined && !useCdnField) expiresMs = parseHttpDate(expiresText, nowMs) ?? -Infinity;
  const dateText = headers.get('date');
  const lastModifiedText = headers.get('last-modified');
  const contentType = headers.get('content-type');
  return {
    status: response.status,
    cacheControl: useCdnField ? cdnCacheControl.cacheControl : parseCacheControl(headers.get('cache-control')),
    directivesFrom: useCdnField ? 'CDN-Cache-Control' : 'Cache-Control',
    cdnCacheControl,
    expiresMs,
    dateMs: dateText === undefined ? undefined : parseHttpDate(dateText, nowMs),
    lastModifiedMs: lastModifiedText === undefined ? undefined : parseHttpDate(lastModifiedText, nowMs),
    ageSeconds: readAge(headers.get('age')),
    etag: headers.get('etag'),
    hasSetCookie: headers.has('set-cookie'),
    vary: splitList(headers.get('vary') ?? '').map((name) => name.toLowerCase()),
    mediaType: contentType?.split(';')[0].trim().toLowerCase() || undefined,
  };
}

/**
 * RFC 9111 §5.1: a list-valued Age uses its first member, and "if the field value (after
 * discarding additional members …) is invalid (e.g., it contains something other than a
 * non-negative integer), a cache SHOULD ignore the field": 0, as when it is absent.
 */
export function readAge(value: string | undefined): number {
  if (value === undefined) return 0;
  const first = splitList(value)[0];
  if (first === undefined) return 0;
  return parseDeltaSeconds(first) ?? 0;
}

/** The cache directives a layer obeys, in canonical form, and which field they came from (RFC 9213 §2.1). */
export function directivesInForce(response: PolicyResponse, layer: CacheLayer, nowMs: number): { from: ResponseFacts['directivesFrom']; value: string } {
  const facts = readResponseFacts(response, layer, nowMs);
  return { from: facts.directivesFrom, value: formatCacheControl(facts.cacheControl) };
}
