import { Simulation } from '../src/sim/simulation.js';
import { RandomStreams } from '../src/sim/random.js';
import { buildClientPlaces, DEFAULT_DEMAND_SHARES, DEFAULT_MOBILE_SHARES, loadClientCities } from '../src/topology/clients.js';
import { arrivalShapeSchema, type ArrivalShapeInput } from '../src/workload/arrivals/arrivalsSchema.js';
import { Catalogue } from '../src/workload/catalogue.js';
import { ClassCatalogue, classCatalogueObjects } from '../src/workload/content/classCatalogue.js';
import { DEFAULT_CLASS_MIX } from '../src/workload/content/contentClasses.js';
import { querySpecSchema } from '../src/workload/content/querySchema.js';
import { QueryKeys } from '../src/workload/requests/queryKeys.js';
import type { ObjectCatalogue } from '../src/workload/objectCatalogue.js';
import { ShapedWorkload } from '../src/workload/shapedWorkload.js';
import { ClassObjectTraits } from '../src/experiment/requestVariants.js';
import { REGIONS } from '../src/topology/regions.js';
import { ClientTraffic } from '../src/workload/requests/clientTraffic.js';
import { RequestAttributeSampler } from '../src/workload/requests/requestAttributes.js';
import { requestAttributeSpec, requestAttributesSection } from '../src/workload/requests/requestAttributesSchema.js';
import { RequestKeys } from '../src/workload/requests/requestKeys.js';
import { measure, report } from './harness.js';

/**
 * Generating a request must cost far less than simulating it. Requests generated
 * per second through the event kernel with a sink that only reads them: the flat shape, the
 * diurnal + weekly + growth shape with a flash crowd, the seven-class catalogue, and that
 * catalogue with a client population (traffic.clients defaults: returning clients, variant
 * keys, media sessions of 5 MB chunks), and that catalogue with query strings on pages and
 * images (spec 4.3.1; its ratio to the plain seven classes is the query keys' cost). Compare
 * with `slice.tiered.*`, which simulates each request as well.
 */
export function runWorkloadBenchmarks(wanted: (name: string) => boolean): void {
  const places = buildClientPlaces(loadClientCities(), DEFAULT_DEMAND_SHARES);
  const oneClass = () => new Catalogue({ objects: 1_000_000, zipfExponent: 0.8, objectSize: { median: 32_000, sigma: 1, min: 100, max: 1e8 } }, new RandomStreams(1).stream('sizes'));
  const sevenClasses = () => classCatalogueObjects(new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(1)));
  // Seven classes with traffic.clients at its defaults: returning clients, variant keys, media sessions.
  const withClients = (): { catalogue: ObjectCatalogue; clients: () => ClientTraffic } => {
    const classCatalogue = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(1));
    const catalogue = classCatalogueObjects(classCatalogue);
    const settings = requestAttributesSection.parse({});
    const traits = new ClassObjectTraits(classCatalogue, DEFAULT_CLASS_MIX, 'next', settings.media.minBytes);
    const keys = new RequestKeys({ objectSizes: catalogue.objectSizes, variantMaskOf: traits.variantMaskOf, chunkedOf: traits.rangesOf });
    const objects = { objectSizes: catalogue.objectSizes, pick: (u: number) => catalogue.pick(u), rangesOf: traits.rangesOf };
    const clients = () =>
      new ClientTraffic(new RequestAttributeSampler(requestAttributeSpec(settings, DEFAULT_MOBILE_SHARES), objects, new RandomStreams(1), REGIONS), keys, settings.media.windowIntervalMs);
    return { catalogue, clients };
  };
  // The seven classes with query strings on pages and images (spec 4.3.1), tracking values in the key.
  const withQueries = (): { catalogue: ObjectCatalogue; queries: () => QueryKeys } => {
    const classCatalogue = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(1));
    const queries = querySpecSchema.parse({ share: '40%', variants: 20, tracking: ['utm_source', 'fbclid'], trackingValues: 1000 });
    const classes = DEFAULT_CLASS_MIX.map((klass) => ({ queries: klass.name === 'html' || klass.name === 'image' ? queries : undefined }));
    return { catalogue: classCatalogueObjects(classCatalogue), queries: () => new QueryKeys(classes, classCatalogue.classOfId, classCatalogue.idCapacity, new RandomStreams(1).stream('workload.queries')) };
  };
  const variants: { name: string; shape: ArrivalShapeInput; catalogue: () => ObjectCatalogue; clients?: () => ClientTraffic; queries?: () => QueryKeys }[] = [
    { name: 'workload.generate.flat', shape: {}, catalogue: oneClass },
    {
      name: 'workload.generate.shaped',
      shape: { diurnal: 'on', weekly: [1, 1, 1, 1, 1, 0.85, 0.85], growth: { rate: '10%', per: '30d' }, flashCrowds: [{ start: '10s', duration: '20s', multiplier: 4, objects: { top: 100 } }] },
      catalogue: oneClass,
    },
    { name: 'workload.generate.classes', shape: {}, catalogue: sevenClasses },
    (() => {
      const built = withClients();
      return { name: 'workload.generate.clients', shape: {}, catalogue: () => built.catalogue, clients: built.clients };
    })(),
    (() => {
      const built = withQueries();
      return { name: 'workload.generate.queries', shape: {}, catalogue: () => built.catalogue, queries: built.queries };
    })(),
  ];
  const rates = new Map<string, number>();
  for (const variant of variants) {
    if (!wanted(variant.name)) continue;
    const catalogue = variant.catalogue();
    const shape = arrivalShapeSchema.parse(variant.shape);
    const requests = 2_000_000;
    let sink = 0;
    const result = measure(3, () => {
      const workload = new ShapedWorkload({ ratePerSecond: 20_000, shape, places }, catalogue, new RandomStreams(1), variant.clients?.() ?? null);
      const simulation = new Simulation();
      const queryKeys = variant.queries?.() ?? null;
      let count = 0;
      workload.attach(simulation, (request) => {
        queryKeys?.keyRequest(request);
        sink += request.key;
        if (++count >= requests) simulation.stop();
      });
      simulation.run();
      return count;
    });
    rates.set(variant.name, result.medianPerSecond);
    const classes = rates.get('workload.generate.classes');
    // The query keys' cost as a ratio to the same catalogue without them, measured in this run.
    const ratio: Record<string, number> = variant.queries !== undefined && classes !== undefined ? { medianRatioToClasses: +(result.medianPerSecond / classes).toFixed(3) } : {};
    report({ name: variant.name, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond, ...ratio, checksum: sink % 1000 });
  }
}
