import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { statedCsv, type StatedRow } from '../../src/report/statedTable.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * The stated table of small runs on the regions model without jitter: each region's edge
 * hits take exactly its median, so the per-region rows have known values.
 */
function run(extra = '', cacheControl = 'public, max-age=3600, stale-while-revalidate=86400'): Summary {
  const text = `
seed: 3
run: { duration: 60s }
traffic: { rate: 500/s }
content:
  objects: 1000
  objectSize: { median: 10KB, sigma: 0, min: 10KB, max: 10KB }
  headers: { fields: { Cache-Control: "${cacheControl}" } }
topology:
  model: regions
  jitter: 0
  originLatency: 100ms
  clientToEdge: { Africa: 46ms }
${extra}`;
  return buildSummary(runScenario(parseScenarioText(text, 'stated.yaml')));
}

const rowOf = (summary: Summary, id: string): StatedRow => {
  const row = summary.stated.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

describe('the stated table of a run (spec 1.1, 4.9, 7.1, 8)', () => {
  const plain = run();

  it('spec 1.1 regional averages: edge hits take each median exactly; Africa at 46 ms is outside 30–45 ms', () => {
    expect(rowOf(plain, 'latency.region.northAmerica')).toMatchObject({ simulated: 16.5, verdict: 'within', stated: '15–20 ms (spec 1.1)' });
    expect(rowOf(plain, 'latency.region.europe')).toMatchObject({ simulated: 20, verdict: 'within' });
    expect(rowOf(plain, 'latency.region.asiaPacific')).toMatchObject({ simulated: 23.5, verdict: 'within' });
    expect(rowOf(plain, 'latency.region.latinAmerica')).toMatchObject({ simulated: 28, verdict: 'within' });
    const africa = rowOf(plain, 'latency.region.africa');
    expect(africa).toMatchObject({ simulated: 46, verdict: 'outside' });
    expect(africa.note).toContain('46.0 ms is above the maximum 45.0 ms');
  });

  it('spec 4.9: the origin window is judged on the origin server\'s service time (exactly the fixed 100 ms); the client time to first byte (edge median + 100 ms) is shown beside it, not judged; no browser or regional layer is not applicable; the edge mean is just outside 5–25 ms', () => {
    const service = rowOf(plain, 'latency.layer.originService');
    expect(service).toMatchObject({ simulated: 100, verdict: 'within', stated: '50–200 ms (spec 4.9)' });
    expect(plain.cdn.origin.meanServiceMs).toBe(100);
    const origin = rowOf(plain, 'latency.layer.origin');
    expect(origin.verdict).toBe('not-applicable');
    expect(origin.stated).toBe('50–200 ms (spec 4.9), judged on latency.layer.originService');
    expect(origin.note).toContain('shown for comparison, not judged');
    expect(origin.simulated).toBeGreaterThan(116.5);
    expect(origin.simulated).toBeLessThan(146);
    expect(rowOf(plain, 'latency.layer.browser').verdict).toBe('not-applicable');
    expect(rowOf(plain, 'latency.layer.regional').verdict).toBe('not-applicable');
    // Africa's 46 ms edge hits (11.5 % of the traffic) lift the edge mean just past 25 ms.
    const edge = rowOf(plain, 'latency.layer.edge');
    expect(edge.verdict).toBe('outside');
    expect(edge.simulated).toBeGreaterThan(25);
    expect(edge.simulated).toBeLessThan(27);
  });

  it('spec 1.1: the regions model has no PoP network; no incident, error burst or range request leaves those rows not applicable', () => {
    for (const id of ['pops', 'availability.originProblems', 'errorCaching', 'chunkSize', 'lifetime.long']) {
      expect(rowOf(plain, id).verdict, id).toBe('not-applicable');
      expect(rowOf(plain, id).simulated).toBeNull();
    }
  });

  it('spec 1.1: the all-requests mean (origin fetches included, above 30 ms) is shown beside the judged edge-served reading; the 95 % hit ratio is not reached', () => {
    const all = rowOf(plain, 'latency.global.all');
    expect(all.verdict).toBe('not-applicable');
    expect(all.simulated).toBeGreaterThan(30);
    expect(all.note).toContain('judges this figure on latency.global.edge');
    expect(rowOf(plain, 'latency.global.edge').verdict).not.toBe('not-applicable');
    const hit = rowOf(plain, 'cdnHitRatio');
    expect(hit.simulated).toBe(plain.hitRatio.cdn);
    expect(hit.verdict).toBe('outside');
  });

  it('spec 8: a class sent with max-age=3600, stale-while-revalidate=86400 keeps 3600 s at the edge; max-age=31536000 keeps a year', () => {
    expect(rowOf(plain, 'lifetime.staticPage')).toMatchObject({ simulated: 3600, verdict: 'within' });
    const year = run('', 'public, max-age=31536000, immutable');
    expect(rowOf(year, 'lifetime.long')).toMatchObject({ simulated: 31_536_000, verdict: 'within' });
    expect(rowOf(year, 'lifetime.staticPage').verdict).toBe('not-applicable');
    // s-maxage governs the edge (RFC 9111 §5.2.2.10): the class is sent with a year but kept 60 s.
    const shortened = run('', 'public, max-age=31536000, s-maxage=60');
    expect(rowOf(shortened, 'lifetime.long')).toMatchObject({ simulated: 60, verdict: 'outside' });
  });

  it('spec 7.1 and 1.1 with an error burst and an outage: errors cached 5 s; availability over the incident windows', () => {
    const incidents = run(
      'incidents:\n  - { kind: error-burst, start: 20s, duration: 10s, status: 500, share: 50% }\n  - { kind: outage, start: 40s, duration: 5s }\n',
    );
    const errorCaching = rowOf(incidents, 'errorCaching');
    expect(errorCaching).toMatchObject({ simulated: 5, verdict: 'within' });
    expect(errorCaching.note).toContain('500: 5 s');
    const availability = rowOf(incidents, 'availability.originProblems');
    const windows = incidents.incidents;
    const requests = windows[0].requests + windows[1].requests;
    expect(availability.simulated).toBeCloseTo(1 - (windows[0].errors + windows[1].errors) / requests, 6);
    expect(availability.verdict).toBe('outside');
  });

  it("a scenario's expect replaces the stated bounds of its rows, and only those", () => {
    const expected = run("expect:\n  latency.region.africa: { max: 50ms }\n  cdnHitRatio: { min: 60% }\n  latency.region.europe: { min: 21ms, max: 30ms }\n");
    expect(rowOf(expected, 'latency.region.africa')).toMatchObject({ simulated: 46, verdict: 'within', stated: 'at most 50.0 ms (scenario expect; stated 30–45 ms (spec 1.1))' });
    expect(rowOf(expected, 'cdnHitRatio').verdict).toBe('within');
    expect(rowOf(expected, 'latency.region.europe')).toMatchObject({ simulated: 20, verdict: 'outside' });
    expect(rowOf(expected, 'latency.region.northAmerica')).toMatchObject({ verdict: 'within', stated: '15–20 ms (spec 1.1)' });
  });

  it('spec 1.1 and 4.9: a comparison row named under expect: is judged like any other row', () => {
    const checked = run('expect:\n  latency.global.all: { max: 26.72ms }\n  latency.layer.origin: { max: 200ms }\n');
    const all = rowOf(checked, 'latency.global.all');
    expect(all.verdict).toBe('outside');
    expect(all.stated).toBe('at most 26.7 ms (scenario expect; stated 25.45 ms ± 5 % (spec 1.1))');
    expect(all.note).toContain('is above the maximum 26.7 ms');
    expect(rowOf(checked, 'latency.layer.origin').verdict).toBe('within');
  });

  it('stated.csv: a header and one line per row, RFC 4180 quoting', () => {
    const lines = statedCsv(plain.stated).split('\n');
    expect(lines[0]).toBe('id,figure,stated,simulated,unit,verdict,note');
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 2).toBe(plain.stated.length);
    expect(plain.stated.length).toBe(20);
    expect(lines[1]).toBe('pops,points of presence (edge caches of the PoP model),more than 200 (spec 1.1),,count,not-applicable,"model regions has one edge cache per region (or one for all), not a network of PoPs"');
  });
});
