import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * How busy the machine is around a measurement, for benchmarks whose result is a parallel
 * speed-up: on a machine shared with other work, such a ratio measures the CPU the other
 * work left, not the code. Linux's /proc gives the CPU seconds every process used; elsewhere
 * only the load average is known.
 */

/** CPU seconds used so far by the whole machine and by this process (every thread), or undefined without /proc. */
export interface CpuCounters {
  machineBusy: number;
  self: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the project runs on

export function cpuCounters(): CpuCounters | undefined {
  try {
    // /proc/stat's first line: user nice system idle iowait irq softirq steal … (ticks).
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = fields.reduce((sum, ticks) => sum + ticks, 0) - fields[3] - fields[4];
    // /proc/self/stat after the command name: field 14 utime, 15 stime (ticks).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { machineBusy: busy / TICKS_PER_SECOND, self: (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU seconds the rest of the machine (other processes) used between two readings; -1 without /proc. */
export function otherCpuSeconds(before: CpuCounters | undefined, after: CpuCounters | undefined): number {
  if (before === undefined || after === undefined) return -1;
  return Math.max(0, after.machineBusy - before.machineBusy - (after.self - before.self));
}

/** The one-minute load average, two decimals. */
export function loadAverage1(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}
