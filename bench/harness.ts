/**
 * A tiny benchmark harness: run a body a few times after a warm-up, keep the best and the
 * median rate, print one JSON line. Machines are shared and noisy, so compare variants
 * measured in the same run (as ratios), not against numbers from another day.
 */
export interface BenchResult {
  name: string;
  [metric: string]: number | string;
}

export interface Measured {
  seconds: number;
  operations: number;
}

export function measure(repeats: number, body: () => number): { bestPerSecond: number; medianPerSecond: number; operations: number } {
  body(); // warm-up: JIT and caches
  const rates: number[] = [];
  let operations = 0;
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    operations = body();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(operations / seconds);
  }
  rates.sort((a, b) => a - b);
  return { bestPerSecond: Math.round(rates[rates.length - 1]), medianPerSecond: Math.round(rates[Math.floor(rates.length / 2)]), operations };
}

export function report(result: BenchResult): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** One timed run of a variant: requests it made, wall and CPU seconds (this process). */
export interface TimedRun {
  requests: number;
  wall: number;
  cpu: number;
}

/** Times `run` by wall clock and by this process's CPU, returning the run's request count with both. */
export function timeRun(run: () => number): TimedRun {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const requests = run();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { requests, wall, cpu: (used.user + used.system) / 1e6 };
}

/** The best of each variant over alternating rounds (load from other processes falls on both alike). */
export interface AlternatedBest {
  requests: number;
  without: { wall: number; cpu: number };
  with: { wall: number; cpu: number };
}

/**
 * Runs a feature off and on in alternation `repeats` times and keeps each variant's best wall
 * and CPU time: the slice benchmarks' way to price a feature as a ratio on a shared machine.
 */
export function alternate(repeats: number, variant: (on: boolean) => TimedRun): AlternatedBest {
  const off: TimedRun[] = [];
  const on: TimedRun[] = [];
  for (let i = 0; i < repeats; i++) {
    off.push(variant(false));
    on.push(variant(true));
  }
  const best = (runs: TimedRun[]) => ({ wall: Math.min(...runs.map((run) => run.wall)), cpu: Math.min(...runs.map((run) => run.cpu)) });
  return { requests: off[off.length - 1]?.requests ?? 0, without: best(off), with: best(on) };
}
