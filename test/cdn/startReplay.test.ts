import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import { CacheWarmer } from '../../src/cdn/cacheWarmer.js';
import type { CacheNode } from '../../src/cdn/cacheNode.js';
import type { FlowWiring } from '../../src/cdn/flowWiring.js';
import { IncidentSchedule } from '../../src/cdn/incidentSchedule.js';
import { LruCacheNode } from '../../src/cdn/lruCacheNode.js';
import { OriginModel } from '../../src/cdn/origin.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import { LruStartReplay } from '../../src/cdn/startReplay.js';
import { CompiledDecisionTable } from '../../src/policy/compile.js';
import { RandomStreams } from '../../src/sim/random.js';
import { incidentsSchema } from '../../src/workload/incidents/incidentSchema.js';
import { fillWholeObject, newClientRequest } from '../../src/workload/request.js';
import type { KeyId } from '../../src/sim/ids.js';
import { FixedNetwork } from './flowHarness.js';

/** PoP e behind regional site e mod `sites` (none when 0); a request's region is its PoP. */
class SitesNetwork extends FixedNetwork {
  constructor(
    edges: number,
    private readonly sites: number,
  ) {
    super(edges, sites > 0, true);
  }
  override regionalOf(edge?: number): number {
    return this.sites > 0 ? (edge ?? 0) % this.sites : -1;
  }
}

interface Setup {
  edgeCapacities: number[];
  regionalCapacities: number[];
  cacheControl?: string;
  lru?: boolean;
  incidents?: boolean;
}

function wiringFor(setup: Setup): FlowWiring {
  const table = new CompiledDecisionTable({ kind: 'container', framework: 'next', cdnEnabled: true });
  table.add({ url: '/objects/object', status: 200, headers: { 'Cache-Control': setup.cacheControl ?? 'public, max-age=600' } });
  const node = (capacity: number, id: number): CacheNode =>
    setup.lru === false ? new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity })), id) : new LruCacheNode(capacity, id);
  const edges = setup.edgeCapacities.map((capacity, e) => node(capacity, e));
  const regionals = setup.regionalCapacities.map((capacity, r) => node(capacity, edges.length + r));
  const incidents = incidentsSchema.parse(setup.incidents === true ? [{ kind: 'outage', start: '10s', duration: '5s' }] : []);
  const conditions = incidents.length > 0 ? new IncidentSchedule(incidents).conditions : null;
  const slot = conditions === null ? 0 : conditions.classSlot('objects');
  const origin = new OriginModel(conditions, Int32Array.of(slot), null, 1000, new RandomStreams(1).stream('origin.errors'), () => 0);
  const errorClassOf = new Int32Array(100).fill(-1);
  return { network: new SitesNetwork(edges.length, regionals.length), edges, regionals, decisions: table, errorClassOf, classOf: null, origin, browsers: null, cdnEnabled: true, purgeDelayMs: 0 };
}

/** One request of the replay: the whole of `id` (`bytes`) at PoP `edge`, at time 0. */
type Replayed = readonly [edge: number, id: number, bytes: number];

function replayedOneByOne(wiring: FlowWiring, requests: readonly Replayed[]): void {
  const warmer = new CacheWarmer(wiring);
  const request = newClientRequest();
  for (const [edge, id, bytes] of requests) {
    request.region = edge;
    fillWholeObject(request, id, bytes);
    warmer.warm(request);
  }
}

function replayedAtOnce(wiring: FlowWiring, requests: readonly Replayed[]): void {
  const replay = new LruStartReplay(wiring, requests.length);
  for (const [edge, id, bytes] of requests) replay.add(edge, id, bytes, 0);
  replay.install();
}

/**
 * What `node` holds of `ids`, least recent first, with each copy's fields: read off by
 * evicting one object at a time (a new object as large as the free bytes plus one evicts
 * exactly the least recent one, whose size is at least 1 byte).
 */
function holdings(node: CacheNode, ids: readonly number[]): string[] {
  const held = (): number[] => ids.filter((id) => node.store.storedLocalOf(id) >= 0);
  const out = held().map((id) => {
    const local = node.store.storedLocalOf(id);
    return `${id}: v${node.versionOf(local)} s${node.statusOf(local)} at ${node.responseAtOf(local)}/${node.versionAtOf(local)}`;
  });
  const order: number[] = [];
  let probe = 1_000_000;
  for (let left = held(); left.length > 0; ) {
    node.put(probe++ as KeyId, node.store.capacity - node.store.occupancy + 1, 0, 0, 0, 200);
    const now = held();
    expect(left.length - now.length).toBe(1);
    order.push(...left.filter((id) => !now.includes(id)));
    left = now;
  }
  return [...out, `order ${order.join(' ')}`];
}

describe('LruStartReplay: a model class stacks through empty LRU caches at time 0, derived (docs/traffic-models.md, "The model\'s warm-up in a run")', () => {
  it('spec 4.9: each edge keeps its last objects that fit, the regional site its last distinct ones (a later request of a shared object is a hit that moves it up)', () => {
    // PoP 0: A 4, B 3, C 5 (bottom to top); PoP 1: D 2, B 3, E 6, F 20 (larger than an edge). Edges 9 bytes, the site 15.
    const requests: Replayed[] = [
      [0, 1, 4],
      [1, 4, 2],
      [0, 2, 3],
      [0, 3, 5],
      [1, 2, 3],
      [1, 5, 6],
      [1, 6, 20],
    ];
    const wiring = wiringFor({ edgeCapacities: [9, 9], regionalCapacities: [15] });
    expect(LruStartReplay.applies(wiring, [0], false)).toBe(true);
    replayedAtOnce(wiring, requests);
    const ids = [1, 2, 3, 4, 5, 6];
    // PoP 0: C 5 + B 3 = 8, A would make 12. PoP 1: F never stored (20 > 9), E 6 + B 3 = 9, D would make 11.
    expect(holdings(wiring.edges[0], ids).at(-1)).toBe('order 2 3');
    expect(holdings(wiring.edges[1], ids).at(-1)).toBe('order 2 5');
    // The site, newest first: F 20 (larger than 15: left out), E 6, B 3 (9: PoP 1's request, a hit that moved B above C), C 5 (14), D would make 16.
    // So, oldest first: C, B (by its hit, not by PoP 0's first request before C), E.
    expect(holdings(wiring.regionals[0], ids)).toEqual(['2: v0 s200 at 0/0', '3: v0 s200 at 0/0', '5: v0 s200 at 0/0', 'order 3 2 5']);
  });

  it('spec 4.9: the same caches, contents, copies and recency order, as CacheWarmer.warm request by request (random stacks, sharing and capacities)', () => {
    const scenario = fc
      .record({
        edges: fc.integer({ min: 1, max: 5 }),
        sites: fc.integer({ min: 0, max: 2 }),
        edgeBytes: fc.integer({ min: 1, max: 60 }),
        siteBytes: fc.integer({ min: 1, max: 150 }),
        sizes: fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 30, maxLength: 30 }),
        // (PoP, object) draws: an object once per PoP (a stack holds it once), shared across PoPs.
        draws: fc.array(fc.tuple(fc.nat(4), fc.nat(29)), { maxLength: 120 }),
      })
      .map(({ edges, sites, edgeBytes, siteBytes, sizes, draws }) => {
        const seen = new Set<string>();
        const requests: Replayed[] = [];
        for (const [p, id] of draws) {
          const edge = p % edges;
          if (seen.has(`${edge}:${id}`)) continue;
          seen.add(`${edge}:${id}`);
          requests.push([edge, id, sizes[id]]);
        }
        const setup = { edgeCapacities: Array.from({ length: edges }, (_, e) => edgeBytes + 7 * e), regionalCapacities: Array.from({ length: sites }, (_, r) => siteBytes + 11 * r) };
        return { setup, requests };
      });
    fc.assert(
      fc.property(scenario, ({ setup, requests }) => {
        const oneByOne = wiringFor(setup);
        const atOnce = wiringFor(setup);
        replayedOneByOne(oneByOne, requests);
        replayedAtOnce(atOnce, requests);
        const ids = Array.from({ length: 30 }, (_, id) => id);
        [...oneByOne.edges, ...oneByOne.regionals].forEach((node, n) => {
          const other = [...atOnce.edges, ...atOnce.regionals][n];
          expect(other.store.occupancy).toBe(node.store.occupancy);
          expect(holdings(other, ids)).toEqual(holdings(node, ids));
        });
      }),
      { numRuns: 150, seed: 28 },
    );
  });

  it('where the outcome is not derived: another eviction policy, a cache not empty, curves, an origin that may fail, a class not stored or stale at age 0', () => {
    const base = { edgeCapacities: [100], regionalCapacities: [100] };
    expect(LruStartReplay.applies(wiringFor(base), [0], false)).toBe(true);
    expect(LruStartReplay.applies(wiringFor(base), [0], true)).toBe(false);
    expect(LruStartReplay.applies(wiringFor({ ...base, lru: false }), [0], false)).toBe(false);
    expect(LruStartReplay.applies(wiringFor({ ...base, incidents: true }), [0], false)).toBe(false);
    // spec 4.9: a class the edges may not store; RFC 9111 §4.2: a copy stale at age 0 is revalidated, not a hit.
    expect(LruStartReplay.applies(wiringFor({ ...base, cacheControl: 'no-store' }), [0], false)).toBe(false);
    expect(LruStartReplay.applies(wiringFor({ ...base, cacheControl: 'public, max-age=0' }), [0], false)).toBe(false);
    const used = wiringFor(base);
    used.regionals[0].put(7 as KeyId, 10, 0, 0, 0, 200);
    expect(LruStartReplay.applies(used, [0], false)).toBe(false);
  });
});
