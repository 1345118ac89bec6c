import { formatCount } from '../consoleTable.js';
import { measuredFromSeconds, type WarmupSummary } from '../warmupSummary.js';
import type { TimeseriesRow } from './chartInputs.js';

/** The simulated-time axis of a time-series chart: its domain, and the note that says what it leaves out. */
export interface MeasuredTimeAxis {
  /** x scale: from the end of the warm-up to the end of the last interval, not widened to 0 or to round numbers. */
  scale: { domain: [number, number]; zero: false; nice: false };
  /** A tick count hint: a domain that does not start at 0 would otherwise get a label every 2 s, overlapping. */
  axis: { tickCount: number };
  /** A subtitle line naming the warm-up the axis leaves out; undefined when the run had none. */
  note?: string;
}

/**
 * timeseries.csv holds only the measured part, which starts where the warm-up ended (750 s
 * into the baseline's clock), so the time axes start there and say so: a warm-up shaded at full
 * scale would squeeze the measured minute into a sliver (docs/charts.md).
 */
export function measuredTimeAxis(warmup: WarmupSummary | undefined, rows: readonly TimeseriesRow[]): MeasuredTimeAxis {
  // A summary.json written before `warmup` existed: the axis starts at the first interval, with no note.
  const from = warmup === undefined ? (rows[0]?.start_s ?? 0) : measuredFromSeconds(warmup);
  const to = rows.length === 0 ? from : Math.max(from, rows[rows.length - 1].end_s);
  const scale = { domain: [from, to] as [number, number], zero: false as const, nice: false as const };
  const axis = { tickCount: 8 };
  if (warmup === undefined || warmup.method === 'none') return { scale, axis };
  const kind =
    warmup.method === 'flow'
      ? `${formatCount(warmup.requests)} requests through the flow`
      : `the caches alone, ${warmup.until === 'steady' ? 'until steady' : warmup.until === 'time' ? 'for a fixed time' : 'for a fixed count'}, ${formatCount(warmup.requests)} requests`;
  return { scale, axis, note: `not shown: the warm-up, 0–${axisSeconds(from)} s (${kind}); the axis starts where measuring began` };
}

const axisSeconds = (seconds: number): string => (seconds >= 100 ? seconds.toFixed(0) : seconds.toFixed(1));
