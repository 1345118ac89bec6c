import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, summaryJson, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * spec 4.3.1 against the browser layer: 10 listing pages, each asked for only with its one
 * query `?page=1&sort=relevance`, cached for an hour, from 50 returning clients per region
 * who re-ask their recent pages. `traffic.clients.queryReorderShare` sends that share of the
 * queries as `?sort=relevance&page=1`.
 */
function run(queryReorderShare: string): Summary {
  const scenario = parseScenarioText(
    `
seed: 4
run: { requests: 50000 }
traffic:
  rate: 1k/s
  clients: { perRegion: 50, revisitShare: 90%, repeatShare: 90%, queryReorderShare: ${queryReorderShare} }
deployment: { kind: full-stack, framework: next }
content:
  classes:
    - name: html
      objects: 10
      share: 100%
      zipfExponent: 0
      rendering: static
      headers: { fields: { Cache-Control: "public, max-age=3600" } }
      churn: { updates: { rate: 0 } }
      queries: { share: 100%, variants: 1 }
topology: { model: regions, jitter: 0, originLatency: 100ms }
`,
    'reorder.yaml',
  );
  return buildSummary(runScenario(scenario));
}

describe('traffic.clients.queryReorderShare: two spellings, one CDN key (spec 4.3.1)', () => {
  it('spec 4.3.1: the other parameter order misses in the browser (exact URL) and hits at the CDN (sorted key)', () => {
    const inOrder = run('0%');
    const mixed = run('50%');
    // One spelling: browsers answer 40,957 of the 50,000 requests.
    expect(inOrder.requestsByLayer).toEqual({ browser: 40_957, edge: 8_821, origin: 222 });
    // Half the queries in the other order: a browser holding one spelling misses the other,
    // so 6,812 more requests reach the edge, where the sorted key finds the copy.
    expect(mixed.requestsByLayer).toEqual({ browser: 34_145, edge: 15_633, origin: 222 });
    expect(mixed.hitRatio.browser).toBeCloseTo(0.6829, 6);
    // The CDN fetched each page once per edge in both runs: 10 pages × 5 edges, one key each.
    expect(inOrder.cdn.origin.requests).toBe(50);
    expect(mixed.cdn.origin.requests).toBe(50);
  });

  it('every query in the other order is again one spelling per page: the same figures as none', () => {
    expect(summaryJson(run('100%'))).toBe(summaryJson(run('0%')));
  });
});
