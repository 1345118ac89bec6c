import { describe, expect, it } from 'vitest';
import { resolveStrategy } from '../../src/experiment/strategies.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { RandomStreams } from '../../src/sim/random.js';

/**
 * Deploys through whole runs (spec 1.2 item 6, 8.1 row 1): one class of 200 hashed assets
 * (one year, immutable: nothing expires within the run), asked for uniformly at 1k/s from
 * five regional edges with no regional tier, and a deploy at 30 s that updates the class's
 * `onDeploy` share.
 */
const SEED = 3;
const OBJECTS = 200;

function scenarioText(updates: string): string {
  return `
seed: ${SEED}
run: { duration: 60s }
traffic: { rate: 1k/s }
deployment: { kind: full-stack, framework: next }
content:
  classes:
    - { name: static-asset, objects: ${OBJECTS}, share: 100%, zipfExponent: 0, size: { median: 10KB, sigma: 0 }, churn: { updates: { rate: 0, ${updates} } } }
topology: { model: regions, jitter: 0, originLatency: 100ms }
incidents:
  - { kind: deploy, at: 30s }
`;
}

const run = (updates: string, strategy = 'respect-headers'): Summary =>
  buildSummary(runScenario(resolveStrategy(strategy).apply(parseScenarioText(scenarioText(updates), 'deploy.yaml'))));

/** The objects the deploy changes: one draw per rank from the class's deploy stream (churn.deployClass), below the share. */
function changedByDeploy(share: number): number {
  const stream = new RandomStreams(SEED).stream('content.static-asset.deploys');
  let changed = 0;
  for (let rank = 0; rank < OBJECTS; rank++) if (stream.next() < share) changed++;
  return changed;
}

describe('deploys update the onDeploy share of a class (spec 1.2 item 6, 8.1 row 1)', () => {
  const changed = changedByDeploy(0.3);

  it('a deploy with onDeploy 30% changes about 30% of the 200 objects (binomial, 3σ)', () => {
    // 200 × 0.3 = 60, σ = √(200 × 0.3 × 0.7) ≈ 6.5.
    expect(changed).toBeGreaterThanOrEqual(60 - 20);
    expect(changed).toBeLessThanOrEqual(60 + 20);
  });

  it('newUrl: true: every changed object is a cold key at each of the 5 edges, fetched once each; nothing outdated is served', () => {
    const summary = run('newUrl: true, onDeploy: 30%');
    const [deploy] = summary.incidents;
    // The 30 s before the deploy: each object once per edge (then cached for a year, immutable).
    expect(deploy.originRequestsBefore).toBe(5 * OBJECTS);
    expect(deploy.originRequests).toBe(5 * changed);
    expect(summary.cdn.staleness.share).toBe(0);
    // Run total: 200 objects × 5 edges at the start, then the new URLs.
    expect(summary.cdn.origin.requests).toBe(5 * (OBJECTS + changed));
  });

  it('newUrl: false: the changed objects get a new version at the same URL; the edges keep serving the outdated copies', () => {
    const summary = run('newUrl: false, onDeploy: 30%');
    expect(summary.incidents[0].originRequests).toBe(0);
    // About 30 % of the objects outdated for the second half of the run: ≈ 15 % of responses.
    expect(summary.cdn.staleness.share).toBeGreaterThan(0.5 * (changed / OBJECTS) - 0.02);
    expect(summary.cdn.staleness.share).toBeLessThan(0.5 * (changed / OBJECTS) + 0.02);
  });

  it('without onDeploy a deploy gives every object a new version at its URL (the whole class); onDeploy 0% leaves the class alone', () => {
    const whole = run('newUrl: false');
    expect(whole.incidents[0].originRequests).toBe(0);
    expect(whole.cdn.staleness.share).toBeGreaterThan(0.48);
    expect(whole.cdn.staleness.share).toBeLessThan(0.52);
    const none = run('newUrl: false, onDeploy: 0%');
    expect(none.cdn.staleness.share).toBe(0);
    expect(none.cdn.origin.requests).toBe(5 * OBJECTS);
  });

  it('versioned-assets (spec 8.1 row 1) turns the same-URL deploy into cold new URLs: origin requests after the deploy, no outdated responses', () => {
    const sameUrl = run('newUrl: false, onDeploy: 30%');
    const versioned = run('newUrl: false, onDeploy: 30%', 'versioned-assets');
    expect(versioned.incidents[0].originRequests).toBe(5 * changed);
    expect(versioned.cdn.staleness.share).toBe(0);
    expect(sameUrl.cdn.staleness.share).toBeGreaterThan(0.1);
    // Without onDeploy, versioned-assets gives every object of the hashed class a new URL.
    expect(run('newUrl: false', 'versioned-assets').incidents[0].originRequests).toBe(5 * OBJECTS);
  });
});
