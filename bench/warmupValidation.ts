import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { runScenario } from '../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../src/report/summary.js';
import { parseScenarioText } from '../src/scenario/load.js';
import type { Scenario } from '../src/scenario/schema.js';

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
 */
const LIMIT = 0.005;
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

const args = process.argv.slice(2);
const seriesAt = args.indexOf('--series');
const seriesFile = seriesAt >= 0 ? args[seriesAt + 1] : undefined;
const sizeArgs = seriesAt >= 0 ? [...args.slice(0, seriesAt), ...args.slice(seriesAt + 2)] : args;
const sizes = sizeArgs.length > 0 ? sizeArgs.map(Number) : DEFAULT_SIZES;
const series: Record<string, unknown> = {};
let failed = false;
console.log('| objects | rule: warm-up requests | CDN | edge | 4× warm-up requests | CDN | edge | Δ CDN (points) | Δ edge (points) | wall s (rule, 4×) |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const objects of sizes) {
  const rule = run('rule', objects, scenario(objects, 'steady'));
  const steady = rule.summary.warmup.steady;
  if (steady === undefined) throw new Error('the steady warm-up reported no blocks');
  const warmed = rule.summary.warmup.requests;
  const longerScenario = scenario(objects, { until: 'steady', block: steady.blockRequests, max: 4 * warmed });
  const length = longerScenario.run.warmup.kind === 'caches' ? longerScenario.run.warmup.length : undefined;
  if (length?.kind !== 'steady') throw new Error('expected the steady form for the longer warm-up');
  length.tolerance = -Infinity; // no projected gain is below it: the warm-up runs to max
  const longer = run('4×', objects, longerScenario);
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
