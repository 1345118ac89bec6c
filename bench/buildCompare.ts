import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { buildComparisonArguments, median } from './buildComparison.js';

/**
 * End to end, this build against another (say main's, built into a folder of its own):
 *   node dist/bench/buildCompare.js <other root> [rounds] [allFeatures|baselineFlow ...]
 * Each round runs every workload once with each build, both at the same time, each in a
 * fresh process (bench/buildCompareChild.ts), so both meet the same load on a shared machine
 * (in turn, they met different neighbours: ratios of single rounds spread from 0.8 to 1.3). Prints one JSON line per workload: both builds' median requests per CPU second and the
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
    const [a, b] = await Promise.all([rate(thisRoot, workload), rate(otherRoot, workload)]);
    mine.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  process.stdout.write(
    `${JSON.stringify({ name: `buildCompare.${workload}`, rounds, requestsPerSecond: median(mine), otherRequestsPerSecond: median(theirs), medianRatio: Number(median(ratios).toFixed(3)), ratios: ratios.map((r) => Number(r.toFixed(3))) })}\n`,
  );
}
