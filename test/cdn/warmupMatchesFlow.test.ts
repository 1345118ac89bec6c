import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import { CacheWarmer } from '../../src/cdn/cacheWarmer.js';
import type { CacheNode } from '../../src/cdn/cacheNode.js';
import { OriginModel } from '../../src/cdn/origin.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import { CompiledDecisionTable } from '../../src/policy/compile.js';
import { RandomStreams } from '../../src/sim/random.js';
import { IncidentSchedule } from '../../src/cdn/incidentSchedule.js';
import { incidentsSchema, type IncidentInput } from '../../src/workload/incidents/incidentSchema.js';
import { newClientRequest } from '../../src/workload/request.js';
import { FixedNetwork, flowHarness, type SentRequest } from './flowHarness.js';

/**
 * The cache-only warm-up (src/cdn/cacheWarmer.ts) and the layered flow ask the same reuse
 * rule (src/cdn/reuseRule.ts). The warm-up has no time inside the CDN, so they are compared
 * where only the rule decides: the flow on a network whose hops and origin take 0 ms, with
 * requests 37 ms apart (no request waits for another's fetch, no coalescing). There, request
 * by request, the layer that answered and the status must be the same, and every 100
 * requests every entry of every node (status, version, when the origin read it, its zero-age
 * moment, its stored end of freshness, the error held beside it) must be the same too.
 */
const CLASSES = [
  'public, max-age=20, stale-while-revalidate=30',
  'public, max-age=15, stale-if-error=60',
  'public, max-age=10',
  'public, max-age=30, must-revalidate',
];
const OBJECTS = 40;
const INCIDENTS: IncidentInput[] = [
  { kind: 'error-burst', start: '30s', duration: '20s', status: 500, share: '100%' },
  { kind: 'deploy', at: '62.25s', purge: true },
  { kind: 'outage', start: '85s', duration: '10s' },
];

function warmerLikeHarness() {
  const table = new CompiledDecisionTable({ kind: 'container', framework: 'next', cdnEnabled: true });
  for (const cacheControl of CLASSES) table.add({ url: '/objects/object', status: 200, headers: { 'cache-control': cacheControl } });
  const errorClassOf = new Int32Array(100).fill(-1);
  errorClassOf[0] = table.add({ url: '/objects/object', status: 500, headers: {} });
  let nodes = 0;
  const node = () => new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity: 1e9 })), nodes++);
  const edges = [node(), node()];
  const regionals = [node()];
  const incidents = incidentsSchema.parse(INCIDENTS);
  const conditions = new IncidentSchedule(incidents).conditions;
  const slot = conditions.classSlot('objects');
  const origin = new OriginModel(conditions, Int32Array.from(CLASSES, () => slot), null, 100, new RandomStreams(1).stream('origin.errors'), () => 0);
  const classOf = Uint8Array.from({ length: 100 }, (_, o) => o % CLASSES.length);
  const warmer = new CacheWarmer({ network: new FixedNetwork(2, true, true), edges, regionals, decisions: table, errorClassOf, classOf, origin, browsers: null, cdnEnabled: true, purgeDelayMs: 2_000 });
  const request = newClientRequest();
  /** Warms one request: [the layer that answered (0 PoP, 1 regional site, 2 origin), error or not]. */
  const send = (sent: SentRequest): [number, boolean] => {
    const { edgeHits, cdnHits, errors } = warmer.counts;
    Object.assign(request, { timeMs: sent.timeMs, objectId: sent.objectId, region: sent.region, key: sent.objectId, sizeBytes: 1_000, objectBytes: 1_000 });
    warmer.warm(request);
    const layer = warmer.counts.edgeHits > edgeHits ? 0 : warmer.counts.cdnHits > cdnHits ? 1 : 2;
    return [layer, warmer.counts.errors > errors];
  };
  return { send, nodes: [...edges, ...regionals] };
}

/** Every entry a node holds for keys 0..OBJECTS−1, field by field. */
function stateOf(nodes: readonly CacheNode[]): (number[] | null)[][] {
  return nodes.map((node) =>
    Array.from({ length: OBJECTS }, (_, key) => {
      const local = node.store.storedLocalOf(key);
      return local < 0 ? null : [node.statusOf(local), node.versionOf(local), node.versionAtOf(local), node.responseAtOf(local), node.errorUntilOf(local)];
    }),
  );
}

describe('the cache-only warm-up leaves the caches as the flow does where the reuse rule decides (spec 4.7, 7.1, 1.2 item 6; RFC 9111 §4.2, §4.2.4; RFC 5861 §3–4)', () => {
  it('3,000 requests over 4 classes (stale-while-revalidate, stale-if-error, plain max-age, must-revalidate), a 20 s 500 burst, a deploy with purge and a 10 s outage: the same answers and, every 100 requests, the same entries', () => {
    const flow = flowHarness({ headers: { 'cache-control': CLASSES[0] }, moreClasses: CLASSES.slice(1).map((cc) => ({ 'cache-control': cc })), instantaneous: true, edges: 2, coalescing: false, incidents: INCIDENTS });
    const warm = warmerLikeHarness();
    const stream = new RandomStreams(11).stream('warm-up against flow');
    const draw = (n: number): number => Math.floor(stream.next() * n);
    const sent: SentRequest[] = Array.from({ length: 3_000 }, (_, i) => ({ timeMs: i * 37, objectId: draw(OBJECTS), region: draw(2) }));
    const flowNodes = [...flow.edges, ...flow.regionals];
    // The flow's entries every 100 requests, read 18 ms after the 100th (its work is done: 0 ms hops).
    const flowStates: (number[] | null)[][][] = [];
    const snapshot = flow.simulation.defineEvent('test.snapshot', () => flowStates.push(stateOf(flowNodes)));
    for (let last = 99; last < sent.length; last += 100) flow.simulation.schedule(sent[last].timeMs + 18, snapshot, 0);
    const answers = {
      flow: flow.run(sent).map((done): [number, boolean] => [done.layer, done.status !== 200]),
      warm: [] as [number, boolean][],
    };
    expect(flowStates).toHaveLength(30);
    let heldErrors = 0;
    let cachedErrors = 0;
    for (let block = 0; block < 30; block++) {
      const from = block * 100;
      answers.warm.push(...sent.slice(from, from + 100).map(warm.send));
      expect(answers.warm.slice(from), `requests ${from}–${from + 99}`).toEqual(answers.flow.slice(from, from + 100));
      const state = flowStates[block];
      expect(stateOf(warm.nodes), `entries after request ${from + 99}`).toEqual(state);
      for (const entry of state.flat()) {
        if (entry !== null && entry[0] === 200 && entry[4] > sent[from + 99].timeMs) heldErrors++;
        if (entry !== null && entry[0] === 500) cachedErrors++;
      }
    }
    // Every branch of the rule occurred in the flow: count what the requests met.
    const count = (predicate: (request: SentRequest, answer: [number, boolean]) => boolean) => sent.filter((request, i) => predicate(request, answers.flow[i])).length;
    const inBurst = (request: SentRequest) => request.timeMs >= 30_000 && request.timeMs < 50_000;
    // The cached 500 reached clients of plain max-age=10 and must-revalidate (no permission to serve stale, RFC 9111 §4.2.4)…
    expect(count((request, [, error]) => error && inBurst(request) && request.objectId! % 4 >= 2)).toBeGreaterThan(20);
    // …never those of stale-while-revalidate or stale-if-error (RFC 5861 §3–4), whose copies answered.
    expect(count((request, [, error]) => error && request.objectId! % 4 < 2)).toBe(0);
    // During the outage (spec 4.7 row 1) plain max-age=10 is served stale; must-revalidate gets a 502.
    const inOutage = (request: SentRequest) => request.timeMs >= 85_000 && request.timeMs < 95_000;
    expect(count((request, [, error]) => error && inOutage(request) && request.objectId! % 4 === 2)).toBe(0);
    expect(count((request, [, error]) => error && inOutage(request) && request.objectId! % 4 === 3)).toBeGreaterThan(0);
    // The purge (at every node from 64.25 s) sent old copies back to the origin.
    expect(count((request, [layer]) => layer === 2 && request.timeMs >= 64_250 && request.timeMs < 66_000)).toBeGreaterThan(10);
    // Errors held beside copies and cached errors were among the entries compared (spec 7.1).
    expect(heldErrors).toBeGreaterThan(0);
    expect(cachedErrors).toBeGreaterThan(0);
  });
});
