import { cdnsimNode, runProfile, SUITES, type CacheFactory, type KindScores, type ProfileName, type ProfileTally, type Score } from './harness.js';
import { httpCacheSemanticsCache } from './httpCacheSemanticsCache.js';
import { policyLibraryCache } from './policyLibraryCache.js';

/**
 * `npm run conformance`: the HTTP Caching Tests score (vendored suite, test/conformance/
 * cache-tests) of cdnsim's HttpCacheNode, of a cache built from the exported src/policy
 * functions alone (policyLibraryCache.ts, what a library user gets), and of the npm library
 * http-cache-semantics in the cache loop its README describes, measured by the same in-process
 * harness. One JSON line per
 * cache, mode and suite file on stdout, then a table on stderr.
 *
 * Modes: shared (one edge node over the origin, as the suite's CLI runner tests a CDN) and
 * private (one browser node, as its browser runner). "optional" is the suite's "optimal".
 * A test whose dependency did not pass is not counted (cache-tests.fyi ⚪️), so totals can
 * differ between caches. Argument: `--json` prints only the JSON lines.
 */
const jsonOnly = process.argv.includes('--json');
const MODES: readonly ProfileName[] = ['shared', 'private'];
const CACHES: readonly (readonly [string, CacheFactory])[] = [
  ['cdnsim', cdnsimNode],
  ['cdnsim src/policy', policyLibraryCache],
  ['http-cache-semantics', httpCacheSemanticsCache],
];

const pair = (score: Score): [number, number] => [score.passed, score.total];
const text = (score: Score): string => (score.total === 0 ? '-' : `${score.passed}/${score.total}`);
const cells = (scores: KindScores): string => [scores.required, scores.optimal, scores.check].map((score) => text(score).padStart(7)).join(' ');
const line = (fields: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(fields)}\n`);

const table: string[] = [];
for (const mode of MODES) {
  const tallies: ProfileTally[] = [];
  for (const [cache, factory] of CACHES) {
    const tally = runProfile(mode, SUITES, factory);
    tallies.push(tally);
    line({ name: `conformance.${mode}`, cache, suite: 'all', required: pair(tally.required), optional: pair(tally.optimal), check: pair(tally.check), notCounted: tally.dependencyFailed.size });
    for (const suite of SUITES) {
      const scores = tally.suites.get(suite.id)!;
      if (scores.required.total + scores.optimal.total + scores.check.total === 0) continue;
      line({ name: `conformance.${mode}`, cache, suite: suite.id, required: pair(scores.required), optional: pair(scores.optimal), check: pair(scores.check) });
    }
  }
  table.push('', `${mode} mode (passed/counted)   ${CACHES.map(([cache]) => cache.padEnd(24)).join('  ')}`, `${''.padEnd(28)}${CACHES.map(() => ' required optional   check').join('  ')}`);
  table.push(`${'all'.padEnd(26)}${tallies.map(cells).join('    ')}`);
  for (const suite of SUITES) {
    const perCache = tallies.map((tally) => tally.suites.get(suite.id)!);
    if (perCache.every((scores) => scores.required.total + scores.optimal.total + scores.check.total === 0)) continue;
    table.push(`${suite.id.padEnd(26)}${perCache.map(cells).join('    ')}`);
  }
}
if (!jsonOnly) process.stderr.write(`${table.join('\n').trimStart()}\n`);
