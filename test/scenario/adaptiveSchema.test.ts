import { describe, expect, it } from 'vitest';
import { compileContentCaching } from '../../src/experiment/contentCaching.js';
import { resolveStrategy, withStrategy } from '../../src/experiment/strategies.js';
import { adaptiveTtlSchema, DEFAULT_ADAPTIVE_TTL } from '../../src/scenario/adaptiveSchema.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { scenarioToInput } from '../../src/scenario/serialize.js';

const SITE = `
name: adaptive-schema
run: { requests: 1000 }
content:
  classes:
    - { name: image, share: 60% }
    - { name: html, share: 40% }
topology: { model: regions }
`;
const site = (extra = '') => parseScenarioText(SITE + extra, 'site.yaml');

describe('spec 1.2 item 6: the adaptive controller\'s parameters (cdn.adaptiveTtl, a strategy\'s adaptive)', () => {
  it('the defaults: every 60 s, target 90 %, ×2, at most 1 h, 5 % outdated, from 10 s, 100 requests, tracking parameters stripped below the target', () => {
    expect(DEFAULT_ADAPTIVE_TTL).toEqual({ windowMs: 60_000, targetHitRatio: 0.9, factor: 2, maxTtlMs: 3_600_000, maxStaleShare: 0.05, startTtlMs: 10_000, minRequests: 100, queries: 'strip-tracking', classes: {} });
  });

  it('queries: keep or strip-tracking; anything else is a located error naming both', () => {
    expect(adaptiveTtlSchema.parse({ queries: 'keep' }).queries).toBe('keep');
    const result = adaptiveTtlSchema.safeParse({ queries: 'strip' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['queries'] });
    expect(result.error?.issues[0].message).toContain('expected strip-tracking');
  });

  it('human units: window 2m, target 95%, maxTtl 30m, maxStaleShare 1%, and a class of its own', () => {
    const scenario = site('cdn: { adaptiveTtl: { window: 2m, target: 95%, maxTtl: 30m, maxStaleShare: 1%, classes: { html: { maxTtl: 5m, target: 80% } } } }\n');
    expect(scenario.cdn.adaptiveTtl).toMatchObject({ windowMs: 120_000, targetHitRatio: 0.95, maxTtlMs: 1_800_000, maxStaleShare: 0.01, classes: { html: { maxTtlMs: 300_000, targetHitRatio: 0.8 } } });
  });

  it('scenario.json round trip: the resolved parameters written back load to the same scenario', () => {
    const scenario = site('cdn: { adaptiveTtl: { window: 90s, factor: 1.5, classes: { image: { maxStaleShare: 2% } } } }\n');
    const again = parseScenarioText(JSON.stringify(scenarioToInput(scenario)), 'scenario.json');
    expect(again.cdn).toEqual(scenario.cdn);
  });

  it('mistakes are located at their key with what was expected', () => {
    expect(() => site('cdn: { adaptiveTtl: { factor: 1 } }\n')).toThrow(/site\.yaml:\d+:\d+: `cdn\.adaptiveTtl\.factor`: expected a number > 1, found 1/);
    expect(() => site('cdn: { adaptiveTtl: { window: 500ms } }\n')).toThrow(/`cdn\.adaptiveTtl\.window`: expected a window of at least 1s/);
    expect(() => site('cdn: { adaptiveTtl: { target: 120% } }\n')).toThrow(/`cdn\.adaptiveTtl\.target`: expected a percentage/);
    expect(() => site('cdn: { adaptiveTtl: { startTtl: 2h } }\n')).toThrow(/`cdn\.adaptiveTtl\.startTtl`: expected a startTtl no longer than maxTtl \(3600 s\)/);
    expect(() => site('cdn: { adaptiveTtl: { maxTtl: 1h, maxStale: 5% } }\n')).toThrow(/`cdn\.adaptiveTtl\.maxStale`: unknown key/);
  });

  it('a class the scenario lacks is a located error with a suggestion, under cdn.adaptiveTtl and under a strategy\'s adaptive', () => {
    expect(() => site('cdn: { adaptiveTtl: { classes: { htm: { maxTtl: 5m } } } }\n')).toThrow(
      /site\.yaml:\d+:\d+: `cdn\.adaptiveTtl\.classes\.htm`: expected a content class of this scenario \(image, html\), found "htm" — did you mean "html"\?/,
    );
    expect(() => site('strategies:\n  - name: a\n    adaptive: { classes: { imag: { maxTtl: 5m } } }\n')).toThrow(
      /site\.yaml:\d+:\d+: `strategies\[0\]\.adaptive\.classes\.imag`: expected a content class .* — did you mean "image"\?/,
    );
  });

  it('the preset `adaptive` keeps the origin\'s headers and turns the controller on with the defaults; a mistyped name suggests it', () => {
    const scenario = site();
    const adaptive = resolveStrategy('adaptive').apply(scenario);
    expect(adaptive.cdn.adaptiveTtl).toEqual(DEFAULT_ADAPTIVE_TTL);
    expect(compileContentCaching(adaptive).classes.map((k) => k.responseHeaders)).toEqual(compileContentCaching(scenario).classes.map((k) => k.responseHeaders));
    expect(() => site('\nstrategies: [adaptve]\n')).toThrow(/found "adaptve" — did you mean "adaptive"\?/);
  });

  it('a custom strategy: its preset first, then its own controller (`true`: the defaults)', () => {
    const scenario = site('strategies:\n  - { name: short, from: "fixed:1m", adaptive: { maxStaleShare: 10% } }\n  - { name: plain, adaptive: true }\n');
    const short = withStrategy(scenario, 'short');
    expect(short.cdn.adaptiveTtl?.maxStaleShare).toBe(0.1);
    expect(compileContentCaching(short).classes.map((k) => k.edge.ttlMs)).toEqual([60_000, 60_000]);
    expect(withStrategy(scenario, 'plain').cdn.adaptiveTtl).toEqual(DEFAULT_ADAPTIVE_TTL);
  });
});
