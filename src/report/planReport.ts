import type { NodeCurve } from '../cache/hitRatioCurves.js';
import { hitRatioAt, type LayerPlan, type StoragePoint, type StorageTotals } from '../experiment/capacityPlan.js';
import { formatBytes } from '../units.js';
import { formatCount, formatPercent, formatTable } from './consoleTable.js';
import { csvText, type CsvCell } from './csvTable.js';
import { roundTo } from './rounding.js';
import type { NodeFiguresRow } from './summary.js';

/**
 * `cdnsim plan`'s results (docs/plan.md): the plan of each layer held against its
 * confirmation run, as plan.json (`--json`), plan.csv and the terminal's text.
 */

/** One PoP or regional site: its plan, and what the confirmation run found. */
export interface PlanRow {
  layer: 'edge' | 'regional';
  code: string;
  /** The city of the PoP or site ('' where the topology names none). */
  name: string;
  region: string;
  /** Measured requests at the node in the run the plan was read from. */
  requests: number;
  maxHitRatio: number;
  status: 'met' | 'unreachable' | 'idle';
  plannedCapacityBytes: number;
  uniformCapacityBytes: number | null;
  predictedHitRatio: number;
  /** The node's hit ratio in the confirmation run (summary.json edges[] / regionals[]). */
  confirmedHitRatio: number;
  /** The confirmation run's own curve at the planned capacity: what its lookups would give a pure LRU. */
  confirmationCurveHitRatio: number;
  /** Confirmation requests at the node: 0 leaves it out of targetMetShare. */
  confirmedRequests: number;
  met: boolean;
  /** Why the target was missed; '' when met. */
  reason: string;
  /** Peak egress over 1 s against the uplink in the confirmation run (model pops, edges). */
  uplinkShare1s: number | null;
}

export interface LayerResult {
  target: number;
  uniformCapacityBytes: number | null;
  byRegion: StorageTotals[];
  total: StorageTotals;
  /** total.uniformBytes − total.plannedBytes, and its share of the uniform total. */
  savingBytes: number;
  savingShare: number;
  /** The layer's hit ratio per lookup on the curves with the plan and with one size, and in the confirmation run. */
  layerHitRatio: { planned: number; uniform: number | null; confirmed: number };
  /** Share of nodes with confirmation traffic that met the target. */
  targetMetShare: number;
  nodesWithTraffic: number;
  nodesMet: number;
  unreachable: number;
  /** The highest maximum over nodes with traffic. */
  highestMaxHitRatio: number;
}

/** plan.json (`cdnsim plan --json`). */
export interface PlanDocument {
  scenario: string;
  seed: number;
  /** Share of PoPs with traffic that met the edge target in the confirmation run. */
  targetMetShare: number;
  edge: LayerResult;
  regional?: LayerResult;
  maxUplinkShare: number;
  /** PoPs whose 1 s peak egress was above maxUplinkShare of their uplink in the confirmation run. */
  overUplink: { code: string; region: string; uplinkShare1s: number }[];
  /** What each run was: the one curves were read from, and the confirmation. */
  runs: { name: string; purpose: string; measuredRequests: number; warmupRequests: number; wallSeconds: number }[];
  /** The edge layer's total storage against the target, both ways (chart plan-storage). */
  storageByTarget: StoragePoint[];
  nodes: PlanRow[];
}

const byName = (rows: readonly NodeFiguresRow[]) => new Map(rows.map((row) => [row.name, row]));

/**
 * The plan's rows for one layer, held against the confirmation run's summary rows and curves.
 * A node misses when its confirmed hit ratio is below the target; the reason is what the runs
 * tell apart: a target above its maximum; lookups that changed (the confirmation's curve is
 * below the target at the planned size: a regional site's input changes with its PoPs'
 * sizes); or lookups the LRU held but the run counted as misses (a fetch in flight, an
 * expired copy: the curve above the run, docs/curves.md).
 */
export function confirmLayer(
  layer: 'edge' | 'regional',
  plan: LayerPlan,
  planRun: readonly NodeFiguresRow[],
  confirmation: readonly NodeFiguresRow[],
  confirmationCurves: readonly NodeCurve[],
  cityOf: (code: string) => string,
): PlanRow[] {
  const before = byName(planRun);
  const after = byName(confirmation);
  const curves = new Map(confirmationCurves.filter((curve) => curve.layer === layer).map((curve) => [curve.node, curve.histogram]));
  return plan.nodes.map((node) => {
    const confirmed = after.get(node.code);
    const histogram = curves.get(node.code);
    const confirmedHitRatio = confirmed?.hitRatio ?? 0;
    const curveAt = histogram === undefined ? 0 : ((part) => (part.lookups === 0 ? 0 : part.hits / part.lookups))(hitRatioAt(histogram, node.capacityBytes));
    const met = confirmedHitRatio >= plan.target;
    const reason = met
      ? ''
      : node.status === 'unreachable'
        ? `target above its maximum ${formatPercent(node.maxHitRatio, 1)} (first requests never hit)`
        : (confirmed?.requests ?? 0) === 0
          ? 'no requests'
          : curveAt < plan.target
            ? layer === 'regional'
              ? `its input changed with the PoPs' sizes: this run's curve gives ${formatPercent(curveAt, 1)} at this size`
              : // Both runs' measured requests are the same only after a warm-up of the same length (the steady rule may stop at another block), and a stationary start draws each cache's state anew at its planned size.
                `its requests or starting state changed: this run's curve gives ${formatPercent(curveAt, 1)} at this size`
            : `misses the curve counts as hits (waiting for a fetch in flight, or an expired copy): curve ${formatPercent(curveAt, 2)}, run ${formatPercent(confirmedHitRatio, 2)}`;
    const uplink = confirmed?.uplinkGbitPerSecond;
    const peak = confirmed?.peakEgressGbitPerSecond1s;
    return {
      layer,
      code: node.code,
      name: cityOf(node.code),
      region: node.region ?? '',
      requests: before.get(node.code)?.requests ?? 0,
      maxHitRatio: node.maxHitRatio,
      status: node.status,
      plannedCapacityBytes: node.capacityBytes,
      uniformCapacityBytes: plan.uniformCapacityBytes,
      predictedHitRatio: node.predictedHitRatio,
      confirmedHitRatio,
      confirmationCurveHitRatio: curveAt,
      confirmedRequests: confirmed?.requests ?? 0,
      met,
      reason,
      uplinkShare1s: uplink === undefined || peak === undefined || uplink === 0 ? null : peak / uplink,
    };
  });
}

/** The layer's figures: storage both ways, the saving, the curves' and the confirmation's hit ratios, the targets met. */
export function layerResult(plan: LayerPlan, rows: readonly PlanRow[], confirmedLayerHitRatio: number): LayerResult {
  const withTraffic = rows.filter((row) => row.confirmedRequests > 0);
  const met = withTraffic.filter((row) => row.met).length;
  const saving = plan.total.uniformBytes - plan.total.plannedBytes;
  return {
    target: plan.target,
    uniformCapacityBytes: plan.uniformCapacityBytes,
    byRegion: plan.byRegion,
    total: plan.total,
    savingBytes: saving,
    savingShare: plan.total.uniformBytes === 0 ? 0 : saving / plan.total.uniformBytes,
    layerHitRatio: { planned: plan.layerHitRatio.planned, uniform: plan.layerHitRatio.uniform, confirmed: confirmedLayerHitRatio },
    targetMetShare: withTraffic.length === 0 ? 0 : met / withTraffic.length,
    nodesWithTraffic: withTraffic.length,
    nodesMet: met,
    unreachable: rows.filter((row) => row.status === 'unreachable').length,
    highestMaxHitRatio: rows.reduce((best, row) => (row.status === 'idle' ? best : Math.max(best, row.maxHitRatio)), 0),
  };
}

export const PLAN_COLUMNS = [
  'layer', 'code', 'name', 'region', 'requests', 'maxHitRatio', 'plannedCapacityBytes', 'uniformCapacityBytes', 'predictedHitRatio', 'confirmedHitRatio', 'met', 'uplinkShare1s', 'status', 'reason',
] as const;

/** plan.csv: one row per PoP, then per regional site, in summary.json's order. */
export function planCsv(rows: readonly PlanRow[]): string {
  const cells: CsvCell[][] = rows.map((row) => [
    row.layer,
    row.code,
    row.name,
    row.region,
    row.requests,
    roundTo(row.maxHitRatio, 6),
    row.plannedCapacityBytes,
    row.uniformCapacityBytes,
    roundTo(row.predictedHitRatio, 6),
    roundTo(row.confirmedHitRatio, 6),
    row.met ? 1 : 0,
    row.uplinkShare1s === null ? null : roundTo(row.uplinkShare1s, 6),
    row.status,
    row.reason,
  ]);
  return csvText(PLAN_COLUMNS, cells);
}

const WIDTH = 100;

/** Words folded to lines of at most `width` characters, each after `indent`. */
export function fold(text: string, width = WIDTH, indent = ''): string[] {
  const lines: string[] = [];
  const lead = /^ */.exec(text)![0];
  let line = lead;
  // A figure and its unit stay together: "80.0 %" is one word.
  for (const word of text.slice(lead.length).split(/ (?!%)/)) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() === '' ? line + word : `${line} ${word}`;
  }
  if (line.trim() !== '') lines.push(line);
  return lines;
}

function layerLines(name: string, nodeWord: string, result: LayerResult, rows: readonly PlanRow[]): string[] {
  const lines: string[] = [];
  const uniform = result.uniformCapacityBytes === null ? '–' : formatBytes(result.uniformCapacityBytes);
  lines.push(
    ...fold(
      `${name}: ${formatBytes(result.total.plannedBytes)} sized per ${nodeWord} against ${formatBytes(result.total.uniformBytes)} at one size for all (${uniform} each): ` +
        `saves ${formatBytes(result.savingBytes)} (${formatPercent(result.savingShare, 1)}). Confirmation run: target ${formatPercent(result.target, 1)} met at ` +
        `${result.nodesMet} of ${result.nodesWithTraffic} ${nodeWord}s with traffic (${formatPercent(result.targetMetShare, 1)}); layer hit ratio ${formatPercent(result.layerHitRatio.confirmed, 2)} ` +
        `(curves: ${formatPercent(result.layerHitRatio.planned, 2)} planned, ${result.layerHitRatio.uniform === null ? '–' : formatPercent(result.layerHitRatio.uniform, 2)} at one size).`,
    ),
  );
  lines.push('');
  const table = formatTable(
    ['region', `${nodeWord}s`, 'per node', 'one size', 'saving', 'smallest', 'largest'],
    [...result.byRegion, result.total].map((totals) => {
      const of = rows.filter((row) => totals.region === 'all' || row.region === totals.region);
      const sizes = of.map((row) => row.plannedCapacityBytes);
      return [
        totals.region === '' ? '(none)' : totals.region,
        String(totals.nodes),
        formatBytes(totals.plannedBytes),
        formatBytes(totals.uniformBytes),
        formatBytes(totals.uniformBytes - totals.plannedBytes),
        sizes.length === 0 ? '–' : formatBytes(Math.min(...sizes)),
        sizes.length === 0 ? '–' : formatBytes(Math.max(...sizes)),
      ];
    }),
  );
  lines.push(...table.split('\n').map((line) => `  ${line}`));
  // Closest to the target first: those a longer run would bring within reach.
  const unreachable = rows.filter((row) => row.status === 'unreachable').sort((a, b) => b.maxHitRatio - a.maxHitRatio || a.code.localeCompare(b.code));
  if (unreachable.length > 0) {
    const listed = unreachable
      .slice(0, 6)
      .map((row) => `${row.code} ${formatPercent(row.maxHitRatio, 1)}`)
      .join(', ');
    lines.push('', ...fold(`${unreachable.length} ${nodeWord}s cannot reach ${formatPercent(result.target, 1)} at any size (their maximum: ${listed}${unreachable.length > 6 ? ', …' : ''}); each is sized where its curve turns flat (more storage would not help).`));
  }
  const missed = rows.filter((row) => !row.met && row.confirmedRequests > 0 && row.status !== 'unreachable');
  if (missed.length > 0) {
    lines.push('', `Missed in the confirmation run (${missed.length}; predicted → confirmed, why):`);
    for (const row of missed.slice(0, 8)) {
      lines.push(...fold(`  ${row.code} ${formatBytes(row.plannedCapacityBytes)}: ${formatPercent(row.predictedHitRatio, 2)} → ${formatPercent(row.confirmedHitRatio, 2)}, ${row.reason}`, WIDTH, '      '));
    }
    if (missed.length > 8) lines.push(`  … ${missed.length - 8} more in plan.csv`);
  }
  return lines;
}

/** The terminal's report: the answer first (storage both ways, the saving, the targets met), in 100 columns. */
export function planText(document: PlanDocument): string {
  const lines: string[] = [];
  const { edge } = document;
  lines.push(
    ...fold(
      `Plan for ${document.scenario} (seed ${document.seed}): a ${formatPercent(edge.target, 1)} edge hit ratio at every PoP takes ${formatBytes(edge.total.plannedBytes)} ` +
        `of storage sized per PoP, against ${formatBytes(edge.total.uniformBytes)} at one size for all; per-PoP sizing saves ${formatBytes(edge.savingBytes)} ` +
        `(${formatPercent(edge.savingShare, 1)}). Target met at ${formatPercent(document.targetMetShare, 1)} of the PoPs with traffic in the confirmation run.`,
    ),
    '',
  );
  lines.push(...layerLines('Edge', 'PoP', edge, document.nodes.filter((row) => row.layer === 'edge')));
  if (document.regional) {
    lines.push('', ...layerLines('Regional tier', 'site', document.regional, document.nodes.filter((row) => row.layer === 'regional')));
  }
  lines.push('');
  if (document.overUplink.length === 0) lines.push(`No PoP's 1 s peak egress was above ${formatPercent(document.maxUplinkShare, 0)} of its uplink.`);
  else {
    const listed = document.overUplink
      .slice(0, 8)
      .map((pop) => `${pop.code} ${formatPercent(pop.uplinkShare1s, 0)}`)
      .join(', ');
    lines.push(...fold(`${document.overUplink.length} PoPs peaked above ${formatPercent(document.maxUplinkShare, 0)} of their uplink over 1 s: ${listed}${document.overUplink.length > 8 ? ', …' : ''}.`));
  }
  lines.push('', 'Runs:');
  for (const run of document.runs) {
    lines.push(...fold(`  ${run.name}: ${run.purpose}; ${formatCount(run.measuredRequests)} requests measured after ${formatCount(run.warmupRequests)} warming, ${run.wallSeconds.toFixed(1)} s wall`, WIDTH, '    '));
  }
  return lines.join('\n');
}

/** The layer's hit ratio per lookup in a run: its nodes' hits over their requests. */
export function layerHitRatio(rows: readonly NodeFiguresRow[]): number {
  let requests = 0;
  let hits = 0;
  for (const row of rows) {
    requests += row.requests;
    hits += row.hitRatio * row.requests;
  }
  return requests === 0 ? 0 : hits / requests;
}

/** The PoPs above the uplink bound in the confirmation run, highest first. */
export function overUplink(rows: readonly PlanRow[], bound: number): PlanDocument['overUplink'] {
  return rows
    .filter((row) => row.layer === 'edge' && row.uplinkShare1s !== null && row.uplinkShare1s > bound)
    .sort((a, b) => b.uplinkShare1s! - a.uplinkShare1s! || a.code.localeCompare(b.code))
    .map((row) => ({ code: row.code, region: row.region, uplinkShare1s: roundTo(row.uplinkShare1s!, 6) }));
}

