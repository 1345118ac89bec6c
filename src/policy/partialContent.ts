import type { HeaderFields } from './headers.js';
import { parseHttpDate } from './httpDate.js';
import { CHUNK_SIZE_BYTES, parseRangeHeader, resolveRange, type ByteRangeSpec } from './ranges.js';

/**
 * Partial content in a cache (RFC 9111 §3.3, §3.4; RFC 9110 §14, §15.3.7): what a stored
 * response holds of its representation, how a Range request is answered from it, what to ask
 * upstream when it is not enough, and how a new 206 combines with it. Pure: header fields and
 * bodies in, values out.
 *
 * Bodies are strings whose characters stand for bytes (as the header-level node and the
 * conformance origin exchange them), so a byte position is a string index.
 */

/** A `Content-Range` field (RFC 9110 §14.4): bytes first..last (inclusive) of completeLength (undefined for `*`). */
export interface ContentRange {
  readonly first: number;
  readonly last: number;
  readonly completeLength: number | undefined;
}

const CONTENT_RANGE = /^bytes[ \t]+(\d+)-(\d+)\/(\d+|\*)$/i;

/**
 * RFC 9110 §14.4 `bytes first-last/complete` (complete may be `*`). undefined for anything else,
 * including the unsatisfied form of a 416 (an asterisk for the range), a last before first, or a last at or past a known
 * complete length (the field is then invalid, §14.4).
 */
export function parseContentRange(value: string | undefined): ContentRange | undefined {
  if (value === undefined) return undefined;
  const match = CONTENT_RANGE.exec(value.trim());
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = Number(match[2]);
  const completeLength = match[3] === '*' ? undefined : Number(match[3]);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) return undefined;
  if (completeLength !== undefined && (!Number.isSafeInteger(completeLength) || last >= completeLength)) return undefined;
  return { first, last, completeLength };
}

/** Bytes first, first+1, … of the representation, held contiguously. */
export interface ContentPiece {
  readonly first: number;
  readonly bytes: string;
}

/**
 * What a cache holds of one representation: a complete body (one piece at 0 of completeLength
 * bytes) or, from 206 responses, sorted, disjoint, non-adjacent pieces.
 */
export interface StoredContent {
  readonly completeLength: number | undefined;
  readonly pieces: readonly ContentPiece[];
}

/**
 * The content a response carries: a 200 is the complete representation; a 206 with one
 * Content-Range is a piece of it. A 206 whose body is shorter than its Content-Range says is
 * incomplete (RFC 9111 §3.3): only the bytes that arrived are kept, from `first` on. A
 * multipart/byteranges 206 (no Content-Range) and other statuses carry no storable content here.
 */
export function contentOf(status: number, headers: HeaderFields, body: string): StoredContent | undefined {
  if (status === 200) return { completeLength: body.length, pieces: body.length ? [{ first: 0, bytes: body }] : [] };
  if (status !== 206) return undefined;
  const range = parseContentRange(headers.get('content-range'));
  if (!range) return undefined;
  const bytes = body.slice(0, range.last - range.first + 1);
  return { completeLength: range.completeLength, pieces: bytes.length ? [{ first: range.first, bytes }] : [] };
}

export function isComplete(content: StoredContent): boolean {
  if (content.completeLength === undefined) return false;
  if (content.completeLength === 0) return true;
  return content.pieces.length === 1 && content.pieces[0].first === 0 && content.pieces[0].bytes.length === content.completeLength;
}

/** Bytes first..last (inclusive) when every one of them is held; undefined otherwise. */
export function heldBytes(content: StoredContent, first: number, last: number): string | undefined {
  for (const piece of content.pieces) {
    if (piece.first <= first && last < piece.first + piece.bytes.length) return piece.bytes.slice(first - piece.first, last - piece.first + 1);
  }
  return undefined;
}

/**
 * A strong validator both responses carry, so their parts may be combined (RFC 9111 §3.4,
 * RFC 9110 §15.3.7.3): the same ETag, not weak (RFC 9110 §8.8.3). cdnsim reading: Last-Modified
 * is not taken as strong (RFC 9110 §8.8.2.2 makes that depend on timing a cache cannot check).
 */
export function sharedStrongValidator(stored: HeaderFields, incoming: HeaderFields): string | undefined {
  const etag = strongValidator(stored);
  return etag !== undefined && incoming.get('etag') === etag ? etag : undefined;
}

/** A response's strong validator: its ETag unless weak (RFC 9110 §8.8.3). */
export function strongValidator(headers: HeaderFields): string | undefined {
  const etag = headers.get('etag');
  return etag === undefined || etag.startsWith('W/') ? undefined : etag;
}

/**
 * The stored content after a new response's content arrives (RFC 9111 §3.4): the union of
 * both when they may be combined (a shared strong validator and the same complete length),
 * the new bytes winning where they overlap; otherwise the new content alone.
 */
export function combineContent(stored: StoredContent | undefined, incoming: StoredContent, mayCombine: boolean): StoredContent {
  if (!stored || !mayCombine || isComplete(incoming)) return incoming;
  const completeLength = incoming.completeLength ?? stored.completeLength;
  if (stored.completeLength !== undefined && incoming.completeLength !== undefined && stored.completeLength !== incoming.completeLength) return incoming;
  const pieces = [...stored.pieces.flatMap((piece) => incoming.pieces.flatMap((newer) => outside(piece, newer))), ...incoming.pieces];
  pieces.sort((a, b) => a.first - b.first);
  const merged: ContentPiece[] = [];
  for (const piece of pieces) {
    const previous = merged[merged.length - 1];
    if (previous && previous.first + previous.bytes.length === piece.first) merged[merged.length - 1] = { first: previous.first, bytes: previous.bytes + piece.bytes };
    else merged.push(piece);
  }
  return { completeLength, pieces: merged };
}

/** The parts of `piece` that `newer` does not cover (zero, one or two pieces). */
function outside(piece: ContentPiece, newer: ContentPiece): ContentPiece[] {
  const end = piece.first + piece.bytes.length;
  const newerEnd = newer.first + newer.bytes.length;
  if (newerEnd <= piece.first || end <= newer.first) return [piece];
  const parts: ContentPiece[] = [];
  if (piece.first < newer.first) parts.push({ first: piece.first, bytes: piece.bytes.slice(0, newer.first - piece.first) });
  if (newerEnd < end) parts.push({ first: newerEnd, bytes: piece.bytes.slice(newerEnd - piece.first) });
  return parts;
}

/** The fields of a combined or completed response: the newest response's, without its Content-Range (RFC 9111 §3.4). */
export function combinedHeaderFields(newest: HeaderFields, content: StoredContent): Map<string, string> {
  const fields = new Map(newest);
  fields.delete('content-range');
  if (isComplete(content)) fields.set('content-length', String(content.completeLength));
  return fields;
}

/**
 * How a GET is answered from stored content (RFC 9111 §3.3, §4; RFC 9110 §14.2, §13.1.5):
 * - `whole`: the stored response as it is (no Range, a Range the cache ignores, or an If-Range
 *   that does not match); needs complete content, else `fetch`;
 * - `partial`: a 206 with one range, all of whose bytes are held;
 * - `unsatisfiable`: a 416, when the complete length is known and no range overlaps it;
 * - `fetch`: the content cannot answer; ask upstream with `range` (undefined: the whole
 *   representation) and `ifRange`, and combine the answer with what is held when `combine`.
 */
export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'partial'; readonly first: number; readonly last: number; readonly bytes: string; readonly contentRange: string }
  | { readonly kind: 'unsatisfiable'; readonly contentRange: string }
  | { readonly kind: 'fetch'; readonly range: string | undefined; readonly ifRange: string | undefined; readonly combine: boolean };

export interface StoredRepresentation {
  readonly headers: HeaderFields;
  readonly content: StoredContent;
}

export interface RangeOptions {
  /**
   * spec 4.8: a shared (CDN) cache fills whole chunks of this many bytes, so a range request
   * that misses asks upstream for the missing bytes of every chunk it touches. undefined: the
   * missing bytes alone (a browser).
   */
  readonly chunkBytes?: number;
}

export const CDN_RANGE_OPTIONS: RangeOptions = { chunkBytes: CHUNK_SIZE_BYTES };

/**
 * RFC 9110 §13.1.5: the Range of a request with If-Range applies only when the validator matches
 * the stored representation (an entity-tag by strong comparison; a date exactly equal to a
 * Last-Modified, which RFC 9110 allows only when that date is strong; cdnsim accepts equality).
 */
export function ifRangeMatches(ifRange: string | undefined, stored: HeaderFields, nowMs: number): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    const etag = stored.get('etag');
    return etag !== undefined && !value.startsWith('W/') && !etag.startsWith('W/') && etag === value;
  }
  const lastModified = stored.get('last-modified');
  const since = parseHttpDate(value, nowMs);
  return lastModified !== undefined && since !== undefined && parseHttpDate(lastModified, nowMs) === since;
}

/** The single range a request asks for, or undefined when the cache answers it whole. */
function requestedRange(method: string, requestHeaders: HeaderFields, stored: HeaderFields | undefined, nowMs: number): ByteRangeSpec | undefined {
  if (method.toUpperCase() !== 'GET') return undefined; // RFC 9110 §14.2: Range is for GET only
  const specs = parseRangeHeader(requestHeaders.get('range') ?? '');
  // RFC 9110 §14.2: a server MAY ignore Range; several ranges are served as the whole
  // representation rather than multipart/byteranges.
  if (!specs || specs.length !== 1) return undefined;
  if (stored && !ifRangeMatches(requestHeaders.get('if-range'), stored, nowMs)) return undefined;
  return specs[0];
}

/**
 * How to answer `request` from `stored` (undefined: nothing stored) — see RangeAnswer. The
 * `fetch` range is lined up with spec 4.8's chunks when `options.chunkBytes` is set.
 */
export function answerRange(
  request: { readonly method: string; readonly headers: HeaderFields },
  stored: StoredRepresentation | undefined,
  nowMs: number,
  options: RangeOptions = {},
): RangeAnswer {
  const spec = requestedRange(request.method, request.headers, stored?.headers, nowMs);
  const content = stored?.content;
  if (spec === undefined) {
    if (content && isComplete(content)) return { kind: 'whole' };
    return content && request.method.toUpperCase() === 'GET' ? completionFetch(content, stored!.headers) : { kind: 'fetch', range: undefined, ifRange: undefined, combine: false };
  }
  const length = content?.completeLength;
  if (content && length !== undefined) {
    const resolved = resolveRange(spec, length);
    if (!resolved) return length === 0 ? { kind: 'whole' } : { kind: 'unsatisfiable', contentRange: `bytes */${length}` };
    const bytes = heldBytes(content, resolved.first, resolved.last);
    if (bytes !== undefined) return { kind: 'partial', ...resolved, bytes, contentRange: `bytes ${resolved.first}-${resolved.last}/${length}` };
    const validator = strongValidator(stored!.headers);
    if (validator !== undefined) {
      const chunk = options.chunkBytes;
      const first = chunk ? Math.floor(resolved.first / chunk) * chunk : resolved.first;
      const last = chunk ? Math.min(length - 1, Math.floor(resolved.last / chunk) * chunk + chunk - 1) : resolved.last;
      return { kind: 'fetch', range: missingRange(content, first, last), ifRange: validator, combine: true };
    }
  }
  return { kind: 'fetch', range: alignedRange(spec, options.chunkBytes), ifRange: undefined, combine: false };
}

/** Completing stored partial content for a whole-representation request: its missing bytes, when the parts may be combined. */
function completionFetch(content: StoredContent, headers: HeaderFields): RangeAnswer {
  const validator = strongValidator(headers);
  if (validator === undefined || content.completeLength === undefined) return { kind: 'fetch', range: undefined, ifRange: undefined, combine: false };
  return { kind: 'fetch', range: missingRange(content, 0, content.completeLength - 1), ifRange: validator, combine: true };
}

/**
 * One `bytes=` range covering every byte of first..last that is not held (so the answer is a
 * single part); open-ended when it reaches the end of the representation.
 */
function missingRange(content: StoredContent, first: number, last: number): string {
  let from = first;
  let to = last;
  for (const piece of content.pieces) {
    const end = piece.first + piece.bytes.length - 1;
    if (piece.first <= from && from <= end) from = end + 1;
  }
  for (const piece of [...content.pieces].reverse()) {
    const end = piece.first + piece.bytes.length - 1;
    if (piece.first <= to && to <= end) to = piece.first - 1;
  }
  return to === (content.completeLength ?? Infinity) - 1 ? `bytes=${from}-` : `bytes=${from}-${to}`;
}

/** spec 4.8: the client's range widened to whole chunks; a suffix range (size unknown) is asked as it is. */
function alignedRange(spec: ByteRangeSpec, chunkBytes: number | undefined): string {
  switch (spec.kind) {
    case 'suffix':
      return `bytes=-${spec.length}`;
    case 'open':
      return `bytes=${chunkBytes ? Math.floor(spec.first / chunkBytes) * chunkBytes : spec.first}-`;
    case 'closed': {
      if (!chunkBytes) return `bytes=${spec.first}-${spec.last}`;
      const first = Math.floor(spec.first / chunkBytes) * chunkBytes;
      const last = Math.floor(spec.last / chunkBytes) * chunkBytes + chunkBytes - 1;
      return `bytes=${first}-${last}`;
    }
  }
}

/** The fields of a 206 served from stored content (RFC 9110 §15.3.7): the stored ones with this part's Content-Range and length. */
export function partialResponseHeaders(stored: HeaderFields, contentRange: string, bytes: number): Map<string, string> {
  const fields = new Map(stored);
  fields.set('content-range', contentRange);
  fields.set('content-length', String(bytes));
  return fields;
}

/** The fields of a 416 from stored content (RFC 9110 §15.5.17): a Content-Range naming only the complete length, no content. */
export function unsatisfiableResponseHeaders(stored: HeaderFields, contentRange: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const name of ['date', 'age', 'etag', 'last-modified', 'cache-control', 'vary']) {
    const value = stored.get(name);
    if (value !== undefined) fields.set(name, value);
  }
  fields.set('content-range', contentRange);
  fields.set('content-length', '0');
  return fields;
}
