import { describe, expect, it } from 'vitest';
import { PopCapacity } from '../../src/metrics/popCapacity.js';

const stores = (count: number) => Array.from({ length: count }, () => ({ occupancy: 0 }));

describe('PopCapacity: peaks per PoP against its uplink (spec 1.1)', () => {
  it('peak egress over 1 s is the busiest whole second; errors send no body; peak requests/s counts every request', () => {
    const capacity = new PopCapacity(stores(2));
    capacity.start();
    // PoP 0: 1.25 GB in second 0 (10 Gbit/s), 0.25 GB in second 1; a 503 in second 1 adds a request, no bytes.
    capacity.record(100, 0, 1_000_000_000, 200);
    capacity.record(900, 0, 250_000_000, 200);
    capacity.record(1_100, 0, 250_000_000, 200);
    capacity.record(1_200, 0, 5_000_000_000, 503);
    capacity.record(1_300, 0, 1, 200);
    capacity.finish();
    const pop = capacity.figures(0);
    expect(pop.peakEgressBitsPerSecond1s).toBe(10e9);
    expect(pop.peakRequestsPerSecond).toBe(3);
    // 60 s window: every byte of the run, over 60 s.
    expect(pop.peakEgressBitsPerSecond60s).toBeCloseTo(((1_500_000_001) * 8) / 60, 6);
    expect(capacity.figures(1)).toEqual({ peakEgressBitsPerSecond1s: 0, peakEgressBitsPerSecond60s: 0, peakRequestsPerSecond: 0, storedBytesPeak: 0 });
  });

  it('the 60 s window slides by whole seconds: 1 MB a second for 100 s peaks at 60 MB over 60 s; a gap longer than a minute empties it', () => {
    const capacity = new PopCapacity(stores(1));
    capacity.start();
    for (let second = 0; second < 100; second++) capacity.record(second * 1_000 + 500, 0, 1_000_000, 200);
    // 200 s later a single 10 MB second: the old seconds have left the window.
    capacity.record(300_000, 0, 10_000_000, 200);
    capacity.finish();
    const pop = capacity.figures(0);
    expect(pop.peakEgressBitsPerSecond60s).toBe((60_000_000 * 8) / 60);
    expect(pop.peakEgressBitsPerSecond1s).toBe(80_000_000);
  });

  it('the window forgets exactly the seconds that left it: 5 MB at 0 s and at 59 s share a window, at 0 s and 60 s do not', () => {
    const within = new PopCapacity(stores(1));
    within.record(0, 0, 5_000_000, 200);
    within.record(59_999, 0, 5_000_000, 200);
    within.finish();
    expect(within.figures(0).peakEgressBitsPerSecond60s).toBe((10_000_000 * 8) / 60);
    const apart = new PopCapacity(stores(1));
    apart.record(0, 0, 5_000_000, 200);
    apart.record(60_000, 0, 5_000_000, 200);
    apart.finish();
    expect(apart.figures(0).peakEgressBitsPerSecond60s).toBe((5_000_000 * 8) / 60);
  });

  it('stored bytes at peak: the most a cache held at the end of a second it answered in, at the start or at the end', () => {
    const caches = stores(2);
    caches[1].occupancy = 7;
    const capacity = new PopCapacity(caches);
    capacity.start();
    caches[0].occupancy = 500;
    capacity.record(10, 0, 1, 200);
    capacity.record(1_010, 0, 1, 200); // second 0 closes: 500 read
    caches[0].occupancy = 300; // expiry or a purge shrank it
    capacity.record(2_020, 0, 1, 200);
    caches[1].occupancy = 3;
    capacity.finish();
    expect(capacity.figures(0).storedBytesPeak).toBe(500);
    expect(capacity.figures(1).storedBytesPeak).toBe(7);
  });
});
