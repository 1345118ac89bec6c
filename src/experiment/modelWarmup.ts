import { CacheWarmer, type CacheWarmerOptions } from '../cdn/cacheWarmer.js';
import { LruStartReplay } from '../cdn/startReplay.js';
import type { ClientPlaces } from '../topology/clients.js';
import { fillWholeObject, newClientRequest } from '../workload/request.js';
import type { ModelTraffic } from '../workload/trafficModels/modelTraffic.js';

/** What the model's warm-up needs of the run's network (RunNetwork). */
export interface StackWarmupNetwork {
  readonly homeEdgeOfPlace: Int32Array;
  readonly places: ClientPlaces;
  /** Whether every request reaches its place's home edge (no misrouting, which draws per request). */
  readonly routesHome: boolean;
}

/**
 * The model's own warm-up (docs/traffic-models.md, "In a scenario"): every PoP's initial
 * stack, bottom to top, applied to the caches alone at time 0 from the PoP's busiest client
 * place. An LRU edge then holds the top of its stack, the model's steady state, and the
 * regional caches hold what those first requests left them; the run's own warm-up
 * (run.warmup) follows as the scenario says. Where the outcome is known without the
 * requests (LruStartReplay: LRU caches, no misrouting, an origin that cannot fail, …) it is
 * stored as such, the same caches in the same order; otherwise request by request.
 */
export function warmModelStacks(models: ModelTraffic, caches: CacheWarmerOptions, network: StackWarmupNetwork, recordsCurves: boolean): number {
  const { homeEdgeOfPlace, places } = network;
  const placeOfEdge = new Int32Array(models.edgeCount).fill(-1);
  const demandOfEdge = new Float64Array(models.edgeCount);
  for (let place = 0; place < places.demand.length; place++) {
    const edge = homeEdgeOfPlace[place];
    if (places.demand[place] > demandOfEdge[edge]) {
      demandOfEdge[edge] = places.demand[place];
      placeOfEdge[edge] = place;
    }
  }
  const request = newClientRequest();
  request.timeMs = 0;
  if (network.routesHome && LruStartReplay.applies(caches, models.classIndices, recordsCurves)) {
    // Without misrouting a place's requests reach one edge, found once per PoP (no draw).
    const edgeOfStack = Int32Array.from(placeOfEdge, (place) => {
      if (place < 0) return -1;
      request.place = place;
      request.region = places.regionOf[place];
      return caches.network.popOf(request);
    });
    const replay = new LruStartReplay(caches, models.stackRequests);
    const warmed = models.warmStacks((edge, objectId, sizeBytes, classIndex) => replay.add(edgeOfStack[edge], objectId, sizeBytes, classIndex));
    replay.install();
    return warmed;
  }
  const warmer = new CacheWarmer(caches);
  return models.warmStacks((edge, objectId, sizeBytes) => {
    const place = placeOfEdge[edge];
    request.place = place;
    request.region = places.regionOf[place];
    fillWholeObject(request, objectId, sizeBytes);
    warmer.warm(request);
  });
}
