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
  const row = {
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
  if (summary.requests > 0) return row;
  // A warm-up that used the whole run measured nothing: its ratios and latencies are undefined (an empty cell, "–"), not 0.
  return { ...row, ...Object.fromEntries(RATIO_AND_LATENCY_COLUMNS.map((column) => [column, ''])) };
}

const RATIO_AND_LATENCY_COLUMNS = ['cdn_hit_ratio', 'cdn_byte_hit_ratio', 'origin_offload', 'origin_byte_offload', 'p50_ms', 'p95_ms', 'p99_ms', 'stale_share', 'worst_staleness_s', 'availability'] as const;

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

/**
 * compare.csv's capacity columns (issue 25), named by their summary.json path as in sweep.csv
 * and `--target` (docs/capacity.md): the origin's load and each PoP maximum with the PoP it
 * belongs to, so strategies can be held to the origin and uplinks they need.
 */
export const COMPARE_CAPACITY_COLUMNS = [
  'capacity.origin.meanRequestsPerSecond',
  'capacity.origin.peakRequestsPerSecond1s',
  'capacity.origin.peakRequestsPerSecond60s',
  'capacity.origin.meanGbps',
  'capacity.origin.peakGbps1s',
  'capacity.origin.peakGbps60s',
  'capacity.pops.maxUplinkShare1s',
  'capacity.pops.maxUplinkShare1sPop',
  'capacity.pops.maxUplinkShare60s',
  'capacity.pops.maxUplinkShare60sPop',
  'capacity.pops.maxPeakGbps1s',
  'capacity.pops.maxPeakGbps1sPop',
  'capacity.pops.maxPeakGbps60s',
  'capacity.pops.maxPeakGbps60sPop',
  'capacity.pops.maxPeakRequestsPerSecond',
  'capacity.pops.maxPeakRequestsPerSecondPop',
  'capacity.pops.maxStoredBytes',
  'capacity.pops.maxStoredBytesPop',
] as const;

/** A capacity figure by its summary.json path; undefined where the run has none (no timeline, no uplinks in model regions). */
function capacityValue(summary: Summary, path: (typeof COMPARE_CAPACITY_COLUMNS)[number]): number | string | undefined {
  const [, group, key] = path.split('.') as ['capacity', 'origin' | 'pops', string];
  const figures = summary.capacity?.[group] as Record<string, number | string | undefined> | undefined;
  return figures?.[key];
}

export function compareCsv(document: CompareDocument): string {
  const lines = document.strategies.map((strategy) => {
    const row = compareRow(strategy.name, strategy.summary);
    // An empty cell: not applicable, as in the run folder's CSV files (docs/outputs.md).
    const capacity = COMPARE_CAPACITY_COLUMNS.map((path) => capacityValue(strategy.summary, path) ?? '');
    return [...COMPARE_COLUMNS.map((column) => row[column]), ...capacity].map((cell) => csvField(String(cell))).join(',');
  });
  return `${[[...COMPARE_COLUMNS, ...COMPARE_CAPACITY_COLUMNS].join(','), ...lines].join('\n')}\n`;
}

/**
 * The capacity figures of each strategy for the terminal, within 100 columns: the origin's
 * requests and bodies per second (mean and 1 s peak, the 60 s peak when the run measured a
 * minute), the busiest PoP against its uplink (spec 1.1) and the most requests a PoP finished
 * in a second. Every capacity column is in compare.csv.
 */
export function compareCapacityTable(document: CompareDocument, columns = DEFAULT_COLUMNS): string[] {
  const capacities = document.strategies.map((strategy) => strategy.summary.capacity);
  if (capacities.some((capacity) => capacity?.origin === undefined || capacity.pops === undefined)) return [];
  const minute = capacities.every((capacity) => capacity!.measuredSeconds >= 60);
  const rate = (perSecond: number): string => (perSecond >= 100 ? formatCount(perSecond) : perSecond.toFixed(1));
  const gbps = (value: number): string => (value >= 10 ? value.toFixed(1) : value.toPrecision(2));
  const uplinks = capacities.every((capacity) => capacity!.pops!.maxUplinkShare1s !== undefined);
  const header = ['strategy', 'origin req/s', 'peak 1 s', ...(minute ? ['peak 60 s'] : []), 'Gbit/s', 'peak 1 s', uplinks ? 'busiest PoP' : 'busiest edge', 'PoP req/s'];
  const rows = document.strategies.map((strategy, i) => {
    const { origin, pops } = capacities[i] as Required<Pick<NonNullable<Summary['capacity']>, 'origin' | 'pops'>>;
    const busiest = uplinks ? `${pops.maxUplinkShare1sPop} ${formatPercent(pops.maxUplinkShare1s!, 3)}` : `${pops.maxPeakGbps1sPop} ${gbps(pops.maxPeakGbps1s)} Gbit/s`;
    return [
      strategy.name,
      rate(origin.meanRequestsPerSecond),
      formatCount(origin.peakRequestsPerSecond1s),
      ...(minute ? [rate(origin.peakRequestsPerSecond60s)] : []),
      gbps(origin.meanGbps),
      gbps(origin.peakGbps1s),
      busiest,
      formatCount(pops.maxPeakRequestsPerSecond),
    ];
  });
  return [
    formatTableWithin(header, rows, columns),
    ...wrapLine('origin req/s, Gbit/s: every cause, the mean over the measured seconds and the busiest second;', columns),
    ...wrapLine(`${uplinks ? 'busiest PoP: its busiest second\'s egress against its uplink' : 'busiest edge: its busiest second\'s egress'}; all capacity figures: compare.csv.`, columns),
  ];
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
    const cell = (value: string | number, format: (n: number) => string): string => (value === '' ? '–' : format(Number(value)));
    return [
      strategy.name,
      cell(row.cdn_hit_ratio, (n) => formatPercent(n)),
      cell(row.cdn_byte_hit_ratio, (n) => formatPercent(n)),
      formatCount(Number(row.origin_requests)),
      cell(row.origin_offload, (n) => formatPercent(n)),
      formatBytes(Number(row.origin_bytes)),
      cell(row.origin_byte_offload, (n) => formatPercent(n)),
      cell(row.p50_ms, formatMs),
      cell(row.p95_ms, formatMs),
      cell(row.p99_ms, formatMs),
      cell(row.stale_share, (n) => formatPercent(n, 3)),
      cell(row.worst_staleness_s, (n) => `${n.toFixed(1)} s`),
      cell(row.availability, (n) => formatPercent(n, 3)),
    ];
  });
  const legend = document.strategies.map((strategy) => `  ${strategy.name}: ${strategy.description}`);
  const notes = [
    'origin req: every request the measured ones caused at the origin, background revalidations included; offload: 1 − origin req / requests (docs/origin-accounting.md).',
    'byte offload: 1 − origin body bytes / client bytes; negative when whole 5 MB chunks fetched for smaller ranges exceed what clients read (spec 4.8, docs/byte-figures.md).',
    'outdated: responses older than the origin\'s current version (worst: how long the newer one had existed); availability: during outages and error bursts, else the whole run.',
  ];
  const capacity = compareCapacityTable(document, columns);
  const wrap = (lines: readonly string[]) => lines.flatMap((line) => wrapLine(line, columns, '    '));
  return [
    ...wrapLine(heading, columns),
    '',
    formatTableWithin(header, rows, columns),
    '',
    ...(capacity.length > 0 ? [...capacity, ''] : []),
    ...wrap(legend),
    '',
    ...notes.flatMap((line) => wrapLine(line, columns)),
  ].join('\n');
}
