/**
 * What the engine needs to know about the deployment behind the CDN (spec 1.3) and the
 * layer asking (spec 4.9), plus the tunable numbers the spec leaves open.
 */

/** spec 1.3: full-stack framework deployment, static site generation, container. */
export type DeploymentKind = 'full-stack' | 'static' | 'container';
export const DEPLOYMENT_KINDS: readonly DeploymentKind[] = ['full-stack', 'static', 'container'];

export interface Deployment {
  readonly kind: DeploymentKind;
  /** The framework's path segment without the underscore (spec 4.3: `/_<framework>/static/*`), e.g. "next". */
  readonly framework: string;
  /** spec 1.3: the CDN may be disabled for a container deployment; then edge and regional store nothing. */
  readonly cdnEnabled: boolean;
}

export const DEFAULT_DEPLOYMENT: Deployment = { kind: 'full-stack', framework: 'next', cdnEnabled: true };

/** spec 4.9: browser cache, edge PoP cache, regional cache (the origin does not cache). */
export type CacheLayer = 'browser' | 'edge' | 'regional';
export const CACHE_LAYERS: readonly CacheLayer[] = ['browser', 'edge', 'regional'];

/** RFC 9111 §1: edge and regional caches serve many users (shared); a browser cache serves one (private). */
export function isSharedLayer(layer: CacheLayer): boolean {
  return layer !== 'browser';
}

/** spec 4.2: extensions a full-stack deployment caches without headers (listed as the spec gives them). */
export const CACHEABLE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    '3g2 3gp 7z ai asf avi avif apk bin bat bmp bz2 class css csv dat doc docx dll dmg ejs eot eps exe flac flv heic ' +
    'gif gz ico iso jar jpg jpeg js m3u8 m4u mid midi mkv mp3 mp4 mpa mpg odt ogg otf pdf pict pls png ppt pptx ps psd ' +
    'rar srt svg svg2 swf tar tif tiff ttf vob webm webp woff woff2 wav wma xls xlsx zip zst ts txt yuv'
  ).split(' '),
);

/** spec 4.2: MIME types a full-stack deployment does not cache by default. */
export const UNCACHED_MIME_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/json', 'application/xml']);

/** The numbers the spec states or leaves open; every one has a documented default. */
export interface PolicyOptions {
  /** spec 7.1: statuses cached briefly when the origin fails. 500 is stated; others are not promised. */
  readonly errorCachingStatuses: readonly number[];
  /** spec 7.1 / spec 8: "Error response cache time 5 seconds". */
  readonly errorCachingSeconds: number;
  /**
   * spec 4.7 serves the last known good version while the origin is unreachable but states
   * no limit; cdnsim caps it (default one day, the spec's own stale-while-revalidate figure
   * of 4.3). A response's `stale-if-error` sets its own window instead (RFC 5861 §4).
   */
  readonly staleIfUnreachableSeconds: number;
  /** DESIGN: heuristic freshness is this fraction of (Date − Last-Modified) (RFC 9111 §4.2.2 suggests 10 %)… */
  readonly heuristicFraction: number;
  /** …capped at this many seconds (DESIGN: 24 h). */
  readonly heuristicCapSeconds: number;
  /**
   * spec 4.1.3: a static build caches everything; without Cache-Control/Expires and without
   * Last-Modified to derive a heuristic from, cdnsim uses the spec's static page lifetime
   * (spec 8: 3600 s).
   */
  readonly staticSiteDefaultSeconds: number;
  /** spec 4.1.4: "aggressive caching" of static assets without headers; the spec's long lifetime (spec 8: 1 year). */
  readonly staticAssetDefaultSeconds: number;
}

export const DEFAULT_POLICY_OPTIONS: PolicyOptions = {
  errorCachingStatuses: [500],
  errorCachingSeconds: 5,
  staleIfUnreachableSeconds: 86_400,
  heuristicFraction: 0.1,
  heuristicCapSeconds: 86_400,
  staticSiteDefaultSeconds: 3_600,
  staticAssetDefaultSeconds: 31_536_000,
};
