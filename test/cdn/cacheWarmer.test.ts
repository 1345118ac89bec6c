import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import { CacheWarmer } from '../../src/cdn/cacheWarmer.js';
import { OriginModel } from '../../src/cdn/origin.js';
import { freshUntilMs } from '../../src/cdn/reuseRule.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import { CompiledDecisionTable } from '../../src/policy/compile.js';
import { RandomStreams } from '../../src/sim/random.js';
import { IncidentSchedule } from '../../src/cdn/incidentSchedule.js';
import { incidentsSchema, type IncidentInput } from '../../src/workload/incidents/incidentSchema.js';
import { newClientRequest } from '../../src/workload/request.js';
import { FixedNetwork, flowHarness } from './flowHarness.js';

/** Two PoPs (region 0 → PoP 0, region 1 → PoP 1) behind one regional site, one content class with `cacheControl`; `incidents` as the flow harness's. */
function warmerFor(cacheControl: string, capacity = 1e9, incidentInputs: IncidentInput[] = []) {
  const table = new CompiledDecisionTable({ kind: 'container', framework: 'next', cdnEnabled: true });
  table.add({ url: '/objects/object', status: 200, headers: { 'Cache-Control': cacheControl } });
  // As the flow harness: a 500 without headers is error-cached (spec 7.1).
  const errorClassOf = new Int32Array(100).fill(-1);
  errorClassOf[0] = table.add({ url: '/objects/object', status: 500, headers: {} });
  let nodes = 0;
  const node = () => new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity })), nodes++);
  const edges = [node(), node()];
  const regionals = [node()];
  const incidents = incidentsSchema.parse(incidentInputs);
  const conditions = incidents.length ? new IncidentSchedule(incidents).conditions : null;
  const slot = conditions === null ? 0 : conditions.classSlot('objects');
  const origin = new OriginModel(conditions, Int32Array.of(slot), null, 100, new RandomStreams(1).stream('origin.errors'), () => 0);
  const warmer = new CacheWarmer({ network: new FixedNetwork(2, true, true), edges, regionals, decisions: table, errorClassOf, classOf: null, origin, browsers: null, cdnEnabled: true, purgeDelayMs: 2_000 });
  const request = newClientRequest();
  /** Warms one whole-object request; returns whether the CDN answered it. */
  const send = (timeMs: number, objectId: number, region = 0, sizeBytes = 1_000): boolean => {
    const before = warmer.counts.cdnHits;
    Object.assign(request, { timeMs, objectId, region, key: objectId, sizeBytes, objectBytes: sizeBytes });
    warmer.warm(request);
    return warmer.counts.cdnHits > before;
  };
  /** What a node holds for `key`: [status, until when an error is held beside the copy], or null. */
  const entryOf = (node: SharedCacheNode, key: number): [number, number] | null => {
    const local = node.store.storedLocalOf(key);
    return local < 0 ? null : [node.statusOf(local), node.errorUntilOf(local)];
  };
  return { warmer, edges, regionals, send, entryOf };
}

/** RFC 9111 §4.2.1: the end of freshness of `key`'s stored copy, its response time plus the lifetime (ms) the class gives it (nodes keep no end of freshness). */
function freshUntil(node: SharedCacheNode, key: number, lifetimeMs: number): number {
  return freshUntilMs(node.responseAtOf(node.store.storedLocalOf(key)), lifetimeMs);
}

describe('CacheWarmer: the caches alone, in no simulated time (spec 4.9)', () => {
  it('spec 4.9: a miss goes to the origin and is stored at the PoP and the regional site; the same PoP then hits, another PoP hits the regional site', () => {
    const { warmer, edges, regionals, send } = warmerFor('public, max-age=600');
    expect(send(1_000, 7)).toBe(false);
    expect(edges[0].store.objectCount).toBe(1);
    expect(regionals[0].store.objectCount).toBe(1);
    // RFC 9111 §4.2.1: fresh for max-age from when the origin made it (here: when asked, no latency).
    expect(freshUntil(edges[0], 7, 600_000)).toBe(601_000);
    expect(send(2_000, 7)).toBe(true);
    expect(send(3_000, 7, 1)).toBe(true);
    expect(edges[1].store.objectCount).toBe(1);
    // The regional copy's age counts at the PoP (RFC 9111 §4.2.3): fresh until 601 s there too.
    expect(freshUntil(edges[1], 7, 600_000)).toBe(601_000);
    expect(warmer.counts).toEqual({ requests: 3, atEdge: 3, cdnHits: 2, edgeHits: 1, errors: 0 });
  });

  it('RFC 9111 §4.2: an expired copy is fetched again and stored with a new lifetime', () => {
    const { edges, send } = warmerFor('public, max-age=60');
    send(0, 3);
    expect(send(59_999, 3)).toBe(true);
    expect(send(60_000, 3)).toBe(false);
    expect(freshUntil(edges[0], 3, 60_000)).toBe(120_000);
  });

  it('RFC 5861 §3 (spec 4.7 row 2): inside stale-while-revalidate the stale copy answers and is renewed at once', () => {
    const { edges, regionals, send } = warmerFor('public, max-age=10, stale-while-revalidate=60');
    send(0, 5);
    expect(send(30_000, 5)).toBe(true);
    // The regional site was stale too: it answered the PoP's revalidation with its stale copy
    // (made at 0 s, so the PoP's stays fresh until 10 s) and renewed its own from the origin.
    expect(freshUntil(edges[0], 5, 10_000)).toBe(10_000);
    expect(freshUntil(regionals[0], 5, 10_000)).toBe(40_000);
    expect(send(31_000, 5)).toBe(true);
    expect(freshUntil(edges[0], 5, 10_000)).toBe(40_000);
    // Past the window (10 s + 60 s after the renewal at 30 s) the request waits for the origin.
    expect(send(100_001, 5)).toBe(false);
  });

  it('spec 8.1 row 5: no-store content is never stored, every request reaches the origin', () => {
    const { warmer, edges, regionals, send } = warmerFor('no-store, no-cache, must-revalidate');
    for (let t = 0; t < 5; t++) send(t * 1_000, 1);
    expect(warmer.counts.cdnHits).toBe(0);
    expect(edges[0].store.objectCount + regionals[0].store.objectCount).toBe(0);
  });

  it('LRU capacity: a 2,500-byte PoP holds the two most recent 1,000-byte objects', () => {
    const { edges, send } = warmerFor('public, max-age=600', 2_500);
    for (const id of [1, 2, 3]) send(id, id);
    expect(edges[0].store.storedLocalOf(1)).toBe(-1);
    expect(edges[0].store.objectCount).toBe(2);
  });

  it('resetCounts starts a new block', () => {
    const { warmer, send } = warmerFor('public, max-age=600');
    send(0, 1);
    send(1, 1);
    warmer.resetCounts();
    send(2, 1);
    expect(warmer.counts).toEqual({ requests: 1, atEdge: 1, cdnHits: 1, edgeHits: 1, errors: 0 });
  });

  it('answers every request as the layered flow does on a network whose hops take 0 ms (2,000 requests, expiry and stale-while-revalidate)', () => {
    const cacheControl = 'public, max-age=20, stale-while-revalidate=15';
    const flow = flowHarness({ headers: { 'Cache-Control': cacheControl }, instantaneous: true, edges: 2, coalescing: false });
    const { send } = warmerFor(cacheControl);
    let state = 12_345;
    const next = (n: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % n;
    };
    const sent = Array.from({ length: 2_000 }, (_, i) => ({ timeMs: i * 37, objectId: next(50), region: next(2) }));
    const flowHits = flow.run(sent).map((done) => done.layer < 2);
    const warmHits = sent.map((request) => send(request.timeMs, request.objectId, request.region));
    expect(warmHits).toEqual(flowHits);
    // Not all hits nor all misses: the comparison covers both.
    expect(warmHits.filter(Boolean).length).toBeGreaterThan(1_000);
    expect(warmHits.filter(Boolean).length).toBeLessThan(2_000);
  });

  it('spec 1.2 item 6: a purge drops the copies the origin read before the deploy once it reaches the caches (2 s later), and keeps the new version fetched meanwhile', () => {
    const { send } = warmerFor('public, max-age=3600', 1e9, [{ kind: 'deploy', at: '10s', purge: true }]);
    expect(send(0, 0)).toBe(false);
    // Read by the origin at 10.5 s: the deploy's version.
    expect(send(10_500, 1)).toBe(false);
    expect(send(11_999, 0)).toBe(true);
    // The purge is at every node from 12 s: object 0's copy (read at 0 s) goes, object 1's stays
    // (by store time it went too: stored at 10.5 s, before the purge arrived).
    expect(send(12_000, 0)).toBe(false);
    expect(send(12_000, 1)).toBe(true);
  });

  it('spec 1.2 item 6: purges by version as the layered flow on a network whose hops take 0 ms (2,000 requests, three deploys, two with purge)', () => {
    const cacheControl = 'public, max-age=600';
    const incidents: IncidentInput[] = [
      { kind: 'deploy', at: '20s', purge: true },
      { kind: 'deploy', at: '35s' },
      { kind: 'deploy', at: '50s', purge: true },
    ];
    const flow = flowHarness({ headers: { 'Cache-Control': cacheControl }, instantaneous: true, edges: 2, coalescing: false, incidents });
    const { send } = warmerFor(cacheControl, 1e9, incidents);
    const stream = new RandomStreams(3).stream('purge comparison');
    const next = (n: number): number => Math.floor(stream.next() * n);
    const sent = Array.from({ length: 2_000 }, (_, i) => ({ timeMs: i * 37, objectId: next(400), region: next(2) }));
    const flowHits = flow.run(sent).map((done) => done.layer < 2);
    const warmHits = sent.map((request) => send(request.timeMs, request.objectId, request.region));
    expect(warmHits).toEqual(flowHits);
    // Both branches of the rule occur: misses while each purge travels (new-version copies
    // stored before it arrives, which it keeps), and misses just after it arrives (old copies dropped).
    for (const deployMs of [20_000, 50_000]) {
      const missesIn = (fromMs: number, toMs: number) => sent.filter((request, i) => !warmHits[i] && request.timeMs >= fromMs && request.timeMs < toMs).length;
      expect(missesIn(deployMs, deployMs + 2_000)).toBeGreaterThan(0);
      expect(missesIn(deployMs + 2_000, deployMs + 4_000)).toBeGreaterThan(missesIn(deployMs - 2_000, deployMs));
    }
  });

  // spec 7.1 against 4.7: the warm-up's stale-on-error and cached-error branches, request by request
  // against the flow on a 0 ms network, through a 500 burst (100 % of answers, so no draws).
  it.each([
    ['RFC 5861 §4: stale-if-error: the copy answers and the 500 is held beside it', 'public, max-age=20, stale-if-error=600'],
    ['RFC 9111 §4.2.4: no stale-if-error: the 500 is cached 5 s in the copy\'s place', 'public, max-age=20'],
    ['RFC 5861 §3: stale-while-revalidate: the failed revalidation keeps the copy and holds the 500', 'public, max-age=20, stale-while-revalidate=600'],
    ['RFC 9111 §4.2.4: must-revalidate: the cached 500', 'public, max-age=20, must-revalidate'],
  ])('spec 7.1: %s — every request answered as the layered flow answers it (2,000 requests, a 30 s burst)', (_name, cacheControl) => {
    const incidents: IncidentInput[] = [{ kind: 'error-burst', start: '20s', duration: '30s', status: 500, share: '100%' }];
    const flow = flowHarness({ headers: { 'Cache-Control': cacheControl }, instantaneous: true, edges: 2, coalescing: false, incidents });
    const { warmer, send, edges, regionals, entryOf } = warmerFor(cacheControl, 1e9, incidents);
    let state = 777;
    const next = (n: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % n;
    };
    const sent = Array.from({ length: 2_000 }, (_, i) => ({ timeMs: i * 37, objectId: next(20), region: next(2) }));
    const flowDone = flow.run(sent);
    const warmed = sent.map((request) => {
      const errorsBefore = warmer.counts.errors;
      const hit = send(request.timeMs, request.objectId, request.region);
      return { hit, error: warmer.counts.errors > errorsBefore };
    });
    expect(warmed).toEqual(flowDone.map((done) => ({ hit: done.layer < 2, error: done.status !== 200 })));
    // Clients saw errors only without permission to serve stale on a 5xx (RFC 9111 §4.2.4).
    const flowErrors = flowDone.filter((done) => done.status !== 200).length;
    if (cacheControl.includes('stale-')) expect(flowErrors).toBe(0);
    else expect(flowErrors).toBeGreaterThan(0);
    // During the burst (20–50 s) the CDN answers nearly every request: it asks the origin about once per key per 5 s.
    const inBurst = flowDone.filter((done) => done.sendMs >= 20_000 && done.sendMs < 50_000);
    expect(inBurst.filter((done) => done.layer < 2).length).toBeGreaterThan(inBurst.length * 0.8);
    // After the burst (50 s on) every PoP entry holds a good copy again, with no error held.
    const last = sent.length - 1;
    expect(entryOf(edges[sent[last].region], sent[last].objectId)?.[0]).toBe(200);
    expect(regionals[0].store.objectCount).toBeGreaterThan(0);
  });
});
