import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cdnsim, expectNoStackTrace, temporaryFolder } from '../cli/helpers.js';
import { CLI_FUZZ_RUNS, FUZZ_SEED, MAX_STDERR_BYTES } from './fuzzConfig.js';
import { REPO } from '../cli/helpers.js';

/**
 * Issue 17's contract for command lines of every command: flags given twice or without
 * their value, unknown flags and stray words, negative numbers, unit garbage, huge values,
 * odd output paths, and odd files in place of the positional one (missing, a folder, a
 * device, another kind of file). Every command line exits 0 or 2, never with a stack
 * trace, with a bounded stderr that on 2 names what is wrong, and leaves no folder behind.
 */

const TRACE = join(REPO, 'test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin');
const TINY = join(REPO, 'test/fixtures/fuzz-tiny.yaml');
const HAR = join(REPO, 'test/fixtures/har/page-load.har');

const VALUES = ['1', '0', '-5', '-5s', '-0.5', '1e999', 'abc', '', ' ', '5 parsecs', '2026-02-30', '10%', '150%', '0.2', '1GB', '-1GB', 'lru', 'lru,', ',', 'x'.repeat(100_000), '/proc/x', '/', '.', '--', '-', '--json', 'static', 'container', 'Cache-Control: max-age=60', 'Name', ':'];
/** In place of a command's file: missing, a folder, empty, a device, a pipe name, a flag, huge, another kind of file. */
const FILES = ['missing.yaml', '.', '/', '/dev/null', '/dev/stdin', '-', '--', '', 'x'.repeat(5_000), '/proc/self/status', HAR, TRACE, TINY, join(REPO, 'README.md'), join(REPO, 'test/fixtures/traces/ids.txt')];

/**
 * Per command: its fixed arguments (the positional file marked by `file`, which the fuzz may
 * replace or repeat) and the flags it takes (string- or number-valued, and boolean).
 */
const COMMANDS: Record<string, { fixed: string[]; flags: string[]; booleans: string[] }> = {
  run: { fixed: ['run', TINY], flags: ['--seed', '--requests', '--duration', '--out'], booleans: ['--json', '--no-progress', '--check', '--stated'] },
  compare: { fixed: ['compare', TINY], flags: ['--strategies', '--seed', '--requests', '--workers', '--out'], booleans: ['--json', '--no-progress'] },
  sweep: {
    fixed: ['sweep', TINY, '--param', 'edge.capacity=1MB,2MB'],
    flags: ['--param', '--replicates', '--workers', '--shard', '--target', '--minimize', '--maximize', '--tolerance', '--seed', '--requests', '--out'],
    booleans: ['--json', '--no-progress'],
  },
  plan: {
    fixed: ['plan', TINY, '--edge-hit-ratio', '50%'],
    flags: ['--edge-hit-ratio', '--regional-hit-ratio', '--max-uplink-share', '--seed', '--requests', '--warmup', '--out'],
    booleans: ['--json', '--no-progress', '--no-charts'],
  },
  replay: { fixed: ['replay', TRACE], flags: ['--cache-size', '--policy', '--ttl', '--warmup', '--out', '--skip-bad', '--format'], booleans: ['--json', '--count-mode', '--no-progress'] },
  har: { fixed: ['har', HAR], flags: ['--deployment', '--framework', '--visits', '--interval', '--skip-bad'], booleans: ['--json', '--no-cdn', '--new-client', '--no-progress'] },
  explain: { fixed: ['explain'], flags: ['--url', '--method', '--profile', '--now', '--status', '--req-header', '--res-header', '--layer'], booleans: ['--json', '--no-cdn'] },
  schema: { fixed: ['schema'], flags: ['--out'], booleans: [] },
  validate: { fixed: ['validate', TINY], flags: [], booleans: [] },
  topology: { fixed: ['topology'], flags: ['--scenario'], booleans: ['--json'] },
  traffic: { fixed: ['traffic', 'v'], flags: ['--requests', '--out', '--format', '--fidelity', '--rate', '--depth-cap', '--seed'], booleans: ['--no-progress'] },
};

/** --requests, --duration and --replicates are capped so that a valid command line stays short. */
const value = (flag: string) =>
  flag === '--requests'
    ? fc.constantFrom('2000', '-5', '0', 'abc', '1.5', '')
    : flag === '--duration'
      ? fc.constantFrom('30s', '-5s', '0', 'abc', '1e999', '')
      : flag === '--replicates'
        ? fc.constantFrom('1', '2', '0', '-1', 'abc', '1e3')
        : fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 }));

/** Besides its flags, a command line may get an unknown flag, a flag without its value, or a stray word. */
const stray = fc.constantFrom(['--bogus'], ['--bogus', '1'], ['-x'], ['--'], ['extra'], ['--help'], ['--version'], ['--no-such-thing']);

const commandLine = fc.constantFrom(...Object.keys(COMMANDS)).chain((name) => {
  const command = COMMANDS[name];
  const flagChoice = command.flags.length > 0 ? fc.constantFrom(...command.flags).chain((flag) => value(flag).map((v) => [flag, v])) : fc.constant([] as string[]);
  const booleanChoice = command.booleans.length > 0 ? fc.constantFrom(...command.booleans).map((flag) => [flag]) : fc.constant([] as string[]);
  const bareFlag = command.flags.length > 0 ? fc.constantFrom(...command.flags).map((flag) => [flag]) : fc.constant([] as string[]);
  // The positional file kept (most often), replaced by an odd one, or followed by a second.
  const files = command.fixed.length > 1 ? fc.oneof(fc.constant(command.fixed.slice(1)), fc.constant(command.fixed.slice(1)), fc.constantFrom(...FILES).map((file) => [file]), fc.constantFrom(...FILES).map((file) => [command.fixed[1], file])) : fc.constant([] as string[]);
  return fc
    .record({ files, parts: fc.array(fc.oneof({ weight: 4, arbitrary: flagChoice }, { weight: 2, arbitrary: booleanChoice }, { weight: 1, arbitrary: bareFlag }, { weight: 1, arbitrary: stray }), { maxLength: 5 }) })
    .map(({ files, parts }) => {
      const args = [name, ...files, ...parts.flat()];
      // A run that is valid must stay short and write into the case's own folder.
      if (name !== 'run' && name !== 'compare' && name !== 'sweep' && name !== 'plan' && name !== 'traffic') return args;
      if (!args.includes('--requests')) args.push('--requests', '2000');
      if (name === 'sweep' && !args.includes('--replicates')) args.push('--replicates', '1');
      return args;
    });
});

describe('issue 17 fuzz: command lines exit 0 or 2 with a clear message and leave nothing behind', () => {
  it(`${CLI_FUZZ_RUNS} generated command lines`, () => {
    const cwd = temporaryFolder('fuzz-args');
    fc.assert(
      fc.property(commandLine, (args) => {
        const before = new Set(readdirSync(cwd));
        const result = cdnsim(args, { cwd, timeoutMs: 60_000 });
        const context = args.map((arg) => (arg.length > 40 ? `${arg.slice(0, 20)}…(${arg.length})` : JSON.stringify(arg))).join(' ');
        expect([0, 2], `${context}\n${result.stderr.slice(0, 400)}`).toContain(result.status);
        expect(expectNoStackTrace(result.stderr), `${context}\n${result.stderr.slice(0, 400)}`).toBe(true);
        expect(Buffer.byteLength(result.stderr), context).toBeLessThan(MAX_STDERR_BYTES);
        if (result.status === 2) {
          expect(result.stderr, context).toMatch(/^cdnsim: \S/m);
          const left = readdirSync(cwd).filter((name) => !before.has(name));
          expect(left, context).toEqual([]);
        }
      }),
      { numRuns: CLI_FUZZ_RUNS, seed: FUZZ_SEED + 2 },
    );
    expect(existsSync(cwd)).toBe(true);
  }, Math.max(120_000, CLI_FUZZ_RUNS * 8_000));
});
