import { describe, expect, it } from 'vitest';
import { mean, standardDeviation } from 'simple-statistics';
import { ShapedWorkload } from '../../src/workload/shapedWorkload.js';
import { arrivalShapeSchema, type ArrivalShapeInput } from '../../src/workload/arrivals/arrivalsSchema.js';
import { buildClientPlaces, loadClientCities } from '../../src/topology/clients.js';
import { localHourOfDay, utcOffsetHoursForLongitude } from '../../src/workload/arrivals/localTime.js';
import { Catalogue } from '../../src/workload/catalogue.js';
import type { ClientRequest } from '../../src/workload/request.js';
import { RandomStreams } from '../../src/sim/random.js';
import { Simulation } from '../../src/sim/simulation.js';
import { REGIONS } from '../../src/topology/regions.js';

interface Run {
  requests: ClientRequest[];
  catalogue: Catalogue;
  outcome: string;
  clockMs: number;
  /** Distinct record objects the sink was handed. */
  records: number;
}

/** Attaches a ShapedWorkload to a fresh Simulation, runs to the horizon and copies every request. */
function run(options: { seed: number; ratePerSecond: number; shares: number[]; horizonMs: number; shape?: ArrivalShapeInput }): Run {
  const streams = new RandomStreams(options.seed);
  const catalogue = new Catalogue(
    { objects: 10_000, zipfExponent: 0.8, objectSize: { median: 32_000, sigma: 1, min: 100, max: 1e8 } },
    streams.stream('catalogue.sizes'),
  );
  const shares = Object.fromEntries(REGIONS.map((region, r) => [region, options.shares[r]])) as Record<(typeof REGIONS)[number], number>;
  const workload = new ShapedWorkload(
    { ratePerSecond: options.ratePerSecond, shape: arrivalShapeSchema.parse(options.shape ?? {}), places: buildClientPlaces(loadClientCities(), shares) },
    catalogue,
    streams,
  );
  const simulation = new Simulation();
  const requests: ClientRequest[] = [];
  const records = new Set<ClientRequest>();
  workload.attach(simulation, (request) => {
    records.add(request);
    requests.push({ ...request });
  });
  const outcome = simulation.run({ untilMs: options.horizonMs });
  return { requests, catalogue, outcome, clockMs: simulation.nowMs, records: records.size };
}

const SHARES = [0.5, 0.3, 0.2, 0, 0];
const baseline = run({ seed: 1, ratePerSecond: 1_000, shares: SHARES, horizonMs: 100_000 });

function interArrivals(requests: ClientRequest[], region: number): number[] {
  const times = requests.filter((r) => r.region === region).map((r) => r.timeMs);
  return times.map((t, i) => t - (i === 0 ? 0 : times[i - 1]));
}

describe('ShapedWorkload with the default flat shape: Poisson arrivals per region', () => {
  it('1000 requests/s for 100 simulated seconds gives 100,000 requests within 2%; the run ends at the horizon', () => {
    expect(baseline.outcome).toBe('horizon');
    expect(baseline.clockMs).toBe(100_000);
    expect(Math.abs(baseline.requests.length / 100_000 - 1)).toBeLessThan(0.02);
  });

  it('timestamps are non-decreasing and within [0, 100,000] ms', () => {
    const { requests } = baseline;
    let decreases = 0;
    for (let i = 1; i < requests.length; i++) if (requests[i].timeMs < requests[i - 1].timeMs) decreases++;
    expect(decreases).toBe(0);
    expect(requests[0].timeMs).toBeGreaterThan(0);
    expect(requests[requests.length - 1].timeMs).toBeLessThanOrEqual(100_000);
  });

  it('region shares [0.5, 0.3, 0.2, 0, 0] are matched within 0.01; regions with share 0 get no request', () => {
    const counts = [0, 0, 0, 0, 0];
    for (const r of baseline.requests) counts[r.region]++;
    const n = baseline.requests.length;
    for (let region = 0; region < 5; region++) expect(Math.abs(counts[region] / n - SHARES[region])).toBeLessThan(0.01);
    expect(counts[3]).toBe(0);
    expect(counts[4]).toBe(0);
  });

  it('inter-arrival times per region are exponential: mean within 2% of 1/(rate·share) (2, 3.33, 5 ms), coefficient of variation within 0.03 of 1', () => {
    for (const region of [0, 1, 2]) {
      const gaps = interArrivals(baseline.requests, region);
      const expectedMean = 1 / ((1_000 * SHARES[region]) / 1_000);
      expect(Math.abs(mean(gaps) / expectedMean - 1)).toBeLessThan(0.02);
      expect(Math.abs(standardDeviation(gaps) / mean(gaps) - 1)).toBeLessThan(0.03);
    }
  });

  it('each request carries its object size from the catalogue, and object 0 gets its Zipf share (≈3.7%) within 0.003', () => {
    const { requests, catalogue } = baseline;
    expect(requests.every((r) => r.sizeBytes === catalogue.objectSizes[r.objectId])).toBe(true);
    expect(requests.every((r) => Number.isInteger(r.objectId) && r.objectId >= 0 && r.objectId < 10_000)).toBe(true);
    const zero = requests.filter((r) => r.objectId === 0).length / requests.length;
    expect(Math.abs(zero - catalogue.popularity[0])).toBeLessThan(0.003);
  });

  it('the sink is handed one reused record (copy it to keep it)', () => {
    expect(baseline.records).toBe(1);
  });

  it('is deterministic for a seed: identical requests for seed 1 twice; seed 2 differs', () => {
    const again = run({ seed: 1, ratePerSecond: 1_000, shares: SHARES, horizonMs: 10_000 });
    const first = baseline.requests.filter((r) => r.timeMs <= 10_000);
    expect(again.requests).toEqual(first);
    const other = run({ seed: 2, ratePerSecond: 1_000, shares: SHARES, horizonMs: 10_000 });
    expect(other.requests.slice(0, 10).map((r) => r.timeMs)).not.toEqual(first.slice(0, 10).map((r) => r.timeMs));
  });

  it("stream independence: changing region 2's share (0.2 → 0.1, region 3 0 → 0.1) leaves regions 0 and 1's requests unchanged", () => {
    const changed = run({ seed: 1, ratePerSecond: 1_000, shares: [0.5, 0.3, 0.1, 0.1, 0], horizonMs: 100_000 });
    for (const region of [0, 1]) {
      const before = baseline.requests.filter((r) => r.region === region);
      const after = changed.requests.filter((r) => r.region === region);
      expect(after.length).toBe(before.length);
      expect(after).toEqual(before);
    }
    const region2 = changed.requests.filter((r) => r.region === 2).length / changed.requests.length;
    const region3 = changed.requests.filter((r) => r.region === 3).length / changed.requests.length;
    expect(Math.abs(region2 - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(region3 - 0.1)).toBeLessThan(0.01);
  });

  it('a run of zero rate schedules nothing: no requests and an empty queue ends at the horizon', () => {
    const idle = run({ seed: 1, ratePerSecond: 0, shares: SHARES, horizonMs: 5_000 });
    expect(idle.requests).toEqual([]);
    expect(idle.outcome).toBe('horizon');
    expect(idle.clockMs).toBe(5_000);
  });
});

describe('ShapedWorkload: diurnal curve in local time, flash crowds (issue 6 arrivals)', () => {
  it('each request comes from a client place of its own region', () => {
    const cities = loadClientCities();
    for (const request of baseline.requests.slice(0, 5_000)) expect(REGIONS.indexOf(cities[request.place].region)).toBe(request.region);
  });

  it('diurnal: on — Asia-Pacific clients ask most at 20–22 h and least at 3–6 h local time (peak/trough 2.5), rate averaging out over the day', () => {
    const day = 86_400_000;
    const asia = run({ seed: 3, ratePerSecond: 0.5, shares: [0, 0, 1, 0, 0], horizonMs: 4 * day, shape: { diurnal: 'on' } });
    const cities = loadClientCities();
    const start = Date.parse('2026-01-05T00:00:00Z');
    const byHour = new Array<number>(24).fill(0);
    for (const r of asia.requests) byHour[Math.floor(localHourOfDay(r.timeMs, start, utcOffsetHoursForLongitude(cities[r.place].lon)))]++;
    const evening = byHour[20] + byHour[21];
    const night = byHour[4] + byHour[5];
    // The curve's values at those hours are ≈1.4 and ≈0.57: a ratio near 2.4 (about 20,000 and 8,000 requests: ≈1.3 % noise).
    expect(evening / night).toBeGreaterThan(2.1);
    expect(evening / night).toBeLessThan(2.6);
    // Four days at 0.5/s: 172,800 requests on average whatever the shape (Poisson σ ≈ 0.24 %).
    expect(Math.abs(asia.requests.length / 172_800 - 1)).toBeLessThan(0.01);
  });

  it('a flash crowd ×6 in Europe for the top 10 objects adds 5 × Europe\'s rate inside its window only, and leaves the everyday requests unchanged', () => {
    const shape = { flashCrowds: [{ start: '20s', duration: '10s', multiplier: 6, region: 'Europe', objects: { top: 10 } }] } as ArrivalShapeInput;
    const crowd = run({ seed: 1, ratePerSecond: 1_000, shares: SHARES, horizonMs: 40_000, shape });
    const plain = baseline.requests.filter((r) => r.timeMs <= 40_000);
    const inWindow = (r: ClientRequest) => r.timeMs >= 20_000 && r.timeMs < 30_000;
    const extra = crowd.requests.length - plain.length;
    // Europe (share 0.3) at 300/s × 5 extra × 10 s = 15,000 (Poisson σ ≈ 122).
    expect(Math.abs(extra - 15_000)).toBeLessThan(400);
    const europeInWindow = crowd.requests.filter((r) => inWindow(r) && r.region === 1).length;
    const europeInWindowBefore = plain.filter((r) => inWindow(r) && r.region === 1).length;
    expect(europeInWindow - europeInWindowBefore).toBe(extra);
    const crowdRequests = crowd.requests.filter((r) => inWindow(r) && r.region === 1 && r.objectId < 10).length - plain.filter((r) => inWindow(r) && r.region === 1 && r.objectId < 10).length;
    expect(crowdRequests).toBe(extra);
    // Everyday streams are their own: the requests outside Europe are exactly as before.
    expect(crowd.requests.filter((r) => r.region !== 1)).toEqual(plain.filter((r) => r.region !== 1));
  });
});
