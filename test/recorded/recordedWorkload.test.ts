import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/sim/random.js';
import { Simulation } from '../../src/sim/simulation.js';
import { buildClientPlaces, loadClientCities, placeFor, type ClientPlaces } from '../../src/topology/clients.js';
import { REGIONS } from '../../src/topology/regions.js';
import { readHar } from '../../src/recorded/realTraffic/harReader.js';
import { recordedCatalogue } from '../../src/recorded/realTraffic/recordedCatalogue.js';
import { loadRecordedTraffic, type RecordedTraffic } from '../../src/recorded/realTraffic/trafficCatalogue.js';
import { RecordedWorkload, type RecordedReplaySpec } from '../../src/recorded/recordedWorkload.js';
import type { ClientRequest } from '../../src/workload/request.js';

const PAGE_LOAD = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/har/page-load.har');
const SHARES = [0.5, 0.3, 0.2, 0, 0];
const places: ClientPlaces = buildClientPlaces(
  loadClientCities(),
  Object.fromEntries(REGIONS.map((region, r) => [region, SHARES[r]])) as Record<(typeof REGIONS)[number], number>,
);

/** A recording made by hand: requests (object, offset) in time order, object sizes. */
function recording(objects: number[], offsetsMs: number[], sizes: number[]): RecordedTraffic {
  return {
    file: 'hand-made.log',
    urls: sizes.map((_, id) => `/object-${id}`),
    objectSizes: Float64Array.from(sizes),
    requestCounts: Float64Array.from(sizes, (_, id) => objects.filter((object) => object === id).length),
    profileOf: new Uint32Array(sizes.length),
    profiles: [{ status: 200, url: '/object-0', responseHeaders: [] }],
    requestObjects: Int32Array.from(objects),
    requestOffsetsMs: Float64Array.from(offsetsMs),
    skipped: { total: 0, byReason: { 'non-http-url': 0, 'no-response': 0, 'bad-entry': 0, 'bad-line': 0 }, examples: [] },
    nonGet: {},
  };
}

interface Replay {
  requests: ClientRequest[];
  outcome: string;
  workload: RecordedWorkload;
  /** Distinct record objects the sink was handed. */
  records: number;
  /** Pending events seen by the sink, per request. */
  pending: number[];
  doneBefore: boolean;
}

function replay(traffic: RecordedTraffic, seed: number, options: Omit<RecordedReplaySpec, 'traffic' | 'places'> = {}): Replay {
  const streams = new RandomStreams(seed);
  const workload = new RecordedWorkload({ traffic, places, ...options }, recordedCatalogue(traffic, { kind: 'observed' }, new Uint8Array(traffic.urls.length)), streams);
  const simulation = new Simulation();
  const requests: ClientRequest[] = [];
  const records = new Set<ClientRequest>();
  const pending: number[] = [];
  workload.attach(simulation, (request) => {
    records.add(request);
    pending.push(simulation.pendingEvents);
    requests.push({ ...request });
  });
  const doneBefore = workload.done;
  const outcome = simulation.run();
  return { requests, outcome, workload, records: records.size, pending, doneBefore };
}

const SMALL = recording([1, 2, 3, 4, 0, 0, 1, 4, 4], [0, 0, 0, 0, 1000, 2000, 4000, 6000, 7000], [500, 300, 700, 50, 1000]);

describe('RecordedWorkload: replaying a recording at its recorded times', () => {
  it('speed 2 from 1000 ms: each request at 1000 + offset / 2 exactly, in time order, with the recorded object and the catalogue size', () => {
    const { requests, outcome, workload, doneBefore } = replay(SMALL, 1, { speed: 2, startMs: 1000 });
    expect(outcome).toBe('empty');
    expect(workload.requests).toBe(9);
    expect(doneBefore).toBe(false);
    expect(workload.done).toBe(true);
    expect(requests.map((request) => request.timeMs)).toEqual([1000, 1000, 1000, 1000, 1500, 2000, 3000, 4000, 4500]);
    expect(requests.map((request) => request.objectId)).toEqual([1, 2, 3, 4, 0, 0, 1, 4, 4]);
    expect(requests.map((request) => request.sizeBytes)).toEqual([300, 700, 50, 1000, 500, 500, 300, 1000, 1000]);
  });

  it('each request is a whole object from an anonymous client, as ShapedWorkload sends without clients: key = object id, one piece, no chunk, no client slot', () => {
    const { requests } = replay(SMALL, 1);
    expect(requests[4]).toEqual({ ...requests[4], objectId: 0, sizeBytes: 500, objectBytes: 500, key: 0, pieces: 1, firstChunk: -1, clientSlot: -1, newClient: 0 });
    for (const request of requests) {
      expect(request.key).toBe(request.objectId);
      expect(request.objectBytes).toBe(request.sizeBytes);
    }
  });

  it('defaults: speed 1 from 0 ms; speed 0.5 doubles every offset', () => {
    expect(replay(SMALL, 1).requests.map((request) => request.timeMs)).toEqual([0, 0, 0, 0, 1000, 2000, 4000, 6000, 7000]);
    expect(replay(SMALL, 1, { speed: 0.5 }).requests.map((request) => request.timeMs)).toEqual([0, 0, 0, 0, 2000, 4000, 8000, 12000, 14000]);
  });

  it('the page load (test/fixtures/har/page-load.har): 13 GETs at their offsets from 09:15:02.114, in time order', async () => {
    const traffic = await loadRecordedTraffic(readHar(PAGE_LOAD));
    const { requests, workload } = replay(traffic, 1, { speed: 0.25 });
    expect(workload.requests).toBe(13);
    expect(requests).toHaveLength(13);
    expect(requests.map((request) => request.timeMs)).toEqual([0, 168, 171, 171, 172, 202, 203, 231, 233, 233, 420, 455, 468].map((offset) => offset * 4));
    expect(requests.map((request) => request.objectId)).toEqual([0, 1, 2, 3, 4, 6, 5, 7, 8, 9, 12, 10, 11]);
    expect(requests[0].sizeBytes).toBe(48213);
  });

  it('DESIGN "Hot path": one pending event at a time (the next request), one reused request record', () => {
    const { pending, records } = replay(SMALL, 1);
    expect(pending).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(records).toBe(1);
  });

  it('DESIGN "Determinism": the same seed gives the same (time, object, region, place) sequence; another seed other places', () => {
    const key = (requests: ClientRequest[]) => requests.map((request) => [request.timeMs, request.objectId, request.region, request.place]);
    const first = replay(SMALL, 42);
    expect(key(replay(SMALL, 42).requests)).toEqual(key(first.requests));
    expect(key(replay(SMALL, 43).requests)).not.toEqual(key(first.requests));
  });

  it('DESIGN "Determinism": regions and places come from the named stream workload.recorded, region then place per request', () => {
    const { requests } = replay(SMALL, 5);
    const stream = new RandomStreams(5).stream('workload.recorded');
    for (const request of requests) {
      let u = stream.next();
      let region = 0;
      while (region < 4 && u >= SHARES[region]) u -= SHARES[region++];
      expect(request.region).toBe(region);
      expect(request.place).toBe(placeFor(places, region, stream.next()));
    }
  });

  it('region shares [0.5, 0.3, 0.2, 0, 0] over 100,000 replayed requests within 0.01; each place is in its request’s region', () => {
    const n = 100_000;
    const traffic = recording(
      Array.from({ length: n }, (_, i) => i % 5),
      Array.from({ length: n }, (_, i) => i * 10),
      [500, 300, 700, 50, 1000],
    );
    const { requests } = replay(traffic, 9);
    expect(requests).toHaveLength(n);
    const counts = [0, 0, 0, 0, 0];
    for (const request of requests) counts[request.region]++;
    for (let region = 0; region < 5; region++) expect(Math.abs(counts[region] / n - SHARES[region])).toBeLessThan(0.01);
    expect(counts[3] + counts[4]).toBe(0);
    for (const request of requests.slice(0, 5_000)) expect(REGIONS.indexOf(places.cities[request.place].region)).toBe(request.region);
  });

  it('rejects a speed ≤ 0, a negative start and a catalogue smaller than the recording (programming errors: RangeError)', () => {
    const catalogue = recordedCatalogue(SMALL, { kind: 'observed' }, new Uint8Array(SMALL.urls.length));
    const streams = new RandomStreams(1);
    expect(() => new RecordedWorkload({ traffic: SMALL, places, speed: 0 }, catalogue, streams)).toThrow(RangeError);
    expect(() => new RecordedWorkload({ traffic: SMALL, places, startMs: -1 }, catalogue, streams)).toThrow(RangeError);
    const bigger = recording([5], [0], [1, 1, 1, 1, 1, 1]);
    expect(() => new RecordedWorkload({ traffic: bigger, places }, catalogue, streams)).toThrow('the catalogue has 5 objects; the recording hand-made.log needs 6');
  });
});
