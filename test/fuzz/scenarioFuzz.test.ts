import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import { boundedMessage, isUserError } from '../../src/userError.js';
import { cdnsim, expectNoStackTrace, REPO, temporaryFolder } from '../cli/helpers.js';
import { CLI_FUZZ_RUNS, FUZZ_RUNS, FUZZ_SEED, MAX_STDERR_BYTES } from './fuzzConfig.js';
import { mutatedScenario, SHIPPED_SCENARIOS } from './scenarioMutations.js';

/**
 * Issue 17's contract for scenario files, on mutations of every shipped scenario (key
 * deletions and renames, type swaps, extreme and negative numbers, unit garbage, list
 * lengths, deep nesting, huge strings, a second YAML document): the file loads, or it is
 * refused as a user mistake whose every problem has a file, line, column and (but for
 * whole-file problems) a key path, in a bounded message. Anything else is a bug.
 */

const LOCATED = /^[^\n]+:\d+:\d+: /;

/** Cases per fc.assert call. */
const FUZZ_SLICE = 1_000;

function checkLoad(text: string, file: string): 'ok' | 'refused' {
  try {
    parseScenarioText(text, file);
    return 'ok';
  } catch (error) {
    if (!isUserError(error)) throw new Error(`not a user error: ${(error as Error).stack ?? String(error)}`);
    if (!(error instanceof ScenarioError)) throw new Error(`a user error without a location: ${error.message.slice(0, 300)}`);
    for (const problem of error.problems) {
      if (!(problem.line >= 1 && problem.column >= 1)) throw new Error(`unlocated problem: ${JSON.stringify(problem).slice(0, 300)}`);
      if (problem.file !== file) throw new Error(`problem names ${problem.file}, not ${file}`);
    }
    const shown = boundedMessage(error.message);
    if (!LOCATED.test(shown)) throw new Error(`message does not start with file:line:column: ${shown.slice(0, 200)}`);
    if (Buffer.byteLength(shown) > MAX_STDERR_BYTES) throw new Error(`message of ${Buffer.byteLength(shown)} bytes`);
    return 'refused';
  }
}

describe('issue 17 fuzz: mutated shipped scenarios load or are refused with a located message', () => {
  it(`every shipped scenario loads unmutated (${SHIPPED_SCENARIOS.length} files)`, () => {
    expect(SHIPPED_SCENARIOS.length).toBeGreaterThanOrEqual(5);
    for (const { file, data } of SHIPPED_SCENARIOS) expect(checkLoad(JSON.stringify(data), `${file}.json`)).toBe('ok');
  });

  // Seeds: the bad inputs issue 26 found accepted, each refused at its key (the random mutations reach some of them by chance).
  it.each([
    ['traffic.rate above the 1e7/s cap', 'traffic: { rate: 1e9/s }\n', '`traffic.rate`'],
    ["a flash crowd's rate × multiplier above it", 'traffic: { rate: 20k/s, flashCrowds: [{ start: 1m, duration: 1m, multiplier: 1000 }] }\n', '`traffic.flashCrowds[0].multiplier`'],
    ['a warm-up count that uses the whole run', 'run: { requests: 2000, warmup: 2000 }\n', '`run.warmup`'],
    ['a warm-up time that uses the whole run', 'run: { duration: 1m, warmup: 1m }\n', '`run.warmup`'],
    ['a warm-up of 100 %', 'run: { warmup: 100% }\n', '`run.warmup`'],
    ['a warm-up of "1M" (a million, or a minute?)', 'run: { warmup: 1M }\n', '`run.warmup`'],
    ['a name that leaves results/', 'name: ../../etc\n', '`name`'],
    ['an edge that stores nothing', 'edge: { capacity: 0 }\n', '`edge.capacity`'],
    ['an incident after run.duration', 'run: { duration: 10m }\nincidents: [{ kind: outage, start: 30m, duration: 1m }]\n', '`incidents[0].start`'],
  ])('issue 26 seed: %s is refused at its key', (_name, text, key) => {
    expect(checkLoad(text, 'seed.yaml')).toBe('refused');
    expect(() => parseScenarioText(text, 'seed.yaml')).toThrow(key);
  });

  it(`${FUZZ_RUNS} mutations, loaded in process: ok, or refused at file:line:column with a bounded message`, () => {
    const outcomes = { ok: 0, refused: 0 };
    // The long run goes in slices of its own seeds: one fc.assert over tens of thousands of
    // cases (about 150 kB each) outgrew the worker's heap, while each slice's are released.
    for (let done = 0, slice = 0; done < FUZZ_RUNS; done += FUZZ_SLICE, slice++) {
      fc.assert(
        fc.property(mutatedScenario, (mutated) => {
          try {
            outcomes[checkLoad(mutated.text, mutated.file)]++;
          } catch (error) {
            throw new Error(`${mutated.source} with ${mutated.description}: ${(error as Error).message}`);
          }
        }),
        { numRuns: Math.min(FUZZ_SLICE, FUZZ_RUNS - done), seed: FUZZ_SEED + slice * 7919 },
      );
    }
    // The mutations reach both sides: some still load, most are refused.
    expect(outcomes.refused).toBeGreaterThan(FUZZ_RUNS / 4);
    expect(outcomes.ok).toBeGreaterThan(0);
    // A load takes tens of ms (topology references included): the long run (npm run fuzz) needs its time.
  }, Math.max(120_000, FUZZ_RUNS * 150));

  it(`${CLI_FUZZ_RUNS} mutations through \`cdnsim validate\` and \`cdnsim run --requests 2000\`: exit 0 or 2, no stack trace, bounded stderr, no folder left on 2`, () => {
    const cwd = temporaryFolder('fuzz-cli');
    let index = 0;
    fc.assert(
      fc.property(mutatedScenario, fc.boolean(), (mutated, run) => {
        const file = join(cwd, `case-${index++}`, mutated.file);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, mutated.text);
        // A recorded scenario's HAR sits next to the shipped scenarios. `--warmup 0`: the
        // baseline warms its caches until steady (a stationary fill, then 8.8 M requests), which a 2,000-request case
        // does not need; the warm-up keys are still parsed and checked.
        const args = run ? ['run', file, '--requests', '2000', '--warmup', '0', '--no-progress', '--out', join(dirname(file), 'run')] : ['validate', file];
        const result = cdnsim(args, { cwd: REPO, timeoutMs: 60_000 });
        const context = `${args.join(' ')} (${mutated.source}: ${mutated.description})`;
        expect([0, 2], context).toContain(result.status);
        expect(expectNoStackTrace(result.stderr), `${context}\n${result.stderr.slice(0, 500)}`).toBe(true);
        expect(Buffer.byteLength(result.stderr), context).toBeLessThan(MAX_STDERR_BYTES);
        // docs/conservation.md: a run that loads passes every conservation identity (exit 4 otherwise, refused above).
        if (run && result.status === 0) expect(JSON.parse(readFileSync(join(dirname(file), 'run', 'summary.json'), 'utf8')).checks.failed, context).toEqual([]);
        if (result.status === 2) {
          expect(result.stderr, context).toMatch(/:\d+:\d+: |cannot read|--\w/);
          if (run) expect(existsSync(join(dirname(file), 'run')), context).toBe(false);
        }
      }),
      { numRuns: CLI_FUZZ_RUNS, seed: FUZZ_SEED + 1 },
    );
    expect(readdirSync(REPO).includes('results') ? readdirSync(join(REPO, 'results')).some((name) => name.endsWith('-mutated')) : false).toBe(false);
  }, Math.max(120_000, CLI_FUZZ_RUNS * 8_000));
});
