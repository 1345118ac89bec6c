import type { Deployment, DeploymentKind } from '../../policy/deployment.js';
import type { QuerySpec } from './querySchema.js';
import type { ClassTrafficModel } from '../trafficModels/modelTraffic.js';
import { HEADER_PROFILES, frameworkProfileForPath, profileWithOverrides, type HeaderProfile, type PageRendering } from '../../policy/profiles.js';

/**
 * Content classes (DESIGN "Vocabulary": the origin's content, grouped by how it is named,
 * sized, requested and cached): the resolved shape the catalogue and churn use, the named
 * presets with their documented defaults, the default "typical site" mix, and which header
 * profile a class gets under each deployment kind (spec 1.3).
 *
 * Sources for the defaults. Figures marked "approx." are recalled from the source, not
 * re-checked against it; treat them as plausible orders of magnitude, not citations.
 * - [Breslau99] L. Breslau, P. Cao, L. Fan, G. Phillips, S. Shenker, "Web caching and
 *   Zipf-like distributions: evidence and implications", IEEE INFOCOM 1999: request
 *   popularity in six proxy traces fits Zipf with exponents 0.64–0.83.
 * - [Cha07] M. Cha, H. Kwak, P. Rodriguez, Y.-Y. Ahn, S. Moon, "I Tube, You Tube, Everybody
 *   Tubes: analyzing the world's largest user generated content video system", IMC 2007:
 *   video popularity is Zipf-like over the head with a truncated tail.
 * - [Yu06] H. Yu, D. Zheng, B. Y. Zhao, W. Zheng, "Understanding user behavior in
 *   large-scale video-on-demand systems", EuroSys 2006: VoD popularity is skewed but not a
 *   pure Zipf; popularity shifts daily as new titles arrive.
 * - [Almanac24] HTTP Archive, Web Almanac 2024, chapters "Page Weight", "Media", "Fonts":
 *   per page (median) roughly 20–25 JS and 5–8 CSS requests of a few tens of KB each,
 *   about 20 image requests with a median image of tens of KB and a long tail into the
 *   hundreds of KB, 3–5 font requests of 20–40 KB (woff2 dominant), HTML documents of
 *   tens of KB (all approx.).
 * - [Maggs15] B. M. Maggs, R. K. Sitaraman, "Algorithmic nuggets in content delivery",
 *   ACM SIGCOMM CCR 45(3), 2015: about three quarters of the objects in a CDN trace were
 *   requested only once ("one-hit wonders") (approx.).
 * Where no source is named, the figure is a stated judgement for a mid-sized site.
 */

export type ContentPresetName = 'static-asset' | 'image' | 'font' | 'html' | 'api' | 'media' | 'download';
export const CONTENT_PRESET_NAMES: readonly ContentPresetName[] = ['static-asset', 'image', 'font', 'html', 'api', 'media', 'download'];

/**
 * Object sizes: a lognormal clamped to [min, max] (as the one-class catalogue does), so
 * quantiles inside the bounds are the lognormal's own. A lognormal with a large sigma
 * already gives media the tens-of-MB-to-GB spread; one family keeps the schema small.
 */
export interface SizeDistribution {
  /** Median size in bytes (e^mu). */
  readonly median: number;
  /** Sigma of the underlying normal; 0 gives every object the median size. */
  readonly sigma: number;
  readonly min: number;
  readonly max: number;
}

/** One file type a class serves: `{ext}` in the path pattern, its MIME type, and its relative weight among the class's objects. */
export interface FileType {
  /** Extension without the dot; '' when the class's path has no `{ext}` (pages, API routes). */
  readonly extension: string;
  readonly mimeType: string;
  readonly weight: number;
}

/** How new objects take their place in the popularity ranking. */
export type NewObjectEntry = 'top' | 'drawn';
export const NEW_OBJECT_ENTRIES: readonly NewObjectEntry[] = ['top', 'drawn'];

export interface UpdateSpec {
  /** Objects updated per second (each update picks a live object uniformly). */
  readonly perSecond: number;
  /** true: an update gives the object a new URL (hashed names) and retires the old one; false: same URL, next version. */
  readonly newUrl: boolean;
  /**
   * Share of the class's objects a deploy that touches the class updates, object by object
   * (new URLs with `newUrl`, else new versions at the same URLs; 0: deploys leave the class
   * alone). Left out: a deploy gives every object of the class a new version at its same
   * URL at once (the incident schedule's class version).
   */
  readonly onDeployShare?: number;
}

export interface ChurnSpec {
  /** New objects per second. */
  readonly newObjectsPerSecond: number;
  /** Share of new objects requested exactly once (one-hit wonders). */
  readonly oneHitWonderShare: number;
  /**
   * 'top': a new object takes rank 1 and every object moves down one rank, so popularity
   * decays with age and the last-ranked object retires (a conveyor, as news and feeds age);
   * 'drawn': it replaces the object at a rank drawn from the class's own Zipf law.
   */
  readonly entry: NewObjectEntry;
  readonly updates: UpdateSpec;
}

/** The header profile a class asks for: 'auto' lets the deployment kind choose (resolveClassHeaders). */
export interface ClassHeaderChoice {
  readonly profile: string;
  /** Header fields replacing the profile's own (profileWithOverrides). */
  readonly fields: Readonly<Record<string, string>>;
}

export const AUTO_PROFILE = 'auto';

/** A fully resolved content class: every field filled, every quantity in base units. */
export interface ContentClass {
  readonly name: string;
  readonly preset: ContentPresetName;
  /** Share of client requests for this class (the shares of a mix add up to 1). */
  readonly share: number;
  /** Objects in the catalogue at the start of the run. */
  readonly objects: number;
  readonly zipfExponent: number;
  readonly size: SizeDistribution;
  /** URL path pattern; placeholders: {framework} {hash} {id} {slug} {ext}. */
  readonly path: string;
  readonly fileTypes: readonly FileType[];
  /** spec 4.3: how a full-stack framework renders the class's pages (server-side or static). */
  readonly rendering: PageRendering;
  /** spec 4.8: clients ask for byte ranges (media players, scrubbing). */
  readonly rangeRequests: boolean;
  readonly headers: ClassHeaderChoice;
  readonly churn: ChurnSpec;
  /** spec 4.3.1: query strings on the class's requests and how the CDN keys them; left out: none. */
  readonly queries?: QuerySpec;
  /** Requests from a traffic model, per PoP (docs/traffic-models.md); left out: Zipf over `objects`. */
  readonly traffic?: ClassTrafficModel;
}

/** What a preset adds to a class: a description and the profiles it maps to under static and container deployments. */
export interface ContentPreset extends Omit<ContentClass, 'name' | 'preset'> {
  readonly description: string;
  /** Header profile a static-site origin sends (spec 4.1.3 with the spec 8.1 guidance where a row fits). */
  readonly staticProfile: string;
  /** Header profile a container origin sends (spec 8.2). */
  readonly containerProfile: string;
}

const AUTO_HEADERS: ClassHeaderChoice = Object.freeze({ profile: AUTO_PROFILE, fields: Object.freeze({}) });
const PER_HOUR = 1 / 3600;
const KB = 1_000;
const MB = 1_000_000;
const GB = 1_000_000_000;

function noUpdates(): UpdateSpec {
  return { perSecond: 0, newUrl: false };
}

/**
 * The presets. Shares and object counts are the default "typical site" mix: request shares
 * follow the request mix of a page view in [Almanac24] (JS+CSS ≈ 40 %, images ≈ 35 %,
 * fonts ≈ 5 % of first-party requests), plus one HTML document and a few API calls per
 * page, and a little media and download traffic (judgement). Object counts are a
 * judgement for a mid-sized site (a few thousand pages, tens of thousands of images).
 * Churn rates are judgements; the one-hit-wonder shares are well below [Maggs15]'s
 * three quarters of all objects because they apply to new objects of one site only.
 */
export const CONTENT_PRESETS: ReadonlyMap<ContentPresetName, ContentPreset> = new Map<ContentPresetName, ContentPreset>([
  [
    'static-asset',
    {
      description: 'hashed JS and CSS bundles under the framework path (spec 4.3 static assets)',
      share: 0.4,
      objects: 2_000,
      // Bundles of one page view are requested together, so asset popularity follows page popularity [Breslau99].
      zipfExponent: 0.8,
      // [Almanac24]: JS and CSS responses of a few tens of KB, a tail of large vendor bundles (approx.).
      size: { median: 20 * KB, sigma: 1.3, min: 200, max: 3 * MB },
      path: '/_{framework}/static/{ext}/{hash}.{ext}',
      // [Almanac24]: about three JS requests per CSS request (approx.).
      fileTypes: [
        { extension: 'js', mimeType: 'text/javascript', weight: 75 },
        { extension: 'css', mimeType: 'text/css', weight: 25 },
      ],
      rendering: 'static',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      // New bundles appear through deploys (updates with new hashed names), not on their own.
      churn: { newObjectsPerSecond: 0, oneHitWonderShare: 0, entry: 'top', updates: { perSecond: 2 * PER_HOUR, newUrl: true } },
      staticProfile: 'guidance-static-assets',
      containerProfile: 'container-static-files',
    },
  ],
  [
    'image',
    {
      description: 'content images, unversioned names (JPEG, PNG, WebP, SVG, GIF, AVIF)',
      share: 0.35,
      objects: 50_000,
      zipfExponent: 0.8, // [Breslau99]
      // [Almanac24] Media: median image tens of KB, p90 in the hundreds of KB (approx.): 40 KB · e^(±1.28·1.4) ≈ 7 KB … 240 KB.
      size: { median: 40 * KB, sigma: 1.4, min: 100, max: 20 * MB },
      path: '/images/{id}.{ext}',
      // [Almanac24] Media: JPEG and PNG lead, then WebP, SVG, GIF, AVIF (approx.; GIFs there are mostly tracking pixels).
      fileTypes: [
        { extension: 'jpg', mimeType: 'image/jpeg', weight: 40 },
        { extension: 'png', mimeType: 'image/png', weight: 28 },
        { extension: 'webp', mimeType: 'image/webp', weight: 15 },
        { extension: 'svg', mimeType: 'image/svg+xml', weight: 8 },
        { extension: 'gif', mimeType: 'image/gif', weight: 6 },
        { extension: 'avif', mimeType: 'image/avif', weight: 3 },
      ],
      rendering: 'static',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      churn: { newObjectsPerSecond: 5 * PER_HOUR, oneHitWonderShare: 0.3, entry: 'top', updates: { perSecond: 1 * PER_HOUR, newUrl: false } },
      // spec 8.1 row 1 covers images *with versioning*; these are not, so a static site sends none (spec 4.1.3 caches them anyway).
      staticProfile: 'no-cache-headers',
      containerProfile: 'container-static-files',
    },
  ],
  [
    'font',
    {
      description: 'web fonts under the framework path (hashed, as framework font loaders emit them)',
      share: 0.05,
      objects: 50,
      // A handful of fonts used on every page: popularity is flatter than page popularity (judgement).
      zipfExponent: 0.6,
      // [Almanac24] Fonts: woff2 files of 20–40 KB at the median (approx.).
      size: { median: 30 * KB, sigma: 0.6, min: 2 * KB, max: 1 * MB },
      path: '/_{framework}/static/media/{hash}.{ext}',
      fileTypes: [
        { extension: 'woff2', mimeType: 'font/woff2', weight: 95 },
        { extension: 'woff', mimeType: 'font/woff', weight: 5 },
      ],
      rendering: 'static',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      churn: { newObjectsPerSecond: 0, oneHitWonderShare: 0, entry: 'top', updates: noUpdates() },
      staticProfile: 'guidance-static-assets',
      containerProfile: 'container-static-files',
    },
  ],
  [
    'html',
    {
      description: 'HTML pages (statically generated by the framework, spec 4.3 static pages)',
      share: 0.08,
      objects: 5_000,
      zipfExponent: 0.8, // [Breslau99]
      // [Almanac24]: HTML documents of tens of KB at the median (approx.).
      size: { median: 30 * KB, sigma: 0.9, min: 1 * KB, max: 2 * MB },
      path: '/blog/{slug}',
      fileTypes: [{ extension: '', mimeType: 'text/html', weight: 1 }],
      rendering: 'static',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      churn: { newObjectsPerSecond: 2 * PER_HOUR, oneHitWonderShare: 0.2, entry: 'top', updates: { perSecond: 10 * PER_HOUR, newUrl: false } },
      staticProfile: 'guidance-dynamic-html',
      containerProfile: 'container-root',
    },
  ],
  [
    'api',
    {
      description: 'JSON API responses under /api (spec 4.3 API routes)',
      share: 0.09,
      objects: 20_000,
      zipfExponent: 0.8, // [Breslau99]
      // Small JSON documents with a long tail of list responses (judgement).
      size: { median: 2 * KB, sigma: 1.5, min: 50, max: 2 * MB },
      path: '/api/items/{id}',
      fileTypes: [{ extension: '', mimeType: 'application/json', weight: 1 }],
      rendering: 'server',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      churn: { newObjectsPerSecond: 60 * PER_HOUR, oneHitWonderShare: 0.5, entry: 'top', updates: { perSecond: 60 * PER_HOUR, newUrl: false } },
      staticProfile: 'guidance-frequent-api',
      containerProfile: 'container-api',
    },
  ],
  [
    'media',
    {
      description: 'video files, tens of MB to GB, fetched with range requests (spec 4.8)',
      share: 0.02,
      objects: 500,
      // [Cha07], [Yu06]: Zipf-like over the head, more skewed than web pages; 0.9 is a judgement within those findings.
      zipfExponent: 0.9,
      // Tens of MB to GB (the issue's range): 50 MB · e^(±1.28·1.5) ≈ 7 MB … 340 MB, p99 ≈ 1.6 GB (judgement).
      size: { median: 50 * MB, sigma: 1.5, min: 1 * MB, max: 4 * GB },
      path: '/videos/{id}.{ext}',
      fileTypes: [
        { extension: 'mp4', mimeType: 'video/mp4', weight: 85 },
        { extension: 'webm', mimeType: 'video/webm', weight: 15 },
      ],
      rendering: 'static',
      rangeRequests: true,
      headers: AUTO_HEADERS,
      churn: { newObjectsPerSecond: 1 * PER_HOUR, oneHitWonderShare: 0.1, entry: 'top', updates: noUpdates() },
      staticProfile: 'no-cache-headers',
      containerProfile: 'container-static-files',
    },
  ],
  [
    'download',
    {
      description: 'downloadable files (archives, installers, PDFs) with versioned names',
      share: 0.01,
      objects: 1_000,
      zipfExponent: 0.8, // [Breslau99]
      // PDFs of a few MB to installers of hundreds of MB: 20 MB · e^(±1.28·1.5) ≈ 3 MB … 140 MB (judgement).
      size: { median: 20 * MB, sigma: 1.5, min: 10 * KB, max: 4 * GB },
      path: '/downloads/{slug}.{ext}',
      fileTypes: [
        { extension: 'zip', mimeType: 'application/zip', weight: 40 },
        { extension: 'pdf', mimeType: 'application/pdf', weight: 35 },
        { extension: 'dmg', mimeType: 'application/x-apple-diskimage', weight: 10 },
        { extension: 'exe', mimeType: 'application/vnd.microsoft.portable-executable', weight: 10 },
        { extension: 'gz', mimeType: 'application/gzip', weight: 5 },
      ],
      rendering: 'static',
      rangeRequests: false,
      headers: AUTO_HEADERS,
      // A release publishes a new file name (app-1.2.4.zip), so updates take new URLs.
      churn: { newObjectsPerSecond: 0.1 * PER_HOUR, oneHitWonderShare: 0.1, entry: 'top', updates: { perSecond: 0.1 * PER_HOUR, newUrl: true } },
      staticProfile: 'no-cache-headers',
      containerProfile: 'container-static-files',
    },
  ],
]);

/** The preset of `name`; throws for an unknown name (the schema reports it with a suggestion first). */
export function contentPreset(name: ContentPresetName): ContentPreset {
  const preset = CONTENT_PRESETS.get(name);
  if (!preset) throw new RangeError(`unknown content preset '${name}'`);
  return preset;
}

/** A class made of a preset with nothing overridden. */
export function classFromPreset(name: string, presetName: ContentPresetName): ContentClass {
  const { description: _description, staticProfile: _static, containerProfile: _container, ...fields } = contentPreset(presetName);
  return { name, preset: presetName, ...fields };
}

/** The default mix (a typical site): every preset once, named after it, with its default share (40/35/5/8/9/2/1 %). */
export const DEFAULT_CLASS_MIX: readonly ContentClass[] = CONTENT_PRESET_NAMES.map((name) => classFromPreset(name, name));

// ---------------------------------------------------------------------------------------
// Path patterns

export type PathPlaceholder = 'framework' | 'hash' | 'id' | 'slug' | 'ext';
export const PATH_PLACEHOLDERS: readonly PathPlaceholder[] = ['framework', 'hash', 'id', 'slug', 'ext'];

/** A path pattern split once into literal text and placeholders (rendering then needs no regex). */
export type PathToken = { readonly literal: string } | { readonly placeholder: PathPlaceholder };

export type ParsedPattern = { ok: true; tokens: readonly PathToken[] } | { ok: false; expected: string };

/** Splits `/images/{id}.{ext}` into tokens; says what is wrong with a pattern it refuses. */
export function parsePathPattern(pattern: string): ParsedPattern {
  if (!pattern.startsWith('/')) return { ok: false, expected: 'a path pattern starting with "/"' };
  const tokens: PathToken[] = [];
  const placeholder = /\{([^{}]*)\}/g;
  let position = 0;
  for (let match = placeholder.exec(pattern); match; match = placeholder.exec(pattern)) {
    const name = match[1] as PathPlaceholder;
    if (!PATH_PLACEHOLDERS.includes(name)) {
      return { ok: false, expected: `placeholders among ${PATH_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')} (not {${match[1]}})` };
    }
    if (match.index > position) tokens.push({ literal: pattern.slice(position, match.index) });
    tokens.push({ placeholder: name });
    position = match.index + match[0].length;
  }
  if (position < pattern.length) tokens.push({ literal: pattern.slice(position) });
  if (tokens.some((token) => 'literal' in token && /[{}\s?#]/.test(token.literal))) {
    return { ok: false, expected: 'a path pattern without spaces, "?", "#" or unbalanced braces' };
  }
  return { ok: true, tokens };
}

export function patternUsesExtension(pattern: string): boolean {
  return pattern.includes('{ext}');
}

/** The values a path's placeholders take. */
export interface PathValues {
  framework: string;
  hash: string;
  id: string;
  slug: string;
  ext: string;
}

export function renderPath(tokens: readonly PathToken[], values: PathValues): string {
  let path = '';
  for (const token of tokens) path += 'literal' in token ? token.literal : values[token.placeholder];
  return path;
}

/** A path of the class with fixed placeholder values: what the policy engine sees for the class as a whole. */
export function representativePath(klass: Pick<ContentClass, 'path' | 'fileTypes'>, framework: string): string {
  const parsed = parsePathPattern(klass.path);
  if (!parsed.ok) throw new RangeError(`bad path pattern '${klass.path}': expected ${parsed.expected}`);
  return renderPath(parsed.tokens, { framework, hash: '0123456789abcdef', id: '1', slug: 'example', ext: klass.fileTypes[0]?.extension ?? '' });
}

// ---------------------------------------------------------------------------------------
// Header profiles per deployment kind (spec 1.3)

export interface ClassHeaders {
  readonly profile: HeaderProfile;
  /** The profile's fields with the class's own fields applied. */
  readonly fields: readonly (readonly [string, string])[];
  /** Why this profile: the rule that chose it. */
  readonly source: string;
}

/**
 * The response headers the origin sends for a class (spec 1.3: the deployment kind selects
 * the profiles), unless the class names a profile itself:
 * - full-stack: the framework's own defaults for the class's path (spec 4.3,
 *   `frameworkProfileForPath`): `/_<framework>/static/*` → static assets, `/api/*` → API
 *   routes, pages by rendering, other files → no headers (spec 4.2 extension rules decide);
 * - static: the author sets lifetimes (spec 1.3) per the spec 8.1 guidance where a row
 *   fits the class, otherwise no headers and spec 4.1.3 caches everything by default;
 * - container: the spec 8.2 rules (static files, API, root page). With the CDN disabled
 *   the origin still sends them (browsers use them); the engine stores nothing at shared
 *   layers (spec 1.3).
 */
export function resolveClassHeaders(
  klass: Pick<ContentClass, 'preset' | 'path' | 'fileTypes' | 'rendering' | 'headers'>,
  deployment: Pick<Deployment, 'kind' | 'framework'>,
): ClassHeaders {
  const named = klass.headers.profile !== AUTO_PROFILE;
  const profile = named ? HEADER_PROFILES.get(klass.headers.profile) : autoProfile(klass, deployment);
  if (!profile) throw new RangeError(`unknown header profile '${klass.headers.profile}'`);
  const source = named ? 'named by the class' : AUTO_SOURCES[deployment.kind];
  return { profile, fields: profileWithOverrides(profile, Object.entries(klass.headers.fields)), source };
}

const AUTO_SOURCES: Readonly<Record<DeploymentKind, string>> = {
  'full-stack': 'spec 4.3 framework defaults by path',
  static: 'spec 1.3/4.1.3 static site, spec 8.1 guidance',
  container: 'spec 8.2 container rules',
};

function autoProfile(klass: Pick<ContentClass, 'preset' | 'path' | 'fileTypes' | 'rendering'>, deployment: Pick<Deployment, 'kind' | 'framework'>): HeaderProfile | undefined {
  switch (deployment.kind) {
    case 'full-stack':
      return frameworkProfileForPath(representativePath(klass, deployment.framework), deployment, klass.rendering);
    case 'static':
      return HEADER_PROFILES.get(contentPreset(klass.preset).staticProfile);
    case 'container':
      return HEADER_PROFILES.get(contentPreset(klass.preset).containerProfile);
  }
}
