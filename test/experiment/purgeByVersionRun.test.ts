import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * Purges by version (spec 1.2 item 6, src/cdn/purge.ts) through whole runs: the regions
 * model with no jitter, so every hop takes 0 ms and a miss costs exactly the origin latency,
 * with immutable content (RFC 8246: nothing expires within a run), so only a purge makes a
 * copy go.
 */
function run(body: string): Summary {
  const text = `
seed: 3
content:
  objectSize: { median: 10KB, sigma: 0, min: 10KB, max: 10KB }
  headers: { fields: { Cache-Control: "public, max-age=31536000, immutable" } }
${body}`;
  return buildSummary(runScenario(parseScenarioText(text, 'purge.yaml')));
}

describe('purges by version through whole runs (spec 1.2 item 6)', () => {
  it('spec 1.2 item 6: with a 3 s origin and the 2 s purge delay, no response is more than one origin fetch (3 s) behind the deploy', () => {
    const summary = run(`
  objects: 10000
run: { duration: 4m }
traffic: { rate: 200/s }
topology: { model: regions, jitter: 0, originLatency: 3s }
incidents: [{ kind: deploy, at: 120s, purge: true }]
`);
    // By hand, with hops of 0 ms: a copy served from a PoP before the purge reaches it (122 s)
    // is < 2 s behind; a fetch the origin read before the deploy (120 s) answers before 123 s,
    // < 3 s behind, and is not stored when it arrives after 122 s; after 122 s no copy read
    // before 120 s is served. So every outdated response is < max(3 s, 2 s) behind. By store
    // time, a fetch read in [119 s, 120 s) was stored after 122 s and served to the run's end
    // (118.5 s behind in this run).
    expect(summary.cdn.staleness.maxSeconds).toBeLessThan(3);
    // Above 2 s: the old answers of fetches in flight over the deploy (2.972 s here) reached clients.
    expect(summary.cdn.staleness.maxSeconds).toBeGreaterThan(2);
  });

  it('spec 1.2 item 6: a new-version copy fetched while a purge travels is kept: two purging deploys 3 s apart cost one fetch per asset and PoP, 250', () => {
    const summary = run(`
  objects: 50
  zipfExponent: 0
run: { duration: 6m }
traffic: { rate: 1k/s }
topology: { model: regions, jitter: 0, originLatency: 100ms }
cdn: { purgeDelay: 5s }
incidents:
  - { kind: deploy, at: 300s, purge: true }
  - { kind: deploy, at: 303s, purge: true }
`);
    // By hand: five PoPs hold all 50 assets by 300 s. The first purge reaches them at 305 s; each
    // asset and PoP is fetched again once, read by the origin at 305 s or later, after the second
    // deploy (303 s): the second purge, reaching them at 308 s, keeps those copies, and drops the
    // copies still read before 303 s, each then fetched once. 5 × 50 = 250 in either window. By
    // store time every copy fetched in [305 s, 307.9 s) was dropped again at 308 s and fetched a
    // third time.
    expect(summary.incidents.map((row) => [row.originRequestsBefore, row.originRequests])).toEqual([
      [0, 250],
      [0, 250],
    ]);
    // Outdated responses: copies served before the purges reach the PoPs, < 5 s behind the deploy.
    expect(summary.cdn.staleness.maxSeconds).toBeLessThan(5);
  });
});
