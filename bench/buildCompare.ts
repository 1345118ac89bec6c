import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { buildComparisonArguments, median } from './buildComparison.js';

/**
 * End to end, this build against another (say main's, built into a folder of its own):
 *   node dist/bench/buildCompare.js <other root> [rounds] [allFeatures|baselineFlow ...]
 * Each round runs every workload once with each build, one after the other (the order
 * alternating round by round), each in a fresh process (bench/buildCompareChild.ts): never
 * two measured processes at once, which on a 2-core machine measured each other (issue 27:
 * an all-features rate of 0.27 M that gave 0.50 M alone). Prints one JSON line per workload: both builds' median requests per CPU second and the
 * median of the per-round ratios (this build over the other; above 1: this one is faster).
 */
const { thisRoot, otherRoot, rounds, workloads } = buildComparisonArguments('buildCompare.js', 5);
const child = join(thisRoot, 'dist/bench/buildCompareChild.js');

const run = promisify(execFile);

async function rate(root: string, workload: string): Promise<number> {
  const { stdout: output } = await run(process.execPath, [child, root, workload], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return (JSON.parse(output.trim().split('\n').pop() ?? '{}') as { requestsPerSecond: number }).requestsPerSecond;
}

for (const workload of workloads) {
  const mine: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // One process at a time, the order alternating (issue 27): two measured processes beside
    // each other on a 2-core machine share its memory bandwidth and caches and slow each other.
    let a: number;
    let b: number;
    if (round % 2 === 0) {
      a = await rate(thisRoot, workload);
      b = await rate(otherRoot, workload);
    } else {
      b = await rate(otherRoot, workload);
      a = await rate(thisRoot, workload);
    }
    mine.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  process.stdout.write(
    `${JSON.stringify({ name: `buildCompare.${workload}`, rounds, requestsPerSecond: median(mine), otherRequestsPerSecond: median(theirs), medianRatio: Number(median(ratios).toFixed(3)), ratios: ratios.map((r) => Number(r.toFixed(3))) })}\n`,
  );
}
