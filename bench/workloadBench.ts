import { Simulation } from '../src/sim/simulation.js';
import { RandomStreams } from '../src/sim/random.js';
import { buildClientPlaces, DEFAULT_DEMAND_SHARES, loadClientCities } from '../src/topology/clients.js';
import { arrivalShapeSchema, type ArrivalShapeInput } from '../src/workload/arrivals/arrivalsSchema.js';
import { Catalogue } from '../src/workload/catalogue.js';
import { ClassCatalogue, classCatalogueObjects } from '../src/workload/content/classCatalogue.js';
import { DEFAULT_CLASS_MIX } from '../src/workload/content/contentClasses.js';
import type { ObjectCatalogue } from '../src/workload/objectCatalogue.js';
import { ShapedWorkload } from '../src/workload/shapedWorkload.js';
import { measure, report } from './harness.js';

/**
 * Issue 6: "generating a request must cost far less than simulating it". Requests generated
 * per second through the event kernel with a sink that only reads them: the flat shape, the
 * diurnal + weekly + growth shape with a flash crowd, and the seven-class catalogue. Compare
 * with `slice.tiered.*`, which simulates each request as well.
 */
export function runWorkloadBenchmarks(wanted: (name: string) => boolean): void {
  const places = buildClientPlaces(loadClientCities(), DEFAULT_DEMAND_SHARES);
  const oneClass = () => new Catalogue({ objects: 1_000_000, zipfExponent: 0.8, objectSize: { median: 32_000, sigma: 1, min: 100, max: 1e8 } }, new RandomStreams(1).stream('sizes'));
  const sevenClasses = () => classCatalogueObjects(new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(1)));
  const variants: { name: string; shape: ArrivalShapeInput; catalogue: () => ObjectCatalogue }[] = [
    { name: 'workload.generate.flat', shape: {}, catalogue: oneClass },
    {
      name: 'workload.generate.shaped',
      shape: { diurnal: 'on', weekly: [1, 1, 1, 1, 1, 0.85, 0.85], growth: { rate: '10%', per: '30d' }, flashCrowds: [{ start: '10s', duration: '20s', multiplier: 4, objects: { top: 100 } }] },
      catalogue: oneClass,
    },
    { name: 'workload.generate.classes', shape: {}, catalogue: sevenClasses },
  ];
  for (const variant of variants) {
    if (!wanted(variant.name)) continue;
    const catalogue = variant.catalogue();
    const shape = arrivalShapeSchema.parse(variant.shape);
    const requests = 2_000_000;
    let sink = 0;
    const result = measure(3, () => {
      const workload = new ShapedWorkload({ ratePerSecond: 20_000, shape, places }, catalogue, new RandomStreams(1));
      const simulation = new Simulation();
      let count = 0;
      workload.attach(simulation, (request) => {
        sink += request.objectId;
        if (++count >= requests) simulation.stop();
      });
      simulation.run();
      return count;
    });
    report({ name: variant.name, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond, checksum: sink % 1000 });
  }
}
