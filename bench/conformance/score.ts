import { runProfile, SUITES, type ProfileName, type Score } from './harness.js';

/**
 * `npm run conformance`: the HTTP Caching Tests score of cdnsim's HttpCacheNode, one JSON line
 * per mode and suite file, then a human-readable table on stderr. Modes: shared (one edge node
 * over the origin, as the suite's CLI runner tests a CDN) and private (one browser node, as its
 * browser runner). A test whose dependency did not pass is not counted (cache-tests.fyi ⚪️).
 * Argument: `--json` prints only the JSON lines.
 */
const jsonOnly = process.argv.includes('--json');
const MODES: readonly ProfileName[] = ['shared', 'private'];

const pair = (score: Score): [number, number] => [score.passed, score.total];
const text = (score: Score): string => (score.total === 0 ? '-' : `${score.passed}/${score.total}`);

const table: string[] = [];
for (const mode of MODES) {
  const tally = runProfile(mode);
  process.stdout.write(`${JSON.stringify({ name: `conformance.${mode}`, suite: 'all', required: pair(tally.required), optional: pair(tally.optimal), check: pair(tally.check), notCounted: tally.dependencyFailed.size })}\n`);
  table.push(`${mode}: required ${text(tally.required)}, optional ${text(tally.optimal)}, check ${text(tally.check)} (${tally.dependencyFailed.size} not counted: a dependency did not pass)`);
  for (const suite of SUITES) {
    const scores = tally.suites.get(suite.id)!;
    if (scores.required.total + scores.optimal.total + scores.check.total === 0) continue;
    process.stdout.write(`${JSON.stringify({ name: `conformance.${mode}`, suite: suite.id, required: pair(scores.required), optional: pair(scores.optimal), check: pair(scores.check) })}\n`);
    table.push(`  ${suite.id.padEnd(20)} required ${text(scores.required).padStart(7)}  optional ${text(scores.optimal).padStart(7)}  check ${text(scores.check).padStart(7)}`);
  }
}
if (!jsonOnly) process.stderr.write(`${table.join('\n')}\n`);
