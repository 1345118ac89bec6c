import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import { joinNegativeValues, withFlagSuggestions } from '../../src/cli/flags.js';
import { claimRunFolder } from '../../src/cli/outputPath.js';
import { boundedMessage, echoValue } from '../../src/userError.js';
import { CLI, REPO, cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

/** Issue 17: user mistakes exit 2 with a located message, leave nothing behind, and never hang. */

function problemsOf(text: string): string[] {
  try {
    parseScenarioText(text, 's.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('issue 17: scenario mistakes found before a run, at their line, column and key', () => {
  it('an unknown PoP code in topology.pops.codes is located at the code (line 4, column 18)', () => {
    expect(problemsOf('topology:\n  model: pops\n  pops:\n    codes: [FRA, XXQ]\n')).toEqual(["s.yaml:4:18: `topology.pops.codes[1]`: no PoP with code 'XXQ' in the PoP table"]);
  });

  it('an unknown regional site and a PoP selection that leaves nothing are located too', () => {
    expect(problemsOf('topology:\n  regionalTier:\n    sites: [ZZZ]\n')[0]).toMatch(/^s\.yaml:3:13: `topology\.regionalTier\.sites\[0\]`: no PoP with code 'ZZZ'/);
    expect(problemsOf('topology:\n  pops:\n    regions: [Europe]\n    countries: [US]\n')).toEqual(['s.yaml:2:3: `topology.pops`: the selection leaves no PoP; a topology needs at least one']);
  });

  it('a flash crowd with multiplier 0.5 and no objects is refused at the multiplier, not a crash', () => {
    expect(problemsOf('traffic:\n  flashCrowds:\n    - start: 1h\n      duration: 10m\n      multiplier: 0.5\n')).toEqual(['s.yaml:5:19: `traffic.flashCrowds[0].multiplier`: expected a number ≥ 1, found 0.5']);
  });

  it('growth {rate: 100%, per: 1s} is refused: at most doubling per minute', () => {
    expect(problemsOf('traffic:\n  growth: {rate: 100%, per: 1s}\n')[0]).toMatch(/^s\.yaml:2:3: `traffic\.growth`: expected growth of at most ×2 per minute, found \{rate: 100%, per: 1 s\}, which is ×1\.15e\+18 per minute/);
  });

  it('traffic that dies out before run.requests, and a duration of more than 1e10 requests, are refused', () => {
    expect(problemsOf('run:\n  requests: 1M\ntraffic:\n  growth: {rate: -90%, per: 1m}\n')[0]).toMatch(/dies out after about 521,153 requests, fewer than twice run\.requests \(1,000,000\)/);
    expect(problemsOf('run:\n  duration: 100000d\n')[0]).toMatch(/^s\.yaml:2:13: `run\.duration`: expected a run of at most 1e\+10 requests, found about 1\.73e\+14/);
  });

  it('issue 26: run.requests is held to the same 1e10 cap as run.duration, and 1e20 is not called "not a whole number"', () => {
    expect(problemsOf('run:\n  requests: 1e12\n')).toEqual(['s.yaml:2:13: `run.requests`: expected a run of at most 1e+10 requests, found 1.000e+12; ask for fewer requests (a run of 1e10 already takes hours)']);
    expect(problemsOf('run:\n  requests: 1e20\n')[0]).toMatch(/^s\.yaml:2:13: `run\.requests`: expected a whole number of at most 9\.007e\+15, found 100000000000000000000$/);
    expect(problemsOf('run:\n  requests: 9e9\n  warmup: {requests: 2e9}\n')[0]).toMatch(/`run\.warmup`: expected a run of at most 1e\+10 requests, warm-up included, found 1\.100e\+10/);
    expect(problemsOf('run:\n  requests: 1e10\n')).toEqual([]);
  });

  it('issue 26: traffic.rate above 1e7/s, and a flash crowd whose rate × multiplier is, are refused at the key with the limit and why', () => {
    const why = 'requests in flight at once grow with the rate (about rate × round trip), and so do the memory and time a simulated second takes';
    expect(problemsOf('traffic:\n  rate: 1e9/s\n')).toEqual([`s.yaml:2:9: \`traffic.rate\`: expected a rate of at most 1e7/s (10M/s), found 1e9/s: ${why}; model a share of the traffic (one region's, say) at a lower rate`]);
    // 20,000/s × 501 = 10,020,000/s, just over; × 500 is exactly the limit.
    expect(problemsOf('traffic:\n  rate: 20k/s\n  flashCrowds:\n    - {start: 1m, duration: 1m, multiplier: 501}\n')).toEqual([
      `s.yaml:4:45: \`traffic.flashCrowds[0].multiplier\`: expected a crowd's rate (traffic.rate × multiplier) of at most 1e7/s (10M/s), found 20,000/s × 501 = 1.002e7/s: ${why}; lower the multiplier or traffic.rate`,
    ]);
    expect(problemsOf('traffic:\n  rate: 20k/s\n  flashCrowds:\n    - {start: 1m, duration: 1m, multiplier: 500}\n')).toEqual([]);
    expect(problemsOf('traffic:\n  rate: 10M/s\n')).toEqual([]);
  });

  it('issue 26: a cache capacity of 0 is refused at its key, with what to write instead', () => {
    expect(problemsOf('edge:\n  capacity: 0\n')).toEqual(['s.yaml:2:13: `edge.capacity`: expected a capacity above 0 bytes (a cache of 0 stores nothing); to see the origin without a CDN, run a container deployment with cdn: false (spec 1.3), found 0']);
    expect(problemsOf('regional:\n  capacity: 0B\n')[0]).toMatch(/`regional\.capacity`: expected a capacity above 0 bytes .*topology\.regionalTier\.enabled: false, found "0B"$/);
    expect(problemsOf('edge:\n  capacity: 1\n')).toEqual([]);
  });

  it('issue 26: an incident or flash crowd at or after the end of run.duration is refused at its time (it would never happen)', () => {
    const never = (found: string): string => `expected a time before the run's end at 30m, found ${found}, so it would never happen; move it earlier or lengthen run.duration`;
    expect(problemsOf('run:\n  duration: 30m\nincidents:\n  - {kind: outage, start: 30m, duration: 5m}\n  - {kind: deploy, at: 1h}\n')).toEqual([
      `s.yaml:4:27: \`incidents[0].start\`: ${never('30m')}`,
      `s.yaml:5:24: \`incidents[1].at\`: ${never('1h')}`,
    ]);
    expect(problemsOf('run:\n  duration: 30m\ntraffic:\n  flashCrowds:\n    - {start: 2h, duration: 10m, multiplier: 5}\n')).toEqual([`s.yaml:5:15: \`traffic.flashCrowds[0].start\`: ${never('2h')}`]);
    expect(problemsOf('run:\n  duration: 30m\nincidents:\n  - {kind: outage, start: 29m, duration: 5m}\n')).toEqual([]);
  });

  it('deep nesting, a second document, a wrong list length and a huge value say so in our words', () => {
    expect(problemsOf(`a: ${'['.repeat(20000)}${']'.repeat(20000)}\n`)[0]).toMatch(/nested too deeply to read/);
    expect(problemsOf('seed: 1\n---\nseed: 2\n')[0]).toMatch(/^s\.yaml:2:1: YAML error: a scenario file holds one document/);
    expect(problemsOf('traffic:\n  diurnal:\n    hourly: [1, 2, 3]\n')).toEqual(['s.yaml:3:5: `traffic.diurnal.hourly`: expected a list of exactly 24 items, found a list of 3 items']);
    const huge = problemsOf(`edge:\n  policy: ${'x'.repeat(200_000)}\n`).join('\n');
    expect(huge.length).toBeLessThan(1000);
  });
});

describe('issue 17: one place reads flags', () => {
  it('a value after a long flag that starts with a minus and a digit stays its value', () => {
    expect(joinNegativeValues(['run', 'a.yaml', '--duration', '-5s', '--json', '-h'])).toEqual(['run', 'a.yaml', '--duration=-5s', '--json', '-h']);
  });

  it('issue 26: a mistyped flag gets the nearest flag of its command; a far one and a stray word get none', () => {
    const runFlags = ['help', 'version', 'scenario', 'seed', 'requests', 'duration', 'warmup', 'out', 'charts'];
    expect(withFlagSuggestions('Unknown argument: sed', runFlags)).toBe('Unknown argument: sed (--sed: did you mean --seed?)');
    expect(withFlagSuggestions('Unknown arguments: reqests, zzzzzz', runFlags)).toBe('Unknown arguments: reqests, zzzzzz (--reqests: did you mean --requests?)');
    expect(withFlagSuggestions('Unknown arguments: x, y', runFlags)).toBe('Unknown arguments: x, y');
    expect(withFlagSuggestions('Missing required argument: param', runFlags)).toBe('Missing required argument: param');
  });

  it('echoed values and message lines are cut, with the length said', () => {
    expect(echoValue('y'.repeat(1000), 20)).toBe(`${'y'.repeat(9)}…${'y'.repeat(9)} (1,000 characters)`);
    expect(boundedMessage(Array.from({ length: 100 }, () => 'z').join('\n')).split('\n')).toHaveLength(61);
  });

  const cases: [string, string[], RegExp][] = [
    ['run --seed twice', ['run', 'scenarios/baseline.yaml', '--seed', '1', '--seed', '2'], /^cdnsim: --seed was given 2 times \(1, 2\); give it once$/m],
    ['run --out \'\'', ['run', 'scenarios/baseline.yaml', '--out', ''], /^cdnsim: --out: expected a value, found an empty one \(an unset shell variable\?\); leave the flag out for its default$/m],
    ['run --sed 7', ['run', 'scenarios/baseline.yaml', '--sed', '7'], /^cdnsim: Unknown argument: sed \(--sed: did you mean --seed\?\)$/m],
    ['replay --cache-size twice', ['replay', 'test/fixtures/traces/ids.txt', '--cache-size', '1', '--cache-size', '2'], /--cache-size was given 2 times \(1, 2\); give it once/],
    ['explain --now twice', ['explain', '--url', '/a', '--now', '1', '--now', '2'], /--now was given 2 times/],
    ['run --duration -5s', ['run', 'scenarios/baseline.yaml', '--duration', '-5s'], /--duration: expected a duration .*found "-5s"/],
    ['explain --now 2026-02-30', ['explain', '--url', '/a', '--now', '2026-02-30'], /--now: 2026-02-30 is not a day of the calendar/],
    ['schema --out a folder', ['schema', '--out', 'scenarios'], /--out: cannot write the file 'scenarios': it is a folder/],
    ['schema --out under a file', ['schema', '--out', 'scenarios/baseline.yaml/x.json'], /--out: cannot write the file 'scenarios\/baseline\.yaml\/x\.json': .*in the way/],
    ['replay --out under /proc, refused before the replay', ['replay', 'test/fixtures/traces/ids.txt', '--cache-size', '1', '--out', '/proc/cdnsim/rows.json'], /--out: cannot write the file '\/proc\/cdnsim\/rows\.json'/],
    ['run --out under /proc, no hang', ['run', 'scenarios/baseline.yaml', '--out', '/proc/cdnsim-run'], /--out: cannot create the run folder '\/proc\/cdnsim-run'/],
  ];
  it.each(cases)('%s: exit 2, one clear message, no stack trace', (_name, args, message) => {
    const result = cdnsim(args, { timeoutMs: 60_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});

describe('issue 17: nothing left behind', () => {
  it('an empty trace and a warm-up covering the trace are refused (exit 2), and --out is not written', () => {
    const folder = temporaryFolder('empty-trace');
    const empty = join(folder, 'empty.oracleGeneral.bin');
    writeFileSync(empty, '');
    const out = join(folder, 'rows.json');
    const result = cdnsim(['replay', empty, '--cache-size', '1', '--out', out, '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`cdnsim: ${empty}: the trace holds no request, so there is nothing to measure; check the file\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('a topology mistake leaves no run folder in results/', () => {
    const cwd = temporaryFolder('topology-mistake');
    mkdirSync(join(cwd, 'scenarios'));
    writeFileSync(join(cwd, 'scenarios', 'bad.yaml'), 'topology:\n  origins: [NOPE]\n');
    const result = cdnsim(['run', 'scenarios/bad.yaml', '--requests', '1000'], { cwd });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^cdnsim: scenarios\/bad\.yaml:2:13: `topology\.origins\[0\]`: no PoP with code 'NOPE'/);
    expect(readdirSync(cwd)).toEqual(['scenarios']);
  });
});

describe('issue 17: first contact with the help', () => {
  const COMMANDS = ['run', 'validate', 'replay', 'har', 'explain', 'schema', 'topology'];
  const help = new Map(COMMANDS.map((command) => [command, cdnsim([command, '--help'])]));

  it('no option or positional shows a default of [] (a variadic positional is [required], not also [default: []])', () => {
    for (const [command, result] of help) {
      expect(result.status, command).toBe(0);
      expect(result.stdout, command).not.toContain('[default: []]');
    }
    expect(help.get('replay')?.stdout).toMatch(/^ {2}traces {2}trace files, replayed one after another {2}\[array\] \[required\]$/m);
    expect(help.get('validate')?.stdout).toMatch(/^ {2}files {2}scenario files {2}\[array\] \[required\]$/m);
  });

  it('every example in the help names a file the repository ships, so it runs as written (exit 0)', () => {
    // An example longer than the help's 100 columns continues after a trailing backslash, as a shell reads it.
    const examples = [...help.values()].flatMap((result) => [...result.stdout.replace(/ \\\n +/g, ' ').matchAll(/^ {2}cdnsim (\S.*?)(?: {2,}\S.*)?$/gm)].map((match) => match[1]));
    expect(examples.length).toBeGreaterThanOrEqual(9);
    for (const example of examples.filter((line) => !line.includes('|'))) {
      // The examples quote with '…' as a shell would; split the same way.
      const args = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]);
      // An example's output folder goes to a fresh temporary folder, so a second `npm test` in the
      // same checkout does not meet the first one's results (a folder holding a run is refused).
      for (let i = 1; i < args.length; i++) if (args[i - 1] === '--out' || args[i - 1] === '--report') args[i] = join(temporaryFolder('help-example'), 'out');
      const result = cdnsim([...args, '--no-progress'].filter((arg, index, all) => arg !== '--no-progress' || ['replay', 'har', 'run'].includes(all[0])));
      expect(result.status, `cdnsim ${example}\n${result.stderr}`).toBe(0);
    }
  });
});

describe('issue 26: two runs given the same --out at once', () => {
  it('the one that finishes second writes nothing and exits 2 saying why; the first one\'s summary stays whole', () => {
    const folder = join(temporaryFolder('same-out'), 'run');
    // Started together: the check at the start, or the claim at writing, refuses the second.
    const script = [1, 2]
      .map((seed) => `"${process.execPath}" "${CLI}" run scenarios/baseline.yaml --requests 20k --warmup 0 --seed ${seed} --no-progress --no-charts --out "${folder}" > "${folder}-${seed}.out" 2>&1; echo $? > "${folder}-${seed}.status" &`)
      .join('\n');
    spawnSync('bash', ['-c', `${script}\nwait`], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
    const statuses = [1, 2].map((seed) => Number(readFileSync(`${folder}-${seed}.status`, 'utf8').trim())).sort();
    expect(statuses).toEqual([0, 2]);
    const loser = [1, 2].map((seed) => readFileSync(`${folder}-${seed}.out`, 'utf8')).find((text) => !text.includes('written:'))!;
    // Which refusal depends on timing: at the start when the other had already written, at writing otherwise.
    expect(loser).toMatch(/--out: (another run wrote its results \(summary\.json\) to '.*run' while this one ran|the folder '.*run' already holds a run \(summary\.json\))/);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { requests: number };
    expect(summary.requests).toBe(20_000);
  });

  it('the claim at writing: a marker that appeared while the run ran stops it with exit 2 and the folder is left as the other run wrote it', () => {
    const folder = join(temporaryFolder('claimed'), 'run');
    mkdirSync(folder);
    writeFileSync(join(folder, 'summary.json'), '{"other":true}');
    expect(() => claimRunFolder(folder)).toThrow(/^--out: another run wrote its results \(summary\.json\) to '.*run' while this one ran, so this run's results were not written; run it again with another --out$/);
    expect(readFileSync(join(folder, 'summary.json'), 'utf8')).toBe('{"other":true}');
    const fresh = join(temporaryFolder('claimed'), 'a', 'b');
    claimRunFolder(fresh, '--report', 'replay.json');
    expect(readdirSync(fresh)).toEqual(['replay.json']);
  });
});
