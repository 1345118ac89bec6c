/**
 * Variant selection (spec 4.4 browser capability, spec 4.5 device class). The rules are data
 * so that a scenario can switch a variant off or change which extensions it applies to.
 * Pure: no I/O, no clock; the two small memo tables only cache deterministic results.
 */
import Negotiator from 'negotiator';
import Bowser from 'bowser';

export type ImageFormatVariant = 'avif-support' | 'no-avif-support';
export type DeviceClass = 'mobile' | 'desktop';

export interface VariantRules {
  // Extensions are lower case without the dot, as fileExtension returns them.
  /** spec 4.4: which requests get an `avif-support` / `no-avif-support` variant. */
  readonly imageFormat: { readonly enabled: boolean; readonly extensions: readonly string[] };
  /** spec 4.5: which requests get a `mobile` / `desktop` variant, and where tablets go. */
  readonly device: { readonly enabled: boolean; readonly extensions: readonly string[]; readonly tabletAs: DeviceClass };
}

/**
 * Raster formats from the spec 4.2 cacheable list that an image optimiser converts to AVIF or
 * JPEG (spec 4.3 "automatic format conversion", spec 4.4). cdnsim reading: svg/svg2 are
 * vectors (nothing to re-encode); ico, psd, ai, eps and pict are not served as page images.
 */
const RASTER_IMAGE_EXTENSIONS: readonly string[] = Object.freeze([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'avif',
  'bmp',
  'tif',
  'tiff',
  'heic',
]);

export const DEFAULT_VARIANT_RULES: VariantRules = Object.freeze({
  imageFormat: Object.freeze({ enabled: true, extensions: RASTER_IMAGE_EXTENSIONS }),
  // spec 4.5: "mobile-optimised images and CSS". cdnsim reading: "images" are the raster ones
  // above; svg is resolution-independent, so a mobile copy would be the same bytes.
  device: Object.freeze({
    enabled: true,
    extensions: Object.freeze([...RASTER_IMAGE_EXTENSIONS, 'css']),
    tabletAs: 'desktop' as const,
  }),
});

/**
 * spec 4.4: avif-support when the request's Accept "contains image/avif". cdnsim reading: the
 * type must be listed explicitly (any case, RFC 9110 §8.3.1) with q > 0; `image/*` or `*\/*`
 * do not count, because a wildcard says "send anything", not "I can decode AVIF" (browsers
 * that cannot decode AVIF send `image/*` too, spec 4.4 row 2), and `image/avif;q=0` is an
 * explicit refusal (RFC 9110 §12.4.2). Missing or unparsable Accept → no-avif-support.
 */
export function imageFormatVariant(accept: string | undefined): ImageFormatVariant {
  if (accept === undefined || accept === '') return 'no-avif-support';
  let variant = acceptMemo.get(accept);
  if (variant === undefined) {
    variant = listsAvif(accept) ? 'avif-support' : 'no-avif-support';
    remember(acceptMemo, accept, variant);
  }
  return variant;
}

function listsAvif(accept: string): boolean {
  // Cheap pre-check: without the substring there is nothing to find.
  if (!accept.toLowerCase().includes('image/avif')) return false;
  try {
    // mediaTypes() with no argument lists the types the client named with q > 0.
    const types = new Negotiator({ headers: { accept } }).mediaTypes();
    return types.some((type) => type.toLowerCase() === 'image/avif');
  } catch {
    return false;
  }
}

/**
 * spec 4.5: mobile User-Agents get mobile assets, desktop ones desktop assets; classification
 * is "not a stated contract", so cdnsim uses bowser's platform type. mobile → mobile;
 * tablet → `tabletAs`, default desktop (cdnsim reading: tablet screens are large and high-DPI,
 * and iPadOS Safari already sends a desktop Mac UA by default, so desktop keeps iPads
 * consistent); desktop, tv, bot, unknown, missing or unparsable → desktop. Never throws.
 */
export function deviceClass(userAgent: string | undefined, tabletAs: DeviceClass = 'desktop'): DeviceClass {
  const platform = devicePlatform(userAgent);
  if (platform === 'mobile') return 'mobile';
  if (platform === 'tablet') return tabletAs;
  return 'desktop';
}

/**
 * bowser's platform type in lower case (`mobile`, `tablet`, `desktop`, `tv`, `bot`), '' when
 * missing, blank or unrecognised. Exposed so that explanations can say "tablet". Never throws.
 */
export function devicePlatform(userAgent: string | undefined): string {
  // bowser throws on an empty UA; a blank one has nothing to classify anyway.
  if (userAgent === undefined || userAgent.trim() === '') return '';
  let platform = platformMemo.get(userAgent);
  if (platform === undefined) {
    try {
      const type = Bowser.getParser(userAgent).getPlatformType(true);
      // bowser answers the string 'undefined' when it recognises no platform.
      platform = KNOWN_PLATFORMS.has(type) ? type : '';
    } catch {
      platform = '';
    }
    remember(platformMemo, userAgent, platform);
  }
  return platform;
}

/**
 * Lower-case extension of the last path segment, '' when none. Anything from `?` or `#` on
 * is ignored; a leading dot alone (`.htaccess`) or a trailing dot is not an extension, as
 * with Node's path.extname.
 */
export function fileExtension(path: string): string {
  let end = path.length;
  for (let i = 0; i < path.length; i++) {
    const char = path.charCodeAt(i);
    if (char === 0x3f /* ? */ || char === 0x23 /* # */) {
      end = i;
      break;
    }
  }
  const segmentStart = path.lastIndexOf('/', end - 1) + 1;
  const dot = path.lastIndexOf('.', end - 1);
  if (dot <= segmentStart || dot === end - 1) return '';
  return path.slice(dot + 1, end).toLowerCase();
}

const KNOWN_PLATFORMS: ReadonlySet<string> = new Set(['mobile', 'tablet', 'desktop', 'tv', 'bot']);

// Parsing an Accept or User-Agent is the costly part of a key, and a workload repeats a few
// distinct values millions of times. Bounded so that adversarial inputs cannot grow memory.
const MEMO_LIMIT = 1024;
const acceptMemo = new Map<string, ImageFormatVariant>();
const platformMemo = new Map<string, string>();

function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}
