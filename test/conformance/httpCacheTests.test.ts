import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviationsFor, EXPECTED_DEVIATIONS } from './expected-deviations.js';
import { appliesTo, kindOf, PROFILES, runProfile, specSections, SUITES, type ProfileName, type ProfileTally } from './harness.js';

/**
 * The HTTP Caching Tests (http-cache-tests 0.4.5, https://cache-tests.fyi) against cdnsim's
 * HttpCacheNode, in process: shared = one edge node over the origin, private = one browser
 * node over the origin. Every required test must pass unless it is an expected deviation,
 * and every expected deviation must still fail.
 */

/** The pinned score: required tests passed / counted, per profile. Update with the deviations. */
const EXPECTED_REQUIRED_SCORE: Readonly<Record<ProfileName, { passed: number; total: number }>> = {
  shared: { passed: 145, total: 156 },
  private: { passed: 137, total: 142 },
};

const PROFILE_NAMES: readonly ProfileName[] = ['shared', 'private'];

// The whole run is deterministic and takes well under a second, so it is done while the
// tests are collected: each test then reports its own result.
const tallies: Record<ProfileName, ProfileTally> = { shared: runProfile('shared'), private: runProfile('private') };

function label(base: string, anchors: readonly string[] | undefined): string {
  const sections = specSections(anchors);
  return sections ? `${base} (${sections})` : base;
}

for (const profileName of PROFILE_NAMES) {
  const profile = PROFILES[profileName];
  const tally = tallies[profileName];
  const deviations = deviationsFor(profileName);

  describe(`http-cache-tests, ${profileName} profile (one ${profile.layer} node over the origin)`, () => {
    for (const suite of SUITES) {
      const required = suite.tests.filter((test) => kindOf(test) === 'required' && appliesTo(test, profile));
      if (required.length === 0) continue;
      describe(label(suite.id, suite.spec_anchors), () => {
        for (const test of required) {
          const name = label(test.id, test.spec_anchors);
          const failedDependencies = tally.dependencyFailed.get(test.id);
          if (failedDependencies) {
            // Not counted, as on cache-tests.fyi: a dependency did not pass.
            it.skip(`${name}: not counted, depends on ${failedDependencies.join(', ')}`, () => {});
            continue;
          }
          const deviation = deviations.get(test.id);
          it(name, () => {
            const outcome = tally.results.get(test.id);
            if (deviation) {
              expect(outcome, `${test.id} now passes on ${profileName}: remove it from expected-deviations.ts`).not.toBe('pass');
            } else {
              expect(outcome === 'pass' ? 'pass' : `${outcome?.setup ? 'setup failure' : 'failure'}: ${outcome?.failure}`).toBe('pass');
            }
          });
        }
      });
    }

    it('lists only counted, failing, required tests of this profile as expected deviations', () => {
      for (const [id, deviation] of deviations) {
        const test = SUITES.flatMap((suite) => suite.tests).find((candidate) => candidate.id === id);
        expect(test, `unknown test ${id}`).toBeDefined();
        expect(kindOf(test!), `${id} is not a required test`).toBe('required');
        expect(appliesTo(test!, profile), `${id} does not run on ${profileName}`).toBe(true);
        expect(tally.dependencyFailed.has(id), `${id} is not counted on ${profileName} (a dependency failed)`).toBe(false);
        expect(tally.results.get(id), `${id} passes on ${profileName}`).not.toBe('pass');
        expect(deviation.reason.length).toBeGreaterThan(40);
      }
    });

    it('has the pinned score', () => {
      const { required, optimal, check } = tally;
      console.log(
        `conformance ${profileName}: passes ${required.passed} of ${required.total} required tests (optimal: ${optimal.passed} of ${optimal.total}, check: ${check.passed} of ${check.total})`,
      );
      expect(required.total - required.passed).toBe(deviations.size);
      expect(required).toEqual(EXPECTED_REQUIRED_SCORE[profileName]);
      // The README states the score; it must say what the suite measures.
      const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
      expect(readme).toContain(`passes ${required.passed} of ${required.total} required tests (optimal: ${optimal.passed} of ${optimal.total}, check: ${check.passed} of ${check.total})`);
    });
  });
}

describe('expected deviations', () => {
  it('lists each test once per profile', () => {
    const seen = new Set<string>();
    for (const entry of EXPECTED_DEVIATIONS) {
      for (const profile of entry.profile === 'both' ? PROFILE_NAMES : [entry.profile]) {
        const key = `${profile}:${entry.id}`;
        expect(seen.has(key), `${entry.id} is listed twice for ${profile}`).toBe(false);
        seen.add(key);
      }
    }
  });
});
