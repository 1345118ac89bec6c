import type { AdaptiveFigures } from '../cdn/adaptiveController.js';
import { queryHandlingInput } from '../policy/queryHandling.js';
import { csvText } from './csvTable.js';
import { roundTo } from './rounding.js';

/**
 * The adaptive TTL controller in the run folder (spec 1.2 item 6; docs/outputs.md):
 * summary.json `adaptive` (its parameters, each class's lifetime from the headers and at the
 * end, every adjustment) and adaptive.csv (each class over each window: hit ratio, outdated
 * share and the lifetime in force), so the controller can be watched reacting.
 */

export interface AdaptiveClassSummary {
  name: string;
  /** Whether the controller may change it (the CDN stores it and need not revalidate each use). */
  adjustable: boolean;
  /** The CDN lifetime the origin's headers give it at the edge. */
  headerTtlSeconds: number;
  /** Its lifetime when the run ended. */
  finalTtlSeconds: number;
  targetHitRatio: number;
  maxTtlSeconds: number;
  maxStaleShare: number;
}

/** A query handling as the scenario writes it: `keep`, `strip-tracking` or `{ignore: [names]}`. */
type QueryHandlingText = ReturnType<typeof queryHandlingInput>;

export type AdaptiveAdjustmentSummary = {
  atSeconds: number;
  class: string;
  /** `below-target` (raised, or query keys normalised) or `over-budget` (lowered). */
  reason: string;
  /** The window that decided it: its requests reaching the CDN, CDN hit ratio and outdated share. */
  requests: number;
  cdnHitRatio: number;
  outdatedShare: number;
} & ({ action: 'ttl'; fromTtlSeconds: number; toTtlSeconds: number } | { action: 'query'; fromQuery: QueryHandlingText; toQuery: QueryHandlingText });

export interface AdaptiveSummary {
  windowSeconds: number;
  targetHitRatio: number;
  factor: number;
  maxTtlSeconds: number;
  maxStaleShare: number;
  startTtlSeconds: number;
  minRequests: number;
  /** What it does to the keys of a class with query strings below its target: `strip-tracking` or `keep`. */
  queries: string;
  classes: AdaptiveClassSummary[];
  adjustments: AdaptiveAdjustmentSummary[];
}

const round6 = (value: number): number => roundTo(value, 6);
const seconds = (ms: number): number => round6(ms / 1000);

export function adaptiveSummary(figures: AdaptiveFigures): AdaptiveSummary {
  const { settings } = figures;
  return {
    windowSeconds: seconds(settings.windowMs),
    targetHitRatio: settings.targetHitRatio,
    factor: settings.factor,
    maxTtlSeconds: seconds(settings.maxTtlMs),
    maxStaleShare: settings.maxStaleShare,
    startTtlSeconds: seconds(settings.startTtlMs),
    minRequests: settings.minRequests,
    queries: settings.queries,
    classes: figures.classes.map((klass, c) => ({
      name: klass.name,
      adjustable: klass.adjustable,
      headerTtlSeconds: seconds(klass.headerTtlMs),
      finalTtlSeconds: seconds(figures.finalTtlMs[c]),
      targetHitRatio: klass.limits.targetHitRatio,
      maxTtlSeconds: seconds(klass.bounds.maxTtlMs),
      maxStaleShare: klass.limits.maxStaleShare,
    })),
    adjustments: figures.adjustments.map((adjustment): AdaptiveAdjustmentSummary => {
      const common = {
        atSeconds: seconds(adjustment.atMs),
        class: figures.classes[adjustment.classId].name,
        reason: adjustment.reason,
        requests: adjustment.requests,
        cdnHitRatio: round6(adjustment.cdnHitRatio),
        outdatedShare: round6(adjustment.outdatedShare),
      };
      return adjustment.action === 'ttl'
        ? { ...common, action: 'ttl', fromTtlSeconds: seconds(adjustment.fromTtlMs), toTtlSeconds: seconds(adjustment.toTtlMs) }
        : { ...common, action: 'query', fromQuery: queryHandlingInput(adjustment.fromQuery), toQuery: queryHandlingInput(adjustment.toQuery) };
    }),
  };
}

export const ADAPTIVE_COLUMNS = ['start_s', 'end_s', 'class', 'requests', 'cdn_hit_ratio', 'outdated_share', 'ttl_s', 'verdict', 'next_ttl_s', 'query'] as const;

/** A query handling in one CSV cell: `keep`, `strip-tracking`, `ignore:a;b`; empty for a class without query strings. */
function queryCell(handling: AdaptiveFigures['windows'][number]['query']): string | null {
  if (handling === null) return null;
  return handling.kind === 'ignore' ? `ignore:${handling.names.join(';')}` : handling.kind;
}

/** adaptive.csv: one row per window and class, in time order, classes in class order. */
export function adaptiveCsv(figures: AdaptiveFigures): string {
  return csvText(
    ADAPTIVE_COLUMNS,
    figures.windows.map((window) => [
      seconds(window.startMs),
      seconds(window.endMs),
      figures.classes[window.classId].name,
      window.requests,
      window.requests === 0 ? null : round6(window.cdnHits / window.requests),
      window.requests === 0 ? null : round6(window.outdated / window.requests),
      seconds(window.ttlMs),
      window.verdict,
      seconds(window.nextTtlMs),
      queryCell(window.query),
    ]),
  );
}

/** One line for the terminal report: how many changes, and each class's lifetime from the headers to the end. */
export function adaptiveLine(summary: AdaptiveSummary): string {
  const changed = summary.classes.filter((klass) => klass.finalTtlSeconds !== klass.headerTtlSeconds || summary.adjustments.some((a) => a.class === klass.name));
  const classes = changed.map((klass) => `${klass.name} ${klass.headerTtlSeconds} s → ${klass.finalTtlSeconds} s`).join(', ');
  const ttl = summary.adjustments.filter((a) => a.action === 'ttl');
  const raised = ttl.filter((a) => a.reason === 'below-target').length;
  const lowered = ttl.length - raised;
  const normalised = summary.adjustments.filter((a) => a.action === 'query').map((a) => a.class);
  const queries = normalised.length === 0 ? '' : `, tracking parameters left out of the keys of ${normalised.join(', ')}`;
  return (
    `adaptive TTL (spec 1.2 item 6; every ${summary.windowSeconds} s, target ${round6(summary.targetHitRatio * 100)} %, outdated at most ${round6(summary.maxStaleShare * 100)} %): ` +
    `${raised} raised, ${lowered} lowered${queries}${classes === '' ? ', no class changed' : ` · ${classes}`} (summary.json "adaptive", adaptive.csv)`
  );
}
