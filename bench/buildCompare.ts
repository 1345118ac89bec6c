import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

/**
 * End to end, this build against another (say main's, built into a folder of its own):
 *   node dist/bench/buildCompare.js <other root> [rounds] [allFeatures|baselineFlow ...]
 * Each round runs every workload once with each build, both at the same time, each in a
 * fresh process (bench/buildCompareChild.ts), so both meet the same load on a shared machine
 * (in turn, they met different neighbours: ratios of single rounds spread from 0.8 to 1.3). Prints one JSON line per workload: both builds' median requests per CPU second and the
 * median of the per-round ratios (this build over the other; above 1: this one is faster).
 */
const [otherArgument, roundsArgument, ...named] = process.argv.slice(2);
if (otherArgument === undefined) {
  process.stderr.write('usage: buildCompare.js <other root holding dist/> [rounds] [allFeatures|baselineFlow ...]\n');
  process.exit(2);
}
const thisRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const otherRoot = resolve(otherArgument);
const rounds = Math.max(1, Number(roundsArgument ?? 5) | 0);
const workloads = named.length > 0 ? named : ['allFeatures', 'baselineFlow'];
const child = join(thisRoot, 'dist/bench/buildCompareChild.js');

const run = promisify(execFile);

async function rate(root: string, workload: string): Promise<number> {
  const { stdout: output } = await run(process.execPath, [child, root, workload], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return (JSON.parse(output.trim().split('\n').pop() ?? '{}') as { requestsPerSecond: number }).requestsPerSecond;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

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
