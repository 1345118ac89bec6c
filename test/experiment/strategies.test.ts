import { describe, expect, it } from 'vitest';
import { compileContentCaching } from '../../src/experiment/contentCaching.js';
import { resolveStrategy, selectStrategies } from '../../src/experiment/strategies.js';
import { parseScenarioText, ScenarioError } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/schema.js';

/** A framework site with a page class edited in place, deploys without purge, and an unused class. */
const SITE = `
name: strategies-unit
run: { requests: 1000 }
deployment: { kind: full-stack, framework: next }
content:
  classes:
    - { name: static-asset, share: 40% }
    - { name: image, share: 35% }
    - name: html
      share: 16%
      rendering: static
      headers: { fields: { Cache-Control: "public, max-age=300, stale-while-revalidate=86400" } }
    - { name: api, share: 9% }
topology: { model: regions }
incidents:
  - { kind: deploy, at: 1m }
  - { kind: deploy, at: 2m, classes: [static-asset] }
`;

const site = (extra = ''): Scenario => parseScenarioText(SITE + extra, 'site.yaml');

/** The policy engine's edge decision per class after a strategy: ttl and swr in seconds, stored or not. */
function edgeDecisions(scenario: Scenario): Record<string, { store: boolean; ttl: number; swr: number; headers: Record<string, string> }> {
  const caching = compileContentCaching(scenario);
  return Object.fromEntries(
    caching.classes.map((klass) => [klass.name, { store: klass.edge.store, ttl: klass.edge.ttlMs / 1000, swr: klass.edge.staleWhileRevalidateMs / 1000, headers: { ...klass.responseHeaders } }]),
  );
}

const apply = (name: string, scenario = site()): Scenario => resolveStrategy(name).apply(scenario);

describe('TTL strategy presets as scenario transformations, decided by the policy engine', () => {
  it('respect-headers (spec 4.1) leaves the scenario as it is', () => {
    const scenario = site();
    expect(apply('respect-headers', scenario)).toBe(scenario);
    const edge = edgeDecisions(scenario);
    expect(edge['static-asset']).toMatchObject({ store: true, ttl: 31_536_000 });
    expect(edge.html).toMatchObject({ store: true, ttl: 300, swr: 86_400 });
    expect(edge.api.store).toBe(false);
  });

  it('fixed:1h (RFC 9213 §2.1): CDN-Cache-Control max-age=3600 on every stored class; the API stays uncached; browsers keep Cache-Control', () => {
    const edge = edgeDecisions(apply('fixed:1h'));
    expect(edge['static-asset']).toMatchObject({ store: true, ttl: 3600 });
    expect(edge.image).toMatchObject({ store: true, ttl: 3600 });
    expect(edge.html).toMatchObject({ store: true, ttl: 3600, swr: 0 });
    expect(edge.html.headers['Cache-Control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(edge.api.store).toBe(false);
    expect(edge.api.headers['CDN-Cache-Control']).toBeUndefined();
  });

  it('fixed:90s gives 90 s; fixed:1.5s is refused (max-age is whole seconds)', () => {
    expect(edgeDecisions(apply('fixed:90s')).html.ttl).toBe(90);
    expect(() => resolveStrategy('fixed:1500ms')).toThrow(/whole seconds/);
  });

  it('swr (spec 8.1 row 2, RFC 5861 §3): stale-while-revalidate=86400 on every stored class, the rest of Cache-Control kept', () => {
    const edge = edgeDecisions(apply('swr'));
    expect(edge['static-asset'].headers['Cache-Control']).toBe('public, max-age=31536000, immutable, stale-while-revalidate=86400');
    expect(edge['static-asset'].swr).toBe(86_400);
    expect(edge.image.swr).toBe(86_400);
    expect(edge.api.store).toBe(false);
    expect(edge.api.headers['Cache-Control']).toBe('no-cache, no-store, must-revalidate');
  });

  it('no-swr (RFC 5861): the page class loses its stale-while-revalidate window, its max-age stays', () => {
    const edge = edgeDecisions(apply('no-swr'));
    expect(edge.html).toMatchObject({ store: true, ttl: 300, swr: 0 });
    expect(edge.html.headers['Cache-Control']).toBe('public, max-age=300');
  });

  it('guidance (spec 8.1): hashed assets row 1 (one year), pages row 2 (3600 s + swr 86400), APIs row 3 (300 s, must-revalidate); unversioned images keep their headers', () => {
    const before = edgeDecisions(site());
    const edge = edgeDecisions(apply('guidance'));
    expect(edge['static-asset']).toMatchObject({ store: true, ttl: 31_536_000 });
    expect(edge.html).toMatchObject({ store: true, ttl: 3600, swr: 86_400 });
    expect(edge.api).toMatchObject({ store: true, ttl: 300, swr: 0 });
    expect(edge.api.headers['Cache-Control']).toBe('public, max-age=300, must-revalidate');
    expect(edge.image).toEqual(before.image);
  });

  it('framework-defaults (spec 4.3): the static page class gets public, max-age=3600, stale-while-revalidate=86400 instead of its own fields', () => {
    const edge = edgeDecisions(apply('framework-defaults'));
    expect(edge.html.headers).toEqual({ 'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400', 'Content-Type': 'text/html' });
    expect(edge.html).toMatchObject({ ttl: 3600, swr: 86_400 });
    expect(edge.api.store).toBe(false);
  });

  it('purge-on-deploy (spec 1.2 item 6): every deploy purges what it touches', () => {
    const scenario = apply('purge-on-deploy');
    expect(scenario.incidents.map((incident) => incident.kind === 'deploy' && incident.purge)).toEqual([true, true]);
  });

  it('versioned-assets (spec 8.1 row 1): deploys purge nothing; hashed classes take new URLs on updates and deploys (every object without onDeploy, else its share)', () => {
    const scenario = apply('versioned-assets');
    expect(scenario.incidents).toEqual([
      { kind: 'deploy', atMs: 60_000, purge: false, classes: [] },
      { kind: 'deploy', atMs: 120_000, purge: false, classes: ['static-asset'] },
    ]);
    const updates = Object.fromEntries((scenario.content.classes ?? []).map((klass) => [klass.name, klass.churn.updates]));
    expect(updates['static-asset']).toMatchObject({ newUrl: true, onDeployShare: 1 });
    for (const name of ['image', 'html', 'api']) expect(updates[name].newUrl).toBe(false);
    expect(updates.html.onDeployShare).toBeUndefined();
    const shared = apply('versioned-assets', parseScenarioText(SITE.replace('{ name: static-asset, share: 40% }', '{ name: static-asset, share: 40%, churn: { updates: { onDeploy: 30% } } }'), 'site.yaml'));
    expect(shared.content.classes?.[0].churn.updates.onDeployShare).toBe(0.3);
  });

  it('cdn-off (spec 1.3): a container deployment without the CDN; the origin still sends the same headers, nothing is stored at the edge', () => {
    const before = edgeDecisions(site());
    const scenario = apply('cdn-off');
    expect(scenario.deployment).toMatchObject({ kind: 'container', cdn: false });
    const edge = edgeDecisions(scenario);
    for (const name of ['static-asset', 'image', 'html', 'api']) {
      expect(edge[name].store).toBe(false);
      expect(edge[name].headers).toEqual(before[name].headers);
    }
  });

  it('the single-class catalogue is the class `objects`: fixed:10m sets its edge TTL to 600 s', () => {
    const scenario = parseScenarioText('run: { requests: 1000 }\ntopology: { model: regions }\n', 'one.yaml');
    expect(edgeDecisions(apply('fixed:10m', scenario)).objects).toMatchObject({ store: true, ttl: 600 });
  });
});

describe('custom strategies under `strategies:` (a preset, then per-class overrides and purge behaviour)', () => {
  const custom = `
strategies:
  - respect-headers
  - name: short-pages
    from: fixed:1h
    classes:
      "*": { fields: { Vary: Accept-Encoding } }
      html: { fields: { CDN-Cache-Control: "max-age=30" }, remove: [Cache-Control] }
      api: { profile: guidance-frequent-api }
    purgeOnDeploy: true
`;

  it('applies the preset, then "*", then the class entry: html 30 s at the CDN without Cache-Control, api from the 8.1 row 3 profile, other classes 1 h, deploys purge', () => {
    const scenario = site(custom);
    const [, strategy] = selectStrategies(scenario, undefined);
    expect(strategy.name).toBe('short-pages');
    const changed = strategy.apply(scenario);
    const edge = edgeDecisions(changed);
    expect(edge.html).toMatchObject({ store: true, ttl: 30 });
    expect(edge.html.headers['Cache-Control']).toBeUndefined();
    expect(edge.image.headers.Vary).toBe('Accept-Encoding');
    expect(edge.api).toMatchObject({ store: true, ttl: 300 });
    expect(edge.image.ttl).toBe(3600);
    expect(changed.incidents.every((incident) => incident.kind === 'deploy' && incident.purge)).toBe(true);
  });

  it('a class name the scenario lacks is a located error with a suggestion', () => {
    const bad = `
strategies:
  - name: typo
    classes:
      htm: { fields: { Cache-Control: "max-age=1" } }
`;
    try {
      site(bad);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScenarioError);
      expect((error as Error).message).toMatch(/site\.yaml:\d+:\d+: `strategies\[0\]\.classes\.htm`: expected a content class of this scenario .* found "htm" — did you mean "html"\?/);
    }
  });

  it('an unknown preset is a located error with a suggestion', () => {
    expect(() => site('\nstrategies: [respect-header]\n')).toThrow(/`strategies\[0\]`: expected a strategy preset .* found "respect-header" — did you mean "respect-headers"\?/);
  });

  it('--strategies: a name neither a preset nor the scenario\'s own is a user error listing the scenario\'s strategies', () => {
    expect(() => selectStrategies(site(custom), ['short-page'])).toThrow(/--strategies: expected a strategy preset .*the scenario's own strategies are short-pages/);
  });

  it('without `strategies` compare runs respect-headers, guidance, fixed:1h and swr', () => {
    expect(selectStrategies(site(), undefined).map((strategy) => strategy.name)).toEqual(['respect-headers', 'guidance', 'fixed:1h', 'swr']);
  });

  it('reports name the header fields a scenario or strategy changed in a class\'s profile (spec 4.3 profile, then headers.fields)', () => {
    const source = (scenario: Scenario) => Object.fromEntries(compileContentCaching(scenario).classes.map((klass) => [klass.name, klass.headerSource]));
    const own = source(site());
    expect(own.html).toBe('spec 4.3 framework defaults by path (profile framework-static-pages); Cache-Control set by headers.fields');
    expect(own['static-asset']).toBe('spec 4.3 framework defaults by path (profile framework-static-assets)');
    // fixed:1h adds CDN-Cache-Control to the stored classes' own fields (and names their profile).
    expect(source(apply('fixed:1h')).html).toBe('named by the class (profile framework-static-pages); Cache-Control, CDN-Cache-Control set by headers.fields');
    // framework-defaults writes the profile's own fields back: nothing differs from it, so nothing is named.
    expect(source(apply('framework-defaults')).html).toBe('named by the class (profile framework-static-pages)');
  });
});
