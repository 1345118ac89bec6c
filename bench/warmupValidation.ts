import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { runScenario } from '../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../src/report/summary.js';
import { parseScenarioText } from '../src/scenario/load.js';

/**
 * `npm run validate:warmup [objects …]`: the check docs/warmup.md reports for the steady
 * rule (src/experiment/steadyRule.ts). For each catalogue size, the baseline scenario with
 * that many objects is run twice with the same seed: warmed until steady (the default
 * rule), and warmed for a fixed four times as many requests; the CDN and edge hit ratios
 * measured after each (spec 1.1) must be within 0.5 points. Long (hundreds of millions of
 * warmed requests for 2 M objects): not part of `npm test` or `npm run bench`.
 * Prints one Markdown table row per size; exits 1 when a size is off.
 */
const LIMIT = 0.005;
const DEFAULT_SIZES = [100_000, 1_000_000, 2_000_000];
/** The rate of the user's report for the larger catalogues; with immutable content it only sets simulated time. */
const rateFor = (objects: number): string => (objects > 100_000 ? '200k/s' : '20k/s');

function scenarioText(objects: number, warmup: unknown): string {
  const doc = parseDocument(readFileSync('scenarios/baseline.yaml', 'utf8'));
  doc.setIn(['content', 'objects'], objects);
  doc.setIn(['traffic', 'rate'], rateFor(objects));
  doc.setIn(['run', 'warmup'], warmup);
  return doc.toString();
}

function run(objects: number, warmup: unknown): { summary: Summary; seconds: number } {
  const started = process.hrtime.bigint();
  const summary = buildSummary(runScenario(parseScenarioText(scenarioText(objects, warmup), 'scenarios/baseline.yaml')));
  return { summary, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const pct = (ratio: number): string => `${(ratio * 100).toFixed(2)} %`;
const pts = (difference: number): string => `${(difference * 100).toFixed(2)}`;

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : DEFAULT_SIZES;
let failed = false;
console.log('| objects | rule: warm-up requests | CDN | edge | 4× warm-up requests | CDN | edge | Δ CDN (points) | Δ edge (points) | wall s (rule, 4×) |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const objects of sizes) {
  const rule = run(objects, 'steady');
  const warmed = rule.summary.warmup.requests;
  const longer = run(objects, { requests: 4 * warmed });
  const cdn = longer.summary.hitRatio.cdn - rule.summary.hitRatio.cdn;
  const edge = longer.summary.hitRatio.edge - rule.summary.hitRatio.edge;
  const ok = Math.abs(cdn) < LIMIT && Math.abs(edge) < LIMIT && rule.summary.warmup.steady?.converged === true;
  failed ||= !ok;
  console.log(
    `| ${objects.toLocaleString('en-US')} | ${warmed.toLocaleString('en-US')}${rule.summary.warmup.steady?.converged ? '' : ' (not steady)'} | ${pct(rule.summary.hitRatio.cdn)} | ${pct(rule.summary.hitRatio.edge)} | ` +
      `${(4 * warmed).toLocaleString('en-US')} | ${pct(longer.summary.hitRatio.cdn)} | ${pct(longer.summary.hitRatio.edge)} | ${pts(cdn)} | ${pts(edge)}${ok ? '' : ' **off**'} | ${rule.seconds.toFixed(0)}, ${longer.seconds.toFixed(0)} |`,
  );
}
process.exitCode = failed ? 1 : 0;
