import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { sweepFigures } from '../../src/experiment/sweepGrid.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * Repeated incidents through whole runs. One class of 50 hashed assets (one year, immutable:
 * nothing expires within a run), asked for uniformly at 100/s from five regional edges with
 * no regional tier: between deploys every edge holds every asset, so the origin sees nothing,
 * and a purge makes each edge fetch each asset once (coalesced), 5 × 50 = 250 requests.
 */
const ASSETS = 50;
const EDGES = 5;

function run(extraClasses: string, incidents: string, duration = '1h'): Summary {
  const text = `
seed: 5
run: { duration: ${duration} }
traffic: { rate: 100/s }
deployment: { kind: full-stack, framework: next }
content:
  classes:
    - { name: static-asset, objects: ${ASSETS}, share: ${extraClasses === '' ? '100%' : '80%'}, zipfExponent: 0, size: { median: 10KB, sigma: 0 } }
${extraClasses}
topology: { model: regions, jitter: 0, originLatency: 100ms }
incidents:
${incidents}
`;
  return buildSummary(runScenario(parseScenarioText(text, 'repeated.yaml')));
}

describe('a deploy every 10 minutes with purge over a 1-hour run (spec 1.2 item 6, spec 4.7)', () => {
  const summary = run('', '  - { kind: deploy, name: release, at: 5m, every: 10m, purge: true }');

  it('expands to 6 deploys, 5m to 55m, named release #1 to #6', () => {
    expect(summary.incidents.map((row) => [row.name, row.fromSeconds, row.entry, row.occurrence])).toEqual([
      ['release #1', 300, 0, 1],
      ['release #2', 900, 0, 2],
      ['release #3', 1500, 0, 3],
      ['release #4', 2100, 0, 4],
      ['release #5', 2700, 0, 5],
      ['release #6', 3300, 0, 6],
    ]);
  });

  it('gives 6 origin spikes, each reported: 250 requests (50 assets × 5 edges) in its first minute against 0 in the minute before', () => {
    for (const row of summary.incidents) {
      expect(row.originRequests).toBe(ASSETS * EDGES);
      expect(row.originRequestsBefore).toBe(0);
    }
    // The cold start (as in the same run without incidents), then one refetch per asset and edge per purge: nothing else reaches the origin.
    const coldStart = run('', '  []').cdn.origin.requests;
    expect(coldStart).toBeGreaterThanOrEqual(ASSETS * EDGES);
    expect(summary.cdn.origin.requests).toBe(coldStart + 6 * ASSETS * EDGES);
  });

  it('one aggregate row for the entry: 6 occurrences, 1,500 origin requests, every 600 s', () => {
    expect(summary.repeatedIncidents).toHaveLength(1);
    const [release] = summary.repeatedIncidents!;
    expect(release).toMatchObject({ entry: 0, kind: 'deploy', name: 'release', everySeconds: 600, occurrences: 6, fromSeconds: 300, toSeconds: 3360 });
    expect(release.originRequests).toBe(6 * ASSETS * EDGES);
    expect(release.originRequestsBefore).toBe(0);
    expect(release.requests).toBe(summary.incidents.reduce((sum, row) => sum + row.requests, 0));
    expect(release.availability).toBe(1);
    // Equal spikes: the first of equals is the peak.
    expect([release.peakOccurrence, release.peakOriginRequests]).toEqual([1, 250]);
  });

  it('the text summary gives the entry one line and its peak occurrence, not six rows', () => {
    // A wide terminal: the incident table whole (at 100 columns its long labels split it into blocks that repeat them).
    const lines = summaryText(summary, { columns: 200, statedTable: false }).split('\n');
    const aggregate = lines.findIndex((line) => line.startsWith('release, every 10m (6 times): deploy with purge of every class, 5m–56m'));
    expect(aggregate).toBeGreaterThan(0);
    expect(lines[aggregate + 1]).toMatch(/^ {2}most origin requests: #1, 5m–6m +[\d,]+ +100\.00 % +0 +250 +0$/);
    expect(lines.filter((line) => line.startsWith('release #'))).toEqual([]);
  });

  it('sweeps read the aggregate as repeatedIncidents.0.* beside each occurrence as incidents.<i>.*', () => {
    const names = new Map(sweepFigures(summary));
    expect(names.get('repeatedIncidents.0.originRequests')).toBe(1500);
    expect(names.get('repeatedIncidents.0.occurrences')).toBe(6);
    expect(names.get('incidents.5.originRequests')).toBe(250);
  });
});

describe('a repeated outage (spec 4.7 row 1)', () => {
  // An API class (never cached, spec 4.3) beside the assets: during an outage its requests fail, the assets are served from cache.
  const summary = run('    - { name: api, share: 20% }', '  - { kind: outage, name: db, start: 10m, duration: 1m, every: 15m, until: 50m }');
  const occurrences = summary.incidents;

  it('occurs at 10m, 25m and 40m (until 50m: the next would start at 55m)', () => {
    expect(occurrences.map((row) => [row.name, row.fromSeconds, row.toSeconds])).toEqual([
      ['db #1', 600, 660],
      ['db #2', 1500, 1560],
      ['db #3', 2400, 2460],
    ]);
  });

  it('each occurrence loses about the API share (20 %, binomial over ~6,000 requests, 4σ)', () => {
    for (const row of occurrences) {
      expect(row.requests).toBeGreaterThan(5_600);
      expect(row.availability).toBeGreaterThan(0.8 - 0.021);
      expect(row.availability).toBeLessThan(0.8 + 0.021);
    }
  });

  it("the entry's availability is the request-weighted mean of its occurrences'", () => {
    const [db] = summary.repeatedIncidents!;
    const requests = occurrences.reduce((sum, row) => sum + row.requests, 0);
    const weighted = occurrences.reduce((sum, row) => sum + row.requests * (1 - row.errors / row.requests), 0) / requests;
    expect(db.requests).toBe(requests);
    expect(db.errors).toBe(occurrences.reduce((sum, row) => sum + row.errors, 0));
    expect(db.availability).toBeCloseTo(weighted, 6);
    const worst = occurrences.reduce((low, row) => (row.availability < low.availability ? row : low));
    expect([db.worstOccurrence, db.worstAvailability]).toEqual([worst.occurrence, worst.availability]);
  });
});

describe('a repeated error burst (spec 7.1)', () => {
  const summary = run('    - { name: api, share: 20% }', '  - { kind: error-burst, start: 1m, duration: 30s, every: 2m, times: 4, status: 503 }', '10m');

  it('4 bursts of 30 s, each answering errors for about the API share and nothing between them', () => {
    expect(summary.incidents.map((row) => row.fromSeconds)).toEqual([60, 180, 300, 420]);
    for (const row of summary.incidents) {
      expect(row.errors).toBeGreaterThan(0);
      expect(row.availability).toBeGreaterThan(0.8 - 0.05);
      expect(row.availability).toBeLessThan(0.8 + 0.05);
    }
    // Errors only around the bursts: a request sent just before one can reach the origin inside it.
    const inBursts = summary.incidents.reduce((sum, row) => sum + row.errors, 0);
    expect(summary.cdn.errors.responses).toBeGreaterThanOrEqual(inBursts);
    expect(summary.cdn.errors.responses).toBeLessThan(inBursts * 1.05);
  });
});

describe('a run ended before the file says (--duration 30m on a 1-hour scenario)', () => {
  it('keeps the 6 occurrences expanded from the file, and the entry\'s row counts the 3 that started in the run (spec 1.2 item 6)', () => {
    const text = `
seed: 5
run: { duration: 1h }
traffic: { rate: 100/s }
deployment: { kind: full-stack, framework: next }
content:
  classes:
    - { name: static-asset, objects: ${ASSETS}, share: 100%, zipfExponent: 0, size: { median: 10KB, sigma: 0 } }
topology: { model: regions, jitter: 0, originLatency: 100ms }
incidents:
  - { kind: deploy, name: release, at: 5m, every: 10m, purge: true }
`;
    const summary = buildSummary(runScenario(parseScenarioText(text, 'repeated.yaml'), { durationMs: 30 * 60_000 }));
    expect(summary.incidents.map((row) => row.toSeconds - row.fromSeconds)).toEqual([60, 60, 60, 0, 0, 0]);
    const [release] = summary.repeatedIncidents!;
    expect([release.occurrences, release.fromSeconds, release.toSeconds, release.originRequests]).toEqual([3, 300, 1560, 3 * ASSETS * EDGES]);
  });
});


describe('an incident the run never reached (a run of a request count ends before it)', () => {
  it('issue 26: its row says it never happened and shows "–" for every figure, not "1h–1h, 0 requests" or 100.00 % over 0 requests', () => {
    const text = `
seed: 5
run: { requests: 1000 }
traffic: { rate: 100/s }
content: { objects: 50 }
topology: { model: regions, jitter: 0, originLatency: 100ms }
incidents:
  - { kind: outage, start: 1h, duration: 5m }
`;
    const summary = buildSummary(runScenario(parseScenarioText(text, 'unreached.yaml')));
    expect(summary.incidents[0].requests).toBe(0);
    const line = summaryText(summary, { columns: 200, statedTable: false }).split('\n').find((row) => row.startsWith('outage'));
    expect(summary.incidents[0].happened).toBe(false);
    expect(line).toMatch(/^outage \(connections refused\), 1h–1h5m: never happened, the run ended first(\s+–){5}$/);
  });
});
