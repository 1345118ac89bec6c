import type { FlowNetwork } from './flowNetwork.js';
import { IncidentSchedule, INCIDENT_START } from './incidentSchedule.js';
import { OriginModel } from './origin.js';
import type { Scenario } from '../scenario/schema.js';
import type { RandomStreams } from '../sim/random.js';
import type { Simulation } from '../sim/simulation.js';
import { ContentChurn, type ChurnHooks } from '../workload/content/churn.js';
import type { ClassCatalogue } from '../workload/content/classCatalogue.js';
import type { ShapedWorkload } from '../workload/shapedWorkload.js';

/**
 * The parts of a run's content the timeline reads (the experiment's `RunContent` has them),
 * named here so `cdn` does not import from `experiment` (docs/architecture.md, imports point down).
 */
export interface OriginTimelineContent {
  readonly catalogue: { readonly size: number };
  readonly classCatalogue?: ClassCatalogue;
  /** The compiled content classes, in class order: only their names are read. */
  readonly contentCaching: { readonly classes: readonly { readonly name: string }[] };
  /** Per-object request traits that follow a same-URL update to its new id. */
  readonly classTraits?: { noteUpdate(objectId: number, previousId: number): void };
}

/** The origin of a run and what changes it over the run's clock. */
export interface OriginTimeline {
  readonly origin: OriginModel;
  /** Content churn (content classes under a shaped workload): new objects and same-URL updates. */
  readonly churn?: ContentChurn;
}

/**
 * The origin model with everything that changes what it answers, scheduled on the run's clock:
 * content churn (new objects, same-URL updates: a new version of the URL), deploys (spec 1.2
 * item 6, purged or not: a new version of the classes they name, or, for a class with
 * `updates.onDeploy`, new URLs or versions for that share of its objects) and the incident schedule
 * (refused connections, error bursts, slowdowns, spec 4.7 and 7.1).
 * `shaped` is the synthetic workload, which churn feeds with one-hit wonders; a replayed
 * recording has no classes and no churn.
 */
export function buildOriginTimeline(
  scenario: Scenario,
  content: OriginTimelineContent,
  shaped: ShapedWorkload | null,
  network: FlowNetwork,
  simulation: Simulation,
  streams: RandomStreams,
): OriginTimeline {
  const { classCatalogue, contentCaching } = content;
  const churn = classCatalogue && shaped ? new ContentChurn(classCatalogue, (scenario.content.classes ?? []).map((klass) => klass.churn), streams) : undefined;
  const schedule = new IncidentSchedule(scenario.incidents);
  const origin = new OriginModel(
    scenario.incidents.length === 0 ? null : schedule.conditions,
    Int32Array.from(contentCaching.classes, (klass) => schedule.conditions.classSlot(klass.name)),
    churn?.versionOf ?? null,
    content.catalogue.size,
    streams.stream('origin.errors'),
    () => network.originServiceMs(),
  );
  const hooks: ChurnHooks = {
    onOneHitWonder: (id) => shaped?.requestOnce(id),
    onUpdate: (id, previous) => {
      if (id === previous) origin.noteUpdate(id, simulation.nowMs);
      content.classTraits?.noteUpdate(id, previous);
    },
  };
  if (churn) churn.attach(simulation, hooks);
  // Classes with `updates.onDeploy`: a deploy updates that share of their objects (new URLs
  // or new versions, churn.deployClass); the others get a new version of everything at once.
  const deployedByChurn = (scenario.content.classes ?? []).map((klass) => churn !== undefined && klass.churn.updates.onDeployShare !== undefined);
  deployedByChurn.forEach((byChurn, c) => {
    if (byChurn) origin.versionObjectsOnDeploy(c);
  });
  schedule.schedule(simulation, (index, phase) => {
    const incident = scenario.incidents[index];
    if (incident.kind !== 'deploy' || phase !== INCIDENT_START) return;
    const touched = contentCaching.classes.flatMap((klass, c) => (incident.classes.length === 0 || incident.classes.includes(klass.name) ? [c] : []));
    for (const c of touched) if (deployedByChurn[c]) churn?.deployClass(c, hooks);
    origin.noteDeploy(
      touched.filter((c) => !deployedByChurn[c]),
      simulation.nowMs,
    );
  });
  return churn ? { origin, churn } : { origin };
}
