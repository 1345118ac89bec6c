import { describe, expect, it } from 'vitest';
import {
  OUTCOME_CACHED_ERROR,
  OUTCOME_COALESCED_EDGE,
  OUTCOME_COALESCED_REGIONAL,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
  type CompletedRequest,
  type LayerActivity,
} from '../../src/cdn/layeredFlow.js';
import { RandomStreams } from '../../src/sim/random.js';
import { runReference, type ReferenceCounters, type ReferenceRecord, type ReferenceRequest, type ReferenceScenario } from '../support/timedReference.js';
import { CROSS_CHECK_CLASSES, flowHarness, type SentRequest } from './flowHarness.js';

/**
 * The layered flow against the timed reference (test/support/timedReference.ts): the same
 * requests on the same clock, with hops that take seconds, so that a request arrives while
 * another's fetch is in flight, copies age on their way down, and errors are cached while
 * requests keep coming. Requests leave on whole seconds and the origin answers on whole
 * seconds, so every Date and Age the reference reads is exact (HTTP counts whole seconds);
 * incidents and purges fall on quarter seconds, so no message ties with them.
 */
const CLASSES = [...CROSS_CHECK_CLASSES, 'public, max-age=12, stale-while-revalidate=8, stale-if-error=600'];
const OBJECTS = 30;
/**
 * Short hops, one way: PoP → regional 0.5 s, regional → origin 0.5 s, no service time: a cold
 * miss is back at the PoP 2 s after it left, a copy 1 s old at the regional site and 3 s old
 * at the PoP (RFC 9111 §4.2.3: Age 1 plus the PoP's 2 s response delay), so a 500 is cached
 * there 2 s and at the regional site 4 s (spec 7.1: 5 s less its age).
 */
const SHORT_HOPS = { clientLegMs: 20, regionalHalfMs: 500, originHalfMs: 500, serviceMs: 0 };
/** Long hops: 1 s, 2 s and 1 s of service: a copy reaches the PoP 12 s old (Age 5 + 7 s), and a cached error is never fresh there. */
const LONG_HOPS = { clientLegMs: 20, regionalHalfMs: 1_000, originHalfMs: 2_000, serviceMs: 1_000 };

function scenario(hops: ReferenceScenario['hops'], coalescing: boolean): ReferenceScenario {
  return {
    classes: CLASSES,
    edges: 2,
    hops,
    coalescing,
    outages: [{ from: 300_250, to: 350_250 }],
    bursts: [{ from: 600_250, to: 690_250 }],
    deploys: [
      { at: 900_250, purge: false },
      { at: 1_200_250, purge: true },
    ],
    purgeDelayMs: 2_000,
    browsers: true,
  };
}

/** Two requests a second (both on the whole second) over two PoPs from 40 clients with browser caches; one in ten asks for one or two 5 MB chunks. */
function requests(count: number): ReferenceRequest[] {
  const stream = new RandomStreams(11).stream('timed-reference');
  return Array.from({ length: count }, (_, n) => {
    const i = Math.floor(n / 2);
    // Popular objects more often: the square of a uniform draw leans to small ids.
    const objectId = Math.floor(stream.next() ** 2 * OBJECTS);
    const region = stream.next() < 0.5 ? 0 : 1;
    const client = Math.floor(stream.next() * 40);
    const chunked = stream.next() < 0.1;
    const request: ReferenceRequest = { timeMs: 1_000 * (i + 1), objectId, region, client };
    if (chunked) {
      request.firstChunk = Math.floor(stream.next() * 3);
      request.pieces = stream.next() < 0.5 ? 1 : 2;
    }
    return request;
  });
}

function runFlow(reference: ReferenceScenario, sent: readonly ReferenceRequest[]) {
  const harness = flowHarness({
    headers: { 'cache-control': CLASSES[0] },
    moreClasses: CLASSES.slice(1).map((cacheControl) => ({ 'cache-control': cacheControl })),
    hops: { clientLegMs: reference.hops.clientLegMs, regionalHopMs: 2 * reference.hops.regionalHalfMs, originRttMs: 2 * reference.hops.originHalfMs, serviceMs: reference.hops.serviceMs },
    edges: reference.edges,
    coalescing: reference.coalescing,
    purgeDelayMs: reference.purgeDelayMs,
    browserClients: reference.browsers ? 40 : undefined,
    incidents: [
      ...reference.outages.map((o) => ({ kind: 'outage' as const, start: `${o.from}ms`, duration: `${o.to - o.from}ms` })),
      ...reference.bursts.map((b) => ({ kind: 'error-burst' as const, start: `${b.from}ms`, duration: `${b.to - b.from}ms`, status: 500, share: 1 })),
      ...reference.deploys.map((d) => ({ kind: 'deploy' as const, at: `${d.at}ms`, ...(d.purge ? { purge: true } : {}) })),
    ],
  });
  const flowRequests: SentRequest[] = sent.map((r) =>
    r.firstChunk === undefined
      ? { timeMs: r.timeMs, objectId: r.objectId, region: r.region, client: r.client }
      : { timeMs: r.timeMs, objectId: r.objectId, region: r.region, client: r.client, firstChunk: r.firstChunk, pieces: r.pieces, objectBytes: 20e6 },
  );
  const done = harness.run(flowRequests);
  return { done, flow: harness.flow };
}

const BITS: [number, string][] = [
  [OUTCOME_COALESCED_EDGE, 'coalesced@edge'],
  [OUTCOME_COALESCED_REGIONAL, 'coalesced@regional'],
  [OUTCOME_REVALIDATED, 'revalidated'],
  [OUTCOME_STALE_WHILE_REVALIDATE, 'stale-while-revalidate'],
  [OUTCOME_STALE_ON_ERROR, 'stale-on-error'],
  [OUTCOME_STALE_ON_REFUSED, 'stale-on-refused'],
  [OUTCOME_CACHED_ERROR, 'cached-error'],
];

/** One request's line, as both paths can say it. */
function describeRecord(record: ReferenceRecord): string {
  const layer = record.layer;
  const bits = BITS.filter(([bit]) => record.outcome & bit).map(([, name]) => name);
  return `${record.status} from ${layer} [${bits.join(' ')}] ttfb ${record.latencyMs} ms stale ${record.staleForMs}`;
}

/** The work counters the reference keeps per node layer (byte counts are checked by their own tests). */
function work(activity: LayerActivity): ReferenceCounters['layers'][number] {
  return { coalesced: activity.coalesced, fetches: activity.fetches, backgroundRevalidations: activity.backgroundRevalidations, notModified: activity.notModified };
}

function compare(reference: ReferenceScenario, count: number) {
  const sent = requests(count);
  const { done, flow } = runFlow(reference, sent);
  const { records, counters } = runReference(reference, sent);
  const flowRecord = (completed: CompletedRequest): ReferenceRecord => ({ ...completed, layer: flow.layers.names[completed.layer] });
  const differences = sent.flatMap((request, i) => {
    const flowLine = describeRecord(flowRecord(done[i]));
    const referenceLine = describeRecord(records[i]);
    return flowLine === referenceLine ? [] : [`#${i} t=${request.timeMs / 1000}s o${request.objectId}${request.firstChunk === undefined ? '' : ` chunk${request.firstChunk}×${request.pieces}`} via PoP ${request.region}: flow ${flowLine} | reference ${referenceLine}`];
  });
  return { differences, done: done.map(flowRecord), records, counters, flow };
}

describe('the layered flow against the timed reference (HTTP messages through the policy engine, on the same clock)', () => {
  it('RFC 9111 §4.2.3, §4.3, RFC 5861 §3-4, spec 4.7, 4.8, 4.9, 7.1, 1.2 item 6: 3,000 requests with hops of seconds, browsers, coalescing, stale-while-revalidate, 304s, an outage, a 500 burst, deploys with and without purge, and chunks: the same answer for every request', () => {
    const { differences, done, counters, flow } = compare(scenario(SHORT_HOPS, true), 3_000);
    expect(differences.slice(0, 10)).toEqual([]);
    // The same work upstream: every fetch, coalesced wait, background revalidation and 304.
    expect(flow.layerActivity.map(work)).toEqual(counters.layers);
    const { requests: originRequests, refused, errors, notModified } = flow.originActivity;
    expect({ requests: originRequests, refused, errors, notModified }).toEqual(counters.origin);
    // Every kind of answer occurs, so the comparison covers each rule.
    const lines = new Set(done.map(describeRecord).map((line) => line.replace(/ ttfb.*/, '')));
    for (const kind of [
      '200 from browser []',
      '200 from edge []',
      '200 from regional []',
      '200 from origin []',
      '200 from origin [coalesced@edge]',
      '200 from origin [coalesced@regional]',
      '200 from origin [revalidated]',
      '200 from origin [revalidated stale-while-revalidate]',
      '200 from edge [stale-while-revalidate]',
      '200 from regional [revalidated stale-while-revalidate]',
      '200 from regional [stale-on-refused]',
      '200 from regional [revalidated stale-on-error]',
      '500 from origin []',
      '500 from edge [cached-error]',
      '500 from regional [cached-error]',
      '500 from origin [coalesced@edge coalesced@regional]',
      '502 from origin []',
      '502 from origin [coalesced@edge]',
    ]) {
      expect(lines).toContain(kind);
    }
  });

  it('RFC 9111 §4.2.3: with long hops (copies reach the PoP 12 s old), the same answer for every request and the same work upstream', () => {
    const { differences, counters, flow } = compare(scenario(LONG_HOPS, true), 3_000);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(flow.layerActivity.map(work)).toEqual(counters.layers);
  });

  it('spec 4.9: with coalescing off, the same answer for every request and the same work upstream', () => {
    const { differences, counters, flow } = compare(scenario(SHORT_HOPS, false), 3_000);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(flow.layerActivity.map(work)).toEqual(counters.layers);
    expect(flow.layerActivity[0].coalesced).toBe(0);
  });
});
