import type { TimelineFigures } from '../metrics/runTimeline.js';
import type { AdaptiveFigures } from '../cdn/adaptiveController.js';
import { adaptiveCsv } from './adaptiveReport.js';
import { REGIONS, STATED_REGION_LATENCY_MS } from '../topology/regions.js';
import { csvText, type CsvCell } from './csvTable.js';
import type { LatencyFigures, Summary } from './summary.js';
import { roundTo } from './rounding.js';

/**
 * The run folder's CSV files beside summary.json (docs/outputs.md describes every column):
 * timeseries.csv, pops.csv, regions.csv, layers.csv and classes.csv. Numbers are plain:
 * ratios 0..1, ms, seconds, bytes, Gbit/s; an empty cell means "not applicable".
 */

export interface CsvFile {
  name: string;
  text: string;
}

export const TIMESERIES_COLUMNS = [
  'start_s', 'end_s', 'requests', 'requests_per_s', 'browser_hit_ratio', 'edge_hit_ratio', 'regional_hit_ratio', 'cdn_hit_ratio',
  'origin_requests_per_s', 'origin_gbit_per_s', 'p50_ms', 'p95_ms', 'p99_ms', 'stale_served', 'errors_served',
] as const;
export const POPS_COLUMNS = [
  'pop', 'region', 'requests', 'hit_ratio', 'byte_hit_ratio', 'peak_egress_gbit_s_1s', 'peak_egress_gbit_s_60s', 'uplink_gbit_s',
  'peak_requests_per_s', 'stored_bytes_end', 'stored_bytes_peak', 'capacity_bytes', 'latitude', 'longitude',
] as const;
export const REGIONS_COLUMNS = [
  'region', 'requests', 'mean_ms', 'p50_ms', 'p90_ms', 'p95_ms', 'p99_ms', 'p999_ms',
  'edge_hit_requests', 'edge_hit_mean_ms', 'edge_hit_p50_ms', 'edge_hit_p95_ms', 'stated_edge_hit_min_ms', 'stated_edge_hit_max_ms',
] as const;
export const LAYERS_COLUMNS = [
  'layer', 'requests', 'share', 'hit_ratio', 'byte_hit_ratio', 'mean_ms', 'p50_ms', 'p95_ms', 'p99_ms', 'bytes_served', 'bytes_fetched', 'lookups', 'lookup_hit_ratio', 'lookup_byte_hit_ratio',
] as const;
export const CLASSES_COLUMNS = ['class', 'requests', 'browser_hit_ratio', 'edge_hit_ratio', 'cdn_hit_ratio', 'objects', 'catalogue_bytes', 'new_objects', 'one_hit_wonders', 'updates'] as const;

const round = (value: number | null | undefined, digits: number): number | null => {
  if (value === null || value === undefined) return null;
  return roundTo(value, digits);
};
const ratioCell = (value: number | null | undefined): number | null => round(value, 6);
const msCell = (value: number | null | undefined): number | null => round(value, 3);

/** Every CSV of the run folder but stated.csv (statedTable.ts), in a fixed order. */
export function runCsvFiles(summary: Summary, timeline: TimelineFigures | undefined, adaptive?: AdaptiveFigures): CsvFile[] {
  return [
    ...(timeline ? [{ name: 'timeseries.csv', text: timeSeriesCsv(timeline) }] : []),
    { name: 'pops.csv', text: popsCsv(summary) },
    { name: 'regions.csv', text: regionsCsv(summary) },
    { name: 'layers.csv', text: layersCsv(summary) },
    { name: 'classes.csv', text: classesCsv(summary) },
    ...(adaptive ? [{ name: 'adaptive.csv', text: adaptiveCsv(adaptive) }] : []),
  ];
}

export function timeSeriesCsv(timeline: TimelineFigures): string {
  return csvText(
    TIMESERIES_COLUMNS,
    timeline.rows.map((row) => [
      round(row.startSeconds, 6),
      round(row.endSeconds, 6),
      row.requests,
      round(row.requestsPerSecond, 3),
      ratioCell(row.browserHitRatio),
      ratioCell(row.edgeHitRatio),
      ratioCell(row.regionalHitRatio),
      ratioCell(row.cdnHitRatio),
      round(row.originRequestsPerSecond, 3),
      round(row.originGbitPerSecond, 6),
      msCell(row.p50Ms),
      msCell(row.p95Ms),
      msCell(row.p99Ms),
      row.staleServed,
      row.errorsServed,
    ]),
  );
}

/** One row per edge cache: its traffic, its peaks against its uplink, what it stores. */
export function popsCsv(summary: Summary): string {
  const capacityBytes = summary.capacity?.edgeCapacityBytes ?? null;
  return csvText(
    POPS_COLUMNS,
    summary.edges.map((edge) => [
      edge.name,
      edge.region ?? null,
      edge.requests,
      edge.hitRatio,
      edge.byteHitRatio,
      edge.peakEgressGbitPerSecond1s ?? null,
      edge.peakEgressGbitPerSecond60s ?? null,
      edge.uplinkGbitPerSecond ?? null,
      edge.peakRequestsPerSecond ?? null,
      edge.storedBytes,
      edge.storedBytesPeak ?? null,
      edge.capacityBytes ?? capacityBytes,
      edge.latitude ?? null,
      edge.longitude ?? null,
    ]),
  );
}

/** One row per client region: time to first byte of all its requests, and of its edge hits against the stated average (spec 1.1). */
export function regionsCsv(summary: Summary): string {
  const latency = (figures: LatencyFigures | undefined, keys: readonly (keyof LatencyFigures)[]): CsvCell[] =>
    keys.map((key) => (figures === undefined || figures.count === 0 ? null : msCell(figures[key])));
  return csvText(
    REGIONS_COLUMNS,
    REGIONS.map((region) => {
      const all = summary.latencyMs.byRegion[region];
      const edge = summary.latencyMs.byRegionAndLayer[region]?.edge;
      const [low, high] = STATED_REGION_LATENCY_MS[region];
      return [
        region,
        all?.count ?? 0,
        ...latency(all, ['mean', 'p50', 'p90', 'p95', 'p99', 'p999']),
        edge?.count ?? 0,
        ...latency(edge, ['mean', 'p50', 'p95']),
        low,
        high,
      ];
    }),
  );
}

/**
 * One row per serving layer in request order: every measured request is in exactly one.
 * bytes_served: client bytes the layer served, per chunk (spec 4.8; the rows add up to the
 * bytes clients asked for); bytes_fetched: body bytes its nodes received from the next layer
 * (empty for the browser and the origin).
 */
export function layersCsv(summary: Summary): string {
  return csvText(
    LAYERS_COLUMNS,
    Object.entries(summary.requestsByLayer).map(([layer, requests]) => {
      const latency = summary.latencyMs.byLayer[layer];
      const served = requests > 0;
      return [
        layer,
        requests,
        ratioCell(summary.requests === 0 ? null : requests / summary.requests),
        summary.hitRatio[layer] ?? null,
        summary.byteHitRatio[layer] ?? null,
        served ? msCell(latency.mean) : null,
        served ? msCell(latency.p50) : null,
        served ? msCell(latency.p95) : null,
        served ? msCell(latency.p99) : null,
        summary.bytesByLayer[layer] ?? null,
        summary.cdn.layers[layer]?.fetchedBytes ?? null,
        // The layer's own lookups (edge and regional only): a request coalesced at a PoP is no lookup at the regional site.
        summary.cdn.layers[layer]?.lookups ?? null,
        summary.lookupHitRatio[layer] ?? null,
        summary.lookupByteHitRatio[layer] ?? null,
      ];
    }),
  );
}

/** One row per content class (one, `objects`, without content.classes). */
export function classesCsv(summary: Summary): string {
  return csvText(
    CLASSES_COLUMNS,
    summary.contentClasses.map((klass) => [
      klass.name,
      klass.requests,
      klass.browserHitRatio ?? null,
      klass.edgeHitRatio,
      klass.cdnHitRatio,
      klass.objects,
      klass.catalogueBytes,
      klass.newObjects,
      klass.oneHitWonders,
      klass.updates,
    ]),
  );
}
