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
function site(queries: string, extra = ''): Scenario {
  return parseScenarioText(
    `
seed: 5
run: { duration: 60s }
traffic: { rate: 1k/s }
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
