import { describe, expect, it } from 'vitest';
import { flowHarness } from './flowHarness.js';

// The harness's tiered clock: client leg 20 ms, PoP ↔ regional 15 ms each way, regional ↔
// origin 50 ms each way, origin service 50 ms; a cold miss sent at 0 reaches the regional
// site at 15, the origin at 65, is answered at 115, back at the regional site at 165 and at
// the PoP at 180. Objects are 1,000 bytes.
const LONG = { 'cache-control': 'public, max-age=3600' };
const EDGE = 0;
const REGIONAL = 1;

describe('LayeredFlow conservation counters (docs/conservation.md)', () => {
  it('spec 4.9: every lookup ends in one outcome: a miss, a coalesced wait and a fresh hit at the PoP; one fetch per hop; 1,000 body bytes on each', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    run([{ timeMs: 0 }, { timeMs: 179 }, { timeMs: 181 }]);
    const [edge, regional] = flow.layerActivity;
    expect(edge).toMatchObject({ lookups: 3, lookupHits: 1, coalesced: 1, fetches: 1, backgroundRevalidations: 0, fetchedBytes: 1000, answeredFetchBytes: 0 });
    expect(regional).toMatchObject({ lookups: 1, lookupHits: 0, coalesced: 0, fetches: 1, fetchedBytes: 1000, answeredFetchBytes: 1000 });
    expect(flow.originActivity).toMatchObject({ requests: 1, bytes: 1000 });
  });

  it('RFC 5861 §3: a stale-while-revalidate serve is a lookup answered at once; its background revalidation is a fetch no lookup waits for', () => {
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'public, max-age=1, stale-while-revalidate=60' }, tiered: false });
    run([{ timeMs: 0 }, { timeMs: 2_000 }]);
    const edge = flow.layerActivity[EDGE];
    // 2 lookups = 1 answered from the store (stale) + 0 coalesced + (2 fetches − 1 background).
    expect(edge).toMatchObject({ lookups: 2, lookupHits: 1, fetches: 2, backgroundRevalidations: 1 });
    expect(flow.originActivity.requests).toBe(2);
  });

  it('docs/origin-accounting.md: a measured request that joins a warm-up request\'s fetch is a lookup and a coalesced wait, and that fetch is counted on neither side of any hop', () => {
    const { run, flow } = flowHarness({ headers: LONG });
    // Request 0 (at 0 ms) is the warm-up; request 1 (at 10 ms) is measured and waits for request 0's fetch.
    flow.measuredFromSeq = 1;
    run([{ timeMs: 0 }, { timeMs: 10 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 1, lookupHits: 0, coalesced: 1, fetches: 0, fetchedBytes: 0 });
    expect(flow.layerActivity[REGIONAL]).toMatchObject({ lookups: 0, fetches: 0, fetchedBytes: 0, answeredFetchBytes: 0 });
    expect(flow.originActivity).toMatchObject({ requests: 0, bytes: 0 });
  });

  it('spec 1.3: without a CDN each request passes the PoP as a fetch straight to the origin: no lookup', () => {
    const { run, flow } = flowHarness({ headers: LONG, cdnEnabled: false, tiered: false });
    run([{ timeMs: 0 }, { timeMs: 500 }]);
    expect(flow.layerActivity[EDGE]).toMatchObject({ lookups: 0, fetches: 2, lookupHits: 0, fetchedBytes: 2000 });
    expect(flow.originActivity).toMatchObject({ requests: 2, bytes: 2000 });
  });
});
