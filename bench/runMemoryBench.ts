import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './harness.js';

interface ChildResult {
  requests: number;
  peakRssMiB: number;
  cdnHitRatio: number;
  edgeStoredGB: number;
}

/**
 * `run.memory`: peak RSS of a whole run (every feature on, small caches that are full early)
 * at N and 4N requests, each in a process of its own. Once the caches are full, memory must
 * not follow the request count: the bound is peakRssRatio4x ≤ 1.25.
 */
export function runMemoryBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('run.memory')) return;
  const child = fileURLToPath(new URL('./runMemoryChild.js', import.meta.url));
  const run = (requests: number): ChildResult => JSON.parse(execFileSync(process.execPath, [child, String(requests)], { encoding: 'utf8' })) as ChildResult;
  const requests = 2_000_000;
  const small = run(requests);
  const large = run(4 * requests);
  const round = (value: number) => Number(value.toFixed(1));
  report({
    name: 'run.memory',
    requests,
    peakRssMiB: round(small.peakRssMiB),
    peakRssMiB4x: round(large.peakRssMiB),
    peakRssRatio4x: Number((large.peakRssMiB / small.peakRssMiB).toFixed(3)),
    cdnHitRatio: Number(small.cdnHitRatio.toFixed(4)),
    cdnHitRatio4x: Number(large.cdnHitRatio.toFixed(4)),
    edgeStoredGB: Number(small.edgeStoredGB.toFixed(2)),
  });
}
