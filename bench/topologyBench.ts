import { RandomStreams } from '../src/sim/random.js';
import { TopologyLatencyModel } from '../src/topology/latencyModel.js';
import { buildTopology } from '../src/topology/topology.js';
import { parseTopologySpec } from '../src/topology/topologySpec.js';
import { measure, report } from './harness.js';

/**
 * The topology model's per-request cost (routing and latency sampling must cost next to
 * nothing per request): routing a client place to its PoP, with and without
 * misrouting, and a full client → edge sample as the tiered flow takes it
 * (draw a client place of the region, route it, draw mobile/fixed and the last mile).
 */
export function runTopologyBenchmarks(wanted: (name: string) => boolean): void {
  if (wanted('topology.build')) {
    const result = measure(5, () => {
      buildTopology();
      return 1;
    });
    report({ name: 'topology.build', buildsPerSecond: result.bestPerSecond, msPerBuild: Math.round(100_000 / result.bestPerSecond) / 100 });
  }

  for (const misrouteProbability of [0, 0.1]) {
    const name = `topology.route.misroute${misrouteProbability * 100}`;
    if (!wanted(name)) continue;
    const model = new TopologyLatencyModel(buildTopology(parseTopologySpec({ routing: { misrouteProbability } })), new RandomStreams(1));
    const places = model.topology.clients.cities.length;
    const routes = 10_000_000;
    let sink = 0;
    const result = measure(5, () => {
      for (let i = 0; i < routes; i++) sink += model.route(i % places);
      return routes;
    });
    report({ name, routesPerSecond: result.bestPerSecond, medianRoutesPerSecond: result.medianPerSecond, checksum: sink % 1000 });
  }

  if (wanted('topology.clientToEdge')) {
    const model = new TopologyLatencyModel(buildTopology(), new RandomStreams(1));
    const samples = 5_000_000;
    let sink = 0;
    const result = measure(5, () => {
      for (let i = 0; i < samples; i++) {
        const place = model.samplePlace(i % 5);
        const pop = model.route(place);
        sink += pop + model.clientToPopMs(place, pop, model.sampleMobile(place));
      }
      return samples;
    });
    report({ name: 'topology.clientToEdge', samplesPerSecond: result.bestPerSecond, medianSamplesPerSecond: result.medianPerSecond, checksum: Math.round(sink) % 1000 });
  }

  if (wanted('topology.edgeToOrigin')) {
    const model = new TopologyLatencyModel(buildTopology(), new RandomStreams(1));
    const samples = 5_000_000;
    let sink = 0;
    const pops = model.topology.pops.length;
    const result = measure(5, () => {
      for (let i = 0; i < samples; i++) {
        const pop = i % pops;
        sink += model.popToRegionalMs(pop) + model.regionalToOriginMs(model.regionalSiteOf(pop));
      }
      return samples;
    });
    report({ name: 'topology.edgeToOrigin', samplesPerSecond: result.bestPerSecond, medianSamplesPerSecond: result.medianPerSecond, checksum: Math.round(sink) % 1000 });
  }
}
