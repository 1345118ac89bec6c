import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { runScenario } from '../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../src/report/summary.js';
import { steadyGain } from '../src/experiment/steadyRule.js';
import { parseScenarioText } from '../src/scenario/load.js';
import type { Scenario } from '../src/scenario/schema.js';
import { STEADY_DEFAULTS } from '../src/scenario/warmupSchema.js';
import { parseCount } from '../src/units.js';

/**
 * `npm run validate:warmup [objects …] [--series file.json]`: the check docs/warmup.md
 * reports for the steady rule (src/experiment/steadyRule.ts). For each catalogue size, the
 * baseline scenario with that many objects is run twice with the same seed: warmed until
 * steady (the default rule), and warmed four times as many requests; the CDN and edge hit
 * ratios measured after each (spec 1.1, the same `run.requests` through the full flow)
 * must be within 0.5 points. Long (hundreds of millions of warmed requests for 2 M
 * objects): not part of `npm test` or `npm run bench`.
 *
 * The longer warm-up is the steady form with the rule's block, `max` at four times the
 * rule's requests and a tolerance no gain can pass: the same warmer stopping after the
 * same request as `{requests: 4N}`, but its blocks' hit ratios are recorded, so that
 * `--series` can keep both series for judging the rule against what a longer warm-up
 * actually brought. Prints one Markdown table row per size; exits 1 when a size is off.
 *
 * `--blocks 60M`: a shorter check when the full one does not fit (docs/warmup.md gives both):
 * one warm-up per size, run in the rule's blocks to that many requests without stopping,
 * then, from its blocks alone, where the rule would have stopped (if it did) and, for the
 * longest warm-up N whose 4N lies within them, the hit ratios of the block after N and of
 * the block after 4N: the caches' own figures standing in for the measured windows.
 */
const LIMIT = 0.005;
/** The rule's default tolerance (src/scenario/warmupSchema.ts). */
const STEADY_TOLERANCE = STEADY_DEFAULTS.tolerance;
const DEFAULT_SIZES = [100_000, 1_000_000, 2_000_000];
/** The rate of the user's report for the larger catalogues; with immutable content it only sets simulated time. */
const rateFor = (objects: number): number => (objects > 100_000 ? 200_000 : 20_000);

function scenario(objects: number, warmup: unknown): Scenario {
  const doc = parseDocument(readFileSync('scenarios/baseline.yaml', 'utf8'));
  doc.setIn(['content', 'objects'], objects);
  doc.setIn(['traffic', 'rate'], `${rateFor(objects) / 1000}k/s`);
  doc.setIn(['run', 'warmup'], warmup);
  return parseScenarioText(doc.toString(), 'scenarios/baseline.yaml');
}

function run(label: string, objects: number, parsed: Scenario): { summary: Summary; seconds: number } {
  const started = process.hrtime.bigint();
  let lastReport = started;
  const rate = rateFor(objects);
  const summary = buildSummary(
    runScenario(parsed, {
      // Progress on stderr about once a minute: the warm-up's requests from its simulated time (Poisson arrivals at `rate`).
      onProgress: ({ simulatedMs }) => {
        const now = process.hrtime.bigint();
        if (now - lastReport < 60_000_000_000n) return;
        lastReport = now;
        const seconds = Number(now - started) / 1e9;
        console.error(`${label}: ${objects} objects, about ${((simulatedMs / 1000) * rate / 1e6).toFixed(0)} M requests after ${seconds.toFixed(0)} s`);
      },
    }),
  );
  return { summary, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const pct = (ratio: number): string => `${(ratio * 100).toFixed(2)} %`;
const pts = (difference: number): string => `${(difference * 100).toFixed(2)}`;
/** The rule's projected changes, or a dash before its eighth block. */
const gains = (cdn: number | undefined, edge: number | undefined): string => (cdn === undefined || edge === undefined ? '–' : `${pts(cdn)}, ${pts(edge)}`);

/** Removes `--name value` from `args` and returns the value. */
function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  return args.splice(at, 2)[1];
}

/** A warm-up in the rule's blocks that never stops before `max` (a tolerance no projected change is below). */
function unstoppable(objects: number, block: number | undefined, max: number): Scenario {
  const parsed = scenario(objects, { until: 'steady', ...(block === undefined ? {} : { block }), max });
  const length = parsed.run.warmup.kind === 'caches' ? parsed.run.warmup.length : undefined;
  if (length?.kind !== 'steady') throw new Error('expected the steady form');
  length.tolerance = -Infinity;
  return parsed;
}

const args = process.argv.slice(2);
const seriesFile = option(args, '--series');
const blocksTo = option(args, '--blocks');
const sizes = args.length > 0 ? args.map(Number) : DEFAULT_SIZES;
const series: Record<string, unknown> = {};
let failed = false;
if (blocksTo !== undefined) {
  const parsedMax = parseCount(blocksTo);
  if (!parsedMax.ok) throw new Error(`--blocks: expected a request count such as 60M, not ${blocksTo}`);
  console.log('| objects | block | warmed (wall s) | last block CDN | edge | rule: projected change CDN, edge (points) | rule stopped after | N → 4N | CDN after N → after 4N | edge after N → after 4N | Δ CDN, Δ edge (points) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const objects of sizes) {
    const warmed = run('blocks', objects, unstoppable(objects, undefined, parsedMax.value));
    const steady = warmed.summary.warmup.steady;
    if (steady === undefined) throw new Error('the steady warm-up reported no blocks');
    const cdn = steady.blockHitRatios;
    const edge = steady.blockEdgeHitRatios;
    let stop: number | undefined;
    for (let n = 1; n <= cdn.length && stop === undefined; n++) {
      const c = steadyGain(cdn.slice(0, n));
      const e = steadyGain(edge.slice(0, n));
      if (c !== null && e !== null && c.gain < STEADY_TOLERANCE && e.gain < STEADY_TOLERANCE) stop = n;
    }
    // The block after a warm-up of N blocks is block N (0-based): the longest N with block 4N recorded.
    const n = Math.floor((cdn.length - 1) / 4);
    const mega = (blocks: number): string => `${((blocks * steady.blockRequests) / 1e6).toFixed(1)} M`;
    const last = cdn.length - 1;
    console.log(
      `| ${objects.toLocaleString('en-US')} | ${steady.blockRequests.toLocaleString('en-US')} | ${mega(cdn.length)} (${warmed.seconds.toFixed(0)}) | ${pct(cdn[last])} | ${pct(edge[last])} | ` +
        `${gains(steadyGain(cdn)?.gain, steadyGain(edge)?.gain)} | ${stop === undefined ? 'not within them' : mega(stop)} | ` +
        (n < 1 ? '| | | |' : `${mega(n)} → ${mega(4 * n)} | ${pct(cdn[n])} → ${pct(cdn[4 * n])} | ${pct(edge[n])} → ${pct(edge[4 * n])} | ${pts(cdn[4 * n] - cdn[n])}, ${pts(edge[4 * n] - edge[n])} |`),
    );
    series[objects] = { blockRequests: steady.blockRequests, blockHitRatios: cdn, blockEdgeHitRatios: edge, seconds: warmed.seconds };
    if (seriesFile !== undefined) writeFileSync(seriesFile, `${JSON.stringify(series, null, 1)}\n`);
  }
  process.exit(0);
}
console.log('| objects | rule: warm-up requests | CDN | edge | 4× warm-up requests | CDN | edge | Δ CDN (points) | Δ edge (points) | wall s (rule, 4×) |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const objects of sizes) {
  const rule = run('rule', objects, scenario(objects, 'steady'));
  const steady = rule.summary.warmup.steady;
  if (steady === undefined) throw new Error('the steady warm-up reported no blocks');
  const warmed = rule.summary.warmup.requests;
  // The rule's half on its own first (stderr): the longer warm-up takes four times as long.
  console.error(
    `rule: ${objects} objects, start ${rule.summary.warmup.start}, ${warmed} requests warmed (${steady.blockHitRatios.length} blocks, converged ${steady.converged}), ` +
      `measured CDN ${pct(rule.summary.hitRatio.cdn)}, edge ${pct(rule.summary.hitRatio.edge)}, ${rule.seconds.toFixed(0)} s; fill ${JSON.stringify(rule.summary.warmup.fill)}; ` +
      `blocks CDN ${steady.blockHitRatios.map(pct).join(' ')}; edge ${steady.blockEdgeHitRatios.map(pct).join(' ')}`,
  );
  const longer = run('4×', objects, unstoppable(objects, steady.blockRequests, 4 * warmed));
  if (longer.summary.warmup.requests !== 4 * warmed) throw new Error(`the longer warm-up used ${longer.summary.warmup.requests} requests, not ${4 * warmed}`);
  const cdn = longer.summary.hitRatio.cdn - rule.summary.hitRatio.cdn;
  const edge = longer.summary.hitRatio.edge - rule.summary.hitRatio.edge;
  const ok = Math.abs(cdn) < LIMIT && Math.abs(edge) < LIMIT && steady.converged;
  failed ||= !ok;
  console.log(
    `| ${objects.toLocaleString('en-US')} | ${warmed.toLocaleString('en-US')}${steady.converged ? '' : ' (not steady)'} | ${pct(rule.summary.hitRatio.cdn)} | ${pct(rule.summary.hitRatio.edge)} | ` +
      `${(4 * warmed).toLocaleString('en-US')} | ${pct(longer.summary.hitRatio.cdn)} | ${pct(longer.summary.hitRatio.edge)} | ${pts(cdn)} | ${pts(edge)}${ok ? '' : ' **off**'} | ${rule.seconds.toFixed(0)}, ${longer.seconds.toFixed(0)} |`,
  );
  series[objects] = {
    blockRequests: steady.blockRequests,
    rule: { requests: warmed, steady, measured: { cdn: rule.summary.hitRatio.cdn, edge: rule.summary.hitRatio.edge }, seconds: rule.seconds },
    longer: { requests: 4 * warmed, steady: longer.summary.warmup.steady, measured: { cdn: longer.summary.hitRatio.cdn, edge: longer.summary.hitRatio.edge }, seconds: longer.seconds },
  };
  if (seriesFile !== undefined) writeFileSync(seriesFile, `${JSON.stringify(series, null, 1)}\n`);
}
process.exitCode = failed ? 1 : 0;
