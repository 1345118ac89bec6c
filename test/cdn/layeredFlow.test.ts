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
import { newClientRequest } from '../../src/workload/request.js';
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

  it('spec 4.9, issue 27 (sixth round): a request is served at the clock\'s time, which the lookups, fetches and answers read: one sent at 5 ms while the clock is at 0 is refused, and sent at 0 ms it is answered (one origin request)', () => {
    const { flow, simulation } = flowHarness({ headers: LONG });
    const request = newClientRequest();
    request.sizeBytes = request.objectBytes = 1_000;
    request.timeMs = 5;
    expect(simulation.nowMs).toBe(0);
    expect(() => flow.serve(request, 0)).toThrow(/served at the clock's time/);
    expect(flow.requestsInFlight).toBe(0);
    request.timeMs = 0;
    flow.serve(request, 0);
    expect(flow.requestsInFlight).toBe(1);
    simulation.run();
    expect(flow.requestsInFlight).toBe(0);
    expect(flow.originActivity.requests).toBe(1);
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

describe('LayeredFlow: age (RFC 9111 §4.2.3)', () => {
  it('RFC 9111 §4.2.3: a copy ages from when its node sent the fetch, plus the Age it came with: max-age=1 is fresh at the PoP until 850 ms, at the regional site until 1,015 ms', () => {
    // The regional site sends at 15 ms and has the response at 165: its copy is 150 ms old
    // (response_delay), age 0 at 15. It answers the PoP with that age; the PoP, which sent at
    // 0, has it at 180 aged 150 + 180 = 330 ms: age 0 at −150, fresh until 850.
    const { run } = flowHarness({ headers: { 'cache-control': 'public, max-age=1' } });
    const [cold, edgeHit, regional, renewedHit, origin] = run([{ timeMs: 0 }, { timeMs: 840 }, { timeMs: 860 }, { timeMs: 990 }, { timeMs: 1_005 }]);
    expect([cold.layer, cold.latencyMs]).toEqual([ORIGIN, 200]);
    expect([edgeHit.layer, edgeHit.latencyMs]).toEqual([EDGE, 20]);
    // At 860 ms the PoP's copy is stale; the regional site's (fresh until 1,015) confirms it: 30 + 20 ms.
    expect([regional.layer, regional.latencyMs, regional.outcome]).toEqual([REGIONAL, 50, OUTCOME_REVALIDATED]);
    // The PoP sent at 860; the answer left the regional site at 875 aged 860: age 0 at 0, fresh until 1,000.
    expect([renewedHit.layer, renewedHit.latencyMs]).toEqual([EDGE, 20]);
    // At 1,005 both copies are stale: the regional site revalidates with the origin (a 304): 1,185 − 1,005 + 20 ms.
    expect([origin.layer, origin.latencyMs, origin.outcome]).toEqual([ORIGIN, 200, OUTCOME_REVALIDATED]);
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
    expect(flow.originActivity).toEqual({
      requests: 3,
      fullResponses: 1,
      notModified: 2,
      errors: 0,
      refused: 0,
      // The first is a miss; the copy held is then revalidated in the foreground each time.
      byCause: { miss: 1, expired: 2, errorRetry: 0, purged: 0, backgroundRevalidation: 0 },
      bytes: 1000,
      serviceMs: 3 * 50,
    });
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
    expect(flow.originActivity.byCause).toEqual({ miss: 1, expired: 0, errorRetry: 0, purged: 0, backgroundRevalidation: 1 });
  });

  it('RFC 5861 §3 through a tier: the regional site answers the PoP\'s background revalidation from its own stale copy, so the PoP asks about 3 times per expiry (the regional once)', () => {
    // One request every 100 ms through one PoP; ages count by RFC 9111 §4.2.3. The regional
    // site's copy is fetched at 15 ms (fresh until 1,015); the PoP's, fetched at 0 and 150 ms
    // old on arrival, is fresh until 850. At 900 the PoP is stale: it answers stale and
    // revalidates; the regional (fresh) answers with a copy 900 ms old, so the PoP's copy is
    // fresh only until 1,000: a refresh. From then on, each second s = 1,000 … 9,000: at s the
    // PoP revalidates and the regional (stale from s + 15) answers stale and revalidates with
    // the origin (back at s + 165); at s + 100 the PoP asks again (the regional's revalidation
    // still out: stale again); at s + 200 the regional is fresh and the PoP refreshed until
    // s + 1,000. So 1 + 9 × 3 = 28 PoP revalidations for 1 + 9 = 10 refreshes, 9 at the
    // regional (each a refresh), 1 + 9 origin requests.
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=1, stale-while-revalidate=600' } });
    const done = run(Array.from({ length: 100 }, (_, i) => ({ timeMs: i * 100 })));
    expect(flow.layerActivity[0]).toMatchObject({ backgroundRevalidations: 28, backgroundRefreshes: 10 });
    expect(flow.layerActivity[1]).toMatchObject({ backgroundRevalidations: 9, backgroundRefreshes: 9 });
    expect(flow.originActivity.requests).toBe(1 + 9);
    // Each PoP revalidation went with a stale answer: 28, against 9 on a single layer.
    expect(done.filter((request) => request.outcome & OUTCOME_STALE_WHILE_REVALIDATE)).toHaveLength(28);
  });

  it('RFC 5861 §3 on a single layer: one background revalidation per expiry', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=1, stale-while-revalidate=600' }, tiered: false });
    run(Array.from({ length: 100 }, (_, i) => ({ timeMs: i * 100 })));
    const edge = flow.layerActivity[0];
    expect(edge.backgroundRevalidations).toBe(edge.backgroundRefreshes);
    expect(edge.backgroundRevalidations).toBeGreaterThan(5);
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
    // docs/origin-accounting.md: the first is a miss, the other three retries of a cached error whose 5 s are over.
    expect(flow.originActivity.byCause).toEqual({ miss: 1, expired: 0, errorRetry: 3, purged: 0, backgroundRevalidation: 0 });
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

  it('spec 7.1 with RFC 5861 §4: an error never replaces a copy inside stale-if-error; the copy is served instead', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5, stale-if-error=60' }, incidents: [{ kind: 'error-burst', start: '10s', duration: '10s' }] });
    const [, during] = run([{ timeMs: 0 }, { timeMs: 12_000 }]);
    expect(during.status).toBe(200);
    expect(during.outcome & OUTCOME_STALE_ON_ERROR).toBeTruthy();
    expect(flow.originActivity.errors).toBe(1);
  });

  it('RFC 9111 §4.2.4: without stale-if-error a 500 is not answered from the stale copy (a 5xx is not an unreachable origin, spec 4.7)', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=5' }, incidents: [{ kind: 'error-burst', start: '10s', duration: '10s' }] });
    const [, during] = run([{ timeMs: 0 }, { timeMs: 12_000 }]);
    expect(during.status).toBe(500);
    expect(during.outcome & OUTCOME_STALE_ON_ERROR).toBe(0);
    expect(flow.originActivity.errors).toBe(1);
  });

  // One request every 100 ms, 10.0–29.9 s, through one PoP and its regional site, a 500 burst 10–30 s.
  // The first goes up: origin at 10.065 s, its 500 made at 10.115 s, so the regional site holds it
  // until 15.115 s and the PoP (answered at 10.18 s) too. The first request after that, at 15.2 s,
  // asks again (origin 15.265 s, held until 20.315 s), then 20.4 s and 25.6 s: 4 origin requests.
  const burstRequests = Array.from({ length: 200 }, (_, i) => ({ timeMs: 10_000 + i * 100 }));
  const burst = [{ kind: 'error-burst' as const, start: '10s', duration: '20s' }];

  it('spec 7.1 with a stale copy and stale-if-error: the copy answers every request and the 500 is held beside it, 4 origin requests in 20 s (one per 5 s)', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=1, stale-if-error=60' }, incidents: burst });
    const done = run([{ timeMs: 0 }, ...burstRequests]).slice(1);
    expect(done.every((request) => request.status === 200 && (request.outcome & OUTCOME_STALE_ON_ERROR) !== 0)).toBe(true);
    expect(flow.originActivity.requests).toBe(1 + 4);
    expect(flow.originActivity.errors).toBe(4);
    // The PoP holds the error as long as its regional site: it asked the regional site 4 times, not once per request.
    expect(flow.layerActivity[0].fetches).toBe(1 + 4);
  });

  it('spec 7.1 with a stale copy and no stale-if-error (RFC 9111 §4.2.4): the cached 500 answers, the same 4 origin requests in 20 s', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=1' }, incidents: burst });
    const done = run([{ timeMs: 0 }, ...burstRequests]).slice(1);
    expect(done.every((request) => request.status === 500)).toBe(true);
    // The first request of each 5 s and the next one (100 ms later, the retry takes 180 ms) wait for the retry; the 192 others get the cached 500.
    expect(done.filter((request) => request.outcome & OUTCOME_CACHED_ERROR)).toHaveLength(192);
    expect(flow.originActivity.requests).toBe(1 + 4);
    expect(flow.originActivity.errors).toBe(4);
  });

  it('spec 7.1 with stale-while-revalidate: the failed background revalidation keeps the copy (RFC 5861 §3) and holds the 500: 4 origin requests in 20 s, every answer stale', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'max-age=1, stale-while-revalidate=600' }, incidents: burst });
    const done = run([{ timeMs: 0 }, ...burstRequests]).slice(1);
    expect(done.every((request) => request.status === 200 && (request.outcome & OUTCOME_STALE_WHILE_REVALIDATE) !== 0)).toBe(true);
    expect(flow.originActivity.requests).toBe(1 + 4);
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
    // docs/origin-accounting.md: the refetch is counted as caused by the purge, not as a miss.
    expect(flow.originActivity.byCause).toEqual({ miss: 1, expired: 0, errorRetry: 0, purged: 1, backgroundRevalidation: 0 });
  });

  // Purges by version (src/cdn/purge.ts): deploy at 10 s, the purge reaches every node at 12 s.
  const PURGED_AT_10S = [{ kind: 'deploy' as const, at: '10s', purge: true }];

  it('spec 1.2 item 6: an old version from a fetch slower than the purge delay (3 s origin) is not stored when it arrives after the purge', () => {
    const { run, flow } = flowHarness({ headers: LONG, incidents: PURGED_AT_10S, serviceMs: 3_000 });
    // Sent at 9.9 s: it reaches the origin at 9,900 + 15 + 50 = 9,965 ms, before the deploy (the
    // old version), which answers at 12,965; back at the regional site at 13,015 and the PoP at
    // 13,030, both after the purge reached them: the client still gets it, 3,030 ms outdated.
    const [slow, next] = run([{ timeMs: 9_900 }, { timeMs: 14_000 }]);
    expect(slow.layer).toBe(ORIGIN);
    expect(slow.latencyMs).toBe(20 + 30 + 100 + 3_000);
    expect(slow.staleForMs).toBe(13_030 - 10_000);
    // Neither node kept it (by store time both would have: stored at 13,015 and 13,030 > 12,000,
    // and this request would be an edge hit 4,000 ms outdated): the new version is fetched.
    expect(next.layer).toBe(ORIGIN);
    expect(next.staleForMs).toBe(-1);
    expect(flow.originActivity.requests).toBe(2);
  });

  it('spec 1.2 item 6: a new-version copy fetched between the deploy and the purge\'s arrival survives the purge', () => {
    const { run, flow } = flowHarness({ headers: LONG, incidents: PURGED_AT_10S });
    // Object 0 is cached before the deploy; object 1 is first asked for at 10.5 s, reaching the
    // origin at 10,565 ms (the new version), stored at the regional site at 10,665 and the PoP at 10,680.
    const [, , oldCopy, newCopy] = run([
      { timeMs: 0, objectId: 0 },
      { timeMs: 10_500, objectId: 1 },
      { timeMs: 13_000, objectId: 0 },
      { timeMs: 13_000, objectId: 1 },
    ]);
    expect(oldCopy.layer).toBe(ORIGIN);
    expect(newCopy.layer).toBe(EDGE);
    expect(newCopy.staleForMs).toBe(-1);
    // Three origin requests: object 0 twice (before and after the purge), object 1 once (by store time: 4).
    expect(flow.originActivity.requests).toBe(3);
  });

  it('spec 1.2 item 6: an old copy the regional site serves just before the purge reaches it is not stored at the PoP it reaches after', () => {
    const { run, flow } = flowHarness({ headers: LONG, incidents: PURGED_AT_10S, edges: 2 });
    // PoP 1 asks at 11,975 ms: its regional site looks up at 11,990 (purge not there yet) and
    // answers with the copy the origin read at 65 ms; the PoP gets it at 12,005, after the purge.
    const [, justBefore, after] = run([
      { timeMs: 0, region: 0 },
      { timeMs: 11_975, region: 1 },
      { timeMs: 12_100, region: 1 },
    ]);
    expect(justBefore.layer).toBe(REGIONAL);
    expect(justBefore.staleForMs).toBe(12_005 - 10_000);
    // By store time PoP 1 would have kept it (stored at 12,005 ≥ 12,000): an edge hit 2,100 ms outdated.
    expect(after.layer).toBe(ORIGIN);
    expect(after.staleForMs).toBe(-1);
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

  it('nothing is counted for requests before the warm-up ends (docs/origin-accounting.md)', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    flow.measuredFromSeq = Infinity;
    run([{ timeMs: 0 }, { timeMs: 1_000 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 0, lookupHits: 0, lookupBytes: 0, lookupHitBytes: 0 });
  });
});
