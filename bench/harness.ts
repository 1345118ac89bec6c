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
