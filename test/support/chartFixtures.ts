import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Small run, compare, sweep and replay folders written the way the run-folder contract lays
 * them out (column names fixed), so the chart tests do not depend on the code that produces
 * them. Numbers are fixed and plausible: an edge at 30–60 %, a regional tier, an outage.
 */

const REGIONS = [
  ['North America', 15, 20],
  ['Europe', 18, 25],
  ['Asia-Pacific', 22, 28],
  ['Latin America', 25, 35],
  ['Africa', 30, 45],
] as const;

const csv = (header: string, rows: readonly (readonly (string | number | null)[])[]): string =>
  `${header}\n${rows.map((row) => row.map((cell) => (cell === null ? '' : typeof cell === 'string' && /[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : String(cell))).join(',')).join('\n')}\n`;

const latency = (mean: number) => ({ count: 1000, mean, p50: mean * 0.9, p90: mean * 1.6, p95: mean * 1.9, p99: mean * 2.5, p999: mean * 3.2 });

export const FIXTURE_STATED_CSV = csv('id,figure,stated,simulated,unit,verdict,note', [
  ['pops', 'points of presence (edge caches of the PoP model)', 'more than 200 (spec 1.1)', 339, 'count', 'within', 'PoPs modelled'],
  ['latency.global.edge', 'global mean latency, edge-served requests', '25.45 ms ± 5 % (spec 1.1)', 24.8, 'ms', 'within', 'mean of 506,905 edge-served requests'],
  ['latency.global.all', 'global mean latency, all requests', '25.45 ms ± 5 % (spec 1.1), judged on latency.global.edge', 32.1, 'ms', 'not-applicable', 'shown for comparison, not judged: the table judges this figure on latency.global.edge'],
  ['latency.region.northAmerica', 'North America mean latency, edge hits', '15–20 ms (spec 1.1)', 16.7, 'ms', 'within', 'mean of 21,435 edge hits'],
  ['latency.region.africa', 'Africa mean latency, edge hits', '30–45 ms (spec 1.1)', 35.4, 'ms', 'within', 'mean of 53,303 edge hits'],
  ['latency.layer.origin', "origin mean latency: the client's time to first byte, origin-served requests", '50–200 ms (spec 4.9)', 285, 'ms', 'outside', '285 ms is above the maximum 200 ms'],
  ['cdnHitRatio', 'CDN hit ratio (edge or regional, of requests reaching the edge)', 'at least 95 % (spec 1.1)', 0.65585, 'ratio', 'outside', '65.585 % is below the minimum 95.000 %'],
  ['availability.originProblems', 'availability during outages and error bursts', 'at least 99.9 % (spec 1.1)', null, 'ratio', 'not-applicable', 'the run has no outage or error burst'],
  ['lifetime.long', 'edge lifetime of classes sent with max-age=31536000', '31536000 s (spec 8)', 31536000, 'seconds', 'within', 'objects 31536000 s'],
]);

/** A summary.json with the keys the charts and the report read. */
export function fixtureSummary(scenario = 'fixture', hitRatioCdn = 0.65585, maxStalenessSeconds = 0): Record<string, unknown> {
  return {
    scenario,
    seed: 1,
    requests: 12000,
    warmupRequests: 3000,
    simulatedSeconds: 600,
    stopReason: 'requests',
    hitRatio: { edge: 0.3379, regional: 0.4802, cdn: hitRatioCdn },
    byteHitRatio: { edge: 0.3172, regional: 0.4785, cdn: 0.6439 },
    originOffload: 0.655833, // 1 − 4,130 / 12,000
    latencyMs: {
      all: latency(120),
      byRegion: Object.fromEntries(REGIONS.map(([region], index) => [region, latency(90 + 18 * index)])),
      byRegionAndLayer: Object.fromEntries(REGIONS.map(([region, low, high]) => [region, { edge: latency((low + high) / 2), origin: latency(285) }])),
      byLayer: { edge: latency(24.8), regional: latency(43), origin: latency(285) },
    },
    cdn: {
      availability: 0.9991,
      staleness: { responses: 40, share: 0.0033, meanSeconds: 2.5, maxSeconds: maxStalenessSeconds },
      origin: {
        requests: 4130,
        fullResponses: 4118,
        notModified: 0,
        errors: 12,
        refused: 0,
        byCause: { miss: 4000, expired: 118, errorRetry: 12, purged: 0, backgroundRevalidation: 0 },
        bytes: 216_000_000,
      },
    },
    incidents: [{ kind: 'outage', fromSeconds: 240, toSeconds: 300, requests: 1200, errors: 12, availability: 0.99, staleServed: 30, originRequests: 0, originRequestsBefore: 410, label: 'outage 240–300 s' }],
    stated: [],
  };
}

const TIMESERIES_HEADER = 'start_s,end_s,requests,requests_per_s,browser_hit_ratio,edge_hit_ratio,regional_hit_ratio,cdn_hit_ratio,origin_requests_per_s,origin_gbit_per_s,p50_ms,p95_ms,p99_ms,stale_served,errors_served';

export function fixtureTimeseries(intervals = 10): string {
  return csv(
    TIMESERIES_HEADER,
    Array.from({ length: intervals }, (_, i) => {
      const warm = 1 - Math.exp(-(i + 1) / 3);
      const outage = i === 4;
      const edge = 0.15 + 0.25 * warm;
      const cdn = 0.3 + 0.4 * warm;
      const originRps = outage ? 0 : 20 * (1 - cdn);
      return [i * 60, (i + 1) * 60, 1200, 20, null, +edge.toFixed(4), +(0.3 + 0.2 * warm).toFixed(4), +cdn.toFixed(4), +originRps.toFixed(3), +(originRps * 0.0004).toFixed(5), 40, 350, 420, outage ? 30 : 0, outage ? 12 : 0];
    }),
  );
}

const POPS = [
  ['IAD', 'North America', 38.94, -77.46, 100],
  ['LAX', 'North America', 33.94, -118.41, 100],
  ['FRA', 'Europe', 50.03, 8.57, 100],
  ['LHR', 'Europe', 51.47, -0.45, 100],
  ['NRT', 'Asia-Pacific', 35.77, 140.39, 100],
  ['SIN', 'Asia-Pacific', 1.36, 103.99, 100],
  ['BOM', 'Asia-Pacific', 19.09, 72.87, 100],
  ['GRU', 'Latin America', -23.43, -46.47, 100],
  ['LOS', 'Africa', 6.58, 3.32, 10],
  ['JNB', 'Africa', -26.14, 28.25, 10],
  ['SYD', 'Asia-Pacific', -33.94, 151.18, 10],
  ['AAE', 'Africa', 36.82, 7.81, 10],
] as const;

export const POPS_HEADER = 'pop,region,requests,hit_ratio,byte_hit_ratio,peak_egress_gbit_s_1s,peak_egress_gbit_s_60s,uplink_gbit_s,peak_requests_per_s,stored_bytes_end,stored_bytes_peak,capacity_bytes,latitude,longitude';

export function fixturePops(): string {
  return csv(
    POPS_HEADER,
    POPS.map(([pop, region, lat, lon, uplink], index) => {
      const requests = index === POPS.length - 1 ? 0 : 3000 - index * 240;
      const idle = requests === 0;
      return [pop, region, requests, idle ? null : +(0.55 - index * 0.03).toFixed(3), idle ? null : +(0.5 - index * 0.03).toFixed(3), idle ? 0 : +(12 - index * 0.9).toFixed(2), idle ? 0 : +(6 - index * 0.45).toFixed(2), uplink, idle ? 0 : 180 - index * 12, idle ? 0 : 400e6 - index * 25e6, idle ? 0 : 420e6 - index * 25e6, 1e9, lat, lon];
    }),
  );
}

export function fixtureRegions(): string {
  return csv(
    'region,requests,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p999_ms,edge_hit_requests,edge_hit_mean_ms,edge_hit_p50_ms,edge_hit_p95_ms,stated_edge_hit_min_ms,stated_edge_hit_max_ms',
    REGIONS.map(([region, low, high], index) => [region, 2000 + index * 100, 90 + index * 18, 80 + index * 15, 190 + index * 20, 213 + index * 20, 261 + index * 20, 327 + index * 20, 400, (low + high) / 2, low + 1, high * 1.8, low, high]),
  );
}

export function fixtureLayers(): string {
  return csv('layer,requests,share,hit_ratio,byte_hit_ratio,mean_ms,p50_ms,p95_ms,p99_ms', [
    ['browser', 0, 0, null, null, null, null, null, null],
    ['edge', 4055, 0.3379, 0.3379, 0.3172, 24.8, 21.5, 51.6, 74],
    ['regional', 3815, 0.3179, 0.4802, 0.4785, 43, 40.6, 76.9, 99.8],
    ['origin', 4130, 0.3442, null, null, 285, 296, 398, 447],
  ]);
}

export function fixtureScenario(): Record<string, unknown> {
  return { name: 'fixture', seed: 1, run: { requests: 15000, warmup: '20%' }, edge: { policy: 'lru', capacity: 1e9 } };
}

export const fixtureFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), `cdnsim-${prefix}-`));

/** A run folder: today's files, and with `series` the CSVs of the run-folder contract. */
export function writeRunFixture(folder: string, options: { series: boolean } = { series: true }): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'summary.json'), `${JSON.stringify(fixtureSummary(), null, 2)}\n`);
  writeFileSync(join(folder, 'scenario.json'), `${JSON.stringify(fixtureScenario(), null, 2)}\n`);
  writeFileSync(join(folder, 'stated.csv'), FIXTURE_STATED_CSV);
  writeFileSync(join(folder, 'run.json'), '{"runId":"fixture"}\n');
  if (options.series) {
    writeFileSync(join(folder, 'timeseries.csv'), fixtureTimeseries());
    writeFileSync(join(folder, 'pops.csv'), fixturePops());
    writeFileSync(join(folder, 'regions.csv'), fixtureRegions());
    writeFileSync(join(folder, 'layers.csv'), fixtureLayers());
  }
  return folder;
}

export function fixtureCompare(): Record<string, unknown> {
  const strategies = [
    ['baseline', 0.65, 0],
    ['stale-while-revalidate', 0.78, 86],
    ['long-ttl', 0.83, 3600],
  ] as const;
  return { schemaVersion: 1, scenario: 'fixture', seed: 1, strategies: strategies.map(([name, hit, stale]) => ({ name, summary: fixtureSummary('fixture', hit, stale) })) };
}

export function fixtureSweep(): Record<string, unknown> {
  const sizes = ['100MB', '1GB', '10GB'];
  const policies = ['lru', 's3fifo'];
  const points = policies.flatMap((policy, p) =>
    sizes.map((size, s) => {
      const mean = 0.3 + 0.18 * s + 0.04 * p;
      const half = 0.02;
      return { values: { 'edge.capacity': size, 'edge.policy': policy }, figures: { 'hitRatio.cdn': { mean, ci95Low: +(mean - half).toFixed(4), ci95High: +(mean + half).toFixed(4), n: 3 }, 'latencyMs.all.p95': { mean: 300 - 40 * s, ci95Low: 290 - 40 * s, ci95High: 310 - 40 * s, n: 3 } } };
    }),
  );
  return { schemaVersion: 1, scenario: 'fixture', params: [{ path: 'edge.capacity', values: sizes }, { path: 'edge.policy', values: policies }], replicates: 3, points };
}

export function fixtureReplayRows(): Record<string, unknown>[] {
  return ['lru', 'fifo', 's3fifo'].flatMap((policy, p) =>
    [1e6, 1e7, 1e8].map((cacheSize, s) => ({ policy, cacheSize, countMode: false, ttlSeconds: null, missRatio: 0.8 - 0.2 * s - 0.03 * p, byteMissRatio: 0.85 - 0.2 * s, hits: 100 })),
  );
}

/** Writes `file` with `content` (JSON-encoded unless a string) into a new fixture folder. */
export function writeJsonFixture(prefix: string, file: string, content: unknown): string {
  const folder = fixtureFolder(prefix);
  writeFileSync(join(folder, file), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  return folder;
}
