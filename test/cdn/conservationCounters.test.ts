import { describe, expect, it } from 'vitest';
import { flowHarness } from './flowHarness.js';

// The harness's tiered clock: client leg 20 ms, PoP ↔ regional 15 ms each way, regional ↔
// origin 25 ms each way, origin service 100 ms; a cold miss sent at 0 reaches the regional
// site at 15, the origin at 40, is answered at 140, back at the regional site at 165 and at
// the PoP at 180. Objects are 1,000 bytes.
const LONG = { 'cache-control': 'public, max-age=3600' };
const EDGE = 0;
const REGIONAL = 1;

describe('LayeredFlow conservation counters (docs/conservation.md)', () => {
  it('spec 4.9: every arrival ends in one outcome: a miss, a coalesced wait and a fresh hit at the PoP; one fetch per hop; 1,000 body bytes on each', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    run([{ timeMs: 0 }, { timeMs: 179 }, { timeMs: 181 }]);
    const [edge, regional] = flow.layerActivity;
    expect(edge).toMatchObject({ arrivals: 3, freshHits: 1, coalesced: 1, fetches: 1, staleWhileRevalidate: 0, cachedErrors: 0, bytesReceived: 1000, bytesSentDown: 0 });
    expect(regional).toMatchObject({ arrivals: 1, freshHits: 0, coalesced: 0, fetches: 1, bytesReceived: 1000, bytesSentDown: 1000 });
    expect(flow.originActivity).toMatchObject({ requests: 1, bytes: 1000 });
    expect(edge.underwayAtStart).toEqual({ fetches: 0, bytes: 0 });
  });

  it('RFC 5861 §3: a stale-while-revalidate serve is an arrival answered at once; its background revalidation is a fetch no arrival made', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'public, max-age=1, stale-while-revalidate=60' }, tiered: false });
    run([{ timeMs: 0 }, { timeMs: 2_000 }]);
    const edge = flow.layerActivity[EDGE];
    // 2 arrivals = 0 fresh + 1 stale + 0 cached errors + 0 coalesced + (2 fetches − 1 background).
    expect(edge).toMatchObject({ arrivals: 2, freshHits: 0, staleWhileRevalidate: 1, fetches: 2, backgroundRevalidations: 1 });
    expect(flow.originActivity.requests).toBe(2);
  });

  it('a fetch sent before measuring starts (10 ms) and arriving after is underway at the start; an answer sent down before it ends (170 ms) and back after is underway at the end', () => {
    const { run, flow } = flowHarness({ headers: LONG, measureFromMs: 10, measureUntilMs: 170 });
    run([{ timeMs: 0 }]);
    const [edge, regional] = flow.layerActivity;
    // The PoP's fetch left at 0 and reached the regional site at 15: counted there, not at the PoP.
    expect(edge).toMatchObject({ arrivals: 0, fetches: 0, bytesReceived: 0, underwayAtStart: { fetches: 1, bytes: 0 }, underwayAtEnd: { fetches: 0, bytes: 1000 } });
    // regional arrivals 1 = PoP fetches 0 + 1 underway at the start − 0 at the end.
    expect(regional).toMatchObject({ arrivals: 1, fetches: 1, bytesReceived: 1000, bytesSentDown: 1000, underwayAtStart: { fetches: 0, bytes: 0 }, underwayAtEnd: { fetches: 0, bytes: 0 } });
    expect(flow.originActivity).toMatchObject({ requests: 1, bytes: 1000 });
  });

  it("an origin answer sent before measuring starts (150 ms) is underway at the start: the regional site's 1,000 bytes received = origin's 0 + 1,000", () => {
    const { run, flow } = flowHarness({ headers: LONG, measureFromMs: 150 });
    run([{ timeMs: 0 }]);
    expect(flow.layerActivity[REGIONAL]).toMatchObject({ arrivals: 0, fetches: 0, bytesReceived: 1000, underwayAtStart: { fetches: 0, bytes: 1000 } });
    expect(flow.originActivity).toMatchObject({ requests: 0, bytes: 0 });
    expect(flow.layerActivity[EDGE]).toMatchObject({ bytesReceived: 1000, underwayAtStart: { fetches: 0, bytes: 0 } });
  });

  it('spec 1.3: without a CDN each request passes the PoP as a fetch straight to the origin', () => {
    const { run, flow } = flowHarness({ headers: LONG, cdnEnabled: false, tiered: false });
    run([{ timeMs: 0 }, { timeMs: 500 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ arrivals: 2, fetches: 2, freshHits: 0, bytesReceived: 2000 });
    expect(flow.originActivity).toMatchObject({ requests: 2, bytes: 2000 });
  });
});
