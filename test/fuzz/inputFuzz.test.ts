import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayHar } from '../../src/experiment/harReplay.js';
import { DEFAULT_DEPLOYMENT } from '../../src/policy/deployment.js';
import { boundedMessage, isUserError } from '../../src/userError.js';
import { readHar } from '../../src/recorded/realTraffic/harReader.js';
import type { TrafficRecord } from '../../src/recorded/realTraffic/trafficRecord.js';
import { TraceBatch } from '../../src/recorded/traces/traceBatch.js';
import { openTrace } from '../../src/recorded/traces/traceReader.js';
import { cdnsim, expectNoStackTrace, temporaryFolder } from '../cli/helpers.js';
import { CLI_FUZZ_RUNS, FUZZ_RUNS, FUZZ_SEED, MAX_STDERR_BYTES } from './fuzzConfig.js';
import { mutatedHar, mutatedTrace, type MutatedInput } from './inputMutations.js';

/**
 * Issue 17's contract for the files `cdnsim har` and `cdnsim replay` read: a damaged or
 * mutated HAR export or trace is read, or refused as a user mistake whose message starts
 * with the file's name (and, where a record is at fault, its line or record), in a bounded
 * message; through the CLI, exit 0 or 2, no stack trace, and no --out left on 2.
 */

/** Cases per fc.assert call, as in the scenario fuzz: each slice's cases are released. */
const FUZZ_SLICE = 1_000;
/** Half of FUZZ_RUNS each: `npm test` keeps to a few hundred cases over all fuzz suites. */
const INPUT_RUNS = Math.max(50, Math.round(FUZZ_RUNS / 2));
/** Records at fault are named by line (text), record index or line:column (HAR). */
const LOCATED_RECORD = /:\d+(:\d+)?: |: record \d+ |: line \d+|: entry \d+/;

function checkRefusal(error: unknown, file: string): 'refused' {
  if (!isUserError(error)) throw new Error(`not a user error: ${(error as Error).stack ?? String(error)}`);
  const shown = boundedMessage(error.message);
  if (!shown.startsWith(file)) throw new Error(`message does not start with the file's name: ${shown.slice(0, 300)}`);
  if (/malformed|entry \d|expected \d+ fields/.test(shown) && !LOCATED_RECORD.test(shown)) throw new Error(`a record's fault without its place: ${shown.slice(0, 300)}`);
  if (Buffer.byteLength(shown) > MAX_STDERR_BYTES) throw new Error(`message of ${Buffer.byteLength(shown)} bytes`);
  return 'refused';
}

async function checkHar(file: string): Promise<'ok' | 'refused'> {
  try {
    const records: TrafficRecord[] = [];
    for await (const record of readHar(file)) records.push(record);
    // `cdnsim har` refuses a HAR without requests itself; the replay is what it runs otherwise.
    if (records.length > 0) replayHar(records, { deployment: DEFAULT_DEPLOYMENT, visits: 2, intervalMs: 600_000, newClientPerVisit: false });
    return 'ok';
  } catch (error) {
    return checkRefusal(error, file);
  }
}

function checkTrace(file: string): 'ok' | 'refused' {
  try {
    const reader = openTrace(file);
    const batch = new TraceBatch();
    try {
      while (reader.next(batch) > 0);
    } finally {
      reader.close();
    }
    return 'ok';
  } catch (error) {
    return checkRefusal(error, file);
  }
}

const describeCase = (input: MutatedInput): string => `${input.source} → ${input.name} (${input.bytes.length} bytes) with ${input.description.slice(0, 400)}`;

async function sliced(runs: number, seed: number, check: (file: string) => Promise<'ok' | 'refused'> | 'ok' | 'refused', arbitrary: fc.Arbitrary<MutatedInput>): Promise<{ ok: number; refused: number }> {
  const folder = temporaryFolder('fuzz-input');
  const outcomes = { ok: 0, refused: 0 };
  let index = 0;
  for (let done = 0, slice = 0; done < runs; done += FUZZ_SLICE, slice++) {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (input) => {
        const file = join(folder, `${index++}-${input.name}`);
        writeFileSync(file, input.bytes);
        try {
          outcomes[await check(file)]++;
        } catch (error) {
          throw new Error(`${describeCase(input)}: ${(error as Error).message}`);
        }
      }),
      { numRuns: Math.min(FUZZ_SLICE, runs - done), seed: seed + slice * 7919 },
    );
  }
  return outcomes;
}

describe('issue 17 fuzz: mutated HAR exports and traces are read or refused with a message that names the file', () => {
  it(`${INPUT_RUNS} mutated HAR exports, read and replayed in process`, async () => {
    const outcomes = await sliced(INPUT_RUNS, FUZZ_SEED + 3, checkHar, mutatedHar);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.ok).toBeGreaterThan(0);
  }, Math.max(120_000, INPUT_RUNS * 200));

  it(`${INPUT_RUNS} mutated traces of every format (oracleGeneral, webcachesim, csv, txt, clf), read in process`, async () => {
    const outcomes = await sliced(INPUT_RUNS, FUZZ_SEED + 4, checkTrace, mutatedTrace);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.ok).toBeGreaterThan(0);
  }, Math.max(120_000, INPUT_RUNS * 100));

  it(`${CLI_FUZZ_RUNS} mutated HARs through \`cdnsim har\` and traces through \`cdnsim replay --out\`: exit 0 or 2, no stack trace, bounded stderr, no --out left on 2`, () => {
    const cwd = temporaryFolder('fuzz-input-cli');
    let index = 0;
    fc.assert(
      fc.property(fc.oneof(mutatedHar, mutatedTrace), (input) => {
        const folder = join(cwd, `case-${index++}`);
        mkdirSync(folder);
        const file = join(folder, input.name);
        writeFileSync(file, input.bytes);
        const out = join(folder, 'rows.json');
        const args = input.name.endsWith('.har') ? ['har', file, '--no-progress'] : ['replay', file, '--cache-size', '0.1', '--policy', 'lru,belady', '--out', out, '--no-progress'];
        const result = cdnsim(args, { cwd: folder, timeoutMs: 60_000 });
        const context = `cdnsim ${args.join(' ')} (${describeCase(input)})\n${result.stderr.slice(0, 500)}`;
        expect([0, 2], context).toContain(result.status);
        expect(expectNoStackTrace(result.stderr), context).toBe(true);
        expect(Buffer.byteLength(result.stderr), context).toBeLessThan(MAX_STDERR_BYTES);
        if (result.status === 2) {
          expect(result.stderr, context).toMatch(new RegExp(`^cdnsim: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
          expect(existsSync(out), context).toBe(false);
          expect(readdirSync(folder), context).toEqual([input.name]);
        }
      }),
      { numRuns: CLI_FUZZ_RUNS, seed: FUZZ_SEED + 5 },
    );
  }, Math.max(120_000, CLI_FUZZ_RUNS * 8_000));
});
