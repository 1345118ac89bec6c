import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchOrder } from '../../src/cli/jobOrder.js';
import type { ScenarioJob } from '../../src/experiment/scenarioJob.js';
import { parseSweepParam } from '../../src/experiment/scenarioParams.js';
import { gridPoints } from '../../src/experiment/sweepGrid.js';
import { REPO } from './helpers.js';

describe('dispatchOrder: the dearest job first (issue 14, parallel sweeps)', () => {
  it('without costs the jobs go in job order', () => {
    expect(dispatchOrder(4)).toEqual([0, 1, 2, 3]);
  });

  it('a traffic.rate sweep 10k/s,100k/s,1M/s starts the 1M/s runs first; equal costs keep job order', () => {
    // Two replicates per point, as `sweep --replicates 2` lays them out.
    expect(dispatchOrder(6, [1e4, 1e4, 1e5, 1e5, 1e6, 1e6])).toEqual([4, 5, 2, 3, 0, 1]);
    expect(dispatchOrder(3, [7, 7, 7])).toEqual([0, 1, 2]);
  });

  it('is a permutation with costs never rising and ties in job order, for any costs', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 }), (costs) => {
        const order = dispatchOrder(costs.length, costs);
        expect([...order].sort((a, b) => a - b)).toEqual(costs.map((_, i) => i));
        for (let k = 1; k < order.length; k++) {
          const [before, after] = [order[k - 1], order[k]];
          expect(costs[before] > costs[after] || (costs[before] === costs[after] && before < after)).toBe(true);
        }
      }),
    );
  });

  it('refuses costs that do not match the jobs', () => {
    expect(() => dispatchOrder(3, [1, 2])).toThrow('2 costs for 3 jobs');
  });
});

describe('JobPool: workers kept across batches give the results of a fresh sequential run', () => {
  it('two batches on one pool of 2 workers, the second in reverse cost order, equal one worker running each job alone', async () => {
    // The built pool: its worker is dist/src/cli/scenarioJobWorker.js (`npm test` builds first).
    const { JobPool, runJobs } = (await import(join(REPO, 'dist/src/cli/jobPool.js'))) as typeof import('../../src/cli/jobPool.js');
    const scenarioFile = join(REPO, 'test/fixtures/sweep-small.yaml');
    const params = [parseSweepParam('edge.capacity=5MB,50MB,500MB')];
    const jobs: ScenarioJob[] = gridPoints(params).map((assignments) => ({ scenarioFile, params, assignments, requests: 12_000 }));
    const sequential = await runJobs(jobs, 1);
    const pool = new JobPool(2);
    try {
      const first = await pool.run(jobs, { costs: [1, 2, 3] });
      const progress: number[] = [];
      const second = await pool.run(jobs, { costs: [3, 2, 1], onProgress: (p) => progress.push(p.done) });
      expect(JSON.stringify(first)).toBe(JSON.stringify(sequential));
      expect(JSON.stringify(second)).toBe(JSON.stringify(sequential));
      expect(progress).toEqual([0, 1, 2, 3]);
      // A bigger edge cache hits more: the results are each job's own, in job order.
      expect(sequential[2].hitRatio.cdn).toBeGreaterThan(sequential[0].hitRatio.cdn);
    } finally {
      await pool.close();
    }
    await expect(pool.run(jobs)).rejects.toThrow('closed');
  });
});
