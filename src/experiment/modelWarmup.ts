import { CacheWarmer, type CacheWarmerOptions } from '../cdn/cacheWarmer.js';
import type { ClientPlaces } from '../topology/clients.js';
import { fillWholeObject, newClientRequest } from '../workload/request.js';
import type { ModelTraffic } from '../workload/trafficModels/modelTraffic.js';

/**
 * The model's own warm-up (docs/traffic-models.md, "In a scenario"): every PoP's initial
 * stack, bottom to top, applied to the caches alone at time 0 from the PoP's busiest client
 * place. An LRU edge then holds the top of its stack, the model's steady state, and the
 * regional caches hold what those first requests left them; the run's own warm-up
 * (run.warmup) follows as the scenario says.
 */
export function warmModelStacks(models: ModelTraffic, caches: CacheWarmerOptions, homeEdgeOfPlace: Int32Array, places: ClientPlaces): number {
  const warmer = new CacheWarmer(caches);
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
  return models.warmStacks((edge, objectId, sizeBytes) => {
    const place = placeOfEdge[edge];
    request.place = place;
    request.region = places.regionOf[place];
    fillWholeObject(request, objectId, sizeBytes);
    warmer.warm(request);
  });
}
