import { formatSimTime } from '../../workload/incidents/simTime.js';
import type { IncidentRow } from '../summary.js';
import { COLOURS } from './theme.js';

/**
 * The incident and deploy windows of a run (summary.json "incidents") as shaded bands over a
 * time axis in simulated seconds, labelled with their kind, for the time-series charts.
 * A repeated entry's occurrences are all shaded, but only the first is labelled, with the
 * interval ("release, every 30m"): 48 labels side by side would be unreadable; the tooltip
 * names each. Returns no layers for a run without incidents.
 */
export function incidentLayers(incidents: readonly IncidentRow[]): Record<string, unknown>[] {
  if (incidents.length === 0) return [];
  const values = incidents.map((incident) => ({ kind: incident.kind, label: incident.name ?? incident.kind, from: incident.fromSeconds, to: incident.toSeconds, detail: incident.label }));
  const labels = incidents.flatMap((incident, i) => {
    if (incident.occurrence === undefined) return [values[i]];
    if (incident.occurrence !== 1) return [];
    const next = incidents.find((other) => other.entry === incident.entry && other.occurrence === 2);
    const base = (incident.name ?? incident.kind).replace(/ #1$/, '');
    return [{ ...values[i], label: next === undefined ? base : `${base}, every ${formatSimTime(Math.round((next.fromSeconds - incident.fromSeconds) * 1000))}` }];
  });
  const tooltip = [{ field: 'kind' }, { field: 'from', title: 'from (s)' }, { field: 'to', title: 'to (s)' }, { field: 'detail' }];
  return [
    // clip: a window in the warm-up lies before the time axis, which starts where measuring began (warmupAxis.ts).
    { data: { values }, mark: { type: 'rect', color: COLOURS.incident, opacity: 0.18, clip: true }, encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' }, tooltip } },
    { data: { values: labels }, mark: { type: 'text', align: 'left', baseline: 'top', dx: 3, dy: 3, color: '#7a3b63', fontSize: 12, clip: true }, encoding: { x: { field: 'from', type: 'quantitative' }, y: { value: 0 }, text: { field: 'label' } } },
  ];
}
