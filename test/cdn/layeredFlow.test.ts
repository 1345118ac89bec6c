import { describe, expect, it } from 'vitest';
import {
  BAD_GATEWAY,
  OUTCOME_CACHED_ERROR,
  OUTCOME_COALESCED_EDGE,
  OUTCOME_COALESCED_REGIONAL,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
} from '../../src/cdn/layeredFlow.js';
import { CHUNK_SIZE_BYTES } from '../../src/policy/ranges.js';
import { flowHarness } from './flowHarness.js';

// Layers of the harness's flow without browsers: edge 0, regional 1, origin 2 (tiered); edge 0, origin 1 (untiered).
const EDGE = 0;

const REGIONAL = 1;
const ORIGIN = 2;
const LONG = { 'cache-control': 'public, max-age=3600' };

describe('LayeredFlow: requests in flight (spec 4.9)', () => {
  it('spec 4.9: a cold miss takes every hop (200 ms) and is stored at each layer when the response arrives there', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    const [cold, waitsOneMs, hit] = run([{ timeMs: 0 }, { timeMs: 179 }, { timeMs: 181 }]);
    expect(cold.latencyMs).toBe(200);
    expect(cold.layer).toBe(ORIGIN);
    // The response reaches the PoP at 180 ms: at 179 the request waits 1 ms for it (coalesced), at 181 it is a hit.
    expect(waitsOneMs.latencyMs).toBe(21);
    expect(waitsOneMs.layer).toBe(ORIGIN);
    expect(waitsOneMs.outcome & OUTCOME_COALESCED_EDGE).toBeTruthy();
    expect(hit.latencyMs).toBe(20);
    expect(hit.layer).toBe(EDGE);
    expect(flow.originActivity.requests).toBe(1);
    expect(flow.layerActivity[0].coalesced).toBe(1);
  });

  it('spec 4.9: a request 1 ms after a cold miss waits for that fetch (199 ms), not an edge hit at 20 ms', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    const [, second] = run([{ timeMs: 0 }, { timeMs: 1 }]);
    expect(second.latencyMs).toBe(199);
    expect(flow.originActivity.requests).toBe(1);
  });

  it('coalescing at the regional site: two PoPs missing the same key send one origin request', () => {
    const { run, flow } = flowHarness({ headers: LONG, edges: 2 });
    const [first, second] = run([{ timeMs: 0, region: 0 }, { timeMs: 10, region: 1 }]);
    expect(first.latencyMs).toBe(200);
    // The second PoP's fetch reaches the regional site at 25 ms and waits for the one answered there at 165 ms.
    expect(second.latencyMs).toBe(165 + 15 + 20 - 10);
    expect(second.outcome & OUTCOME_COALESCED_REGIONAL).toBeTruthy();
    expect(flow.originActivity.requests).toBe(1);
    expect(flow.layerActivity[1].coalesced).toBe(1);
  });

  it('coalescing: false shows the thundering herd: ten simultaneous misses send ten origin requests', () => {
    const requests = Array.from({ length: 10 }, (_, i) => ({ timeMs: i }));
    const herd = flowHarness({ headers: LONG, coalescing: false });
    expect(herd.run(requests).every((done) => done.layer === ORIGIN)).toBe(true);
    expect(herd.flow.originActivity.requests).toBe(10);
    const coalesced = flowHarness({ headers: LONG });
    coalesced.run(requests);
    expect(coalesced.flow.originActivity.requests).toBe(1);
  });
});

describe('LayeredFlow: revalidation and stale serving (RFC 9111 §4.2–4.3, RFC 5861, spec 4.3, 4.7)', () => {
  it('spec 4.3 / RFC 9111 §5.2.2.4: no-cache is stored and revalidated on every reuse: 304s, one body', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'no-cache' } });
    const [first, second, third] = run([{ timeMs: 0 }, { timeMs: 1_000 }, { timeMs: 2_000 }]);
    expect(first.outcome & OUTCOME_REVALIDATED).toBe(0);
    for (const again of [second, third]) {
      expect(again.outcome & OUTCOME_REVALIDATED).toBeTruthy();
      expect(again.layer).toBe(ORIGIN);
      expect(again.latencyMs).toBe(200);
    }
    expect(flow.originActivity).toEqual({ requests: 3, refused: 0, errors: 0, notModified: 2, bytes: 1000, serviceMs: 3 * 50 });
  });

  it('spec 4.3: public, max-age=0, must-revalidate (server-rendered pages) revalidates with a 304 instead of a full fetch', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'public, max-age=0, must-revalidate' } });
    run([{ timeMs: 0 }, { timeMs: 1_000 }]);
    expect(flow.originActivity.notModified).toBe(1);
    expect(flow.originActivity.bytes).toBe(1000);
  });

  it('validators off: a stale copy is fetched whole again (no 304)', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'no-cache' }, validators: false });
    run([{ timeMs: 0 }, { timeMs: 1_000 }]);
    expect(flow.originActivity.notModified).toBe(0);
    expect(flow.originActivity.bytes).toBe(2000);
  });

  it('RFC 5861 §3, spec 4.7 row 2: inside stale-while-revalidate the stale copy is served at once and exactly one background revalidation runs', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5, stale-while-revalidate=60' }, tiered: false });
    // Untiered: a miss is 20 + 100 + 50 = 170 ms. At 6 s the copy (made at 100 ms) is stale by 0.9 s.
    const [, stale, staleAgain, renewed] = run([{ timeMs: 0 }, { timeMs: 6_000 }, { timeMs: 6_050 }, { timeMs: 6_200 }]);
    expect(stale.latencyMs).toBe(20);
    expect(stale.layer).toBe(EDGE);
    expect(stale.outcome & OUTCOME_STALE_WHILE_REVALIDATE).toBeTruthy();
    expect(staleAgain.outcome & OUTCOME_STALE_WHILE_REVALIDATE).toBeTruthy();
    // The background revalidation is back at 6,150 ms: the next request gets the renewed copy.
    expect(renewed.outcome).toBe(0);
    expect(renewed.layer).toBe(EDGE);
    expect(flow.originActivity.requests).toBe(2);
    expect(flow.layerActivity[0].backgroundRevalidations).toBe(1);
    expect(flow.originActivity.notModified).toBe(1);
  });

  it('max-age=5 alone, with stale-while-revalidate, or with must-revalidate give different runs (the issue the flow fixes)', () => {
    const requests = [{ timeMs: 0 }, { timeMs: 6_000 }];
    const latencies = ['max-age=5', 'max-age=5, stale-while-revalidate=86400', 'max-age=5, must-revalidate'].map((cacheControl) => {
      const { run } = flowHarness({ headers: { 'cache-control': cacheControl } });
      return run(requests)[1].latencyMs;
    });
    // Plain and must-revalidate wait for a 304 from the origin; stale-while-revalidate answers from the edge.
    expect(latencies).toEqual([200, 20, 200]);
  });

  it('spec 4.7 row 1: with the origin refusing connections, an expired copy is served (the last good version)', () => {
    const incidents = [{ kind: 'outage' as const, start: '10s', duration: '10s' }];
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5' }, incidents });
    const [, during, after] = run([{ timeMs: 0 }, { timeMs: 12_000 }, { timeMs: 25_000 }]);
    expect(during.status).toBe(200);
    // The regional site, the first to hear the refusal, serves its own last good copy.
    expect(during.layer).toBe(REGIONAL);
    expect(during.outcome & OUTCOME_STALE_ON_REFUSED).toBeTruthy();
    // The refusal comes back after the round trips alone: 20 + 30 + 100, no service time.
    expect(during.latencyMs).toBe(150);
    expect(after.outcome & OUTCOME_REVALIDATED).toBeTruthy();
    expect(flow.originActivity.refused).toBe(1);
  });

  it('RFC 9111 §4.2.4: must-revalidate is never served stale, not even with the origin down: the client gets 502', () => {
    const incidents = [{ kind: 'outage' as const, start: '10s', duration: '10s' }];
    const { run } = flowHarness({ headers: { 'cache-control': 'max-age=5, must-revalidate' }, incidents });
    const [, during] = run([{ timeMs: 0 }, { timeMs: 12_000 }]);
    expect(during.status).toBe(BAD_GATEWAY);
    expect(during.layer).toBe(ORIGIN);
  });

  it('a cold miss during an outage is an error: nothing stale to serve', () => {
    const { run } = flowHarness({ headers: LONG, incidents: [{ kind: 'outage', start: '0s', duration: '10s' }] });
    expect(run([{ timeMs: 1_000 }])[0].status).toBe(BAD_GATEWAY);
  });
});

describe('LayeredFlow: origin error protection (spec 7.1)', () => {
  it('spec 7.1: during a 500 burst a no-cache object costs the origin one request per node per 5 s; the cached 500 is served meanwhile', () => {
    // One request every 100 ms for 20 s of burst through one PoP and its regional site.
    const requests = Array.from({ length: 200 }, (_, i) => ({ timeMs: 10_000 + i * 100 }));
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'no-cache' }, incidents: [{ kind: 'error-burst', start: '10s', duration: '20s' }] });
    const done = run(requests);
    expect(done.every((request) => request.status === 500)).toBe(true);
    // The regional site caches the 500 from when the origin made it (10.1 s) until 15.1 s, then 20.2, 25.3, 30.4 s:
    // 4 origin requests in 20 s; the PoP asks the regional site about as often.
    expect(flow.originActivity.requests).toBe(4);
    expect(flow.originActivity.errors).toBe(4);
    const cached = done.filter((request) => request.outcome & OUTCOME_CACHED_ERROR).length;
    expect(cached).toBeGreaterThanOrEqual(185);
  });

  it('spec 7.1 for content a layer never stores (no-store): requests pass through until the 500 is cached, then wait for its retry', () => {
    const requests = Array.from({ length: 200 }, (_, i) => ({ timeMs: 10_000 + i * 100 }));
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'no-store' }, incidents: [{ kind: 'error-burst', start: '10s', duration: '20s' }] });
    run(requests);
    // The requests at 10.0 and 10.1 s each go to the origin (nothing to wait for yet); then one retry per 5 s.
    expect(flow.originActivity.requests).toBe(5);
  });

  it('spec 7.1 with RFC 5861 §4: an error never replaces a usable stale copy; the copy is served instead', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5' }, incidents: [{ kind: 'error-burst', start: '10s', duration: '10s' }] });
    const [, during] = run([{ timeMs: 0 }, { timeMs: 12_000 }]);
    expect(during.status).toBe(200);
    expect(during.outcome & OUTCOME_STALE_ON_ERROR).toBeTruthy();
    expect(flow.originActivity.errors).toBe(1);
  });

  it('a slowdown multiplies the origin service time: 50 ms × 4', () => {
    const { run } = flowHarness({ headers: LONG, incidents: [{ kind: 'slowdown', start: '0s', duration: '10s', factor: 4 }] });
    expect(run([{ timeMs: 1_000 }])[0].latencyMs).toBe(20 + 30 + 100 + 200);
  });
});

describe('LayeredFlow: deploys, purges and staleness (spec 1.2 item 6, 4.7)', () => {
  it('spec 4.7: after a deploy without purge the cache serves what it holds, and the response says how long it has been outdated', () => {
    const { run } = flowHarness({ headers: LONG, incidents: [{ kind: 'deploy', at: '10s' }] });
    const [first, outdated] = run([{ timeMs: 0 }, { timeMs: 25_000 }]);
    expect(first.staleForMs).toBe(-1);
    expect(outdated.layer).toBe(EDGE);
    expect(outdated.staleForMs).toBe(15_000);
  });

  it('spec 1.2 item 6: a deploy with purge empties the caches once the purge has propagated (2 s), and the new version is fetched', () => {
    const { run, flow } = flowHarness({ headers: LONG, incidents: [{ kind: 'deploy', at: '10s', purge: true }] });
    const [, beforePurgeArrives, afterPurge] = run([{ timeMs: 0 }, { timeMs: 11_000 }, { timeMs: 13_000 }]);
    expect(beforePurgeArrives.layer).toBe(EDGE);
    expect(beforePurgeArrives.staleForMs).toBe(1_000);
    expect(afterPurge.layer).toBe(ORIGIN);
    expect(afterPurge.staleForMs).toBe(-1);
    expect(flow.originActivity.requests).toBe(2);
  });
});

describe('LayeredFlow: chunked range fetches (spec 4.8)', () => {
  const MEDIA = 20 * CHUNK_SIZE_BYTES;
  it('spec 4.8: chunks are cached independently; seeking into uncached parts fetches only the missing chunks', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    const [first, again, seek] = run([
      { timeMs: 0, firstChunk: 0, pieces: 2, objectBytes: MEDIA },
      { timeMs: 1_000, firstChunk: 0, pieces: 2, objectBytes: MEDIA },
      { timeMs: 2_000, firstChunk: 1, pieces: 2, objectBytes: MEDIA },
    ]);
    expect(first.layer).toBe(ORIGIN);
    // spec 4.8 item 3: served without contacting the origin once the chunks are cached.
    expect(again.layer).toBe(EDGE);
    expect(again.latencyMs).toBe(20);
    expect(seek.layer).toBe(ORIGIN);
    expect(flow.originActivity.requests).toBe(3);
    expect(flow.originActivity.bytes).toBe(3 * CHUNK_SIZE_BYTES);
  });

  it('spec 4.8 with coalescing: a chunk being fetched is shared by a second viewer', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    const [, second] = run([
      { timeMs: 0, firstChunk: 0, pieces: 1, objectBytes: MEDIA },
      { timeMs: 50, firstChunk: 0, pieces: 1, objectBytes: MEDIA },
    ]);
    expect(second.latencyMs).toBe(150);
    expect(second.outcome & OUTCOME_COALESCED_EDGE).toBeTruthy();
    expect(flow.originActivity.requests).toBe(1);
  });
});

describe('LayeredFlow: CDN disabled (spec 1.3)', () => {
  it('spec 1.3: a container deployment without the CDN sends every request to the origin, none coalesced', () => {
    const { run, flow } = flowHarness({ headers: LONG, cdnEnabled: false });
    const done = run([{ timeMs: 0 }, { timeMs: 1 }, { timeMs: 1_000 }]);
    expect(done.map((request) => request.layer)).toEqual([ORIGIN, ORIGIN, ORIGIN]);
    expect(done[2].latencyMs).toBe(20 + 100 + 50);
    expect(flow.originActivity.requests).toBe(3);
  });
});



describe('LayeredFlow: each cache layer\'s own lookups (the per-lookup hit ratio)', () => {
  it('spec 4.9: requests coalesced at a PoP are lookups there, and their PoP\'s one fetch is one lookup at the regional site', () => {
    // Two PoPs over one regional site (fixed hops: the PoP's fetch reaches the regional site 15 ms after the miss).
    const { run, flow } = flowHarness({ headers: LONG, edges: 2 });
    const done = run([
      // Object 0 from PoP 0: a miss at both layers; stored at the regional site at 165 ms, at PoP 0 at 180 ms.
      { timeMs: 0, region: 0, objectId: 0 },
      // Object 0 from PoP 1: a PoP miss whose fetch the regional site answers from its copy (at 1,015 ms);
      // the four requests after it wait for that fetch at the PoP.
      { timeMs: 1_000, region: 1, objectId: 0 },
      { timeMs: 1_001, region: 1, objectId: 0 },
      { timeMs: 1_002, region: 1, objectId: 0 },
      { timeMs: 1_003, region: 1, objectId: 0 },
      { timeMs: 1_004, region: 1, objectId: 0 },
      // Object 1 from PoP 1: a miss at both layers.
      { timeMs: 2_000, region: 1, objectId: 1, objectBytes: 3000 },
      // Object 0 again at PoP 1: a fresh edge hit.
      { timeMs: 3_000, region: 1, objectId: 0 },
    ]);
    expect(done.map((request) => request.layer)).toEqual([ORIGIN, REGIONAL, REGIONAL, REGIONAL, REGIONAL, REGIONAL, ORIGIN, EDGE]);
    // Per client request (summary.json hitRatio): 7 requests reached the regional layer, 5 were answered there: 5/7.
    const reachedRegional = done.filter((request) => request.layer >= REGIONAL).length;
    const answeredRegional = done.filter((request) => request.layer === REGIONAL).length;
    expect(answeredRegional / reachedRegional).toBeCloseTo(5 / 7, 12);
    // Per lookup: the regional site looked up three keys (PoP 0's fetch of 0, PoP 1's of 0, PoP 1's of 1) and held one: 1/3.
    expect(flow.layerActivity[REGIONAL]).toMatchObject({ lookups: 3, lookupHits: 1, lookupBytes: 1000 + 1000 + 3000, lookupHitBytes: 1000 });
    // At the PoPs every request is a lookup, coalesced ones too (misses): 8 lookups, 1 hit, as per request.
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 8, lookupHits: 1, lookupBytes: 7 * 1000 + 3000, lookupHitBytes: 1000, coalesced: 4 });
  });

  it('stale-while-revalidate and a cached error (spec 4.7, 7.1) are answered from the node: lookup hits; the background revalidation is a regional lookup', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5, stale-while-revalidate=60' } });
    // 0: miss at both; 10 s: stale at the PoP, served at once, one background fetch: the regional copy is stale too, it serves it and revalidates.
    run([{ timeMs: 0 }, { timeMs: 10_000 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 2, lookupHits: 1, backgroundRevalidations: 1 });
    expect(flow.layerActivity[REGIONAL]).toMatchObject({ lookups: 2, lookupHits: 1, backgroundRevalidations: 1 });
  });

  it('nothing is counted before the warm-up ends (measuring off)', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    flow.measuring = false;
    run([{ timeMs: 0 }, { timeMs: 1_000 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 0, lookupHits: 0, lookupBytes: 0, lookupHitBytes: 0 });
  });
});
