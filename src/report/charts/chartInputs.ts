import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATED_FIGURES, STATED_REGION_IDS } from '../../metrics/statedFigures.js';
import type { Bounds } from '../../metrics/statedVerdict.js';
import { expectSchema } from '../../scenario/expectSchema.js';
import { UserError } from '../../userError.js';
import { typedRows } from '../csvRead.js';
import type { Summary } from '../summary.js';

/**
 * What the charts are drawn from: only the files of a run, compare, sweep or replay folder
 * (so `cdnsim chart <folder>` redraws a saved result). Column names are the run-folder
 * contract's; a file that is absent leaves its field undefined and its charts are skipped.
 */

export interface StatedCsvRow {
  id: string;
  figure: string;
  stated: string;
  simulated: number | null;
  unit: string;
  verdict: string;
  note: string;
}

export interface TimeseriesRow {
  start_s: number;
  end_s: number;
  requests: number;
  requests_per_s: number;
  browser_hit_ratio: number | null;
  edge_hit_ratio: number | null;
  regional_hit_ratio: number | null;
  cdn_hit_ratio: number | null;
  origin_requests_per_s: number | null;
  origin_gbit_per_s: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  stale_served: number | null;
  errors_served: number | null;
}

export interface PopRow {
  pop: string;
  region: string;
  requests: number;
  hit_ratio: number | null;
  byte_hit_ratio: number | null;
  peak_egress_gbit_s_1s: number | null;
  peak_egress_gbit_s_60s: number | null;
  uplink_gbit_s: number | null;
  peak_requests_per_s: number | null;
  stored_bytes_end: number | null;
  stored_bytes_peak: number | null;
  capacity_bytes: number | null;
  latitude: number | null;
  longitude: number | null;
}

/** A row of curves.csv: a node's hit ratio at a grid capacity. */
export interface CurveRow {
  layer: string;
  node: string;
  capacityBytes: number;
  hitRatio: number;
  byteHitRatio: number;
}

export interface RegionRow {
  region: string;
  requests: number;
  mean_ms: number | null;
  p50_ms: number | null;
  p90_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  p999_ms: number | null;
  edge_hit_requests: number | null;
  edge_hit_mean_ms: number | null;
  edge_hit_p50_ms: number | null;
  edge_hit_p95_ms: number | null;
  stated_edge_hit_min_ms: number | null;
  stated_edge_hit_max_ms: number | null;
}

export interface LayerRow {
  layer: string;
  requests: number;
  share: number | null;
  hit_ratio: number | null;
  byte_hit_ratio: number | null;
  mean_ms: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

/** compare.json: every strategy's summary for one scenario and seed. */
export interface CompareFile {
  schemaVersion: number;
  scenario: string;
  seed: number;
  strategies: { name: string; summary: Summary }[];
}

export interface SweepFigure {
  mean: number;
  ci95Low: number;
  ci95High: number;
  n: number;
}

/** sweep.json: figures (dotted paths into summary.json) at each point of a parameter grid. */
export interface SweepFile {
  schemaVersion: number;
  scenario: string;
  params: { path: string; values: (string | number)[] }[];
  replicates: number;
  points: { values: Record<string, string | number>; figures: Record<string, SweepFigure> }[];
}

/** replay.json: `cdnsim replay`'s rows, one per (policy × cache size × TTL). */
export interface ReplayRow {
  policy: string;
  cacheSize: number;
  countMode: boolean;
  ttlSeconds: number | null;
  missRatio: number;
  byteMissRatio: number;
}

export type FolderKind = 'run' | 'compare' | 'sweep' | 'replay';

export interface ChartInputs {
  folder: string;
  kind: FolderKind;
  /** The folder's name for titles: the scenario (or trace) and the run id. */
  title: string;
  summary?: Summary;
  /** scenario.json as written by the run (the scenario as it ran). */
  scenario?: Record<string, unknown>;
  stated?: StatedCsvRow[];
  /** Per stated-figure id: the bounds the run was held to (the stated ones, or the scenario's expect). */
  statedBounds: Record<string, Bounds>;
  timeseries?: TimeseriesRow[];
  pops?: PopRow[];
  regions?: RegionRow[];
  layers?: LayerRow[];
  /** curves.csv (run.curves, docs/curves.md). */
  curves?: CurveRow[];
  compare?: CompareFile;
  sweep?: SweepFile;
  replay?: ReplayRow[];
}

const STATED_COLUMNS = { text: ['id', 'figure', 'stated', 'unit', 'verdict', 'note'], numbers: ['simulated'] } as const;
const TIMESERIES_COLUMNS = {
  text: [],
  numbers: [
    'start_s', 'end_s', 'requests', 'requests_per_s', 'browser_hit_ratio', 'edge_hit_ratio', 'regional_hit_ratio', 'cdn_hit_ratio',
    'origin_requests_per_s', 'origin_gbit_per_s', 'p50_ms', 'p95_ms', 'p99_ms', 'stale_served', 'errors_served',
  ],
} as const;
export const POP_COLUMNS = {
  text: ['pop', 'region'],
  numbers: [
    'requests', 'hit_ratio', 'byte_hit_ratio', 'peak_egress_gbit_s_1s', 'peak_egress_gbit_s_60s', 'uplink_gbit_s', 'peak_requests_per_s',
    'stored_bytes_end', 'stored_bytes_peak', 'capacity_bytes', 'latitude', 'longitude',
  ],
} as const;
const REGION_COLUMNS = {
  text: ['region'],
  numbers: [
    'requests', 'mean_ms', 'p50_ms', 'p90_ms', 'p95_ms', 'p99_ms', 'p999_ms', 'edge_hit_requests', 'edge_hit_mean_ms', 'edge_hit_p50_ms',
    'edge_hit_p95_ms', 'stated_edge_hit_min_ms', 'stated_edge_hit_max_ms',
  ],
} as const;
const CURVE_COLUMNS = { text: ['layer', 'node'], numbers: ['capacityBytes', 'hitRatio', 'byteHitRatio'] } as const;
const LAYER_COLUMNS = { text: ['layer'], numbers: ['requests', 'share', 'hit_ratio', 'byte_hit_ratio', 'mean_ms', 'p50_ms', 'p95_ms', 'p99_ms'] } as const;

/** The result files a folder may hold, by kind; the first one present decides the kind. */
export const RESULT_FILES: Record<FolderKind, string> = { run: 'summary.json', compare: 'compare.json', sweep: 'sweep.json', replay: 'replay.json' };

function readJson(path: string, shape: (value: unknown) => string | null): unknown {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError(`${path}: not valid JSON (${(error as Error).message}); redo the run or restore the file`);
  }
  const problem = shape(value);
  if (problem !== null) throw new UserError(`${path}: ${problem}`);
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const expectKeys = (keys: readonly string[]) => (value: unknown): string | null => {
  if (!isObject(value)) return 'expected a JSON object';
  const missing = keys.filter((key) => !(key in value));
  return missing.length === 0 ? null : `expected the key(s) ${missing.join(', ')}; is it a file cdnsim wrote?`;
};

function readCsv<T>(folder: string, name: string, columns: { text: readonly string[]; numbers: readonly string[] }): T[] | undefined {
  const path = join(folder, name);
  return existsSync(path) ? typedRows<T>(readFileSync(path, 'utf8'), path, columns) : undefined;
}

/** The bounds a run was held to: the scenario's `expect` for a row where it has one, else the stated bounds (spec 1.1, 4.8, 4.9, 7.1, 8). */
export function statedBoundsOf(scenario: Record<string, unknown> | undefined): Record<string, Bounds> {
  const bounds: Record<string, Bounds> = Object.fromEntries(STATED_FIGURES.map((figure) => [figure.id, figure.bounds]));
  const parsed = expectSchema.safeParse(scenario?.expect ?? {});
  return parsed.success ? { ...bounds, ...parsed.data } : bounds;
}

/**
 * Reads what a folder holds for the charts. A folder holding none of summary.json,
 * compare.json, sweep.json or replay.json is a user mistake (exit 2).
 */
export function readChartInputs(folder: string): ChartInputs {
  if (!existsSync(folder)) throw new UserError(`${folder}: no such folder; name a run folder such as results/baseline/<run-id>`);
  const kind = (Object.keys(RESULT_FILES) as FolderKind[]).find((candidate) => existsSync(join(folder, RESULT_FILES[candidate])));
  if (kind === undefined) {
    throw new UserError(
      `${folder}: not a run, compare, sweep or replay folder: it holds none of ${Object.values(RESULT_FILES).join(', ')}. ` +
        'Name a folder that cdnsim run (results/<scenario>/<run-id>), compare or sweep wrote',
    );
  }
  const scenarioPath = join(folder, 'scenario.json');
  const scenario = existsSync(scenarioPath) ? (readJson(scenarioPath, (value) => (isObject(value) ? null : 'expected a JSON object')) as Record<string, unknown>) : undefined;
  const inputs: ChartInputs = { folder, kind, title: folderTitle(folder), scenario, statedBounds: statedBoundsOf(scenario) };
  const file = join(folder, RESULT_FILES[kind]);
  if (kind === 'run') {
    inputs.summary = readJson(file, expectKeys(['scenario', 'seed', 'hitRatio', 'latencyMs', 'incidents'])) as Summary;
    inputs.stated = readCsv<StatedCsvRow>(folder, 'stated.csv', STATED_COLUMNS);
    inputs.timeseries = readCsv<TimeseriesRow>(folder, 'timeseries.csv', TIMESERIES_COLUMNS);
    inputs.pops = readCsv<PopRow>(folder, 'pops.csv', POP_COLUMNS);
    inputs.regions = readCsv<RegionRow>(folder, 'regions.csv', REGION_COLUMNS);
    inputs.layers = readCsv<LayerRow>(folder, 'layers.csv', LAYER_COLUMNS);
    inputs.curves = readCsv<CurveRow>(folder, 'curves.csv', CURVE_COLUMNS);
  } else if (kind === 'compare') {
    inputs.compare = readJson(file, expectKeys(['scenario', 'seed', 'strategies'])) as CompareFile;
  } else if (kind === 'sweep') {
    inputs.sweep = readJson(file, expectKeys(['scenario', 'params', 'points'])) as SweepFile;
  } else {
    inputs.replay = readJson(file, (value) => (Array.isArray(value) ? null : 'expected a JSON array of replay rows')) as ReplayRow[];
  }
  return inputs;
}

/** `baseline · 20261125-120000-seed1`: the last two parts of the folder's path. */
function folderTitle(folder: string): string {
  const parts = folder.replace(/[\\/]+$/, '').split(/[\\/]/).filter(Boolean);
  return parts.slice(-2).join(' · ');
}

/**
 * regions.csv's rows from summary.json, for a run folder written before regions.csv existed:
 * the same figures (latencyMs.byRegion, and byRegionAndLayer's edge rows for edge hits).
 */
export function regionRowsFromSummary(summary: Summary, bounds: Readonly<Record<string, Bounds>>): RegionRow[] {
  return Object.entries(summary.latencyMs.byRegion).map(([region, all]) => {
    const edge = summary.latencyMs.byRegionAndLayer[region]?.edge;
    const statedId = (STATED_REGION_IDS as Record<string, string>)[region];
    const stated = statedId === undefined ? undefined : bounds[statedId];
    return {
      region,
      requests: all.count,
      mean_ms: all.mean,
      p50_ms: all.p50,
      p90_ms: all.p90,
      p95_ms: all.p95,
      p99_ms: all.p99,
      p999_ms: all.p999,
      edge_hit_requests: edge?.count ?? null,
      edge_hit_mean_ms: edge?.mean ?? null,
      edge_hit_p50_ms: edge?.p50 ?? null,
      edge_hit_p95_ms: edge?.p95 ?? null,
      stated_edge_hit_min_ms: stated?.min ?? null,
      stated_edge_hit_max_ms: stated?.max ?? null,
    };
  });
}
