import type { Summary } from './summary.js';
import { csvField } from './csvTable.js';
import { DEFAULT_COLUMNS, formatCount, formatMs, formatPercent, formatTableWithin, wrapLine } from './consoleTable.js';
import { formatBytes } from '../units.js';

/**
 * `cdnsim compare`'s outputs: compare.json (every strategy's full run summary), compare.csv
 * (one row per strategy, the columns of the run-folder contract) and the terminal table.
 */

/**
 * A run summary as compare.json holds it: the run's summary.json, plus `staleness` at the
 * top (the same figures as `cdn.staleness`: the share of responses older than the origin's
 * current version, and by how long), where a comparison of strategies looks first.
 */
export type StrategySummary = Summary & { staleness: Summary['cdn']['staleness'] };

export interface StrategyResult {
  name: string;
  description: string;
  summary: Summary;
}

export interface CompareDocument {
  schemaVersion: 1;
  scenario: string;
  seed: number;
  strategies: { name: string; description: string; summary: StrategySummary }[];
}

export function compareDocument(scenario: string, seed: number, results: readonly StrategyResult[]): CompareDocument {
  return {
    schemaVersion: 1,
    scenario,
    seed,
    strategies: results.map((result) => ({ name: result.name, description: result.description, summary: { ...result.summary, staleness: result.summary.cdn.staleness } })),
  };
}

/**
 * Availability while the origin has problems (spec 1.1 states 99.9 % for them): non-error
 * responses over the requests sent during the scenario's outages and error bursts; a
 * scenario without either gets the run's availability.
 */
export function incidentAvailability(summary: Summary): number {
  const windows = summary.incidents.filter((incident) => incident.kind === 'outage' || incident.kind === 'error-burst');
  const requests = windows.reduce((sum, incident) => sum + incident.requests, 0);
  if (requests === 0) return summary.cdn.availability;
  const errors = windows.reduce((sum, incident) => sum + incident.errors, 0);
  return Math.round((1 - errors / requests) * 1e6) / 1e6;
}

/** The figures of one strategy's row, by compare.csv column. */
export function compareRow(name: string, summary: Summary): Record<(typeof COMPARE_COLUMNS)[number], string | number> {
  const all = summary.latencyMs.all;
  return {
    strategy: name,
    cdn_hit_ratio: summary.hitRatio.cdn ?? 0,
    cdn_byte_hit_ratio: summary.byteHitRatio.cdn ?? 0,
    origin_requests: summary.cdn.origin.requests,
    origin_offload: summary.originOffload,
    origin_bytes: summary.cdn.origin.bytes,
    origin_byte_offload: summary.originByteOffload,
    p50_ms: all.p50,
    p95_ms: all.p95,
    p99_ms: all.p99,
    stale_share: summary.cdn.staleness.share,
    worst_staleness_s: summary.cdn.staleness.maxSeconds,
    availability: incidentAvailability(summary),
  };
}

export const COMPARE_COLUMNS = [
  'strategy',
  'cdn_hit_ratio',
  'cdn_byte_hit_ratio',
  'origin_requests',
  'origin_offload',
  'origin_bytes',
  'origin_byte_offload',
  'p50_ms',
  'p95_ms',
  'p99_ms',
  'stale_share',
  'worst_staleness_s',
  'availability',
] as const;

export function compareCsv(document: CompareDocument): string {
  const lines = document.strategies.map((strategy) => {
    const row = compareRow(strategy.name, strategy.summary);
    return COMPARE_COLUMNS.map((column) => csvField(String(row[column]))).join(',');
  });
  return `${[COMPARE_COLUMNS.join(','), ...lines].join('\n')}\n`;
}

export function compareJson(document: CompareDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The terminal's comparison in `columns`: a table too wide for them is split into blocks that each name the strategies (issue 26). */
export function compareText(document: CompareDocument, columns: number = DEFAULT_COLUMNS): string {
  const first = document.strategies[0]?.summary;
  const heading = `${document.scenario} · seed ${document.seed} · ${document.strategies.length} strategies on identical traffic · ${formatCount(first?.requests ?? 0)} requests measured each`;
  const header = ['strategy', 'CDN hit', 'byte hit', 'origin req', 'offload', 'origin bytes', 'byte offload', 'p50 ms', 'p95 ms', 'p99 ms', 'outdated', 'worst outdated', 'availability'];
  const rows = document.strategies.map((strategy) => {
    const row = compareRow(strategy.name, strategy.summary);
    return [
      strategy.name,
      formatPercent(Number(row.cdn_hit_ratio)),
      formatPercent(Number(row.cdn_byte_hit_ratio)),
      formatCount(Number(row.origin_requests)),
      formatPercent(Number(row.origin_offload)),
      formatBytes(Number(row.origin_bytes)),
      formatPercent(Number(row.origin_byte_offload)),
      formatMs(Number(row.p50_ms)),
      formatMs(Number(row.p95_ms)),
      formatMs(Number(row.p99_ms)),
      formatPercent(Number(row.stale_share), 3),
      `${Number(row.worst_staleness_s).toFixed(1)} s`,
      formatPercent(Number(row.availability), 3),
    ];
  });
  const legend = document.strategies.map((strategy) => `  ${strategy.name}: ${strategy.description}`);
  const notes = [
    'origin req: every request the measured ones caused at the origin, background revalidations included; offload: 1 − origin req / requests (docs/origin-accounting.md).',
    'byte offload: 1 − origin body bytes / client bytes; negative when whole 5 MB chunks fetched for smaller ranges exceed what clients read (spec 4.8, docs/byte-figures.md).',
    'outdated: responses older than the origin\'s current version (worst: how long the newer one had existed); availability: during outages and error bursts, else the whole run.',
  ];
  const wrap = (lines: readonly string[]) => lines.flatMap((line) => wrapLine(line, columns, '    '));
  return [...wrapLine(heading, columns), '', formatTableWithin(header, rows, columns), '', ...wrap(legend), '', ...notes.flatMap((line) => wrapLine(line, columns))].join('\n');
}
