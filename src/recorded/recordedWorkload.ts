import type { RandomStream, RandomStreams } from '../sim/random.js';
import type { Simulation } from '../sim/simulation.js';
import { placeFor, regionFor, type ClientPlaces } from '../topology/clients.js';
import type { ObjectCatalogue } from '../workload/objectCatalogue.js';
import type { RecordedTraffic } from './realTraffic/trafficCatalogue.js';
import { fillWholeObject, newClientRequest, type ClientRequest, type RequestSink } from '../workload/request.js';

export interface RecordedReplaySpec {
  /** The recording: requests in time order with their offsets (loadRecordedTraffic). */
  traffic: RecordedTraffic;
  /** Client places with their demand: a recording says nothing about where its clients are. */
  places: ClientPlaces;
  /** Playback speed > 0: a request recorded at offset t is sent at startMs + t / speed. Default 1. */
  speed?: number;
  /** Simulated time of the recording's first request, ms ≥ 0. Default 0. */
  startMs?: number;
}

/**
 * Replays recorded traffic once: each GET of the recording at its recorded offset (scaled
 * by `speed`) from `startMs`, for the object the recording asked for, with the size the
 * catalogue gives it. The client's region is drawn by the places' demand shares and its
 * place by population within the region, from the stream `workload.recorded`, as
 * `ShapedWorkload.requestOnce` draws them: a HAR or an access log records no client place.
 * Each request is a whole-object request from an anonymous client (no browser cache, key =
 * object id), as ShapedWorkload sends without a client population.
 *
 * One pending event at a time: each request schedules the next, so the queue does not
 * grow with the recording; one reused request record (DESIGN.md "Hot path").
 */
export class RecordedWorkload {
  /** Requests in the recording (all are sent by the end of the replay). */
  readonly requests: number;
  private readonly objects: Int32Array;
  private readonly offsetsMs: Float64Array;
  private readonly speed: number;
  private readonly startMs: number;
  private readonly places: ClientPlaces;
  private readonly stream: RandomStream;
  private readonly request: ClientRequest = newClientRequest();
  private sent = 0;

  constructor(
    spec: RecordedReplaySpec,
    private readonly catalogue: ObjectCatalogue,
    randomStreams: RandomStreams,
  ) {
    const speed = spec.speed ?? 1;
    const startMs = spec.startMs ?? 0;
    if (!(Number.isFinite(speed) && speed > 0)) throw new RangeError(`replay speed must be a finite number > 0, got ${speed}`);
    if (!(Number.isFinite(startMs) && startMs >= 0)) throw new RangeError(`replay start must be a finite time ≥ 0 ms, got ${startMs}`);
    if (catalogue.size < spec.traffic.urls.length) {
      throw new RangeError(`the catalogue has ${catalogue.size} objects; the recording ${spec.traffic.file} needs ${spec.traffic.urls.length}`);
    }
    this.objects = spec.traffic.requestObjects;
    this.offsetsMs = spec.traffic.requestOffsetsMs;
    this.requests = this.objects.length;
    this.speed = speed;
    this.startMs = startMs;
    this.places = spec.places;
    this.stream = randomStreams.stream('workload.recorded');
  }

  /** True once every recorded request has been handed to the sink. */
  get done(): boolean {
    return this.sent === this.requests;
  }

  /**
   * Defines the replay event and schedules the first request (attach before the clock
   * passes `startMs`: the kernel refuses events in the past).
   */
  attach(simulation: Simulation, sink: RequestSink): void {
    const replay = simulation.defineEvent('workload.recorded', (index) => {
      const stream = this.stream;
      const region = regionFor(this.places, stream.next());
      const request = this.request;
      request.timeMs = simulation.nowMs;
      request.region = region;
      request.place = placeFor(this.places, region, stream.next());
      const objectId = this.objects[index];
      fillWholeObject(request, objectId, this.catalogue.objectSizes[objectId]);
      this.sent = index + 1;
      if (index + 1 < this.requests) simulation.schedule(this.timeOf(index + 1), replay, index + 1);
      sink(request);
      // One pending at a time: it waits apart from the requests' events (Simulation EventKindOptions).
    }, { arrivals: true });
    if (this.requests > 0) simulation.schedule(this.timeOf(0), replay, 0);
  }

  /** When the request at `index` (time order) is sent. */
  private timeOf(index: number): number {
    return this.startMs + this.offsetsMs[index] / this.speed;
  }
}
