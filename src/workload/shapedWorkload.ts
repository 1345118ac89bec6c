import type { RandomStream, RandomStreams } from '../sim/random.js';
import type { Simulation } from '../sim/simulation.js';
import { CumulativeSearch, placeFor, regionFor, type ClientPlaces } from '../topology/clients.js';
import type { ArrivalShape, FlashCrowd } from './arrivals/arrivalsSchema.js';
import { groupPlacesByTimeZone, placeInGroup, type TimeZoneGroup } from './arrivals/localTime.js';
import { planArrivalStreams } from './arrivals/rateShape.js';
import { ThinnedPoissonArrivals } from './arrivals/thinnedPoisson.js';
import type { ObjectCatalogue } from './objectCatalogue.js';
import { UserError } from '../userError.js';
import { fillWholeObject, newClientRequest, type ClientRequest, type RequestSink } from './request.js';
import type { ClientTraffic } from './requests/clientTraffic.js';
import type { ModelTraffic } from './trafficModels/modelTraffic.js';

export interface ShapedTrafficSpec {
  /** Mean request rate over all regions, per second (the mean over a week when the shape varies). */
  ratePerSecond: number;
  /** Diurnal and weekly shape, growth, flash crowds (src/workload/arrivals). */
  shape: ArrivalShape;
  /** Client places with their demand: where requests come from, and their local time. */
  places: ClientPlaces;
}

/**
 * Arrivals over time, shaped: client places are grouped by region and solar time zone,
 * each group is a non-homogeneous Poisson process (thinning) at its share of the rate times
 * the diurnal × weekly × growth shape in its local time, and each flash crowd adds a process
 * of its own over its window. A request carries its region and client place, and an object
 * drawn by Zipf popularity, or from the crowd's object set.
 *
 * Each process draws from its own stream (`workload.arrivals.<region>.utc±N`), so adding a
 * flash crowd leaves the everyday requests as they were. With a flat shape (the default) the
 * zones of a region share one clock-free process (`…<region>.utc+0`): the homogeneous
 * Poisson process per region of the first slice.
 */
export class ShapedWorkload {
  private readonly groups: TimeZoneGroup[];
  private readonly processes: ThinnedPoissonArrivals[];
  private readonly streams: RandomStream[];
  private readonly groupOf: Int32Array;
  /** Per process: −1 for everyday demand, else the flash crowd's index. */
  private readonly crowdOf: Int32Array;
  private readonly request: ClientRequest = newClientRequest();

  constructor(
    spec: ShapedTrafficSpec,
    private readonly catalogue: ObjectCatalogue,
    randomStreams: RandomStreams,
    /**
     * A client population (traffic.clients): returning clients, variant keys and media
     * sessions. Without it every request comes from an anonymous client without a browser
     * cache and asks for the whole object; its key is the object id.
     */
    private readonly clients: ClientTraffic | null = null,
    /** Classes with a traffic model (docs/traffic-models.md): the object comes from the place's PoP stream. */
    private readonly models: ModelTraffic | null = null,
  ) {
    // A flat shape is the same in every time zone: one process per region then, as cheap as
    // plain Poisson arrivals (fewer pending events); a shaped one needs each zone's clock.
    this.groups = isFlat(spec.shape) ? groupPlacesByRegion(spec.places) : groupPlacesByTimeZone(spec.places);
    this.places = spec.places;
    this.oneOffStream = randomStreams.stream('workload.oneOff');
    const plans = planArrivalStreams(spec.shape, spec.ratePerSecond, this.groups);
    this.processes = plans.map((plan) => new ThinnedPoissonArrivals(plan.ratePerSecond, plan.shape));
    this.streams = plans.map((plan) => randomStreams.stream(plan.streamName));
    this.groupOf = Int32Array.from(plans, (plan) => plan.group);
    this.crowdOf = Int32Array.from(plans, (plan) => plan.flashCrowd);
    this.crowdObjects = spec.shape.flashCrowds.map((crowd, index) => crowdObjectSet(crowd, index, catalogue));
  }

  /** Per flash crowd: the object ids it asks for, uniformly; null for the normal popularity. */
  private readonly crowdObjects: (Int32Array | null)[];

  private readonly places: ClientPlaces;
  private readonly oneOffStream: RandomStream;
  private simulation: Simulation | undefined;
  private sink: RequestSink | undefined;

  /**
   * One request for `objectId` now, from a client place drawn by demand, outside the
   * arrival processes: a one-hit wonder's single request when churn brings it.
   */
  requestOnce(objectId: number): void {
    if (!this.simulation || !this.sink) throw new Error('requestOnce before attach');
    const stream = this.oneOffStream;
    const region = regionFor(this.places, stream.next());
    const request = this.request;
    request.timeMs = this.simulation.nowMs;
    request.region = region;
    request.place = placeFor(this.places, region, stream.next());
    fillWholeObject(request, objectId, this.catalogue.objectSizes[objectId]);
    this.sink(request);
  }

  /** Defines the arrival event and schedules each process's first arrival. */
  attach(simulation: Simulation, sink: RequestSink): void {
    this.simulation = simulation;
    this.sink = sink;
    const clients = this.clients;
    // A viewing session's next window (spec 4.8), at the player's pace.
    const window =
      clients === null
        ? -1
        : simulation.defineEvent('workload.mediaWindow', (slot, serial) => {
            const request = this.request;
            if (!clients.continueSession(slot, serial, request)) return;
            request.timeMs = simulation.nowMs;
            if (clients.continues()) simulation.scheduleAfter(clients.windowIntervalMs, window, slot, serial);
            sink(request);
          });
    const arrival = simulation.defineEvent('workload.arrival', (process) => {
      const stream = this.streams[process];
      const group = this.groups[this.groupOf[process]];
      const request = this.request;
      request.timeMs = simulation.nowMs;
      request.region = group.region;
      const place = placeInGroup(group, stream.next());
      const crowd = this.crowdOf[process];
      const objects = crowd < 0 ? null : this.crowdObjects[crowd];
      if (clients === null) {
        request.place = place;
        const models = objects === null ? this.models : null;
        const objectId = objects !== null ? objects[stream.int(objects.length)] : models === null ? this.catalogue.pick(stream.next()) : models.pick(place, stream.next());
        fillWholeObject(request, objectId, models === null ? this.catalogue.objectSizes[objectId] : models.pickedSize);
      } else if (clients.arrive(group.region, place, objects === null ? -1 : objects[stream.int(objects.length)], request)) {
        simulation.scheduleAfter(clients.windowIntervalMs, window, clients.sessionSlot, clients.sessionSerial);
      }
      this.scheduleNext(simulation, arrival, process);
      sink(request);
      // One pending arrival per process: they wait apart from the requests' events (Simulation EventKindOptions).
    }, { arrivals: true });
    for (let process = 0; process < this.processes.length; process++) this.scheduleNext(simulation, arrival, process);
  }

  private scheduleNext(simulation: Simulation, arrival: number, process: number): void {
    const next = this.processes[process].next(simulation.nowMs, this.streams[process]);
    if (next === Infinity) return;
    // The time through the simulation's parked slot, not as an argument (Simulation.scheduleParked).
    simulation.parkedAtMs[0] = next;
    simulation.scheduleParked(arrival, process);
  }
}

function isFlat(shape: ArrivalShape): boolean {
  return shape.diurnal.kind === 'off' && shape.growth.rate === 0 && shape.weekly.every((weight) => weight === shape.weekly[0]);
}

/** One group per region with demand, its places weighted by population (the region's clock is irrelevant: offset 0). */
function groupPlacesByRegion(places: ClientPlaces): TimeZoneGroup[] {
  return places.byRegion.flatMap((region, r): TimeZoneGroup[] =>
    places.regionShare[r] > 0 && region.places.length > 0
      ? [{ region: r, utcOffsetHours: 0, demandShare: places.regionShare[r], places: region.places, cumulative: region.cumulative, placeSearch: new CumulativeSearch(region.cumulative) }]
      : [],
  );
}

/** The ids a flash crowd asks for; checked against the catalogue here, where its size is known. */
function crowdObjectSet(crowd: FlashCrowd, index: number, catalogue: ObjectCatalogue): Int32Array | null {
  switch (crowd.objects.kind) {
    case 'catalogue':
      return null;
    case 'top': {
      // The most popular ids (ties by id, so the set does not depend on sort stability).
      const ids = Array.from({ length: catalogue.size }, (_, id) => id).sort((a, b) => catalogue.popularity[b] - catalogue.popularity[a] || a - b);
      return Int32Array.from(ids.slice(0, Math.min(crowd.objects.top, catalogue.size)));
    }
    case 'ids': {
      // The scenario checks ids against a catalogue it can count; a recording's size is known only once read.
      const outside = crowd.objects.ids.findIndex((id) => id >= catalogue.size);
      if (outside >= 0) {
        throw new UserError(`\`traffic.flashCrowds[${index}].objects.ids[${outside}]\`: expected an object id below the catalogue's ${catalogue.size} objects, found ${crowd.objects.ids[outside]}`);
      }
      return Int32Array.from(crowd.objects.ids);
    }
    case 'class':
      throw new RangeError(`flash crowd objects by class (${crowd.objects.class}) need content classes, which runs do not have yet`);
  }
}
