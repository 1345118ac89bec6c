import { describe, expect, it } from 'vitest';
import {
  compileDecision,
  CompiledDecisionTable,
  FLAG_ERROR_CACHING,
  FLAG_IMMUTABLE,
  FLAG_NEVER_STALE,
  FLAG_REVALIDATE_ALWAYS,
  FLAG_STORE,
  type CompiledDecision,
} from '../../src/policy/compile.js';
import { decide } from '../../src/policy/decision.js';
import { CACHE_LAYERS, DEFAULT_POLICY_OPTIONS, type CacheLayer, type Deployment } from '../../src/policy/deployment.js';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import { HEADER_PROFILES } from '../../src/policy/profiles.js';
import { columnsOf } from '../../src/sim/columns.js';

const NOW = Date.UTC(2026, 0, 1);
const FULL_STACK: Deployment = { kind: 'full-stack', framework: 'next', cdnEnabled: true };
const STATIC: Deployment = { kind: 'static', framework: 'next', cdnEnabled: true };
const CONTAINER: Deployment = { kind: 'container', framework: 'next', cdnEnabled: true };

const decideAt = (layer: CacheLayer, deployment: Deployment, url: string, headers: HeaderInput, nowMs: number, status = 200) =>
  decide({
    request: { method: 'GET', url, headers: normaliseHeaders({}) },
    response: { status, headers: normaliseHeaders(headers) },
    deployment,
    layer,
    nowMs,
  });

const PROFILE_NAMES = [...HEADER_PROFILES.keys()];
const URLS = ['/page', '/app.js'];

describe('compileDecision (DESIGN "Hot path": numbers and flags, ms = s × 1000)', () => {
  it.each(PROFILE_NAMES.flatMap((name) => CACHE_LAYERS.flatMap((layer) => URLS.map((url) => [name, layer, url] as const))))(
    'DESIGN: %s at %s for %s: compiled numbers are decide()\'s × 1000, flags copied',
    (name, layer, url) => {
      const decision = decideAt(layer, FULL_STACK, url, HEADER_PROFILES.get(name)!.headers, NOW);
      expect(compileDecision(decision)).toEqual({
        store: decision.store,
        ttlMs: decision.ttlSeconds * 1000,
        staleWhileRevalidateMs: decision.staleWhileRevalidateSeconds * 1000,
        staleIfErrorMs: decision.staleIfErrorSeconds * 1000,
        staleIfUnreachableMs: decision.staleIfUnreachableSeconds * 1000,
        revalidateAlways: decision.revalidateAlways,
        neverServeStale: decision.neverServeStale,
        immutable: decision.immutable,
        errorCaching: decision.errorCaching,
      });
    },
  );

  it.each<[string, HeaderInput, CacheLayer, CompiledDecision]>([
    [
      'spec 8.1 row 2 at the edge',
      { 'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400' },
      'edge',
      { store: true, ttlMs: 3_600_000, staleWhileRevalidateMs: 86_400_000, staleIfErrorMs: 86_400_000, staleIfUnreachableMs: 86_400_000, revalidateAlways: false, neverServeStale: false, immutable: false, errorCaching: false },
    ],
    [
      'spec 8.1 row 4 in the browser',
      { 'Cache-Control': 'private, max-age=0, no-cache' },
      'browser',
      { store: true, ttlMs: 0, staleWhileRevalidateMs: 0, staleIfErrorMs: 0, staleIfUnreachableMs: 0, revalidateAlways: true, neverServeStale: true, immutable: false, errorCaching: false },
    ],
    [
      'RFC 9111 §4.2.4: max-age alone at the edge: no stale in place of a 5xx, the spec 4.7 cap when unreachable',
      { 'Cache-Control': 'public, max-age=60' },
      'edge',
      { store: true, ttlMs: 60_000, staleWhileRevalidateMs: 0, staleIfErrorMs: 0, staleIfUnreachableMs: 86_400_000, revalidateAlways: false, neverServeStale: false, immutable: false, errorCaching: false },
    ],
    [
      'a fractional age gives fractional ms (RFC 9111 §4.2.3)',
      { 'Cache-Control': 'max-age=10', Age: '1' },
      'browser',
      { store: true, ttlMs: 9_000, staleWhileRevalidateMs: 0, staleIfErrorMs: 0, staleIfUnreachableMs: 0, revalidateAlways: false, neverServeStale: false, immutable: false, errorCaching: false },
    ],
  ])('DESIGN: %s, exactly', (_name, headers, layer, expected) => {
    expect(compileDecision(decideAt(layer, FULL_STACK, '/page', headers, NOW))).toEqual(expected);
  });
});

describe('CompiledDecisionTable (DESIGN: one decision per distinct header profile × layer)', () => {
  it.each<[string, Deployment]>([
    ['full-stack', FULL_STACK],
    ['static', STATIC],
    ['container', CONTAINER],
  ])('DESIGN: every named profile × layer in a %s deployment gives decide()\'s numbers', (_kind, deployment) => {
    const table = new CompiledDecisionTable(deployment);
    const ids = new Map<string, number>();
    for (const name of PROFILE_NAMES) for (const url of URLS) ids.set(`${name} ${url}`, table.add({ url, status: 200, headers: HEADER_PROFILES.get(name)!.headers }));
    expect(table.size).toBe(PROFILE_NAMES.length * URLS.length);
    for (const name of PROFILE_NAMES) {
      for (const url of URLS) {
        const id = ids.get(`${name} ${url}`)!;
        CACHE_LAYERS.forEach((layer, layerIndex) => {
          // Compiled at time 0; with no Date header only relative lifetimes matter, so NOW gives the same.
          const decision = decideAt(layer, deployment, url, HEADER_PROFILES.get(name)!.headers, NOW);
          const label = `${name} ${url} ${layer}`;
          expect(table.get(id, layer), label).toEqual(compileDecision(decision));
          expect(table.ttlMsOf(id, layerIndex), label).toBe(decision.ttlSeconds * 1000);
          expect(table.staleWhileRevalidateMsOf(id, layerIndex), label).toBe(decision.staleWhileRevalidateSeconds * 1000);
          expect(table.staleIfErrorMsOf(id, layerIndex), label).toBe(decision.staleIfErrorSeconds * 1000);
          expect(table.stores(id, layerIndex), label).toBe(decision.store);
        });
      }
    }
  });

  it('DESIGN: layer indices follow CACHE_LAYERS (spec 4.9 order: browser, edge, regional)', () => {
    expect(CACHE_LAYERS).toEqual(['browser', 'edge', 'regional']);
  });

  it.each<[string, number, HeaderInput, string, Record<CacheLayer, number>]>([
    [
      'spec 4.3 static assets: store + immutable everywhere',
      200, { 'Cache-Control': 'public, max-age=31536000, immutable' }, '/a.js',
      { browser: FLAG_STORE | FLAG_IMMUTABLE, edge: FLAG_STORE | FLAG_IMMUTABLE, regional: FLAG_STORE | FLAG_IMMUTABLE },
    ],
    [
      'spec 4.3 server-rendered pages: store + never stale',
      200, { 'Cache-Control': 'public, max-age=0, must-revalidate' }, '/about',
      { browser: FLAG_STORE | FLAG_NEVER_STALE, edge: FLAG_STORE | FLAG_NEVER_STALE, regional: FLAG_STORE | FLAG_NEVER_STALE },
    ],
    [
      'spec 8.1 row 4: browser store + revalidate always + never stale; shared layers nothing',
      200, { 'Cache-Control': 'private, max-age=0, no-cache' }, '/account',
      { browser: FLAG_STORE | FLAG_REVALIDATE_ALWAYS | FLAG_NEVER_STALE, edge: 0, regional: 0 },
    ],
    [
      'spec 7.1: a 500 is error-cached at shared layers only',
      500, {}, '/page',
      { browser: 0, edge: FLAG_STORE | FLAG_ERROR_CACHING, regional: FLAG_STORE | FLAG_ERROR_CACHING },
    ],
    [
      'RFC 9111 §5.2.2.10: s-maxage is never-stale at shared layers only',
      200, { 'Cache-Control': 'max-age=60, s-maxage=600' }, '/page',
      { browser: FLAG_STORE, edge: FLAG_STORE | FLAG_NEVER_STALE, regional: FLAG_STORE | FLAG_NEVER_STALE },
    ],
  ])('%s', (_name, status, headers, url, expected) => {
    const table = new CompiledDecisionTable(FULL_STACK);
    const id = table.add({ url, status, headers });
    CACHE_LAYERS.forEach((layer, layerIndex) => expect({ layer, flags: table.flagsOf(id, layerIndex) }).toEqual({ layer, flags: expected[layer] }));
  });

  it('DESIGN: the flag bits are distinct powers of two', () => {
    expect([FLAG_STORE, FLAG_REVALIDATE_ALWAYS, FLAG_NEVER_STALE, FLAG_IMMUTABLE, FLAG_ERROR_CACHING]).toEqual([1, 2, 4, 8, 16]);
  });

  it('DESIGN: the table grows past its initial capacity (16 classes) and keeps every earlier entry: 100 classes', () => {
    const table = new CompiledDecisionTable(FULL_STACK);
    for (let i = 0; i < 100; i++) {
      expect(table.add({ url: `/asset-${i}.css`, status: 200, headers: { 'Cache-Control': `max-age=${i + 1}, stale-while-revalidate=${2 * i}` } })).toBe(i);
    }
    expect(table.size).toBe(100);
    for (let i = 0; i < 100; i++) {
      for (const layer of CACHE_LAYERS) {
        expect(table.get(i, layer)).toEqual({
          store: true,
          ttlMs: (i + 1) * 1000,
          staleWhileRevalidateMs: 2 * i * 1000,
          staleIfErrorMs: layer === 'browser' ? 0 : 2 * i * 1000,
          staleIfUnreachableMs: layer === 'browser' ? 0 : 86_400_000,
          revalidateAlways: false,
          neverServeStale: false,
          immutable: false,
          errorCaching: false,
        });
      }
    }
  });

  it('DESIGN: every typed array the table holds is a column (5), grown with the others: 100 classes need 300 slots', () => {
    const table = new CompiledDecisionTable(FULL_STACK);
    expect(columnsOf(table).length).toBe(5);
    for (let i = 0; i < 100; i++) table.add({ url: `/asset-${i}.css`, status: 200, headers: { 'Cache-Control': `max-age=${i + 1}` } });
    // 48 slots, doubled to 96, 192, 384: the first power-of-two multiple of 48 that holds 300.
    for (const [name, array] of columnsOf(table)) expect({ name, length: array.length }).toEqual({ name, length: 384 });
    expect(columnsOf(table).length).toBe(5);
  });

  it('spec 7.1: the table passes its options to decide (a 502 is error-cached when configured)', () => {
    const plain = new CompiledDecisionTable(FULL_STACK);
    const configured = new CompiledDecisionTable(FULL_STACK, { ...DEFAULT_POLICY_OPTIONS, errorCachingStatuses: [500, 502] });
    const response = { url: '/page', status: 502, headers: {} };
    expect(plain.get(plain.add(response), 'edge').store).toBe(false);
    expect(configured.get(configured.add(response), 'edge')).toMatchObject({ store: true, ttlMs: 5_000, errorCaching: true });
  });

  it('RFC 9111 §3, §3.5: the table honours the method and request headers of a class', () => {
    const table = new CompiledDecisionTable(FULL_STACK);
    const post = table.add({ url: '/page', status: 200, headers: { 'Cache-Control': 'max-age=60' }, method: 'POST' });
    const authorised = table.add({ url: '/page', status: 200, headers: { 'Cache-Control': 'max-age=60' }, requestHeaders: { Authorization: 'Bearer t' } });
    expect(CACHE_LAYERS.map((layer) => table.get(post, layer).store)).toEqual([false, false, false]);
    expect(CACHE_LAYERS.map((layer) => table.get(authorised, layer).store)).toEqual([true, false, false]);
    expect(table.get(authorised, 'browser').ttlMs).toBe(60_000);
  });

  it('spec 1.3: a table for a CDN-disabled deployment stores at the browser only', () => {
    const table = new CompiledDecisionTable({ ...CONTAINER, cdnEnabled: false });
    const id = table.add({ url: '/', status: 200, headers: HEADER_PROFILES.get('container-root')!.headers });
    expect(CACHE_LAYERS.map((_layer, index) => table.stores(id, index))).toEqual([true, false, false]);
  });
});
