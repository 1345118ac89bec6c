/**
 * The cache key (spec 2.3): request path, query string after parameter sorting (spec 4.3.1),
 * and the variants chosen by capability detection (spec 4.4) and device class (spec 4.5).
 * Pure: no I/O, no clock.
 */
import { headerValue, type HeaderFields } from './headers.js';
import { reason, type PolicyReason } from './reason.js';
import {
  DEFAULT_VARIANT_RULES,
  deviceClass,
  devicePlatform,
  fileExtension,
  imageFormatVariant,
  type DeviceClass,
  type ImageFormatVariant,
  type VariantRules,
} from './variants.js';

export interface CacheKeyRequest {
  /** Absolute (`https://host/p?q`) or origin-form (`/p?q`) request target. */
  readonly url: string;
  readonly headers: HeaderFields;
}

export interface CacheKey {
  /** path [`?` sorted query] [`:avif-support`|`:no-avif-support`] [`:mobile`|`:desktop`] */
  readonly key: string;
  /**
   * The key without its variant suffixes: path (`:` written %3A) [`?` sorted query]. Every
   * variant of one URL shares it, so it names the resource: requests that differ only in
   * parameter order (spec 4.3.1) or in variant inputs (4.4, 4.5) have one urlKey.
   */
  readonly urlKey: string;
  /** The path as requested (no normalisation beyond `/` for an empty one). */
  readonly path: string;
  /** The normalised query without `?`, '' when none. */
  readonly query: string;
  readonly imageFormat?: ImageFormatVariant;
  readonly device?: DeviceClass;
  readonly reasons: readonly PolicyReason[];
}

/**
 * spec 4.3.1: "query parameters are sorted", so requests that differ only in parameter order
 * share one key; values still matter. cdnsim readings:
 * - segments are split on `&` only and empty ones dropped (application/x-www-form-urlencoded,
 *   WHATWG URL §5.1);
 * - sorted by parameter name in UTF-16 code-unit order, as URLSearchParams.sort() does; names
 *   are compared after form-decoding (`+` → space, percent escapes; raw on a bad escape), so
 *   `%61` and `a` are the same parameter;
 * - the sort is stable: repeated names keep their order, since `a=1&a=2` is commonly an ordered
 *   list and may mean something other than `a=2&a=1`;
 * - each `name=value` segment is kept byte-for-byte, so `a=%20` and `a=+` stay distinct.
 * Never throws.
 */
export function normaliseQuery(query: string): string {
  if (query === '') return '';
  const segments = query.split('&');
  if (segments.length === 1) return query;
  const entries: { name: string; segment: string; index: number }[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '') continue;
    entries.push({ name: queryParameterName(segment), segment, index: i });
  }
  // Array.prototype.sort is stable (ES2019); the index tie-break only documents the intent.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index));
  let result = '';
  for (let i = 0; i < entries.length; i++) result += i === 0 ? entries[i].segment : `&${entries[i].segment}`;
  return result;
}

/** The name of one `name=value` query segment as 4.3.1's sort compares it: form-decoded (`+` → space, percent escapes), raw on a bad escape. */
export function queryParameterName(segment: string): string {
  const equals = segment.indexOf('=');
  const raw = equals === -1 ? segment : segment.slice(0, equals);
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // malformed escape: compare the bytes as sent
  }
}

/**
 * The key for one request. cdnsim reading: the host is not part of the key, because the
 * service puts one CDN in front of each deployment (spec 1, 1.2), so one key space serves one
 * host; the fragment is never sent to a server (RFC 9110 §7.1) and is dropped.
 */
export function cacheKey(request: CacheKeyRequest, rules: VariantRules = DEFAULT_VARIANT_RULES): CacheKey {
  const reasons: PolicyReason[] = [];
  const target = splitTarget(request.url);
  if (target.hadAuthority) {
    reasons.push(reason('cdnsim reading: one deployment = one host', 'the host is not part of the cache key'));
  }

  const query = normaliseQuery(target.rawQuery);
  if (query !== target.rawQuery) {
    reasons.push(
      reason('spec 4.3.1', `query parameters sorted by name (empty ones dropped): "${target.rawQuery}" → "${query}"`),
    );
  }

  // ':' marks the variant suffixes (spec 2.3 `<image_name>:avif-support`). A raw ':' is legal in
  // a path segment (RFC 3986 §3.3), so the key writes it as %3A: otherwise a path ending in
  // `.css:mobile` would share a key with `.css` + the mobile variant. cdnsim reading: origins
  // decode `:` and `%3A` in a path segment alike.
  let keyPath = target.path;
  if (keyPath.includes(':')) {
    keyPath = keyPath.replace(/:/g, '%3A');
    reasons.push(reason('cdnsim reading: ":" marks variants (spec 2.3)', 'a ":" in the path is written %3A in the key'));
  }
  const urlKey = query === '' ? keyPath : `${keyPath}?${query}`;
  let key = urlKey;

  const extension = fileExtension(target.path);
  let imageFormat: ImageFormatVariant | undefined;
  let device: DeviceClass | undefined;

  if (rules.imageFormat.enabled && extension !== '' && rules.imageFormat.extensions.includes(extension)) {
    const accept = headerValue(request.headers, 'accept');
    imageFormat = imageFormatVariant(accept);
    key += `:${imageFormat}`;
    reasons.push(
      reason(
        'spec 4.4',
        imageFormat === 'avif-support'
          ? `.${extension} image and Accept lists image/avif → avif-support variant`
          : `.${extension} image and Accept ${accept === undefined ? 'is missing' : 'does not list image/avif with q>0'} → no-avif-support variant`,
      ),
    );
  }

  if (rules.device.enabled && extension !== '' && rules.device.extensions.includes(extension)) {
    const userAgent = headerValue(request.headers, 'user-agent');
    device = deviceClass(userAgent, rules.device.tabletAs);
    key += `:${device}`;
    const platform = devicePlatform(userAgent);
    const seen = userAgent === undefined ? 'no User-Agent' : `User-Agent platform ${platform === '' ? 'unrecognised' : platform}`;
    reasons.push(
      platform === 'tablet'
        ? reason('spec 4.5; cdnsim reading: tablets follow rules.device.tabletAs', `.${extension} asset, ${seen} → ${device} variant`)
        : reason('spec 4.5', `.${extension} asset, ${seen} → ${device} variant`),
    );
  }

  return {
    key,
    urlKey,
    path: target.path,
    query,
    ...(imageFormat === undefined ? {} : { imageFormat }),
    ...(device === undefined ? {} : { device }),
    reasons,
  };
}

/**
 * True only when `cacheKey({ url }).urlKey` is the target itself, for a target given as its
 * UTF-8 bytes `bytes[start, end)`: origin-form (starts with `/`), no fragment, no `:` in the
 * path, and a query that sorting leaves as it is (none, or one non-empty parameter). A quick
 * byte scan (the delimiters are ASCII, never part of a multi-byte character), so that code
 * interning many targets (trace readers) builds the key only for the others; false says
 * nothing (the key may still equal the target).
 */
export function isOwnUrlKey(bytes: Uint8Array, start: number, end: number): boolean {
  if (end <= start || bytes[start] !== SLASH) return false;
  let inQuery = false;
  for (let i = start + 1; i < end; i++) {
    const c = bytes[i];
    if (c === HASH) return false;
    if (inQuery) {
      if (c === AMPERSAND) return false;
    } else if (c === QUESTION) {
      if (i === end - 1) return false; // `/p?`: the empty query is dropped
      inQuery = true;
    } else if (c === COLON) return false;
  }
  return true;
}

const SLASH = 0x2f;
const HASH = 0x23;
const AMPERSAND = 0x26;
const QUESTION = 0x3f;
const COLON = 0x3a;

interface Target {
  readonly path: string;
  readonly rawQuery: string;
  readonly hadAuthority: boolean;
}

const ABSOLUTE_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * Splits absolute-form or origin-form (RFC 9112 §3.2) into path and raw query. `//x` in
 * origin-form is a path, not an authority. An empty path is `/` (RFC 9110 §4.2.3); a path
 * that does not start with `/` gets one, so `p` and `/p` share a key.
 */
function splitTarget(url: string): Target {
  let rest = url;
  let hadAuthority = false;
  const absolute = ABSOLUTE_PREFIX.exec(url);
  if (absolute !== null) {
    rest = url.slice(absolute[0].length);
    hadAuthority = true;
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const question = rest.indexOf('?');
  let path = question === -1 ? rest : rest.slice(0, question);
  const rawQuery = question === -1 ? '' : rest.slice(question + 1);
  if (path === '') path = '/';
  else if (path[0] !== '/') path = `/${path}`;
  return { path, rawQuery, hadAuthority };
}
