import { describe, expect, it } from 'vitest';
import { HttpCacheNode, type HttpRequest, type HttpResponse, type NodeAnswer, type Upstream } from '../../src/cdn/httpCacheNode.js';
import {
  OUTCOME_CACHED_ERROR,
  OUTCOME_REVALIDATED,
  OUTCOME_STALE_ON_ERROR,
  OUTCOME_STALE_ON_REFUSED,
  OUTCOME_STALE_WHILE_REVALIDATE,
  type CompletedRequest,
} from '../../src/cdn/layeredFlow.js';
import { RandomStreams } from '../../src/sim/random.js';
import { CROSS_CHECK_CLASSES, flowHarness, type SentRequest } from './flowHarness.js';

/**
 * One behaviour, two paths: the layered flow (compiled decisions, typed arrays, the hot
 * path) and a chain of header-level HttpCacheNodes (whole HTTP messages, the policy engine
 * run on every exchange) answer the same requests, on the same clock, from the same origin,
 * and must agree on every request's outcome. The network is instantaneous (every hop 0 ms),
 * the one setting in which a synchronous chain and the clocked flow see the same moments;
 * coalescing needs time in flight and is tested on its own (layeredFlow.test.ts). What only
 * time shows (coalescing, background revalidations, ages that grow on the way) is compared
 * with the timed reference instead (timedReference.test.ts, docs/timed-reference.md).
 */
const CLASSES = CROSS_CHECK_CLASSES;
const OBJECTS = 25;
const OUTAGE = { from: 600_000, to: 700_000 };
const BURST = { from: 1_200_000, to: 1_380_000 };
const DEPLOYS = [1_800_000, 2_400_000];
const PURGED_DEPLOY = 2_400_000;
const PURGE_DELAY_MS = 2_000;

/** Requests one second apart (whole seconds, as HTTP dates and Age count), over two PoPs; one in ten a 5 MB chunk. */
function requests(count: number): SentRequest[] {
  const stream = new RandomStreams(7).stream('differential');
  return Array.from({ length: count }, (_, i) => {
    // Popular objects more often: the square of a uniform draw leans to small ids.
    const objectId = Math.floor(stream.next() ** 2 * OBJECTS);
    const region = stream.next() < 0.5 ? 0 : 1;
    const chunk = stream.next() < 0.1 ? Math.floor(stream.next() * 3) : -1;
    return chunk < 0 ? { timeMs: 1_000 * (i + 1), objectId, region } : { timeMs: 1_000 * (i + 1), objectId, region, firstChunk: chunk, pieces: 1, objectBytes: 20e6 };
  });
}

function urlOf(sent: SentRequest): string {
  return sent.firstChunk === undefined ? `/objects/o${sent.objectId}` : `/objects/o${sent.objectId}/chunk${sent.firstChunk}`;
}

/** What happened to a request, as both paths can say it. */
function flowOutcome(done: CompletedRequest): string {
  const layer = ['edge', 'regional', 'origin'][done.layer];
  if (done.status >= 400) return done.outcome & OUTCOME_CACHED_ERROR ? `cached ${done.status} from ${layer}` : `error ${done.status}`;
  if (done.outcome & (OUTCOME_STALE_WHILE_REVALIDATE | OUTCOME_STALE_ON_ERROR | OUTCOME_STALE_ON_REFUSED)) return 'stale';
  if (done.outcome & OUTCOME_REVALIDATED) return 'revalidated';
  return layer === 'origin' ? 'miss' : `hit at ${layer}`;
}

/** Whether a node answered from a stale copy (its reasons cite RFC 5861: stale-while-revalidate or stale on error). */
const servedStale = (answer: NodeAnswer): boolean => answer.reasons.some((why) => why.source === 'RFC 5861 §3' || why.source === 'spec 4.7, RFC 5861 §4');

function chainOutcome(edge: NodeAnswer, regional: NodeAnswer | undefined): string {
  const status = edge.response.status;
  // A PoP that revalidated against a regional site answering from its stale copy serves stale content.
  if (edge.outcome === 'revalidated' && regional !== undefined && servedStale(regional)) return 'stale';
  switch (edge.outcome) {
    case 'hit':
      return status >= 400 ? `cached ${status} from edge` : 'hit at edge';
    case 'stale-while-revalidate':
    case 'stale-on-error':
      return 'stale';
    case 'revalidated':
      return 'revalidated';
    default:
      if (regional === undefined) throw new Error(`the edge answered ${edge.outcome} without asking the regional site`);
      if (status >= 400) return regional.outcome === 'hit' ? `cached ${status} from regional` : `error ${status}`;
      if (servedStale(regional)) return 'stale';
      switch (regional.outcome) {
        case 'hit':
          return 'hit at regional';
        case 'stale-while-revalidate':
        case 'stale-on-error':
          return 'stale';
        case 'revalidated':
        case 'not-modified-to-client':
          return 'revalidated';
        default:
          return 'miss';
      }
  }
}

/** The header-level chain: two edges over one regional site over an origin that follows the same incidents. */
function httpChain() {
  let now = 0;
  const deployment = { kind: 'container' as const, framework: 'next', cdnEnabled: true };
  const date = () => new Date(now).toUTCString();
  const origin = (request: HttpRequest): HttpResponse | undefined => {
    if (now >= OUTAGE.from && now < OUTAGE.to) return undefined;
    if (now >= BURST.from && now < BURST.to) return { status: 500, headers: new Map([['date', date()]]), body: 'error' };
    const objectId = Number(/o(\d+)/.exec(request.url)![1]);
    const etag = `"v${DEPLOYS.filter((at) => at <= now).length}"`;
    const headers = new Map([
      ['date', date()],
      ['etag', etag],
      ['cache-control', CLASSES[objectId % CLASSES.length]],
    ]);
    if (request.headers.get('if-none-match') === etag) return { status: 304, headers, body: '' };
    return { status: 200, headers, body: 'x' };
  };
  /** Per node (0: the regional site, 1 + i: PoP i) and URL: the ETag of the last response its upstream gave it, the version it holds. */
  const heldVersion = new Map<string, string>();
  const recording =
    (node: number, ask: Upstream): Upstream =>
    (request) => {
      const response = ask(request);
      const etag = response?.headers.get('etag');
      if (response !== undefined && response.status < 500 && etag !== undefined) heldVersion.set(`${node} ${request.url}`, etag);
      return response;
    };
  let regionalAnswer: NodeAnswer | undefined;
  const regional = new HttpCacheNode({ layer: 'regional', deployment, upstream: recording(0, origin), now: () => now });
  const upstream = (request: HttpRequest): HttpResponse => {
    regionalAnswer = regional.handle(request);
    return regionalAnswer.response;
  };
  const edges = [0, 1].map((i) => new HttpCacheNode({ layer: 'edge', deployment, upstream: recording(1 + i, upstream), now: () => now }));
  // spec 1.2 item 6, by version: the purge drops what predates the deploy; a copy of the
  // deploy's version, fetched while the purge was on its way, stays.
  const deployedVersion = `"v${DEPLOYS.filter((at) => at <= PURGED_DEPLOY).length}"`;
  let purged = false;
  return (sent: SentRequest): string => {
    now = sent.timeMs;
    if (!purged && now >= PURGED_DEPLOY + PURGE_DELAY_MS) {
      purged = true;
      for (let o = 0; o < OBJECTS; o++) {
        for (const url of [`/objects/o${o}`, `/objects/o${o}/chunk0`, `/objects/o${o}/chunk1`, `/objects/o${o}/chunk2`]) {
          [regional, ...edges].forEach((node, n) => {
            if (heldVersion.get(`${n} ${url}`) !== deployedVersion) node.purge(url);
          });
        }
      }
    }
    regionalAnswer = undefined;
    const edge = edges[sent.region ?? 0].handle({ method: 'GET', url: urlOf(sent), headers: new Map() });
    return chainOutcome(edge, regionalAnswer);
  };
}

describe('one behaviour, two paths: the layered flow against a chain of HttpCacheNodes', () => {
  it('3,000 requests with stale-while-revalidate, no-cache, must-revalidate, no-store, an outage, a 500 burst, deploys with and without purge, and chunks: the same outcome for every request', () => {
    const sent = requests(3_000);
    const { run } = flowHarness({
      headers: { 'cache-control': CLASSES[0] },
      moreClasses: CLASSES.slice(1).map((cacheControl) => ({ 'cache-control': cacheControl })),
      instantaneous: true,
      edges: 2,
      purgeDelayMs: PURGE_DELAY_MS,
      incidents: [
        { kind: 'outage', start: `${OUTAGE.from}ms`, duration: `${OUTAGE.to - OUTAGE.from}ms` },
        { kind: 'error-burst', start: `${BURST.from}ms`, duration: `${BURST.to - BURST.from}ms`, status: 500, share: 1 },
        { kind: 'deploy', at: `${DEPLOYS[0]}ms` },
        { kind: 'deploy', at: `${DEPLOYS[1]}ms`, purge: true },
      ],
    });
    const flowOutcomes = run(sent).map(flowOutcome);
    const chain = httpChain();
    const chainOutcomes = sent.map(chain);
    const differences = sent.flatMap((request, i) =>
      flowOutcomes[i] === chainOutcomes[i] ? [] : [`#${i} t=${request.timeMs / 1000}s ${urlOf(request)} via PoP ${request.region}: flow ${flowOutcomes[i]}, chain ${chainOutcomes[i]}`],
    );
    expect(differences.slice(0, 10)).toEqual([]);
    // Every kind of outcome occurs, so the comparison covers each rule.
    const kinds = new Set(flowOutcomes);
    for (const kind of ['hit at edge', 'hit at regional', 'miss', 'revalidated', 'stale', 'error 502', 'error 500', 'cached 500 from edge', 'cached 500 from regional']) expect(kinds).toContain(kind);
  });
});
