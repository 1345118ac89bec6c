import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CacheNode } from '../../src/cdn/cacheNode.js';
import { F_KEY, FETCH_WORDS, FetchTable, PendingRequests } from '../../src/cdn/inFlight.js';
import type { LayeredFlow } from '../../src/cdn/layeredFlow.js';
import type { Simulation } from '../../src/sim/simulation.js';
import type { ClassId, FetchId, KeyId, NodeIndex, ObjectId, SimMs } from '../../src/sim/ids.js';

/**
 * Never called: `npm run typecheck` (tsc over test/) checks these bodies, and each
 * `@ts-expect-error` must find a type error on its line, or tsc fails with an unused
 * directive. The unmarked calls are the right order and must compile, so the marked ones
 * fail for the swap and not for the access (bracket access reaches the flow's private
 * methods in TypeScript).
 */
export function swappedArgumentsDoNotCompile(flow: LayeredFlow, node: CacheNode, key: KeyId, objectId: ObjectId, c: ClassId, index: NodeIndex, nowMs: SimMs, responseAtMs: number): void {
  flow['lookedUp'](0, index, -1, key, objectId, 1_000, c, -1);
  // @ts-expect-error issue 24: key and objectId swapped (a hit ratio of the wrong entries)
  flow['lookedUp'](0, index, -1, objectId, key, 1_000, c, -1);
  // @ts-expect-error issue 24: the node's index and its entry handle swapped
  flow['lookedUp'](0, -1, index, key, objectId, 1_000, c, -1);

  flow['lookup'](0, index, key, objectId, 1_000, c, -1);
  // @ts-expect-error issue 24: key and objectId swapped
  flow['lookup'](0, index, objectId, key, 1_000, c, -1);
  // @ts-expect-error issue 24: class and bytes swapped
  flow['lookup'](0, index, key, objectId, c, 1_000, -1);

  const fetch: FetchId = flow['startFetch'](0, index, key, objectId, 1_000, c, -1, -1, 0, 1);
  expect(fetch).toBeTypeOf('number');
  // @ts-expect-error issue 24: key and objectId swapped
  flow['startFetch'](0, index, objectId, key, 1_000, c, -1, -1, 0, 1);

  // An answer's times are no longer passed (issue 27: the clock and the entry are read where they
  // are used), so nowMs and responseAtMs cannot be swapped on the way to `answer`.
  flow['setReplyFromEntry'](node, 0, false);
  flow['answer'](-1, key, 1, 200, 1, 0);
  // @ts-expect-error issue 24: an object id where the answer's key goes
  flow['answer'](-1, objectId, 1, 200, 1, 0);

  node.lookup(key, nowMs);
  // @ts-expect-error issue 24: a derived instant where the clock's reading goes
  node.lookup(key, responseAtMs);
  // @ts-expect-error issue 24: an object id where the cache key goes
  node.lookup(objectId, nowMs);
  node.put(key, 1_000, 0, responseAtMs, 1, 200);
  // @ts-expect-error issue 24: key and bytes swapped
  node.put(1_000, key, 0, responseAtMs, 1, 200);
}

describe('branded ids (issue 24: nine-number parameter lists; src/sim/ids.ts)', () => {
  it('the flow, the cache nodes and the in-flight tables take and give branded ids', () => {
    expectTypeOf<Parameters<CacheNode['lookup']>>().toEqualTypeOf<[key: KeyId, nowMs: SimMs]>();
    expectTypeOf<Parameters<CacheNode['put']>[0]>().toEqualTypeOf<KeyId>();
    expectTypeOf<Simulation['nowMs']>().toEqualTypeOf<SimMs>();
    expectTypeOf<ReturnType<FetchTable['keyOf']>>().toEqualTypeOf<KeyId>();
    expectTypeOf<ReturnType<FetchTable['objectOf']>>().toEqualTypeOf<ObjectId>();
    expectTypeOf<ReturnType<FetchTable['classOf']>>().toEqualTypeOf<ClassId>();
    expectTypeOf<ReturnType<FetchTable['nodeOf']>>().toEqualTypeOf<NodeIndex>();
    expectTypeOf<ReturnType<FetchTable['sentAtOf']>>().toEqualTypeOf<SimMs>();
    expectTypeOf<ReturnType<FetchTable['take']>>().toEqualTypeOf<FetchId>();
    expectTypeOf<ReturnType<PendingRequests['firstKeyOf']>>().toEqualTypeOf<KeyId>();
    expectTypeOf<ReturnType<PendingRequests['edgeOf']>>().toEqualTypeOf<NodeIndex>();
    expectTypeOf(swappedArgumentsDoNotCompile).toBeFunction();
  });

  it('a brand costs nothing at run time: a branded field is a word of the row, its ids plain numbers', () => {
    const fetches = new FetchTable();
    const f = fetches.take();
    fetches.words[f * FETCH_WORDS + F_KEY] = 41 as KeyId;
    expect(fetches.words).toBeInstanceOf(Int32Array);
    expect(f).toBe(0);
    expect(fetches.keyOf(f) + 1).toBe(42);
  });
});
