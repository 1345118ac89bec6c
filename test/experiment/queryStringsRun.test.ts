import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { selectStrategies } from '../../src/experiment/strategies.js';
import { buildSummary, summaryJson, type Summary } from '../../src/report/summary.js';
import { parseScenarioText, ScenarioError } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/schema.js';
import { scenarioToInput } from '../../src/scenario/serialize.js';

/**
 * Query strings through whole runs (spec 4.3.1): 10 pages asked for uniformly at 1k/s from
 * five regional edges, cached for an hour, every request with `?page=1&sort=relevance` in
 * either order, half of them with an `fbclid` of 100,000 values.
 */
function site(queries: string, extra = '', traffic = ''): Scenario {
  return parseScenarioText(
    `
seed: 5
run: { duration: 60s }
traffic: { rate: 1k/s${traffic} }
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
      queries: { share: 100%, variants: 1, tracking: [fbclid], trackingShare: 50%, trackingValues: 100000${queries} }
topology: { model: regions, jitter: 0, originLatency: 100ms }
strategies:
  - respect-headers
  - name: strip-tracking
    classes: { html: { query: strip-tracking } }
  - name: ignore-fbclid
    classes: { "*": { query: { ignore: [fbclid] } } }
${extra}`,
    'queries.yaml',
  );
}

const run = (scenario: Scenario, strategy = 'respect-headers'): Summary => buildSummary(runScenario(selectStrategies(scenario, [strategy])[0].apply(scenario)));

describe('query strings in runs and strategies (spec 4.3.1)', () => {
  it('spec 4.3.1: parameter order never splits the key: reordered 0 % and 100 % give byte-identical summaries', () => {
    expect(summaryJson(run(site(', reordered: 0%')))).toBe(summaryJson(run(site(', reordered: 100%'))));
  });

  it('tracking values split the key as the spec keeps them; strip-tracking (and ignore: [fbclid]) leaves one key per page', () => {
    const keep = run(site(''));
    const strip = run(site(''), 'strip-tracking');
    const ignore = run(site(''), 'ignore-fbclid');
    // 10 pages × 5 edges, fetched once each and then fresh for the hour.
    expect(strip.cdn.origin.requests).toBe(50);
    expect(summaryJson(ignore)).toBe(summaryJson(strip));
    // Kept in the key, about 30,000 tracked requests over 1,000,000 (page, fbclid) keys nearly all miss: ≈ 29,550 + 50.
    expect(keep.cdn.origin.requests).toBeGreaterThan(29_000);
    expect(keep.cdn.origin.requests).toBeLessThan(30_500);
    expect(keep.hitRatio.cdn).toBeLessThan(0.52);
    expect(strip.hitRatio.cdn).toBeGreaterThan(0.99);
  });

  it('a strategy\'s query override round-trips through the scenario\'s serialised form', () => {
    const scenario = site(', handling: { ignore: [fbclid] }');
    const again = parseScenarioText(JSON.stringify(scenarioToInput(scenario)), 'again.json');
    expect(again.content.classes?.[0].queries?.handling).toEqual({ kind: 'ignore', names: ['fbclid'] });
    expect(again.strategies).toEqual(scenario.strategies);
  });

  it('`query` on a class without query strings is a located error', () => {
    const text = `
run: { requests: 100 }
content:
  classes:
    - { name: html, share: 50%, queries: { share: 10% } }
    - { name: image, share: 50% }
strategies:
  - name: strip
    classes: { image: { query: strip-tracking } }
`;
    try {
      parseScenarioText(text, 'bad.yaml');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScenarioError);
      expect((error as Error).message).toMatch(/bad\.yaml:\d+:\d+: `strategies\[0\]\.classes\.image\.query`: expected a class with query strings \(html\), found "image", whose requests carry none/);
    }
    expect(() => parseScenarioText(text.replace('image: { query', 'image: { quer'), 'bad.yaml')).toThrow(/unknown key/);
  });
});

/**
 * The browser layer (spec 4.9 layer 1) keys the exact URL: the same site from 50 returning
 * clients per region who re-ask their recent pages, `traffic.clients.queryReorderShare` of
 * their queries sent as `?sort=relevance&page=1` (the tracking parameter first).
 */
describe('traffic.clients.queryReorderShare: two spellings, one CDN key (spec 4.3.1)', () => {
  const withClients = (share: string) => run(site('', '', `, clients: { perRegion: 50, revisitShare: 90%, repeatShare: 90%, queryReorderShare: ${share} }`));

  it('spec 4.3.1: the other parameter order misses in the browser (exact URL) and hits at the CDN (sorted key)', () => {
    const inOrder = withClients('0%');
    const mixed = withClients('50%');
    // One spelling per URL: browsers answer 19,961 of the 60,000 requests.
    expect(inOrder.requestsByLayer).toEqual({ browser: 19_961, edge: 9_680, origin: 30_156 });
    // Half the queries in the other order: a browser holding one spelling misses the other,
    // so 5,401 more requests reach the edge, where the sorted key finds the copy: the edges
    // answer exactly those, and the origin serves what it served before.
    expect(mixed.requestsByLayer).toEqual({ browser: 14_560, edge: 15_081, origin: 30_156 });
    expect(mixed.cdn.origin.requests).toBe(inOrder.cdn.origin.requests);
    expect(inOrder.cdn.origin.requests).toBe(30_071);
  });

  it('every query in the other order is again one spelling per URL: the same figures as none', () => {
    expect(summaryJson(withClients('100%'))).toBe(summaryJson(withClients('0%')));
  });

  it('spec 4.9 layer 1: a browser keys the fbclid the CDN strips: under strip-tracking browsers answer 20,013 requests, as under keep (19,961), not 49,117 as if they stripped it too', () => {
    const keep = withClients('0%');
    const strip = run(site('', '', ', clients: { perRegion: 50, revisitShare: 90%, repeatShare: 90%, queryReorderShare: 0% }'), 'strip-tracking');
    // The same exact URLs reach the browsers; 52 more hits because the stripped requests are
    // edge hits whose responses reach the browser sooner than keep's origin fetches.
    expect(keep.requestsByLayer.browser).toBe(19_961);
    expect(strip.requestsByLayer.browser).toBe(20_013);
    // 10 pages × 5 edges fetched once, fresh for the hour: what the browsers miss, the edges answer.
    expect(strip.cdn.origin.requests).toBe(50);
    expect(strip.requestsByLayer).toEqual({ browser: 20_013, edge: 39_578, origin: 206 });
    expect(keep.requestsByLayer.browser + keep.requestsByLayer.edge + keep.requestsByLayer.origin).toBe(59_797);
  });
});
