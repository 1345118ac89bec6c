import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cdnsim, expectNoStackTrace, temporaryFolder, type CliResult } from './helpers.js';

/** `cdnsim replay` end to end: the built CLI (dist/src/cli/main.js), JSON and human output, user mistakes. */

const TRACES = 'test/fixtures/traces';
const BIN = `${TRACES}/cloudPhysicsIO.oracleGeneral.bin`;
const NGINX = `${TRACES}/nginx-access.log`;
const CLOUD_REQUESTS = 113_872;
const MiB128 = '134217728';

const folder = temporaryFolder('replay-cli');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Row {
  policy: string;
  cacheSize: number;
  cacheSizeFraction: number | null;
  ttlSeconds: number | null;
  countMode: boolean;
  requests: number;
  hits: number;
  misses: number;
  missRatio: number;
  bytes: number;
  missBytes: number;
  byteMissRatio: number;
}

function replayJson(args: string[]): Row[] {
  const result = cdnsim(['replay', ...args, '--json', '--no-progress']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const rows = JSON.parse(result.stdout) as Row[];
  expect(Array.isArray(rows)).toBe(true);
  return rows;
}

/** A user mistake: exit 2, one clear message on stderr, nothing on stdout, no stack trace. */
function expectUserMistake(result: CliResult, message: RegExp): void {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^cdnsim: /);
  expect(result.stderr).toMatch(message);
  expect(expectNoStackTrace(result.stderr)).toBe(true);
  expect(result.stderr).not.toMatch(/internal error/);
}

describe('cdnsim replay --json', () => {
  it('prints an array of rows; LRU at 128 MiB on the oracleGeneral fixture misses 93,374 times and 4,214,303,232 bytes (libCacheSim)', () => {
    const rows = replayJson([BIN, '--cache-size', MiB128]);
    expect(rows).toEqual([
      {
        policy: 'lru',
        cacheSize: 134_217_728,
        cacheSizeFraction: null,
        ttlSeconds: null,
        countMode: false,
        requests: CLOUD_REQUESTS,
        hits: CLOUD_REQUESTS - 93_374,
        misses: 93_374,
        missRatio: 93_374 / CLOUD_REQUESTS,
        bytes: 4_368_040_448,
        missBytes: 4_214_303_232,
        byteMissRatio: 4_214_303_232 / 4_368_040_448,
      },
    ]);
  });

  it('--policy lru,fifo --cache-size 0.01,0.1: four rows, policy-major, sizes resolved from the working set with cacheSizeFraction; --out writes the same JSON', () => {
    const out = join(folder, 'rows.json');
    const result = cdnsim(['replay', BIN, '--policy', 'lru,fifo', '--cache-size', '0.01,0.1', '--json', '--out', out, '--no-progress']);
    expect(result.status).toBe(0);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(rows.map((row) => [row.policy, row.cacheSize, row.cacheSizeFraction])).toEqual([
      ['lru', 20_297_697, 0.01],
      ['lru', 202_976_972, 0.1],
      ['fifo', 20_297_697, 0.01],
      ['fifo', 202_976_972, 0.1],
    ]);
    for (const row of rows) {
      expect(row.requests).toBe(CLOUD_REQUESTS);
      expect(row.hits + row.misses).toBe(CLOUD_REQUESTS);
    }
    // A bigger cache misses less.
    expect(rows[1].misses).toBeLessThan(rows[0].misses);
    expect(rows[3].misses).toBeLessThan(rows[2].misses);
    expect(readFileSync(out, 'utf8')).toBe(result.stdout);
  });

  it('--count-mode --cache-size 1000: the capacity is 1000 objects (countMode true), which misses less than 1000 bytes', () => {
    const [row] = replayJson([BIN, '--count-mode', '--cache-size', '1000']);
    expect(row).toMatchObject({ policy: 'lru', cacheSize: 1000, cacheSizeFraction: null, countMode: true, requests: CLOUD_REQUESTS });
    expect(row.misses).toBe(94_823); // the engine's count-mode LRU (same as replay() in process)
    // In byte mode 1000 bytes hold no 512-byte-or-larger block for long: almost every request misses.
    const [bytesRow] = replayJson([BIN, '--cache-size', '1000']);
    expect(bytesRow.countMode).toBe(false);
    expect(bytesRow.misses).toBeGreaterThan(row.misses);
  });

  it('--count-mode on the access log: 1000 objects hold all 15, so the 5 repeated targets hit', () => {
    const [row] = replayJson([NGINX, '--count-mode', '--cache-size', '1000']);
    expect(row).toMatchObject({ cacheSize: 1000, countMode: true, requests: 20, hits: 5, misses: 15 });
  });

  it('--ttl 60,5m: one row per TTL (60 s, 300 s); a shorter TTL hits less, and no TTL hits most', () => {
    const rows = replayJson([BIN, '--cache-size', MiB128, '--ttl', '60,5m']);
    expect(rows.map((row) => row.ttlSeconds)).toEqual([60, 300]);
    const noTtlHits = CLOUD_REQUESTS - 93_374;
    expect(rows[0].hits).toBeLessThan(rows[1].hits);
    expect(rows[1].hits).toBeLessThan(noTtlHits);
    expect(rows.every((row) => row.requests === CLOUD_REQUESTS)).toBe(true);
  });

  it('--ttl 5,1m on the access log: the TTL is set at insertion; repeats 3 s and 0 s after the first request hit at 5 s, all 5 at 60 s', () => {
    // Repeats: site.css after 3 s, logo.svg after 0 s, the API call after 10 s, / after 13 s, app.js after 18 s.
    const rows = replayJson([NGINX, '--cache-size', '1GB', '--ttl', '5,1m']);
    expect(rows.map((row) => [row.ttlSeconds, row.hits, row.misses])).toEqual([
      [5, 2, 18],
      [60, 5, 15],
    ]);
  });

  it('--warmup 20% measures 113,872 − floor(0.2 × 113,872) = 91,098 requests; --warmup 10000 measures 103,872; warm-up hits are not counted', () => {
    const [share] = replayJson([BIN, '--cache-size', MiB128, '--warmup', '20%']);
    const [count] = replayJson([BIN, '--cache-size', MiB128, '--warmup', '10000']);
    expect(share.requests).toBe(91_098);
    expect(count.requests).toBe(103_872);
    for (const row of [share, count]) {
      expect(row.hits + row.misses).toBe(row.requests);
      expect(row.misses).toBeLessThan(93_374);
      expect(row.hits).toBeLessThanOrEqual(CLOUD_REQUESTS - 93_374);
      expect(row.bytes).toBeLessThan(4_368_040_448);
    }
    // A longer warm-up measures fewer requests and fewer hits.
    expect(share.hits).toBeLessThan(count.hits);
  });
});

describe('cdnsim replay (human output)', () => {
  it('prints the trace facts (requests, objects, working set, trace time), the warm-up, and a table row per cache; --out still writes JSON', () => {
    const out = join(folder, 'human.json');
    // A wide terminal: the trace facts on one line (at 100 columns they fold: test/report/terminalWidth.test.ts).
    const result = cdnsim(['replay', BIN, '--policy', 'lru,fifo', '--cache-size', '0.01,0.1', '--warmup', '20%', '--out', out, '--no-progress'], { columns: 200 });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('cloudPhysicsIO.oracleGeneral.bin: 113,872 requests, 48,974 objects, 2.03 GB working set, 2.0 h of trace time');
    expect(lines[1]).toMatch(/^measured 91,098 requests after a warm-up of 22,774; 4 cache\(s\) in \d+\.\d\d s \([\d,]+ requests\/s\)$/);
    expect(lines[3]).toMatch(/^policy\s+cache size\s+of working set\s+ttl\s+miss ratio\s+byte miss ratio\s+hits$/);
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Row[];
    expect(rows).toHaveLength(4);
    const table = lines.slice(4);
    expect(table).toHaveLength(4);
    table.forEach((line, i) => {
      const row = rows[i];
      const cells = line.trim().split(/\s{2,}/);
      expect(cells[0]).toBe(row.policy);
      expect(cells[1]).toBe(i % 2 === 0 ? '20.3 MB' : '203 MB');
      expect(cells[2]).toBe(i % 2 === 0 ? '1.0 %' : '10.0 %');
      expect(cells[3]).toBe('—');
      expect(cells[4]).toBe(row.missRatio.toFixed(4));
      expect(cells[5]).toBe(row.byteMissRatio.toFixed(4));
      expect(cells[6]).toBe(row.hits.toLocaleString('en-US'));
    });
  });

  it('an nginx access log read by its name (.log = clf): 20 requests, 15 targets, 467 KB, 18 s; 5 repeats hit in a big cache', () => {
    const result = cdnsim(['replay', NGINX, '--cache-size', '1GB', '--ttl', '60', '--no-progress']);
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('nginx-access.log: 20 requests, 15 objects, 467 KB working set, 18 s of trace time');
    expect(lines[1]).toMatch(/^measured 20 requests after a warm-up of 0; 1 cache\(s\) in /);
    // 15 misses of 20; 467,181 of 588,261 bytes missed (repeats are counted at their first size).
    expect(lines.at(-1)!.trim().split(/\s{2,}/)).toEqual(['lru', '1.00 GB', expect.stringMatching(/%$/), '60 s', '0.7500', '0.7942', '5']);
  });
});

describe('cdnsim replay: sizes printed as written (issue 26)', () => {
  it('--cache-size 128MiB,1GiB prints 128 MiB and 1.00 GiB (not 134 MB and 1.07 GB); decimal sizes stay decimal', () => {
    const binary = cdnsim(['replay', BIN, '--cache-size', '128MiB,1GiB', '--no-progress']);
    expect(binary.status).toBe(0);
    expect(binary.stdout).toMatch(/\nlru +128 MiB /);
    expect(binary.stdout).toMatch(/\nlru +1\.00 GiB /);
    const decimal = cdnsim(['replay', BIN, '--cache-size', '128MB', '--no-progress']);
    expect(decimal.stdout).toMatch(/\nlru +128 MB /);
  });
});

describe('cdnsim replay --format', () => {
  it('--format clf reads an access log whatever its name (here requests.txt, which by name would be a txt trace): the same rows as by name', () => {
    const renamed = join(folder, 'requests.txt');
    copyFileSync(NGINX, renamed);
    const byName = replayJson([NGINX, '--cache-size', '100KB', '--policy', 'lru,fifo']);
    const byFlag = replayJson([renamed, '--format', 'clf', '--cache-size', '100KB', '--policy', 'lru,fifo']);
    expect(byFlag).toEqual(byName);
    expect(byName.map((row) => row.requests)).toEqual([20, 20]);
  });

  it('--format webcachesim reads a webcachesim trace named .csv: the rows of the .tr fixture', () => {
    const renamed = join(folder, 'cloud.csv');
    copyFileSync(`${TRACES}/cloudPhysicsIO.oracleSizes.webcachesim.tr`, renamed);
    const rows = replayJson([renamed, '--format', 'webcachesim', '--cache-size', MiB128]);
    expect(rows[0]).toMatchObject({ requests: CLOUD_REQUESTS, misses: 93_374, missBytes: 4_214_303_232 });
  });
});

describe('cdnsim replay --skip-bad', () => {
  const BAD = `${TRACES}/missing-field.tr`;

  it('a malformed line stops the replay: exit 2, the message names the file and line and suggests --skip-bad', () => {
    const result = cdnsim(['replay', BAD, '--cache-size', '1GB', '--no-progress']);
    expectUserMistake(result, /missing-field\.tr:3: expected 3 fields "time id size", found 2/);
    expect(result.stderr).toMatch(/--skip-bad/);
  });

  it('--skip-bad 1 skips it, says so on stderr (file, count, line), and replays the other 3 requests', () => {
    const result = cdnsim(['replay', BAD, '--cache-size', '1GB', '--skip-bad', '1', '--json', '--no-progress']);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/missing-field\.tr: skipped 1 malformed record\(s\) \(--skip-bad\)/);
    expect(result.stderr).toMatch(/line 3: /);
    // 100 2048, 101 512, 100 2048: one hit.
    const [row] = JSON.parse(result.stdout) as Row[];
    expect(row).toMatchObject({ requests: 3, hits: 1, misses: 2, bytes: 4608, missBytes: 2560 });
  });
});

describe('cdnsim replay: user mistakes exit 2 with a clear message and no stack trace', () => {
  const base = [NGINX, '--no-progress'];

  it('an unknown policy suggests the nearest name (lur → lru) and lists the known ones', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--policy', 'lur']), /unknown policy "lur"; did you mean "lru"\?.*Known: lru, fifo/);
  });

  it('a cache size that is not a size (1XB)', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1XB']), /--cache-size: .*found "1XB"/);
  });

  it('a working-set fraction of 0 (0.0), and a size of 0', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '0.0']), /--cache-size: a fraction of the working set must be above 0, found "0.0"/);
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '0']), /--cache-size: expected a size above 0/);
  });

  it('a TTL that is not a duration, and a TTL of 0', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--ttl', 'soon']), /--ttl: expected a duration such as 60 \(seconds\), 5m or 1h, found "soon"/);
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--ttl', '60,0']), /--ttl: expected a TTL above 0, found "0"/);
  });

  it('a missing trace file (suggests the near name) and a directory', () => {
    expectUserMistake(cdnsim(['replay', `${TRACES}/nginx-acess.log`, '--cache-size', '1GB', '--no-progress']), /trace file not found: .*nginx-acess\.log \(did you mean nginx-access\.log\?\)/);
    expectUserMistake(cdnsim(['replay', TRACES, '--cache-size', '1GB', '--no-progress']), /traces is a directory, not a trace file/);
  });

  it('no trace argument', () => {
    expectUserMistake(cdnsim(['replay', '--cache-size', '1GB']), /`cdnsim replay` needs one or more trace files/);
  });

  it('no --cache-size says how to name one', () => {
    expectUserMistake(cdnsim(['replay', ...base]), /cache-size[\s\S]*--cache-size 1GB,4GB/);
  });

  it('a --warmup that is neither a count nor a share below 100 % (abc, 150%, 100%)', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--warmup', 'abc']), /--warmup: expected a request count .* found "abc"/);
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--warmup', '150%']), /--warmup: .*found "150%"/);
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--warmup', '100%']), /--warmup: a share of the trace must be below 100 %/);
  });

  // Bug: parseWarmup routes "1.0" to the share branch (its regex accepts 1\.0*), but only a "%"
  // share of 100 % is rejected; "1.0" then falls through to parseCount and becomes a warm-up of
  // ONE request (the access log replays with 19 measured requests, exit 0).
  it('--warmup 1.0 is a share of 100 % and is refused like 100% (not read as a count of 1 request)', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--warmup', '1.0']), /--warmup: a share of the trace must be below 100 %/);
  });

  it('an unknown --format lists the formats', () => {
    expectUserMistake(cdnsim(['replay', ...base, '--cache-size', '1GB', '--format', 'parquet']), /format.*"parquet"[\s\S]*oracleGeneral.*webcachesim.*csv.*txt.*clf/);
  });
});

describe('cdnsim replay from a pipe (a decompressor\'s output, read once)', () => {
  const CLI_PATH = join(import.meta.dirname, '../../dist/src/cli/main.js');
  const FIXTURE = join(import.meta.dirname, '../fixtures/traces/cloudPhysicsIO.oracleSizes.webcachesim.tr');
  const viaPipe = (args: string) =>
    spawnSync('bash', ['-c', `"${process.execPath}" "${CLI_PATH}" replay <(cat "${FIXTURE}") --format webcachesim ${args}`], { encoding: 'utf8' });

  it('reads every request once: LRU at 134217728 B gives the libCacheSim row (93,374 misses)', () => {
    const result = viaPipe('--cache-size 134217728 --json');
    expect(result.status).toBe(0);
    const [row] = JSON.parse(result.stdout) as { requests: number; misses: number }[];
    expect(row).toMatchObject({ requests: 113_872, misses: 93_374 });
  });

  it('refuses a replay that needs two passes, saying why and what to do instead', () => {
    const result = viaPipe('--cache-size 0.1');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/a pipe can be read only once, and this replay needs two passes/);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});
