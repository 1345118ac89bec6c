import { describe, expect, it } from 'vitest';
import type { AdaptiveWindow } from '../../src/cdn/adaptiveController.js';
import { BROWSER_DECISION } from '../../src/policy/compile.js';
import { runScenario, type RunResult } from '../../src/experiment/runScenario.js';
import { withStrategy } from '../../src/experiment/strategies.js';
import { adaptiveCsv, type AdaptiveAdjustmentSummary } from '../../src/report/adaptiveReport.js';
import { buildSummary, summaryJson } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { hitRatio, windowsOf } from '../support/adaptiveWindows.js';
import type { Scenario } from '../../src/scenario/schema.js';

/**
 * spec 1.2 item 6 on the simulated clock: images sent a one-minute lifetime though they
 * rarely change, pages sent the same though they are edited every few seconds. The
 * controller (defaults: every 60 s, target 90 %, ×2, at most 1 h, 5 % outdated) should
 * raise the images to an hour and find the pages' ceiling at the staleness budget.
 */
const SITE = `
name: adaptive-unit
seed: 3
run: { duration: 12m, warmup: 0 }
traffic: { rate: 200/s }
deployment: { kind: container }
content:
  classes:
    - name: image
      preset: image
      objects: 3000
      share: 60%
      headers: { fields: { Cache-Control: "public, max-age=60" } }
      churn: { updates: { rate: 10/h, newUrl: false } }
    - name: html
      preset: html
      objects: 300
      share: 30%
      headers: { fields: { Cache-Control: "public, max-age=60" } }
      churn: { updates: { rate: 1200/h, newUrl: false } }
    - { name: api, preset: api, share: 10%, headers: { fields: { Cache-Control: "no-store" } } }
edge: { capacity: 1GB }
regional: { capacity: 5GB }
topology: { model: regions }
strategies:
  - respect-headers
  - adaptive
  - name: never-triggers
    adaptive: { target: 0%, maxStaleShare: 100% }
`;

type TtlAdjustment = Extract<AdaptiveAdjustmentSummary, { action: 'ttl' }>;
const ttlChangesOf = (summary: ReturnType<typeof buildSummary>, name: string): TtlAdjustment[] =>
  (summary.adaptive?.adjustments ?? []).filter((a): a is TtlAdjustment => a.class === name && a.action === 'ttl');

const site = (): Scenario => parseScenarioText(SITE, 'adaptive-unit.yaml');
const run = (strategy: string): RunResult => runScenario(withStrategy(site(), strategy));

const outdatedShare = (windows: readonly AdaptiveWindow[]): number => windows.reduce((sum, w) => sum + w.outdated, 0) / windows.reduce((sum, w) => sum + w.requests, 0);

describe('spec 1.2 item 6: the adaptive TTL controller in a run', () => {
  const adaptive = run('adaptive');
  const plain = run('respect-headers');

  it('spec 1.2 item 6: a class sent a too-short lifetime (images, 60 s) is doubled every window until its CDN hit ratio meets the 90 % target, then held', () => {
    const summary = buildSummary(adaptive);
    const raises = ttlChangesOf(summary, 'image');
    expect(raises.map((a) => [a.atSeconds, a.fromTtlSeconds, a.toTtlSeconds, a.reason])).toEqual([
      [60, 60, 120, 'below-target'],
      [120, 120, 240, 'below-target'],
      [180, 240, 480, 'below-target'],
      [240, 480, 960, 'below-target'],
      [300, 960, 1920, 'below-target'],
    ]);
    const windows = windowsOf(adaptive, 'image');
    expect(windows).toHaveLength(12);
    expect(windows.map((w) => w.ttlMs / 1000)).toEqual([60, 120, 240, 480, 960, 1920, 1920, 1920, 1920, 1920, 1920, 1920]);
    // From the sixth window on the images meet the target: every verdict is hold.
    for (const window of windows.slice(5)) {
      expect(window.verdict).toBe('hold');
      expect(window.cdnHits / window.requests).toBeGreaterThanOrEqual(0.9);
    }
    const first = hitRatio(windows.slice(0, 2));
    const last = hitRatio(windows.slice(-3));
    expect(first).toBeLessThan(0.65);
    expect(last).toBeGreaterThan(first + 0.25);
    // The same minutes with the headers as sent stay where the one-minute lifetime holds them.
    const plainImage = summaryClass(plain, 'image');
    expect(summaryClass(adaptive, 'image')).toBeGreaterThan(plainImage + 0.15);
  });

  it('spec 1.2 item 6: the staleness budget (5 %) caps pages edited in place: lowered whenever a window is over it, never near the 1 h maximum', () => {
    const summary = buildSummary(adaptive);
    const html = ttlChangesOf(summary, 'html');
    const lowered = html.filter((a) => a.reason === 'over-budget');
    expect(lowered.length).toBeGreaterThanOrEqual(2);
    for (const adjustment of lowered) {
      expect(adjustment.outdatedShare).toBeGreaterThan(0.05);
      expect(adjustment.toTtlSeconds).toBe(adjustment.fromTtlSeconds / 2);
    }
    const windows = windowsOf(adaptive, 'html');
    expect(Math.max(...windows.map((w) => w.ttlMs))).toBeLessThanOrEqual(960_000);
    // Over the run the pages stay near the budget, far below what an hour would give them.
    expect(outdatedShare(windows)).toBeLessThan(0.08);
    const hourLong = runScenario(withStrategy(site(), 'fixed:1h'));
    expect(buildSummary(hourLong).contentClasses.find((k) => k.name === 'html')?.cdnHitRatio).toBeGreaterThan(0.9);
    expect(buildSummary(hourLong).cdn.staleness.share).toBeGreaterThan(buildSummary(adaptive).cdn.staleness.share * 2);
  });

  it('spec 1.2 item 6: a class the CDN does not store (no-store API) is never adjusted; the browser lifetime is never touched', () => {
    expect(adaptive.adaptive?.adjustments.some((a) => adaptive.adaptive?.classes[a.classId].name === 'api')).toBe(false);
    expect(adaptive.adaptive?.classes.find((klass) => klass.name === 'api')?.adjustable).toBe(false);
    expect(adaptive.contentCaching.table.ttlMsOf(0, BROWSER_DECISION)).toBe(60_000); // class image: the headers' minute
  });

  it('spec 1.2 item 6: determinism: the same scenario and seed give the same adjustments, byte for byte (summary.json and adaptive.csv)', () => {
    const again = run('adaptive');
    expect(summaryJson(buildSummary(again))).toBe(summaryJson(buildSummary(adaptive)));
    expect(adaptiveCsv(again.adaptive!)).toBe(adaptiveCsv(adaptive.adaptive!));
  });

  it('spec 1.2 item 6: a controller that never triggers (target 0 %, budget 100 %) gives the result of respect-headers, but for its own summary key', () => {
    const never = buildSummary(run('never-triggers'));
    expect(never.adaptive?.adjustments).toEqual([]);
    const { adaptive: own, ...rest } = never;
    expect(own?.classes.map((klass) => klass.finalTtlSeconds)).toEqual([60, 60, 0]);
    expect(summaryJson(rest as typeof never)).toBe(summaryJson(buildSummary(plain)));
  });
});

function summaryClass(result: RunResult, name: string): number {
  return buildSummary(result).contentClasses.find((klass) => klass.name === name)?.cdnHitRatio ?? NaN;
}
