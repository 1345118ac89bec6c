import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * The steady rule end to end, small (docs/warmup.md; `npm run validate:warmup` runs the
 * baseline at 100 k, 1 M and 2 M objects): 20,000 objects (about 1 GB) over 8 PoPs with
 * 200 MB each and regional sites of 600 MB, so the edges evict and the regional tier keeps
 * filling.
 */
const NETWORK = 'seed: 5\ncontent: { objects: 20000 }\nedge: { capacity: 200MB }\nregional: { capacity: 600MB }\ntopology: { pops: { count: 8 } }\n';
const summaryOf = (run: string) => buildSummary(runScenario(parseScenarioText(`${NETWORK}run: ${run}\n`, 'scenarios/steady-small.yaml')));

describe('warm-up until steady (spec 1.1: the figures of a CDN in service)', () => {
  it('spec 1.1: after the default rule (a stationary start, then blocks), the CDN and edge hit ratios are within 0.5 points of a warm-up four times as long', () => {
    const rule = summaryOf('{ requests: 200000, warmup: steady }');
    expect(rule.warmup.start).toBe('stationary');
    const steady = rule.warmup.steady;
    // max(20,000 objects, 8 edges × 3,000) = 24,000, below the 100 k floor.
    expect(steady?.blockRequests).toBe(100_000);
    expect(steady?.converged).toBe(true);
    expect(rule.warmup.requests % 100_000).toBe(0);
    // From the stationary state, 48 blocks: the noise of 100 k-request blocks over 8 PoPs decides (deterministic by seed).
    expect(rule.warmup.requests).toBe(4_800_000);
    expect(steady?.projectedGain.cdn).toBeLessThan(0.0025);
    expect(steady?.projectedGain.edge).toBeLessThan(0.0025);
    expect(steady?.blockEdgeHitRatios).toHaveLength(steady?.blockHitRatios.length ?? -1);
    expect(rule.warmup.warning).toBeUndefined();
    const longer = summaryOf(`{ requests: 200000, warmup: { requests: ${4 * rule.warmup.requests}, start: stationary } }`);
    expect(Math.abs(longer.hitRatio.cdn - rule.hitRatio.cdn)).toBeLessThan(0.005);
    expect(Math.abs(longer.hitRatio.edge - rule.hitRatio.edge)).toBeLessThan(0.005);
  }, 300_000);

  it('spec 1.1: a warm-up stopped by max while the hit ratio still rises warns, in summary.json and under the report\'s first line', () => {
    // Four blocks of 100 k: fewer than the eight the rule needs, and the caches far from full.
    const capped = summaryOf('{ requests: 20000, warmup: { until: steady, block: 100k, max: 400k, start: empty } }');
    expect(capped.warmup.requests).toBe(400_000);
    expect(capped.warmup.steady?.converged).toBe(false);
    expect(capped.warmup.steady?.projectedGain).toEqual({ cdn: null, edge: null });
    expect(capped.warmup.warning).toBe(
      'the warm-up stopped at run.warmup.max (400,000 requests, fewer than the 8 blocks of 100,000 the rule needs) before it could judge the hit ratios; raise run.warmup.max (docs/warmup.md)',
    );
    // The header, then the warning, folded to 100 columns (issue 26): each an item whose continuation lines are indented.
    const lines = summaryText(capped).split('\n');
    const items = lines.slice(0, lines.indexOf('')).reduce<string[]>((joined, line) => (line.startsWith('  ') ? [...joined.slice(0, -1), `${joined.at(-1)} ${line.trim()}`] : [...joined, line]), []);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/NOT steady after 400,000 requests \(run\.warmup\.max\)/);
    expect(items[1].replaceAll(' · ', ' ')).toBe(`warning: ${capped.warmup.warning}`.replaceAll(' · ', ' '));
    // Past eight blocks the warning gives the rule's projected gains.
    const rising = summaryOf('{ requests: 20000, warmup: { until: steady, block: 50k, max: 500k, start: empty } }');
    expect(rising.warmup.steady?.converged).toBe(false);
    const gain = rising.warmup.steady?.projectedGain.cdn ?? 0;
    expect(gain).toBeGreaterThan(0.0025);
    expect(rising.warmup.warning).toContain(`change the CDN hit ratio by up to ${(gain * 100).toFixed(2)} points`);
  }, 120_000);

  it('spec 1.1: the stationary start fills edges and regional sites so that their first block hits as 4 M requests from empty do (edge within 1 point, regional within 2)', () => {
    const filled = summaryOf('{ requests: 100000, warmup: { requests: 100000, start: stationary } }');
    const fill = filled.warmup.fill;
    // 8 edges of 200 MB and the regional sites of 600 MB, full: about 200 MB / 53 KB objects each.
    expect(fill?.edge.caches).toBe(8);
    expect((fill?.edge.bytes ?? 0) / 8).toBeGreaterThan(199e6);
    expect((fill?.edge.bytes ?? 0) / 8).toBeLessThanOrEqual(200e6);
    expect(fill?.regional?.objects).toBeGreaterThan(0);
    const long = summaryOf('{ requests: 100000, warmup: { requests: 4000000 } }');
    expect(long.warmup.start).toBe('empty');
    expect(Math.abs(filled.hitRatio.edge - long.hitRatio.edge)).toBeLessThan(0.01);
    expect(Math.abs(filled.hitRatio.cdn - long.hitRatio.cdn)).toBeLessThan(0.01);
    // The regional's own hit ratio per lookup (its input is the PoPs' misses, Che's p_i·e^{−p_i x}).
    expect(Math.abs((filled.lookupHitRatio.regional ?? 0) - (long.lookupHitRatio.regional ?? 1))).toBeLessThan(0.02);
    // Che's expectation for one edge, on the requests reaching it, against the measured figure.
    expect(Math.abs((fill?.edge.cheHitRatio ?? 0) - filled.hitRatio.edge)).toBeLessThan(0.01);
  }, 300_000);

  it('determinism: the same seed fills the same caches and measures the same figures; the fill draws from its own stream', () => {
    const a = summaryOf('{ requests: 20000, warmup: { requests: 100000, start: stationary } }');
    const b = summaryOf('{ requests: 20000, warmup: { requests: 100000, start: stationary } }');
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const empty = summaryOf('{ requests: 20000, warmup: { requests: 100000 } }');
    // The workload's streams are untouched by the fill: the same requests, so the same simulated end.
    expect(empty.simulatedSeconds).toBe(a.simulatedSeconds);
  }, 120_000);
});
