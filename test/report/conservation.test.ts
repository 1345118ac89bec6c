import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFailureLines, conservationChecks, CONSERVATION_IDENTITIES, type CheckedSummary } from '../../src/report/conservation.js';
import type { Summary } from '../../src/report/summary.js';
import { conservationFailure } from '../../src/cli/conservationFailure.js';

/** The golden run (test/golden/small.yaml: browsers, a regional tier, incidents, stale-while-revalidate): every identity holds on it. */
function golden(): CheckedSummary {
  const { checks: _checks, ...summary } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../golden/small.summary.json'), 'utf8')) as Summary;
  return summary;
}

const failuresOf = (summary: CheckedSummary) => conservationChecks(summary).failed;

describe('conservation checks (docs/conservation.md)', () => {
  it('the golden run passes all 145 comparisons of the identities', () => {
    expect(conservationChecks(golden())).toEqual({ passed: 145, failed: [] });
  });

  it('client requests = browser hits + requests reaching the edge: one request more at a PoP is one found too many', () => {
    const summary = golden();
    summary.edges[0].requests += 1;
    const failed = failuresOf(summary).filter((failure) => failure.identity === 'client-requests');
    // 6,048 measured − 580 browser hits = 5,468 at the edges (the edge layer's 5,468 lookups: no ranges in this run).
    expect(summary.requests - summary.requestsByLayer.browser).toBe(5468);
    expect(failed).toEqual([{ identity: 'client-requests', where: 'edges[].requests', expected: 5468, found: 5469 }]);
  });

  it('spec 4.9 layer lookups: an edge lookup without an outcome fails, expected 5,468 = 3,712 from the store + 16 coalesced + 2,619 fetches − 879 background', () => {
    const summary = golden();
    summary.cdn.layers.edge.lookups += 1;
    expect(failuresOf(summary)).toEqual([{ identity: 'layer-lookups', where: 'cdn.layers.edge.lookups', expected: 5468, found: 5469 }]);
  });

  it('a hop: the regional layer\'s 2,619 lookups = the PoPs\' 2,619 fetches (every fetch measured requests caused is followed to its end); one fetch not looked up fails', () => {
    const summary = golden();
    summary.cdn.layers.edge.fetches -= 1;
    expect(failuresOf(summary)).toEqual([
      { identity: 'layer-lookups', where: 'cdn.layers.edge.lookups', expected: 5467, found: 5468 },
      { identity: 'regional-lookups', where: 'cdn.layers.regional.lookups', expected: 2618, found: 2619 },
    ]);
  });

  it('origin requests = fetches from the layer facing it (the regional tier), by response and by cause; bytes back = origin bytes', () => {
    const summary = golden();
    summary.cdn.origin.requests += 1;
    summary.cdn.origin.bytes += 10;
    expect(failuresOf(summary).map((failure) => [failure.identity, failure.where, failure.expected, failure.found])).toEqual([
      ['origin-requests', 'cdn.origin.requests', 1043, 1044],
      ['origin-by-response', 'cdn.origin.fullResponses+notModified+errors+refused', 1044, 1043],
      ['origin-by-cause', 'cdn.origin.byCause', 1044, 1043],
      ['hop-bytes', 'cdn.layers.regional.fetchedBytes', 27_535_307, 27_535_297],
      ['origin-offload', 'originOffload', 1 - 1044 / 6048, summary.originOffload],
      // The per-second meter counted 1,043: 49.666667/s × 21 whole seconds (10 bytes are within the Gbit/s figure's rounding).
      ['capacity-means', 'capacity.origin.meanRequestsPerSecond×measuredSeconds', 1044, 49.666667 * 21],
    ]);
  });

  it('capacity (docs/capacity.md): mean × measured seconds = the count: 1,043 origin requests = 49.666667/s × 21 whole seconds; a mean off by one request in the run fails (it is then above the 60 s peak too), as does a 60 s peak above the 1 s peak', () => {
    const summary = golden();
    const capacity = summary.capacity;
    if (capacity?.origin === undefined || capacity.regionals === undefined) throw new Error('the golden run has capacity figures');
    expect(capacity.measuredSeconds).toBe(21);
    expect(capacity.origin.meanRequestsPerSecond * capacity.measuredSeconds).toBeCloseTo(summary.cdn.origin.requests, 4);
    // The regional sites: 2,619 lookups over the same seconds.
    expect(capacity.regionals.meanRequestsPerSecond * capacity.measuredSeconds).toBeCloseTo(2619, 4);
    capacity.origin.meanRequestsPerSecond += 1 / capacity.measuredSeconds;
    capacity.origin.peakGbps60s = capacity.origin.peakGbps1s + 0.001;
    capacity.regionals.meanGbps *= 1.01;
    expect(failuresOf(summary).map((failure) => [failure.identity, failure.where])).toEqual([
      ['capacity-means', 'capacity.origin.meanRequestsPerSecond×measuredSeconds'],
      ['capacity-means', 'capacity.origin.meanRequestsPerSecond'],
      ['capacity-means', 'capacity.origin.peakGbps60s'],
      ['capacity-means', 'capacity.regionals.meanGbps×measuredSeconds'],
    ]);
  });

  it('capacity: the origin\'s mean ≤ its 60 s peak ≤ its 1 s peak; the figures before whole seconds (52.152571/s mean over 19.999014 s against a 60 s peak of 1,043 / 60 = 17.383333/s) fail', () => {
    const summary = golden();
    const capacity = summary.capacity;
    if (capacity?.origin === undefined) throw new Error('the golden run has capacity figures');
    capacity.measuredSeconds = 19.999014;
    Object.assign(capacity.origin, { meanRequestsPerSecond: 52.152571, peakRequestsPerSecond60s: 17.383333, meanGbps: 0.011015, peakGbps60s: 0.003671 });
    capacity.regionals = undefined;
    expect(failuresOf(summary).map((failure) => [failure.identity, failure.where, failure.expected, failure.found])).toEqual([
      ['capacity-means', 'capacity.origin.meanRequestsPerSecond', { max: 17.383333 + 1e-6 }, 52.152571],
      ['capacity-means', 'capacity.origin.meanGbps', { max: 0.003671 + 1e-6 }, 0.011015],
    ]);
  });

  it('availability = non-error responses / responses, within the 6-decimal rounding: 1 − 51/6,048 = 0.9915675 is 0.991567, not 0.991577', () => {
    const summary = golden();
    expect(summary.cdn.errors.responses).toBe(51);
    expect(conservationChecks(summary).failed).toEqual([]);
    summary.cdn.availability = 0.991577;
    expect(failuresOf(summary)).toEqual([{ identity: 'availability', where: 'cdn.availability', expected: 1 - 51 / 6048, found: 0.991577 }]);
  });

  it('shares lie in [0, 1]; percentiles are ordered; class and region counts sum to the total', () => {
    const summary = golden();
    summary.hitRatio.edge = 1.2;
    summary.latencyMs.all.p90 = summary.latencyMs.all.p99 + 1;
    summary.contentClasses[0].requests += 5;
    const failed = failuresOf(summary).map((failure) => `${failure.identity} ${failure.where}`);
    expect(failed).toEqual(['shares hitRatio.edge', 'class-requests contentClasses[].requests', 'latency-order latencyMs.all.p90']);
  });

  it('every identity has a unique name and a rule', () => {
    const names = CONSERVATION_IDENTITIES.map((identity) => identity.name);
    expect(new Set(names).size).toBe(names.length);
    expect(CONSERVATION_IDENTITIES.every((identity) => identity.rule.length > 0)).toBe(true);
  });

  it('a failure reads as identity, figure, expected and found; the command fails with exit 4 and one line per run', () => {
    const failed = [
      { identity: 'layer-lookups', where: 'cdn.layers.edge.lookups', expected: 5468, found: 5469 },
      { identity: 'shares', where: 'hitRatio.edge', expected: { min: 0, max: 1 }, found: 1.2 },
    ];
    expect(checkFailureLines(failed)).toEqual(['layer-lookups: cdn.layers.edge.lookups expected 5468, found 5469', 'shares: hitRatio.edge expected in [0, 1], found 1.2']);
    expect(conservationFailure([{ label: 'fixed:1h', checks: { passed: 0, failed } }])?.message).toContain('\n  fixed:1h: shares: hitRatio.edge expected in [0, 1], found 1.2');
    expect(conservationFailure([{ label: '', checks: { passed: 130, failed: [] } }])).toBeNull();
  });
});
