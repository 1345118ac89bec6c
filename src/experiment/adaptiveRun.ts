import { AdaptiveController } from '../cdn/adaptiveController.js';
import type { RunLayers } from '../cdn/runLayers.js';
import type { Scenario } from '../scenario/schema.js';
import type { Simulation } from '../sim/simulation.js';
import type { QueryKeys } from '../workload/requests/queryKeys.js';
import type { ContentCaching } from './contentCaching.js';

/**
 * The run's adaptive TTL controller (spec 1.2 item 6) when the scenario has `cdn.adaptiveTtl`
 * (the `adaptive` strategy sets it), else null. It changes the run's own compiled decision
 * table, which the flow reads per request.
 *
 * @param layers the run's layers (browser first when clients have caches)
 * @param queryKeys the run's query keys (null: no class has query strings), whose handling it may switch
 */
export function newAdaptiveController(
  scenario: Scenario,
  simulation: Simulation,
  contentCaching: ContentCaching,
  layers: RunLayers,
  queryKeys: QueryKeys | null,
): AdaptiveController | null {
  const settings = scenario.cdn.adaptiveTtl;
  if (settings === undefined) return null;
  return new AdaptiveController({
    simulation,
    table: contentCaching.table,
    settings,
    classNames: contentCaching.classes.map((klass) => klass.name),
    layers,
    queryKeys,
  });
}
