import { formatSimTime } from '../../workload/incidents/simTime.js';
import type { IncidentRow } from '../summary.js';
import { CHART_WIDTH, COLOURS } from './theme.js';
import type { TimeUnit } from './warmupAxis.js';

/** Where the labels go: the time axis's unit and domain (in that unit) and the plot's width in pixels. */
export interface IncidentAxis {
  unit: TimeUnit;
  domain: readonly [number, number];
  widthPx?: number;
  /** false: bands only (the second panel of a chart whose first already names them). */
  labels?: boolean;
}

const LABEL_FONT_SIZE = 12;
/** DejaVu Sans at 12 px averages about 7 px a character; a label is given a little more, so rows never touch. */
const LABEL_PX_PER_CHAR = 7.4;
const LABEL_ROW_PX = 16;
const SECONDS: IncidentAxis = { unit: { name: 's', seconds: 1 }, domain: [0, 0] };

/**
 * The incident and deploy windows of a run (summary.json "incidents") as shaded bands over a
 * time axis, labelled with their kind, for the time-series charts. A repeated entry's
 * occurrences are all shaded, but only the first is labelled, with the interval ("release,
 * every 30m"): 48 labels side by side would be unreadable; the tooltip names each. Labels that
 * would overlap on the axis go on rows below each other. Returns no layers for a run without
 * incidents.
 */
export function incidentLayers(incidents: readonly IncidentRow[], axis: IncidentAxis = SECONDS): Record<string, unknown>[] {
  if (incidents.length === 0) return [];
  const { unit } = axis;
  const values = incidents.map((incident) => ({
    kind: incident.kind,
    label: incident.name ?? incident.kind,
    from: incident.fromSeconds / unit.seconds,
    to: incident.toSeconds / unit.seconds,
    detail: incident.label,
  }));
  const labels = incidents.flatMap((incident, i) => {
    if (incident.occurrence === undefined) return [values[i]];
    if (incident.occurrence !== 1) return [];
    const next = incidents.find((other) => other.entry === incident.entry && other.occurrence === 2);
    const base = (incident.name ?? incident.kind).replace(/ #1$/, '');
    return [{ ...values[i], label: next === undefined ? base : `${base}, every ${formatSimTime(Math.round((next.fromSeconds - incident.fromSeconds) * 1000))}` }];
  });
  const rows = labelRows(labels, axis);
  const placed = labels.map((label, i) => ({ ...label, row: rows[i] }));
  const tooltip = [{ field: 'kind' }, { field: 'from', title: `from (${unit.name})` }, { field: 'to', title: `to (${unit.name})` }, { field: 'detail' }];
  // clip: a window in the warm-up lies before the time axis, which starts where measuring began (warmupAxis.ts).
  const bands = { data: { values }, mark: { type: 'rect', color: COLOURS.incident, opacity: 0.18, clip: true }, encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' }, tooltip } };
  if (axis.labels === false) return [bands];
  const label = (mark: Record<string, unknown>) => ({
    data: { values: placed },
    transform: [{ calculate: `datum.row * ${LABEL_ROW_PX}`, as: 'rowPx' }],
    mark: { type: 'text', align: 'left', baseline: 'top', dx: 3, dy: 3, fontSize: LABEL_FONT_SIZE, clip: true, ...mark },
    encoding: { x: { field: 'from', type: 'quantitative' }, y: { field: 'rowPx', type: 'quantitative', scale: null }, text: { field: 'label' } },
  });
  // A white outline under each label keeps it readable over a line or an area.
  return [bands, label({ color: '#ffffff', stroke: '#ffffff', strokeWidth: 3, strokeJoin: 'round' }), label({ color: '#7a3b63' })];
}

/**
 * A row for each label, in order of start: the first row where the label's left edge is past
 * the right edge of the last label placed on it. Without an axis domain every label is on row 0.
 */
export function labelRows(labels: readonly { from: number; label: string }[], axis: IncidentAxis): number[] {
  const span = axis.domain[1] - axis.domain[0];
  if (!(span > 0)) return labels.map(() => 0);
  const pxPerUnit = (axis.widthPx ?? CHART_WIDTH) / span;
  const rowEnds: number[] = [];
  const rows = new Array<number>(labels.length).fill(0);
  const order = labels.map((_, i) => i).sort((a, b) => labels[a].from - labels[b].from);
  for (const i of order) {
    const left = Math.max(0, (labels[i].from - axis.domain[0]) * pxPerUnit);
    const right = left + 3 + labels[i].label.length * LABEL_PX_PER_CHAR;
    let row = rowEnds.findIndex((end) => end <= left);
    if (row < 0) row = rowEnds.length;
    rowEnds[row] = right;
    rows[i] = row;
  }
  return rows;
}
