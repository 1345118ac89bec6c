import { splitList, type HeaderFields } from './headers.js';
import { parseHttpDate } from './httpDate.js';
import { reason, type PolicyReason } from './reason.js';

/**
 * Conditional request headers from a stored response's validators (RFC 9111 §4.3.1):
 * If-None-Match from its ETag, If-Modified-Since from its Last-Modified.
 */
export function conditionalRequestHeaders(stored: HeaderFields): Map<string, string> {
  const conditional = new Map<string, string>();
  const etag = stored.get('etag');
  if (etag !== undefined) conditional.set('if-none-match', etag);
  const lastModified = stored.get('last-modified');
  if (lastModified !== undefined) conditional.set('if-modified-since', lastModified);
  return conditional;
}

export function hasValidator(stored: HeaderFields): boolean {
  return stored.has('etag') || stored.has('last-modified');
}

/**
 * Never stored (RFC 9111 §3.1): the hop-by-hop fields (RFC 9110 §7.6.1), and the fields
 * specific to the proxy a cache forwards through, "effectively … Proxy-Authenticate,
 * Proxy-Authentication-Info, and Proxy-Authorization" (RFC 9110 §11.7).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authentication-info',
  'proxy-authorization',
]);

/**
 * The header fields a cache keeps (RFC 9111 §3.1): without hop-by-hop fields, fields named
 * in Connection, and at a shared cache the fields named by qualified `private="…"` or
 * `no-cache="…"` (RFC 9111 §5.2.2.4, §5.2.2.7).
 */
export function storedHeaderFields(fields: HeaderFields, excluded: readonly string[] = []): Map<string, string> {
  const drop = new Set([...HOP_BY_HOP, ...excluded.map((name) => name.toLowerCase())]);
  for (const name of splitList(fields.get('connection') ?? '')) drop.add(name.toLowerCase());
  const kept = new Map<string, string>();
  for (const [name, value] of fields) if (!drop.has(name)) kept.set(name, value);
  return kept;
}

/**
 * Does a 304 (or a HEAD response) refresh this stored response (RFC 9111 §4.3.4)? When the
 * 304 carries an ETag it must match the stored one; with only Last-Modified, that must
 * match; with neither, only a stored response that also lacks a validator is selected.
 */
export function notModifiedSelects(stored: HeaderFields, notModified: HeaderFields): boolean {
  const etag = notModified.get('etag');
  if (etag !== undefined) return stored.get('etag') === etag;
  const lastModified = notModified.get('last-modified');
  if (lastModified !== undefined) return stored.get('last-modified') === lastModified;
  return !hasValidator(stored);
}

/**
 * Fields that describe the stored content bytes themselves, so a 304 never changes them
 * (RFC 9111 §3.2): Content-Length (excepted by name); Content-Encoding, whose update "would
 * be problematic" because the stored bytes keep their coding; Content-Range, which the
 * recipient may ignore in a 304; and Content-MD5, a digest of the stored bytes (RFC 1864).
 * Updating any of them would leave the stored response contradicting its own content.
 */
const CONTENT_DESCRIBING_FIELDS = new Set(['content-length', 'content-encoding', 'content-range', 'content-md5']);

/**
 * The stored fields updated from a 304 (RFC 9111 §3.2, §4.3.4): every field of the 304
 * replaces the stored one, except the fields that describe the stored bytes and the fields
 * never stored.
 */
export function mergeNotModified(stored: HeaderFields, notModified: HeaderFields): Map<string, string> {
  const merged = new Map(stored);
  for (const [name, value] of storedHeaderFields(notModified)) {
    if (CONTENT_DESCRIBING_FIELDS.has(name)) continue;
    merged.set(name, value);
  }
  return merged;
}

/** Unsafe methods (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Which URLs an unsafe request invalidates (RFC 9111 §4.4): a non-error response (2xx, 3xx)
 * to an unsafe method invalidates the target URI, and the Location and Content-Location
 * URIs when they share its origin.
 */
export function invalidatedUrls(method: string, targetUrl: string, status: number, responseHeaders: HeaderFields): { urls: string[]; reasons: PolicyReason[] } {
  if (SAFE_METHODS.has(method.toUpperCase()) || status < 200 || status >= 400) return { urls: [], reasons: [] };
  const base = new URL(targetUrl, 'http://cdnsim.invalid');
  const urls = [base.href];
  for (const field of ['location', 'content-location']) {
    const value = responseHeaders.get(field);
    if (value === undefined) continue;
    try {
      const resolved = new URL(value, base);
      if (resolved.origin === base.origin) urls.push(resolved.href);
    } catch {
      // An unparsable Location names nothing to invalidate.
    }
  }
  return { urls, reasons: [reason('RFC 9111 §4.4', `${method.toUpperCase()} with status ${status} invalidates ${urls.length} stored URL(s)`)] };
}

/**
 * Whether a conditional request matches a response (a cache's stored one, or an origin's):
 * If-None-Match first, by weak comparison (RFC 9110 §13.1.2), else If-Modified-Since
 * (§13.1.3). A match is answered 304. `receivedAtMs` is given by a cache for its stored
 * response: without Last-Modified, If-Modified-Since is then evaluated against the stored Date,
 * or without one the time it was received (RFC 9111 §4.3.2).
 */
export function conditionalRequestMatches(request: HeaderFields, stored: HeaderFields, nowMs: number, receivedAtMs?: number): boolean {
  const ifNoneMatch = request.get('if-none-match');
  if (ifNoneMatch !== undefined) {
    const etag = stored.get('etag');
    if (etag === undefined) return false;
    const weak = (tag: string): string => tag.replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || splitList(ifNoneMatch).some((tag) => weak(tag) === weak(etag));
  }
  const ifModifiedSince = request.get('if-modified-since');
  if (ifModifiedSince === undefined) return false;
  // RFC 9110 §5.6.7: an RFC 850 two-digit year is read relative to now, not to 1970.
  const since = parseHttpDate(ifModifiedSince, nowMs);
  const modified = lastModifiedForCondition(stored, nowMs, receivedAtMs);
  return since !== undefined && modified !== undefined && modified <= since;
}

function lastModifiedForCondition(stored: HeaderFields, nowMs: number, receivedAtMs: number | undefined): number | undefined {
  const lastModified = stored.get('last-modified');
  if (lastModified !== undefined) return parseHttpDate(lastModified, nowMs);
  if (receivedAtMs === undefined) return undefined;
  const date = stored.get('date');
  return date === undefined ? receivedAtMs : parseHttpDate(date, nowMs);
}

/**
 * What a 200 response to a HEAD does to a stored GET response that could have answered it
 * (RFC 9111 §4.3.5): `update` its fields (as a 304 does, RFC 9111 §3.2) when every validator
 * the HEAD response carries (ETag, Last-Modified) matches the stored one and its Content-Length,
 * when present, matches the stored length; otherwise the stored response is to be considered
 * `stale`. Any other status leaves it alone (`none`).
 */
export type HeadUpdate = { readonly kind: 'update'; readonly headers: Map<string, string> } | { readonly kind: 'stale' } | { readonly kind: 'none' };

export function updateFromHead(stored: { readonly headers: HeaderFields; readonly length: number }, head: { readonly status: number; readonly headers: HeaderFields }): HeadUpdate {
  if (head.status !== 200) return { kind: 'none' };
  for (const validator of ['etag', 'last-modified']) {
    const received = head.headers.get(validator);
    if (received !== undefined && stored.headers.get(validator) !== received) return { kind: 'stale' };
  }
  const length = head.headers.get('content-length');
  if (length !== undefined && length.trim() !== String(stored.length)) return { kind: 'stale' };
  return { kind: 'update', headers: mergeNotModified(stored.headers, head.headers) };
}
