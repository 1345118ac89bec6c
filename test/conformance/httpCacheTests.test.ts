import { describe, expect, it } from 'vitest';
import { appliesTo, kindOf, PROFILES, runProfile, specSections, SUITES, type ProfileName, type ProfileTally } from '../../bench/conformance/harness.js';
import { httpCacheSemanticsCache } from '../../bench/conformance/httpCacheSemanticsCache.js';
import { policyLibraryCache } from '../../bench/conformance/policyLibraryCache.js';
import type { CacheTest } from '../../bench/conformance/suite.js';
import { EXPECTED_CHECK_NO, EXPECTED_OPTIONAL_FAILURES, EXPECTED_REQUIRED_FAILURES, expectedFailuresFor, type ExpectedFailure } from './expected-failures.js';

/**
 * The HTTP Caching Tests (vendored at ./cache-tests, https://cache-tests.fyi) against cdnsim's
 * HttpCacheNode, in process, with the suite's current runner semantics: shared mode = one edge
 * node over the origin (the CLI runner, as for a CDN), private mode = one browser node over the
 * origin (the browser runner). Every counted test must pass unless expected-failures.ts lists
 * it for that mode, and every listed test must still fail. `npm run conformance` prints the
 * score per suite file.
 */

/** The pinned score per mode: [passed, counted]. Update together with expected-failures.ts. */
const PINNED_SCORE: Readonly<Record<ProfileName, { required: [number, number]; optimal: [number, number]; check: [number, number] }>> = {
  shared: { required: [159, 160], optimal: [90, 105], check: [59, 97] },
  private: { required: [135, 135], optimal: [72, 77], check: [58, 84] },
};

const MODES: readonly ProfileName[] = ['shared', 'private'];
const ALL_TESTS = new Map<string, CacheTest>(SUITES.flatMap((suite) => suite.tests.map((test): [string, CacheTest] => [test.id, test])));

// The whole run is deterministic and takes about a second, so it is done while the tests are
// collected: each test then reports its own result.
const tallies: Record<ProfileName, ProfileTally> = { shared: runProfile('shared'), private: runProfile('private') };

function label(base: string, anchors: readonly string[] | undefined): string {
  const sections = specSections(anchors);
  return sections ? `${base} (${sections})` : base;
}

function describeOutcome(tally: ProfileTally, id: string): string {
  const outcome = tally.results.get(id);
  return outcome === 'pass' ? 'pass' : `${outcome?.setup ? 'setup failure' : 'failure'}: ${outcome?.failure}`;
}

for (const mode of MODES) {
  const profile = PROFILES[mode];
  const tally = tallies[mode];
  const expected: Record<'required' | 'optimal', Map<string, ExpectedFailure>> = {
    required: expectedFailuresFor(EXPECTED_REQUIRED_FAILURES, mode),
    optimal: expectedFailuresFor(EXPECTED_OPTIONAL_FAILURES, mode),
  };
  const checkNo = new Set(EXPECTED_CHECK_NO[mode]);

  describe(`HTTP Caching Tests, ${mode} mode (one ${profile.layer} node over the origin)`, () => {
    for (const suite of SUITES) {
      const tests = suite.tests.filter((test) => appliesTo(test, profile));
      if (tests.length === 0) continue;
      describe(label(suite.id, suite.spec_anchors), () => {
        for (const test of tests) {
          const kind = kindOf(test);
          const name = `${kind}: ${label(test.id, test.spec_anchors)}`;
          const failedDependencies = tally.dependencyFailed.get(test.id);
          if (failedDependencies) {
            // Not counted, as on cache-tests.fyi: a dependency did not pass.
            it.skip(`${name}: not counted, depends on ${failedDependencies.join(', ')}`, () => {});
            continue;
          }
          const listed = kind === 'check' ? checkNo.has(test.id) : expected[kind].has(test.id);
          it(listed ? `${name} (expected to fail: ${kind === 'check' ? 'observed "no"' : expected[kind].get(test.id)!.reason})` : name, () => {
            if (listed) {
              expect(tally.results.get(test.id), `${test.id} now passes in ${mode} mode: remove it from expected-failures.ts`).not.toBe('pass');
            } else {
              expect(describeOutcome(tally, test.id)).toBe('pass');
            }
          });
        }
      });
    }

    it('lists only known, counted tests of this mode, of the right kind, with a reason', () => {
      for (const kind of ['required', 'optimal'] as const) {
        for (const [id, entry] of expected[kind]) {
          const test = ALL_TESTS.get(id);
          expect(test, `unknown test ${id}`).toBeDefined();
          expect(kindOf(test!), `${id} is listed as ${kind}`).toBe(kind);
          expect(appliesTo(test!, profile), `${id} does not run in ${mode} mode`).toBe(true);
          expect(tally.dependencyFailed.has(id), `${id} is not counted in ${mode} mode (a dependency failed)`).toBe(false);
          expect(entry.reason.length).toBeGreaterThan(40);
        }
      }
      for (const id of checkNo) {
        expect(ALL_TESTS.get(id) && kindOf(ALL_TESTS.get(id)!), `${id} is not a check test`).toBe('check');
        expect(tally.dependencyFailed.has(id), `${id} is not counted in ${mode} mode`).toBe(false);
      }
    });

    it('has the pinned score (passed / counted per kind)', () => {
      const pair = (score: { passed: number; total: number }): [number, number] => [score.passed, score.total];
      expect({ required: pair(tally.required), optimal: pair(tally.optimal), check: pair(tally.check) }).toEqual(PINNED_SCORE[mode]);
      expect(tally.required.total - tally.required.passed).toBe(expected.required.size);
      expect(tally.optimal.total - tally.optimal.passed).toBe(expected.optimal.size);
      expect(tally.check.total - tally.check.passed).toBe(checkNo.size);
    });
  });
}

describe('expected failures', () => {
  it('lists each test once', () => {
    for (const list of [EXPECTED_REQUIRED_FAILURES, EXPECTED_OPTIONAL_FAILURES]) {
      const ids = list.map((entry) => entry.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    for (const mode of MODES) expect(new Set(EXPECTED_CHECK_NO[mode]).size).toBe(EXPECTED_CHECK_NO[mode].length);
  });
});

describe('harness: the current runner semantics (test-engine/client)', () => {
  it('runs the CDN-Cache-Control suite in shared mode only (cdn_only), and its required tests pass', () => {
    const shared = tallies.shared.suites.get('cdn-cache-control')!;
    const privateMode = tallies.private.suites.get('cdn-cache-control')!;
    expect(shared.required).toEqual({ passed: 10, total: 10 });
    expect(privateMode.required.total + privateMode.optimal.total + privateMode.check.total).toBe(0);
  });

  it('reads expected_status: null as "any status": stale-close-* pass when the node answers 502 on a disconnect', () => {
    for (const id of ['stale-close-must-revalidate', 'stale-close-proxy-revalidate', 'stale-close-no-cache', 'stale-close-s-maxage=2']) {
      expect(tallies.shared.results.get(id), id).toBe('pass');
    }
  });
});

describe('the comparison cache (npm run conformance): http-cache-semantics in its README cache loop', () => {
  it('is wired to the harness: it passes the RFC 9111 §4.2.1 freshness suite, and fails invalidation (§4.4), which the library leaves to its caller', () => {
    const tally = runProfile('shared', SUITES, httpCacheSemanticsCache);
    expect(tally.suites.get('cc-freshness')!.required).toEqual({ passed: 9, total: 9 });
    expect(tally.suites.get('invalidation')!.required).toEqual({ passed: 0, total: 4 });
  });
});

describe('a library user of src/policy gets the node\'s score (policyLibraryCache: exported policy functions, no HttpCacheNode)', () => {
  for (const mode of MODES) {
    it(`${mode} mode: every test has the node's outcome, so the scores are equal`, () => {
      const library = runProfile(mode, SUITES, policyLibraryCache);
      const node = tallies[mode];
      const differences = [...node.results].filter(([id, outcome]) => JSON.stringify(library.results.get(id)) !== JSON.stringify(outcome)).map(([id]) => id);
      expect(differences).toEqual([]);
      for (const kind of ['required', 'optimal', 'check'] as const) expect(library[kind], kind).toEqual(node[kind]);
    });
  }
});
