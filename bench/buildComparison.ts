import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The arguments of a comparison of this build with another: `<other root> [rounds] [workload ...]`. */
export interface BuildComparison {
  /** This checkout (holding the running dist/). */
  thisRoot: string;
  otherRoot: string;
  rounds: number;
  workloads: string[];
}

/** Reads them from the command line, or prints the usage and exits 2. */
export function buildComparisonArguments(script: string, defaultRounds: number): BuildComparison {
  const [otherArgument, roundsArgument, ...named] = process.argv.slice(2);
  if (otherArgument === undefined) {
    process.stderr.write(`usage: ${script} <other root holding dist/> [rounds] [allFeatures|baselineFlow ...]\n`);
    process.exit(2);
  }
  return {
    thisRoot: resolve(dirname(fileURLToPath(import.meta.url)), '../..'),
    otherRoot: resolve(otherArgument),
    rounds: Math.max(1, Number(roundsArgument ?? defaultRounds) | 0),
    workloads: named.length > 0 ? named : ['allFeatures', 'baselineFlow'],
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
