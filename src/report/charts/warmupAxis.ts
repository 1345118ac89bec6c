import { formatCount } from '../consoleTable.js';
import { measuredFromSeconds, type WarmupSummary } from '../warmupSummary.js';
import type { TimeseriesRow } from './chartInputs.js';

/** A time axis's unit: seconds for a run of up to 20 minutes, minutes up to two days, then hours. */
export interface TimeUnit {
  /** As the axis title and tooltips write it: "s", "min", "h". */
  name: 's' | 'min' | 'h';
  /** Seconds in one unit: a time in seconds divided by this is the axis value. */
  seconds: number;
}

/** The unit a person reads a span in: a two-hour run's axis in minutes, not seconds to 8,000. */
export function timeUnitFor(spanSeconds: number): TimeUnit {
  if (spanSeconds <= 20 * 60) return { name: 's', seconds: 1 };
  if (spanSeconds <= 48 * 3600) return { name: 'min', seconds: 60 };
  return { name: 'h', seconds: 3600 };
}

/** The simulated-time axis of a time-series chart: its domain, and the note that says what it leaves out. */
export interface MeasuredTimeAxis {
  /** The unit of the domain and of every time value the chart plots (times in seconds / unit.seconds). */
  unit: TimeUnit;
  /** "simulated time (min)". */
  title: string;
  /** x scale, in the unit: from the end of the warm-up to the end of the last interval, not widened to 0 or to round numbers. */
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
  const unit = timeUnitFor(to - from);
  const scale = { domain: [from / unit.seconds, to / unit.seconds] as [number, number], zero: false as const, nice: false as const };
  const axis = { tickCount: 8 };
  const title = `simulated time (${unit.name})`;
  if (warmup === undefined || warmup.method === 'none') return { unit, title, scale, axis };
  const kind =
    warmup.method === 'flow'
      ? `${formatCount(warmup.requests)} requests through the flow`
      : `the caches alone, ${warmup.until === 'steady' ? 'until steady' : warmup.until === 'time' ? 'for a fixed time' : 'for a fixed count'}, ${formatCount(warmup.requests)} requests`;
  return { unit, title, scale, axis, note: `not shown: the warm-up, 0–${axisTime(from / unit.seconds)} ${unit.name} (${kind}); the axis starts where measuring began` };
}

const axisTime = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
