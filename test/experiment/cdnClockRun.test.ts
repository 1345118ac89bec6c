import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, summaryJson, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * The CDN on the simulated clock through whole runs: five regional edges (model regions,
 * no jitter) over an origin 100 ms away, a small catalogue, and the headers and incidents
 * each test names.
 */
function run(cacheControl: string, extra = '', objects = 10): Summary {
  const text = `
seed: 3
run: { duration: 60s }
traffic: { rate: 1k/s }
content:
  objects: ${objects}
  objectSize: { median: 10KB, sigma: 0, min: 10KB, max: 10KB }
  headers: { fields: { Cache-Control: "${cacheControl}" } }
topology: { model: regions, jitter: 0, originLatency: 100ms }
${extra}`;
  return buildSummary(runScenario(parseScenarioText(text, 'clock.yaml')));
}

describe('runs on the simulated clock (spec 4.7, 4.9, 7.1, 1.2 item 6)', () => {
  it('spec 4.7 row 2: max-age=5 alone, with stale-while-revalidate, or with must-revalidate now give different runs', () => {
    const plain = run('public, max-age=5');
    const swr = run('public, max-age=5, stale-while-revalidate=86400');
    const strict = run('public, max-age=5, must-revalidate');
    // Plain and must-revalidate wait for a 304 about every 5 s per key and edge; stale-while-revalidate answers at once.
    expect(plain.cdn.revalidatedRequests).toBeGreaterThan(400);
    expect(plain.cdn.staleServed.whileRevalidate).toBe(0);
    expect(swr.cdn.staleServed.whileRevalidate).toBeGreaterThan(400);
    expect(swr.cdn.revalidatedRequests).toBe(0);
    expect(swr.hitRatio.edge).toBeGreaterThan(plain.hitRatio.edge + 0.005);
    expect(strict.cdn.revalidatedRequests).toBe(plain.cdn.revalidatedRequests);
    // Every revalidation costs the origin a 304 and no body.
    expect(plain.cdn.origin.bytes).toBe(50 * 10_000);
    expect(plain.cdn.origin.notModified).toBe(plain.cdn.origin.requests - 50);
  });

  it('spec 7.1: during a 20 s burst of 500s, an object revalidated on every use costs the origin about one request per key and edge per 5 s', () => {
    const summary = run('no-cache', 'incidents: [{ kind: error-burst, start: 20s, duration: 20s }]');
    const [burst] = summary.incidents;
    // 10 keys × 5 edges × (20 s ÷ 5.1 s: the 500 is cached from when the origin made it) ≈ 200.
    expect(burst.originRequests).toBeGreaterThanOrEqual(190);
    expect(burst.originRequests).toBeLessThanOrEqual(220);
    // Before the burst each edge revalidates every use with the origin: of about 20,000 requests in 20 s, those
    // that come while a revalidation of their key is in flight wait for it.
    expect(burst.originRequestsBefore).toBeGreaterThan(5_000);
    expect(summary.cdn.coalescedRequests.edge).toBeGreaterThan(10_000);
    // Only requests that joined a revalidation sent before 20 s get a 200.
    expect(burst.availability).toBeLessThan(0.01);
    expect(summary.cdn.errors.cachedErrorsServed).toBeGreaterThan(0.95 * burst.requests);
  });

  it('spec 7.1: for no-store content the cached 500 still shields the origin during a burst', () => {
    const summary = run('no-store', 'incidents: [{ kind: error-burst, start: 20s, duration: 20s }]');
    const [burst] = summary.incidents;
    // Nothing is stored before the burst: every request reaches the origin.
    expect(burst.originRequestsBefore).toBeGreaterThan(19_000);
    expect(burst.originRequests).toBeLessThan(burst.requests / 20);
  });

  it('spec 4.7 row 1: during an outage expired copies are served (the last good version); must-revalidate ones are errors', () => {
    const incidents = 'incidents: [{ kind: outage, start: 20s, duration: 20s }]';
    const lenient = run('public, max-age=5', incidents);
    expect(lenient.incidents[0].availability).toBe(1);
    expect(lenient.cdn.staleServed.originUnreachable).toBeGreaterThan(100);
    expect(lenient.cdn.origin.refused).toBeGreaterThan(100);
    const strict = run('public, max-age=5, must-revalidate', incidents);
    expect(strict.incidents[0].availability).toBeLessThan(0.5);
    expect(strict.cdn.staleServed.originUnreachable).toBe(0);
  });

  it('spec 1.2 item 6: a deploy with purge sends a spike to the origin; without purge the caches serve outdated copies', () => {
    const purge = run('public, max-age=3600', 'incidents: [{ kind: deploy, at: 30s, purge: true }]', 2_000);
    const keep = run('public, max-age=3600', 'incidents: [{ kind: deploy, at: 30s }]', 2_000);
    // The same traffic after the deploy: the purged caches fetch everything again.
    expect(purge.incidents[0].originRequests).toBeGreaterThan(3 * keep.incidents[0].originRequests);
    expect(purge.incidents[0].originRequestsBefore).toBe(keep.incidents[0].originRequestsBefore);
    // Without purge every copy cached before 30 s stays outdated for the rest of the run (max-age is an hour).
    expect(keep.cdn.staleness.share).toBeGreaterThan(0.4);
    expect(keep.cdn.staleness.maxSeconds).toBeGreaterThan(29);
    expect(keep.cdn.staleness.maxSeconds).toBeLessThanOrEqual(30);
    // With purge only what was in flight or not yet purged (2 s of propagation) is outdated.
    expect(purge.cdn.staleness.share).toBeLessThan(0.05);
    expect(purge.cdn.staleness.maxSeconds).toBeLessThanOrEqual(2.2);
  });

  it('cdn.coalescing: false shows the thundering herd on the same traffic', () => {
    const coalesced = run('public, max-age=1');
    const herd = run('public, max-age=1', 'cdn: { coalescing: false }');
    expect(coalesced.cdn.coalescedRequests.edge).toBeGreaterThan(0);
    expect(herd.cdn.coalescedRequests.edge).toBe(0);
    expect(herd.cdn.origin.requests).toBeGreaterThan(coalesced.cdn.origin.requests);
  });

  it('spec 1.3: a container deployment without the CDN sends every request to the origin', () => {
    const summary = run('public, max-age=3600', 'deployment: { kind: container, cdn: false }');
    expect(summary.hitRatio.cdn).toBe(0);
    expect(summary.requestsByLayer.origin).toBe(summary.requests);
  });

  it('same scenario and seed with incidents give a byte-identical summary', () => {
    const incidents = 'incidents: [{ kind: outage, start: 10s, duration: 5s }, { kind: error-burst, start: 30s, duration: 5s, share: 30% }, { kind: deploy, at: 45s, purge: true }]';
    expect(summaryJson(run('public, max-age=5, stale-while-revalidate=30', incidents))).toBe(summaryJson(run('public, max-age=5, stale-while-revalidate=30', incidents)));
  });

  it('a deploy naming a class the scenario lacks is refused at its key', () => {
    expect(() => run('public, max-age=5', 'incidents: [{ kind: deploy, at: 30s, classes: [html] }]')).toThrow(/incidents\[0\]\.classes\[0\]|incidents.0.classes.0/);
  });
});
