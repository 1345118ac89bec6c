import { describe, expect, it } from 'vitest';
import { decide, type CacheDecision } from '../../src/policy/decision.js';
import type { CacheLayer, Deployment } from '../../src/policy/deployment.js';
import { normaliseHeaders } from '../../src/policy/headers.js';
import {
  CONTAINER_PROFILES,
  FRAMEWORK_PROFILES,
  frameworkProfileForPath,
  GUIDANCE_PROFILES,
  HEADER_PROFILES,
  NO_CACHE_HEADERS,
  profileWithOverrides,
  type HeaderProfile,
} from '../../src/policy/profiles.js';

const NOW = Date.UTC(2026, 0, 1);
const FULL_STACK: Deployment = { kind: 'full-stack', framework: 'next', cdnEnabled: true };
const CONTAINER: Deployment = { kind: 'container', framework: 'next', cdnEnabled: true };

const cacheControlOf = (profile: HeaderProfile): string | undefined => profile.headers['Cache-Control'];

describe('spec 4.3: framework-aware defaults', () => {
  it.each<[HeaderProfile, string, string]>([
    [FRAMEWORK_PROFILES.staticAssets, 'framework-static-assets', 'public, max-age=31536000, immutable'],
    [FRAMEWORK_PROFILES.apiRoutes, 'framework-api-routes', 'no-cache, no-store, must-revalidate'],
    [FRAMEWORK_PROFILES.serverRendered, 'framework-server-rendered', 'public, max-age=0, must-revalidate'],
    [FRAMEWORK_PROFILES.staticPages, 'framework-static-pages', 'public, max-age=3600, stale-while-revalidate=86400'],
  ])('spec 4.3: %#: the %s row sends "%s"', (profile, name, cacheControl) => {
    expect(profile.name).toBe(name);
    expect(profile.source).toBe('spec 4.3');
    expect(profile.headers).toEqual({ 'Cache-Control': cacheControl });
  });
});

describe('spec 8.1: Cache-Control guidance rows 1–5', () => {
  it.each<[HeaderProfile, string, string, string]>([
    [GUIDANCE_PROFILES.staticAssets, 'guidance-static-assets', 'spec 8.1 row 1', 'public, max-age=31536000, immutable'],
    [GUIDANCE_PROFILES.dynamicHtml, 'guidance-dynamic-html', 'spec 8.1 row 2', 'public, max-age=3600, stale-while-revalidate=86400'],
    [GUIDANCE_PROFILES.frequentApi, 'guidance-frequent-api', 'spec 8.1 row 3', 'public, max-age=300, must-revalidate'],
    [GUIDANCE_PROFILES.private, 'guidance-private', 'spec 8.1 row 4', 'private, max-age=0, no-cache'],
    [GUIDANCE_PROFILES.neverCache, 'guidance-never-cache', 'spec 8.1 row 5', 'no-store, no-cache, must-revalidate'],
  ])('%#: %s (%s) sends "%s"', (profile, name, source, cacheControl) => {
    expect(profile.name).toBe(name);
    expect(profile.source).toBe(source);
    expect(cacheControlOf(profile)).toBe(cacheControl);
  });

  it('spec 8.1 row 5: begins with "no-store, no-cache" as the spec gives it; cdnsim completes it with must-revalidate (as spec 4.3 API routes)', () => {
    const value = cacheControlOf(GUIDANCE_PROFILES.neverCache) ?? '';
    expect(value.startsWith('no-store, no-cache')).toBe(true);
    expect(value.split(', ')).toEqual(['no-store', 'no-cache', 'must-revalidate']);
    expect(new Set(value.split(', '))).toEqual(new Set((cacheControlOf(FRAMEWORK_PROFILES.apiRoutes) ?? '').split(', ')));
  });

  it('spec 8.1 rows 1–2 repeat spec 4.3 static assets and static pages', () => {
    expect(GUIDANCE_PROFILES.staticAssets.headers).toEqual(FRAMEWORK_PROFILES.staticAssets.headers);
    expect(GUIDANCE_PROFILES.dynamicHtml.headers).toEqual(FRAMEWORK_PROFILES.staticPages.headers);
  });
});

describe('spec 8.2: container deployment header rules', () => {
  it('spec 8.2 rule 1: static files: one-year max-age, validators turned off (no ETag, no Last-Modified)', () => {
    expect(CONTAINER_PROFILES.staticFiles).toMatchObject({ name: 'container-static-files', source: 'spec 8.2 rule 1' });
    expect(CONTAINER_PROFILES.staticFiles.headers).toEqual({ 'Cache-Control': 'public, max-age=31536000' });
  });

  it('spec 8.2 rule 2: the API route sends no-store', () => {
    expect(CONTAINER_PROFILES.api).toMatchObject({ name: 'container-api', source: 'spec 8.2 rule 2' });
    expect(CONTAINER_PROFILES.api.headers).toEqual({ 'Cache-Control': 'no-store' });
  });

  it('spec 8.2 rule 3: the root page sends public, max-age=3600, stale-while-revalidate=86400', () => {
    expect(CONTAINER_PROFILES.root).toMatchObject({ name: 'container-root', source: 'spec 8.2 rule 3' });
    expect(CONTAINER_PROFILES.root.headers).toEqual({ 'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400' });
  });

  it('spec 4.1.2: the no-headers profile sends nothing', () => {
    expect(NO_CACHE_HEADERS).toMatchObject({ name: 'no-cache-headers', source: 'spec 4.1.2', headers: {} });
  });
});

describe('HEADER_PROFILES (every named profile)', () => {
  it('spec 4.3, 8.1, 8.2, 4.1.2: 13 profiles, by unique name, frozen', () => {
    const all = [...Object.values(FRAMEWORK_PROFILES), ...Object.values(GUIDANCE_PROFILES), ...Object.values(CONTAINER_PROFILES), NO_CACHE_HEADERS];
    expect(HEADER_PROFILES.size).toBe(13);
    expect([...HEADER_PROFILES.values()]).toEqual(all);
    for (const profile of all) {
      expect(HEADER_PROFILES.get(profile.name)).toBe(profile);
      expect(Object.isFrozen(profile)).toBe(true);
      expect(Object.isFrozen(profile.headers)).toBe(true);
      expect(profile.source).toMatch(/^spec \d/);
    }
  });
});

describe('frameworkProfileForPath (spec 4.3)', () => {
  const next = { framework: 'next' };
  it.each<[string, string, { framework: string }, 'server' | 'static' | undefined, HeaderProfile]>([
    ['static assets under /_<framework>/static/*', '/_next/static/chunks/a.js', next, undefined, FRAMEWORK_PROFILES.staticAssets],
    ['API routes under /api/*', '/api/users', next, undefined, FRAMEWORK_PROFILES.apiRoutes],
    ['/api itself is an API route', '/api', next, undefined, FRAMEWORK_PROFILES.apiRoutes],
    ['/apiary is not an API route, it is a page', '/apiary', next, undefined, FRAMEWORK_PROFILES.serverRendered],
    ['a path without an extension is a page, server-rendered by default', '/about', next, undefined, FRAMEWORK_PROFILES.serverRendered],
    ['a page built statically', '/about', next, 'static', FRAMEWORK_PROFILES.staticPages],
    ['an .html path is a page', '/blog/post.html', next, undefined, FRAMEWORK_PROFILES.serverRendered],
    ['an .html path built statically', '/blog/post.html', next, 'static', FRAMEWORK_PROFILES.staticPages],
    ['the root is a page', '/', next, undefined, FRAMEWORK_PROFILES.serverRendered],
    ['a public-folder file (/favicon.ico) is sent without caching headers (spec 4.2 decides)', '/favicon.ico', next, undefined, NO_CACHE_HEADERS],
    ['another framework\'s static segment is just a file here', '/_nuxt/static/a.js', next, undefined, NO_CACHE_HEADERS],
    ['the deployment\'s own framework segment counts', '/_nuxt/static/a.js', { framework: 'nuxt' }, undefined, FRAMEWORK_PROFILES.staticAssets],
    ['/_next/static without the trailing slash is not under it', '/_next/static', next, undefined, FRAMEWORK_PROFILES.serverRendered],
  ])('spec 4.3: %s: %s', (_name, path, deployment, rendering, expected) => {
    expect(frameworkProfileForPath(path, deployment, rendering)).toBe(expected);
  });
});

interface Outcome {
  store: boolean;
  ttlSeconds?: number;
  staleWhileRevalidateSeconds?: number;
  staleIfErrorSeconds?: number;
  staleIfUnreachableSeconds?: number;
  revalidateAlways?: boolean;
  neverServeStale?: boolean;
  immutable?: boolean;
}

const STORED = { revalidateAlways: false, neverServeStale: false, staleWhileRevalidateSeconds: 0 };
const NOT_STORED: Outcome = { store: false, ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 };

function decideProfile(profile: HeaderProfile, layer: CacheLayer, deployment: Deployment, url: string): CacheDecision {
  return decide({
    request: { method: 'GET', url, headers: normaliseHeaders({}) },
    response: { status: 200, headers: normaliseHeaders(profile.headers) },
    deployment,
    layer,
    nowMs: NOW,
  });
}

describe('every profile through decide() at the edge and in the browser', () => {
  it.each<[string, string, Deployment, string, Outcome, Outcome]>([
    [
      'spec 4.3 / 8.1 row 1: one year, immutable; the edge may serve it a day stale when the origin is down (spec 4.7), not in place of a 5xx (RFC 9111 §4.2.4)',
      'framework-static-assets', FULL_STACK, '/_next/static/chunks/a.js',
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, staleIfUnreachableSeconds: 86_400, immutable: true, ...STORED },
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, immutable: true, ...STORED },
    ],
    ['spec 4.3: API routes are stored nowhere', 'framework-api-routes', FULL_STACK, '/api/users', NOT_STORED, NOT_STORED],
    [
      'spec 4.3: server-rendered pages: stored, 0 s, never stale',
      'framework-server-rendered', FULL_STACK, '/about',
      { store: true, ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, revalidateAlways: false, neverServeStale: true },
      { store: true, ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, revalidateAlways: false, neverServeStale: true },
    ],
    [
      'spec 4.3: static pages: 3600 s + stale-while-revalidate 86400 s',
      'framework-static-pages', FULL_STACK, '/about',
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 86_400, revalidateAlways: false, neverServeStale: false },
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 0, revalidateAlways: false, neverServeStale: false },
    ],
    [
      'spec 8.1 row 1: as spec 4.3 static assets',
      'guidance-static-assets', FULL_STACK, '/app.3f2a.js',
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, staleIfUnreachableSeconds: 86_400, immutable: true, ...STORED },
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, immutable: true, ...STORED },
    ],
    [
      'spec 8.1 row 2: 3600 s + stale-while-revalidate 86400 s',
      'guidance-dynamic-html', FULL_STACK, '/about',
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 86_400, neverServeStale: false },
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 0, neverServeStale: false },
    ],
    [
      'spec 8.1 row 3: 300 s, never stale',
      'guidance-frequent-api', FULL_STACK, '/api/feed',
      { store: true, ttlSeconds: 300, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, revalidateAlways: false, neverServeStale: true },
      { store: true, ttlSeconds: 300, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, revalidateAlways: false, neverServeStale: true },
    ],
    [
      'spec 8.1 row 4: the edge does not store it; the browser stores it and revalidates every time',
      'guidance-private', FULL_STACK, '/account',
      NOT_STORED,
      { store: true, ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, revalidateAlways: true, neverServeStale: true },
    ],
    ['spec 8.1 row 5: stored nowhere', 'guidance-never-cache', FULL_STACK, '/secret', NOT_STORED, NOT_STORED],
    [
      'spec 8.2 rule 1: one year, not immutable',
      'container-static-files', CONTAINER, '/static/app.js',
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, staleIfUnreachableSeconds: 86_400, immutable: false, ...STORED },
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, immutable: false, ...STORED },
    ],
    ['spec 8.2 rule 2: stored nowhere', 'container-api', CONTAINER, '/api/users', NOT_STORED, NOT_STORED],
    [
      'spec 8.2 rule 3: 3600 s + stale-while-revalidate 86400 s',
      'container-root', CONTAINER, '/',
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 86_400, neverServeStale: false },
      { store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400, staleIfErrorSeconds: 0, neverServeStale: false },
    ],
    ['spec 4.1.2: no headers on a page: stored nowhere', 'no-cache-headers', FULL_STACK, '/about', NOT_STORED, NOT_STORED],
    [
      'spec 4.1.4, 4.2: no headers on /favicon.ico: one year at the edge; the browser has no lifetime',
      'no-cache-headers', FULL_STACK, '/favicon.ico',
      { store: true, ttlSeconds: 31_536_000, staleIfErrorSeconds: 0, staleIfUnreachableSeconds: 86_400, ...STORED },
      NOT_STORED,
    ],
    ['spec 1.3: no headers in a container: stored nowhere', 'no-cache-headers', CONTAINER, '/app.js', NOT_STORED, NOT_STORED],
  ])('%s', (_name, profileName, deployment, url, atEdge, atBrowser) => {
    const profile = HEADER_PROFILES.get(profileName);
    expect(profile).toBeDefined();
    if (!profile) return;
    expect(decideProfile(profile, 'edge', deployment, url)).toMatchObject(atEdge);
    expect(decideProfile(profile, 'regional', deployment, url)).toMatchObject(atEdge);
    expect(decideProfile(profile, 'browser', deployment, url)).toMatchObject(atBrowser);
  });

  it('spec 4.3: the path → profile → decision chain for a full-stack app', () => {
    const ttlAtEdge = (path: string, rendering?: 'server' | 'static') =>
      decideProfile(frameworkProfileForPath(path, FULL_STACK, rendering), 'edge', FULL_STACK, path);
    expect(ttlAtEdge('/_next/static/chunks/a.js').ttlSeconds).toBe(31_536_000);
    expect(ttlAtEdge('/api/users').store).toBe(false);
    expect(ttlAtEdge('/about')).toMatchObject({ store: true, ttlSeconds: 0, neverServeStale: true });
    expect(ttlAtEdge('/about', 'static')).toMatchObject({ store: true, ttlSeconds: 3_600, staleWhileRevalidateSeconds: 86_400 });
    expect(ttlAtEdge('/favicon.ico')).toMatchObject({ store: true, ttlSeconds: 31_536_000, freshnessSource: 'static-asset default' });
    expect(ttlAtEdge('/robots.xml').store).toBe(false);
  });
});

describe('profileWithOverrides (scenario content.headers.fields, explain --res-header)', () => {
  it('replaces the profile field of the same name, case-insensitively, and adds the rest', () => {
    expect(profileWithOverrides(GUIDANCE_PROFILES.dynamicHtml, [['cache-control', 'max-age=60'], ['Vary', 'Accept']])).toEqual([
      ['cache-control', 'max-age=60'],
      ['Vary', 'Accept'],
    ]);
    expect(profileWithOverrides(GUIDANCE_PROFILES.dynamicHtml, [])).toEqual([['Cache-Control', 'public, max-age=3600, stale-while-revalidate=86400']]);
  });
});
