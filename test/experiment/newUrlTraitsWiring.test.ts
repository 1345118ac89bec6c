import { describe, expect, it } from 'vitest';
import { buildOriginTimeline } from '../../src/cdn/originTimeline.js';
import { variantMaskOfPath } from '../../src/experiment/requestVariants.js';
import { buildRunContent } from '../../src/experiment/runContent.js';
import { buildRunNetwork } from '../../src/experiment/runNetwork.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { RandomStreams } from '../../src/sim/random.js';
import { Simulation } from '../../src/sim/simulation.js';
import { representativePath } from '../../src/workload/content/contentClasses.js';
import { ObjectState } from '../../src/workload/content/churn.js';
import { ShapedWorkload } from '../../src/workload/shapedWorkload.js';
import { VARIANT_DEVICE } from '../../src/workload/requests/requestKeys.js';

/**
 * The run's wiring of new-URL updates to request traits (test/experiment/newUrlRequestTraits
 * tests the parts): a hashed bundle published at a new URL (spec 8.1 row 1) keeps its
 * predecessor's file type, so its key varies by device exactly when it is CSS (spec 4.5).
 * The run assembles content, network, workload and origin timeline as runScenario does, and
 * lets the churn run for two simulated hours with no client requests.
 */
const SCENARIO = `
seed: 7
run: { duration: 2h }
deployment: { kind: full-stack, framework: next }
traffic: { rate: 10/s, clients: {} }
content:
  classes:
    - name: bundles
      preset: static-asset
      share: 100%
      objects: 400
      churn: { updates: { rate: 600/h, newUrl: true } }
topology: { model: regions }
`;

describe('new-URL updates through a run\'s origin timeline (spec 4.5 variants, spec 8.1 row 1 hashed names)', () => {
  const scenario = parseScenarioText(SCENARIO, 'bundles.yaml');
  const streams = new RandomStreams(scenario.seed);
  const horizonMs = 2 * 3_600_000;
  const network = buildRunNetwork(scenario, streams);
  const content = buildRunContent(scenario, undefined, Infinity, horizonMs, streams, network);
  const workload = new ShapedWorkload({ ratePerSecond: scenario.traffic.rate, shape: scenario.traffic, places: network.places }, content.catalogue, streams, content.clients);
  const simulation = new Simulation();
  const { churn } = buildOriginTimeline(scenario, content, workload, network.network, simulation, streams);
  const catalogue = content.classCatalogue;
  const traits = content.classTraits;
  if (churn === undefined || catalogue === undefined || traits === undefined) throw new Error('the scenario should build churn, a class catalogue and request traits');
  // Before the clock runs: every id's mask as precomputed from its own drawn file type.
  const maskBefore = Uint8Array.from(traits.variantMaskOf);
  simulation.run({ untilMs: horizonMs });
  const klass = scenario.content.classes?.[0];
  if (klass === undefined) throw new Error('one class');
  const live: number[] = [];
  for (let id = 0; id < catalogue.idCapacity; id++) if (churn.stateOf[id] === ObjectState.ranked) live.push(id);
  const maskNow = (id: number) => variantMaskOfPath(representativePath({ path: klass.path, fileTypes: [catalogue.fileTypeOf(id)] }, 'next'));

  it('about 1,200 updates of uniformly drawn ranks in two hours leave about 400 × (1 − e^−3) = 380 objects at fresh ids, and every live id\'s mask is its file type\'s: CSS by device, JS none', () => {
    const fresh = live.filter((id) => id >= 400);
    // Binomial(400, 0.950): 380 ± 4.4; 3σ either side.
    expect(fresh.length).toBeGreaterThanOrEqual(367);
    expect(fresh.length).toBeLessThanOrEqual(393);
    expect(live).toHaveLength(400);
    for (const id of live) expect(traits.variantMaskOf[id]).toBe(maskNow(id));
    expect(live.filter((id) => catalogue.fileTypeOf(id).extension === 'css').every((id) => traits.variantMaskOf[id] === VARIANT_DEVICE)).toBe(true);
  });

  it('the hook is what made them right: some fresh ids took a file type other than their own draw, and their masks moved', () => {
    const moved = live.filter((id) => maskBefore[id] !== traits.variantMaskOf[id]);
    expect(moved.length).toBeGreaterThan(50);
  });
});
