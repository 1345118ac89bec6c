import type { Deployment } from './deployment.js';

/** The response headers an origin sends for a class of content (DESIGN "header profile"). */
export interface HeaderProfile {
  readonly name: string;
  /** Where the profile is written down, e.g. "spec 4.3". */
  readonly source: string;
  readonly description: string;
  /** Response header fields; an empty object sends none (the deployment defaults then decide, spec 4.1). */
  readonly headers: Readonly<Record<string, string>>;
}

function profile(name: string, source: string, description: string, headers: Record<string, string>): HeaderProfile {
  return Object.freeze({ name, source, description, headers: Object.freeze(headers) });
}

/** spec 4.3: what a full-stack framework sends per kind of content. */
export const FRAMEWORK_PROFILES = {
  staticAssets: profile('framework-static-assets', 'spec 4.3', 'framework static assets under /_<framework>/static/*, cached for one year', {
    'Cache-Control': 'public, max-age=31536000, immutable',
  }),
  apiRoutes: profile('framework-api-routes', 'spec 4.3', 'API routes under /api/*, bypassed from the CDN cache', {
    'Cache-Control': 'no-cache, no-store, must-revalidate',
  }),
  serverRendered: profile('framework-server-rendered', 'spec 4.3', 'server-side rendered pages: short life with revalidation', {
    'Cache-Control': 'public, max-age=0, must-revalidate',
  }),
  staticPages: profile('framework-static-pages', 'spec 4.3', 'static pages: cached with background updates', {
    'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400',
  }),
} as const;

/**
 * spec 8.1: the Cache-Control guidance for application authors, rows 1–5. Row 5's third
 * directive is cut off in the spec; cdnsim completes it with `must-revalidate`, the
 * directive spec 4.3 pairs with `no-cache, no-store` for API routes.
 */
export const GUIDANCE_PROFILES = {
  staticAssets: profile('guidance-static-assets', 'spec 8.1 row 1', 'static assets (CSS, JS, images with versioning)', {
    'Cache-Control': 'public, max-age=31536000, immutable',
  }),
  dynamicHtml: profile('guidance-dynamic-html', 'spec 8.1 row 2', 'HTML pages with dynamic content', {
    'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400',
  }),
  frequentApi: profile('guidance-frequent-api', 'spec 8.1 row 3', 'API responses that change frequently', {
    'Cache-Control': 'public, max-age=300, must-revalidate',
  }),
  private: profile('guidance-private', 'spec 8.1 row 4', 'sensitive or user-specific content', {
    'Cache-Control': 'private, max-age=0, no-cache',
  }),
  neverCache: profile('guidance-never-cache', 'spec 8.1 row 5', 'content that must never be cached (third directive completed by cdnsim)', {
    'Cache-Control': 'no-store, no-cache, must-revalidate',
  }),
} as const;

/** spec 8.2: the header rules of the container deployment example. */
export const CONTAINER_PROFILES = {
  staticFiles: profile('container-static-files', 'spec 8.2 rule 1', 'static files: one-year max-age, validators (ETag, Last-Modified) turned off', {
    'Cache-Control': 'public, max-age=31536000',
  }),
  api: profile('container-api', 'spec 8.2 rule 2', 'API route', { 'Cache-Control': 'no-store' }),
  root: profile('container-root', 'spec 8.2 rule 3', 'the root page', { 'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400' }),
} as const;

/** A response without caching headers: the deployment's defaults decide (spec 4.1). */
export const NO_CACHE_HEADERS = profile('no-cache-headers', 'spec 4.1.2', 'no Cache-Control or Expires: the deployment defaults decide', {});

/** Every named profile, by name, for scenarios and `cdnsim explain --profile`. */
export const HEADER_PROFILES: ReadonlyMap<string, HeaderProfile> = new Map(
  [...Object.values(FRAMEWORK_PROFILES), ...Object.values(GUIDANCE_PROFILES), ...Object.values(CONTAINER_PROFILES), NO_CACHE_HEADERS].map(
    (entry) => [entry.name, entry],
  ),
);

/**
 * A profile's header fields with `overrides` applied: a field given in `overrides` replaces
 * the profile's field of the same name (names compare case-insensitively); the rest are added.
 */
export function profileWithOverrides(profile: HeaderProfile, overrides: Iterable<readonly [string, string]>): [string, string][] {
  const given = [...overrides].map(([name, value]): [string, string] => [name, value]);
  const replaced = new Set(given.map(([name]) => name.toLowerCase()));
  return [...Object.entries(profile.headers).filter(([name]) => !replaced.has(name.toLowerCase())), ...given];
}

export type PageRendering = 'server' | 'static';

/**
 * The profile a full-stack framework's origin sends for `path` (spec 4.3):
 * `/_<framework>/static/*` → static assets; `/api/*` → API routes; other paths without a
 * file extension (or ending in .html) are pages, server-rendered or static as the
 * application builds them; any other file (public-folder assets such as /favicon.ico) is
 * sent without caching headers, so the extension rules of spec 4.2 decide.
 */
export function frameworkProfileForPath(path: string, deployment: Pick<Deployment, 'framework'>, rendering: PageRendering = 'server'): HeaderProfile {
  if (path.startsWith(`/_${deployment.framework}/static/`)) return FRAMEWORK_PROFILES.staticAssets;
  if (path === '/api' || path.startsWith('/api/')) return FRAMEWORK_PROFILES.apiRoutes;
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const isPage = !lastSegment.includes('.') || lastSegment.endsWith('.html');
  if (!isPage) return NO_CACHE_HEADERS;
  return rendering === 'static' ? FRAMEWORK_PROFILES.staticPages : FRAMEWORK_PROFILES.serverRendered;
}
