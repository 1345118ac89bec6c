import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replay, type ReplayConfig } from '../../src/experiment/replay.js';
import { scanTrace } from '../../src/experiment/traceScan.js';
import { UserError } from '../../src/userError.js';

/**
 * The replay's two-stage pipeline (a worker thread reads and interns, this thread runs the
 * caches) must give exactly what one thread gives. Under vitest the sources are TypeScript,
 * so the test points the pipeline at the built worker (npm test builds first).
 */
const WORKER = pathToFileURL(resolve(import.meta.dirname, '../../dist/src/experiment/traceScanWorker.js'));
const FIXTURES = resolve(import.meta.dirname, '../fixtures/traces');
const ORACLE = resolve(FIXTURES, 'cloudPhysicsIO.oracleGeneral.bin');
const WEBCACHESIM = resolve(FIXTURES, 'cloudPhysicsIO.oracleSizes.webcachesim.tr');

describe.runIf(existsSync(WORKER))('trace scan in a worker thread (the replay pipeline)', () => {
  const config: ReplayConfig = {
    policies: ['lru', 'fifo', 'belady'],
    cacheSizes: [{ kind: 'fraction', fraction: 0.01 }, { kind: 'fraction', fraction: 0.1 }],
    countMode: true,
    ttlsSeconds: [null, 600],
    warmup: { kind: 'fraction', fraction: 0.1 },
  };

  it.each([
    ['oracleGeneral (next access from the file)', ORACLE],
    ['webcachesim (next access from a first pass)', WEBCACHESIM],
  ])('%s: identical rows, facts and progress end in both ways (first pass and main pass)', (_name, file) => {
    const progress: number[] = [];
    const piped = replay([file], config, { scan: { workerUrl: WORKER }, onProgress: (p) => progress.push(p.fraction) });
    const single = replay([file], config, { scan: { pipeline: false } });
    expect(piped).toEqual(single);
    expect(piped.trace.requests).toBe(113_872);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((fraction, i) => i === 0 || fraction >= progress[i - 1])).toBe(true);
  });

  it('hands over every batch in order: ids, first-seen sizes and starts match the in-thread scan', () => {
    const collect = (pipeline: boolean) => {
      const seen: number[] = [];
      const facts = scanTrace([ORACLE, WEBCACHESIM], {}, (batch) => {
        seen.push(batch.start, batch.count, batch.ids[0], batch.ids[batch.count - 1], batch.sizes[batch.count - 1]);
      }, () => {}, pipeline ? { workerUrl: WORKER } : { pipeline: false });
      return { seen, facts };
    };
    const piped = collect(true);
    expect(piped).toEqual(collect(false));
    expect(piped.facts.requests).toBe(2 * 113_872);
  });

  it("a reader's error in the worker reaches the caller as the same user error (file and line)", () => {
    const bad = resolve(FIXTURES, 'missing-field.tr');
    let inThread: unknown;
    try {
      scanTrace([bad], {}, () => {}, () => {}, { pipeline: false });
    } catch (error) {
      inThread = error;
    }
    expect(() => scanTrace([bad], {}, () => {}, () => {}, { workerUrl: WORKER })).toThrow(UserError);
    expect(() => scanTrace([bad], {}, () => {}, () => {}, { workerUrl: WORKER })).toThrow((inThread as Error).message);
  });
});
