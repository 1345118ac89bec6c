import { describe, expect, it } from 'vitest';
import { ORIGIN_REFUSED } from '../../src/cdn/origin.js';
import {
  errorLifetimeMs,
  freshUntilMs,
  REUSE_CACHED_ERROR,
  REUSE_ERROR_EXPIRED,
  REUSE_FRESH,
  REUSE_REVALIDATE,
  REUSE_STALE_ON_HELD_ERROR,
  REUSE_STALE_WHILE_ERROR_HELD,
  REUSE_STALE_WHILE_REVALIDATE,
  reuseVerdictOf,
  storedAnswersFailure,
  storedIsFresh,
} from '../../src/cdn/reuseRule.js';
import { BROWSER_DECISION, CompiledDecisionTable, EDGE_DECISION, REGIONAL_DECISION } from '../../src/policy/compile.js';
import { decide } from '../../src/policy/decision.js';
import type { CacheLayer, Deployment } from '../../src/policy/deployment.js';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { mayServeStaleOnError, reuseVerdict, type StoredFreshness } from '../../src/policy/reuse.js';
import { storedFreshness } from '../../src/policy/storedResponse.js';

/**
 * The compiled reuse rule (src/cdn/reuseRule.ts) against the policy engine on header fields
 * (src/policy/reuse.ts and HttpCacheNode's order of questions): the same answer for every
 * header set, layer, age on arrival, held error and moment of a grid.
 */
const DEPLOYMENT: Deployment = { kind: 'container', framework: 'next', cdnEnabled: true };
const URL_PATH = '/objects/object';
/** When the copy reaches the node (ms on the simulated clock). */
const STORED_AT = 100_000;

const HEADER_GRID: readonly string[] = [
  'public, max-age=60',
  'public, max-age=10, s-maxage=30',
  'public, max-age=60, no-cache',
  'public, max-age=20, must-revalidate',
  'public, max-age=20, proxy-revalidate',
  'public, max-age=10, stale-while-revalidate=30',
  'public, max-age=10, stale-if-error=60',
  'public, max-age=10, stale-while-revalidate=30, stale-if-error=5',
  'public, max-age=10, stale-while-revalidate=20, stale-if-error=90',
  'public, max-age=0, stale-while-revalidate=15',
  's-maxage=15, stale-while-revalidate=30',
  'public, max-age=31536000, immutable',
  'public, max-age=40, immutable, stale-if-error=10',
  'private, max-age=60',
  'no-store',
];
/** Error statuses as runs compile them (no header fields, spec 7.1): 500 is error-cached 5 s by default, 503 is not. */
const ERROR_STATUSES = [500, 503];
const SHARED_LAYERS: readonly [CacheLayer, number][] = [
  ['edge', EDGE_DECISION],
  ['regional', REGIONAL_DECISION],
];
/** Ages the copy arrives with, s (RFC 9111 §4.2.3: an upstream cache's Age plus the response delay). */
const AGES = [0, 3, 7];
/** Moments after STORED_AT, to 120 s (past every window of the grid): each whole second and 1 ms either side of it. */
const OFFSETS_MS = (() => {
  const offsets = new Set<number>();
  for (let ms = 0; ms <= 120_000; ms += 1000) offsets.add(ms);
  for (let s = 1; s <= 120; s++) {
    offsets.add(s * 1000 - 1);
    offsets.add(s * 1000 + 1);
  }
  return [...offsets].sort((a, b) => a - b);
})();

function compiled() {
  const table = new CompiledDecisionTable(DEPLOYMENT);
  const classOf = HEADER_GRID.map((cacheControl) => table.add({ url: URL_PATH, status: 200, headers: { 'cache-control': cacheControl } }));
  const errorClassOf = new Int32Array(100).fill(-1);
  for (const status of ERROR_STATUSES) errorClassOf[status - 500] = table.add({ url: URL_PATH, status, headers: {} });
  return { table, classOf, errorClassOf };
}

/** The engine's decision for a response arriving at `nowMs` with `Age: ageSeconds`, and what it stores (StoredFreshness). */
function engineStored(status: number, cacheControl: string | undefined, layer: CacheLayer, ageSeconds: number, nowMs: number) {
  const headers: Record<string, string> = { age: String(ageSeconds) };
  if (cacheControl !== undefined) headers['cache-control'] = cacheControl;
  const decision = decide({
    request: { method: 'GET', url: URL_PATH, headers: normaliseHeaders({}) },
    response: { status, headers: normaliseHeaders(headers) },
    deployment: DEPLOYMENT,
    layer,
    nowMs,
  });
  return { decision, freshness: storedFreshness(decision, nowMs) };
}

/** HttpCacheNode.answer's order of questions on a stored 200, as a REUSE_* verdict. */
function engineVerdict(freshness: StoredFreshness, nowMs: number, errorUntilMs: number): number {
  const verdict = reuseVerdict(freshness, nowMs);
  const held = nowMs < errorUntilMs;
  if (verdict.kind === 'fresh') return REUSE_FRESH;
  if (verdict.kind === 'stale-while-revalidate') return held ? REUSE_STALE_WHILE_ERROR_HELD : REUSE_STALE_WHILE_REVALIDATE;
  return held && mayServeStaleOnError(freshness, nowMs, 'error') ? REUSE_STALE_ON_HELD_ERROR : REUSE_REVALIDATE;
}

/** HttpCacheNode.holdError: a 500 received at `atMs` with `Age: ageSeconds` is held for its own lifetime less that age (spec 7.1), −∞ when the layer does not store it. */
function engineHoldUntil(layer: CacheLayer, atMs: number, ageSeconds: number): number {
  const { decision } = engineStored(500, undefined, layer, ageSeconds, atMs);
  return decision.store ? atMs + decision.ttlSeconds * 1000 : -Infinity;
}

const NAMES = ['fresh', 'stale-while-revalidate', 'stale-while-error-held', 'stale-on-held-error', 'revalidate', 'cached-error', 'error-expired'];

describe('the compiled reuse rule answers as the policy engine (RFC 9111 §4.2, §4.2.3, §4.2.4; RFC 5861 §3–4; spec 4.7, 7.1)', () => {
  const { table, classOf, errorClassOf } = compiled();

  it('RFC 9111 §3, §5.2.2.7: each layer stores what the engine stores (private and no-store nowhere shared; the 500 only, spec 7.1)', () => {
    for (const [i, cacheControl] of HEADER_GRID.entries()) {
      for (const [layer, decisionLayer] of [...SHARED_LAYERS, ['browser', BROWSER_DECISION] as [CacheLayer, number]]) {
        expect(table.stores(classOf[i], decisionLayer), `${cacheControl} at ${layer}`).toBe(engineStored(200, cacheControl, layer, 0, 0).decision.store);
      }
    }
    for (const status of ERROR_STATUSES) {
      for (const [layer, decisionLayer] of SHARED_LAYERS) {
        expect(errorLifetimeMs(table, errorClassOf, status, decisionLayer) >= 0, `${status} at ${layer}`).toBe(engineStored(status, undefined, layer, 0, 0).decision.store);
      }
    }
    expect(errorLifetimeMs(table, errorClassOf, 500, EDGE_DECISION)).toBe(5_000);
    expect(errorLifetimeMs(table, errorClassOf, 503, EDGE_DECISION)).toBe(-1);
    expect(errorLifetimeMs(table, errorClassOf, ORIGIN_REFUSED, EDGE_DECISION)).toBe(-1);
  });

  it('spec 7.1, RFC 9111 §4.2.3: an error held beside a copy ends when the engine ends it: its 5 s less the age it came with', () => {
    for (const [layer, decisionLayer] of SHARED_LAYERS) {
      for (const ageSeconds of [0, 2, 4]) {
        const atMs = STORED_AT + 12_000;
        const rule = freshUntilMs(atMs - ageSeconds * 1000, errorLifetimeMs(table, errorClassOf, 500, decisionLayer));
        expect(rule, `${layer}, Age ${ageSeconds}`).toBe(engineHoldUntil(layer, atMs, ageSeconds));
      }
    }
    // Hand-derived: a 500 that arrives 2 s old at 112 s is held until 115 s.
    expect(freshUntilMs(112_000 - 2_000, errorLifetimeMs(table, errorClassOf, 500, EDGE_DECISION))).toBe(115_000);
  });

  it.each(HEADER_GRID.map((cacheControl, i) => [cacheControl, i] as const))(
    'RFC 9111 §4.2, §4.2.4, RFC 5861 §3–4, spec 7.1: "%s": the same verdict, the same answer to a 5xx and to a refused connection, at the edge and the regional site, for ages 0/3/7 s, with and without a held error, at 361 moments',
    (cacheControl, i) => {
      const c = classOf[i];
      let compared = 0;
      const seen = new Set<number>();
      for (const [layer, decisionLayer] of SHARED_LAYERS) {
        if (!table.stores(c, decisionLayer)) continue;
        for (const ageSeconds of AGES) {
          const { freshness } = engineStored(200, cacheControl, layer, ageSeconds, STORED_AT);
          // The flow's entry: its age counts from its zero-age moment (RFC 9111 §4.2.3).
          const responseAtMs = STORED_AT - ageSeconds * 1000;
          // No hold; a 500 at 112 s (0 s old); a 500 at 140 s that came 2 s old.
          const holds = [-Infinity, engineHoldUntil(layer, STORED_AT + 12_000, 0), engineHoldUntil(layer, STORED_AT + 40_000, 2)];
          for (const errorUntilMs of holds) {
            for (const offset of OFFSETS_MS) {
              const nowMs = STORED_AT + offset;
              const label = `${cacheControl} at ${layer}, Age ${ageSeconds}, hold until ${errorUntilMs}, t = +${offset} ms`;
              const expected = engineVerdict(freshness, nowMs, errorUntilMs);
              const verdict = reuseVerdictOf(table, errorClassOf, c, decisionLayer, 200, responseAtMs, errorUntilMs, nowMs);
              if (verdict !== expected) expect(NAMES[verdict], label).toBe(NAMES[expected]);
              seen.add(verdict);
              expect(storedIsFresh(table, c, decisionLayer, 200, responseAtMs, nowMs), label).toBe(expected === REUSE_FRESH);
              const onError = storedAnswersFailure(table, c, decisionLayer, 200, responseAtMs, 500, nowMs);
              if (onError !== mayServeStaleOnError(freshness, nowMs, 'error')) expect(onError, `${label}: 5xx`).toBe(!onError);
              const onRefused = storedAnswersFailure(table, c, decisionLayer, 200, responseAtMs, ORIGIN_REFUSED, nowMs);
              if (onRefused !== mayServeStaleOnError(freshness, nowMs, 'unreachable')) expect(onRefused, `${label}: refused`).toBe(!onRefused);
              compared++;
            }
          }
        }
      }
      if (cacheControl.startsWith('private') || cacheControl === 'no-store') {
        expect(compared).toBe(0);
        return;
      }
      expect(compared).toBe(2 * AGES.length * 3 * OFFSETS_MS.length);
      // The grid reaches past freshness for every stored header set: never all-fresh.
      expect(seen.has(REUSE_REVALIDATE) || seen.has(REUSE_STALE_WHILE_REVALIDATE)).toBe(cacheControl.includes('immutable') && cacheControl.includes('31536000') ? false : true);
    },
  );

  it('RFC 9111 §4.2.3, spec 7.1: a cached 500 answers while the engine calls it fresh (5 s less its age), then the origin is retried; a cached error never answers in a failure\'s place (spec 4.7)', () => {
    for (const [layer, decisionLayer] of SHARED_LAYERS) {
      for (const ageSeconds of [0, 2, 4]) {
        const { freshness } = engineStored(500, undefined, layer, ageSeconds, STORED_AT);
        const responseAtMs = STORED_AT - ageSeconds * 1000;
        for (const offset of OFFSETS_MS.filter((ms) => ms <= 10_000)) {
          const nowMs = STORED_AT + offset;
          const expected = reuseVerdict(freshness, nowMs).kind === 'fresh' ? REUSE_CACHED_ERROR : REUSE_ERROR_EXPIRED;
          expect(reuseVerdictOf(table, errorClassOf, 0, decisionLayer, 500, responseAtMs, -Infinity, nowMs), `${layer}, Age ${ageSeconds}, +${offset} ms`).toBe(expected);
          expect(storedAnswersFailure(table, 0, decisionLayer, 500, responseAtMs, 500, nowMs)).toBe(false);
        }
      }
    }
    // Hand-derived: a 500 stored at 100 s, 2 s old, answers until 102,999 ms and is retried at 103 s.
    expect(reuseVerdictOf(table, errorClassOf, 0, EDGE_DECISION, 500, 98_000, -Infinity, 102_999)).toBe(REUSE_CACHED_ERROR);
    expect(reuseVerdictOf(table, errorClassOf, 0, EDGE_DECISION, 500, 98_000, -Infinity, 103_000)).toBe(REUSE_ERROR_EXPIRED);
  });

  it('spec 4.9 layer 1: the browser keeps a copy exactly while the engine calls it fresh (no-cache: never; stale-while-revalidate: not past its lifetime)', () => {
    for (const [i, cacheControl] of HEADER_GRID.entries()) {
      const c = classOf[i];
      if (!table.stores(c, BROWSER_DECISION)) continue;
      for (const ageSeconds of AGES) {
        const { freshness } = engineStored(200, cacheControl, 'browser', ageSeconds, STORED_AT);
        for (const offset of OFFSETS_MS) {
          const nowMs = STORED_AT + offset;
          const fresh = storedIsFresh(table, c, BROWSER_DECISION, 200, STORED_AT - ageSeconds * 1000, nowMs);
          expect(fresh, `${cacheControl}, Age ${ageSeconds}, +${offset} ms`).toBe(reuseVerdict(freshness, nowMs).kind === 'fresh');
        }
      }
    }
  });

  it('hand-derived boundaries for "public, max-age=10, stale-while-revalidate=30, stale-if-error=5" at the edge, copy 3 s old at 100 s (RFC 5861: "up to N seconds" inclusive)', () => {
    const c = classOf[HEADER_GRID.indexOf('public, max-age=10, stale-while-revalidate=30, stale-if-error=5')];
    const responseAtMs = 97_000; // fresh until 107 s; stale-while-revalidate to 137 s; 5xx window max(5, 30) = 30 s at a shared layer
    const at = (nowMs: number, errorUntilMs = -Infinity) => NAMES[reuseVerdictOf(table, errorClassOf, c, EDGE_DECISION, 200, responseAtMs, errorUntilMs, nowMs)];
    expect(at(106_999)).toBe('fresh');
    expect(at(107_000)).toBe('stale-while-revalidate');
    expect(at(137_000)).toBe('stale-while-revalidate');
    expect(at(137_001)).toBe('revalidate');
    expect(at(120_000, 125_000)).toBe('stale-while-error-held');
    expect(at(137_001, 140_000)).toBe('revalidate');
    expect(storedAnswersFailure(table, c, EDGE_DECISION, 200, responseAtMs, 500, 137_000)).toBe(true);
    expect(storedAnswersFailure(table, c, EDGE_DECISION, 200, responseAtMs, 500, 137_001)).toBe(false);
    // A refused connection: stale-if-error=5 is the window (spec 4.7 row 1), to 112 s.
    expect(storedAnswersFailure(table, c, EDGE_DECISION, 200, responseAtMs, ORIGIN_REFUSED, 112_000)).toBe(true);
    expect(storedAnswersFailure(table, c, EDGE_DECISION, 200, responseAtMs, ORIGIN_REFUSED, 112_001)).toBe(false);
  });

  it('hand-derived: stale-if-error=60 past its freshness, an error held to 125 s: the copy answers in its place to 125 s, then the origin is asked (RFC 5861 §4, spec 7.1)', () => {
    const c = classOf[HEADER_GRID.indexOf('public, max-age=10, stale-if-error=60')];
    const at = (nowMs: number) => NAMES[reuseVerdictOf(table, errorClassOf, c, REGIONAL_DECISION, 200, 100_000, 125_000, nowMs)];
    expect(at(109_999)).toBe('fresh');
    expect(at(110_000)).toBe('stale-on-held-error');
    expect(at(124_999)).toBe('stale-on-held-error');
    expect(at(125_000)).toBe('revalidate');
  });
});
