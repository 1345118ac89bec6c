import { describe, expect, it } from 'vitest';
import { createCacheStore } from '../../src/cache/registry.js';
import { SparseKeyStore } from '../../src/cache/sparseKeyStore.js';
import type { CompletedRequest, LayeredFlowOptions } from '../../src/cdn/layeredFlow.js';
import { OriginModel } from '../../src/cdn/origin.js';
import { SharedCacheNode } from '../../src/cdn/sharedCacheNode.js';
import { CompiledDecisionTable } from '../../src/policy/compile.js';
import { CacheWarmup } from '../../src/experiment/cacheWarmup.js';
import { RunLifecycle, type RunBounds, type RunPhase, type RunProgress } from '../../src/experiment/runLifecycle.js';
import { runPhaseText } from '../../src/cli/progressBar.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import type { CacheWarmupLength } from '../../src/scenario/warmupSchema.js';
import { RandomStreams } from '../../src/sim/random.js';
import { Simulation } from '../../src/sim/simulation.js';
import { newClientRequest, type RequestSink } from '../../src/workload/request.js';
import { FixedNetwork } from '../cdn/flowHarness.js';
import { runLayers } from '../../src/cdn/runLayers.js';

/**
 * One PoP without a tier on fixed hops (test/cdn/flowHarness.ts): a miss is answered
 * 20 (client leg) + 100 (PoP ↔ origin) + 50 (origin service) = 170 ms after it is sent,
 * its fetch back at the PoP 150 ms after it left. A client sends a request every 100 ms
 * from t = 0 for object i % `objects`, for ever: only the life cycle ends the run.
 */
function lifecycleFor(cacheControl: string, bounds: Partial<RunBounds>, options: { objects?: number; cacheWarmup?: CacheWarmupLength } = {}) {
  const simulation = new Simulation();
  const decisions = new CompiledDecisionTable({ kind: 'container', framework: 'next', cdnEnabled: true });
  decisions.add({ url: '/objects/object', status: 200, headers: { 'Cache-Control': cacheControl } });
  const network = new FixedNetwork(1, false, false);
  const flow: Omit<LayeredFlowOptions, 'onComplete'> = {
    simulation,
    network,
    edges: [new SharedCacheNode(new SparseKeyStore(createCacheStore('lru', { capacity: 1e9 })), 0)],
    regionals: [],
    decisions,
    errorClassOf: new Int32Array(100).fill(-1),
    classOf: null,
    origin: new OriginModel(null, Int32Array.of(0), null, 100, new RandomStreams(1).stream('origin.errors'), () => 50),
    browsers: null,
    coalescing: true,
    validators: true,
    cdnEnabled: true,
    purgeDelayMs: 2_000,
    layers: runLayers(false, false),
  };
  const objects = options.objects ?? 10;
  const request = newClientRequest();
  const phasesSeen: RunPhase[] = [];
  let watched: RunLifecycle | null = null;
  const workload = {
    attach(sim: Simulation, sink: RequestSink): void {
      let i = 0;
      const arrive = sim.defineEvent('test.arrive', () => {
        Object.assign(request, { timeMs: sim.nowMs, objectId: i % objects, key: i % objects, region: 0, sizeBytes: 1_000, objectBytes: 1_000, pieces: 1, firstChunk: -1, rangeStart: -1, clientSlot: -1 });
        i++;
        sim.scheduleAfter(100, arrive);
        sink(request);
        if (watched !== null) phasesSeen.push(watched.phase);
      }, { arrivals: true });
      sim.schedule(0, arrive);
    },
  };
  const answered = { all: 0, measured: 0, measuredSeqs: [] as number[] };
  const recorder = {
    recordAny: (): void => void answered.all++,
    record: (done: CompletedRequest): void => {
      answered.measured++;
      answered.measuredSeqs.push(done.seq);
    },
  };
  const lifecycle = new RunLifecycle({
    simulation,
    workload,
    flow,
    recorder,
    timeline: null,
    cacheWarmup: options.cacheWarmup === undefined ? null : new CacheWarmup(options.cacheWarmup, flow, objects),
    adaptive: null,
    queryKeys: null,
    bounds: { requestLimit: Infinity, horizonMs: Infinity, warmupCount: 0, warmupUntilMs: -Infinity, limitIsRecordingEnd: false, ...bounds },
  });
  watched = lifecycle;
  return { lifecycle, simulation, answered, phasesSeen };
}

describe('RunLifecycle: a run takes its phases in order and stops in one place', () => {
  it('a request limit: the flow takes exactly the limit, the warm-up count is not measured, every request and fetch is back before the figures are read', () => {
    // no-store: every request a 170 ms miss; 50 requests at t = 0, 100, …, 4,900 ms.
    const { lifecycle, simulation, answered, phasesSeen } = lifecycleFor('no-store', { requestLimit: 50, warmupCount: 10 });
    expect(lifecycle.phase).toBe('warm-up');
    let atLastAnswer: { phase: RunPhase; nowMs: number; requestsInFlight: number; answered: number } | null = null;
    const end = lifecycle.run(() => {
      atLastAnswer = { phase: lifecycle.phase, nowMs: simulation.nowMs, requestsInFlight: lifecycle.flow.requestsInFlight, answered: answered.all };
      return null;
    });
    expect(lifecycle.requests).toBe(50);
    expect(lifecycle.warmupRequests).toBe(10);
    expect(lifecycle.warmupFacts()).toEqual({ method: 'flow', requests: 10, simulatedMs: 1_000 });
    expect(end.stopReason).toBe('requests');
    // The run stops taking requests at the 50th arrival (4,900 ms); its fetch is back 150 ms later.
    expect(end.simulatedMs).toBe(4_900);
    expect(atLastAnswer).toEqual({ phase: 'draining requests', nowMs: 5_050, requestsInFlight: 0, answered: 50 });
    // After the arrival handler: seq 0–9 warm-up, 10–48 measuring, 49 closed (the limit).
    expect(phasesSeen).toEqual([...Array<RunPhase>(10).fill('warm-up'), ...Array<RunPhase>(39).fill('measuring'), 'closed']);
    expect(answered.all).toBe(50);
    expect(answered.measured).toBe(40);
    expect(Math.min(...answered.measuredSeqs)).toBe(10);
    expect(lifecycle.flow.originActivity.requests).toBe(40);
    expect(lifecycle.phase).toBe('done');
    expect(() => lifecycle.run(() => null)).toThrow(/runs once/);
  });

  it('a duration: the run stops at the horizon, takes no request after it, and answers those sent before', () => {
    // Requests at 0, 100, …, 1,000 ms (11) before a 1,050 ms horizon; the 1,100 ms one is never taken.
    const { lifecycle, simulation, answered } = lifecycleFor('no-store', { horizonMs: 1_050 });
    let nowAtLastAnswer = -1;
    const end = lifecycle.run(() => (nowAtLastAnswer = simulation.nowMs));
    expect(end.stopReason).toBe('duration');
    expect(end.simulatedMs).toBe(1_050);
    expect(lifecycle.requests).toBe(11);
    expect(lifecycle.warmupRequests).toBe(0);
    expect(lifecycle.warmupFacts()).toEqual({ method: 'none', requests: 0, simulatedMs: 0 });
    // The 1,000 ms request's fetch is back at the PoP at 1,150 ms (its client hears at 1,170).
    expect(nowAtLastAnswer).toBe(1_150);
    expect(answered.measured).toBe(11);
    expect(lifecycle.flow.originActivity.requests).toBe(11);
  });

  it('RFC 5861 §3: a background revalidation started by the last request is followed to its end after the last answer (docs/origin-accounting.md)', () => {
    // One object, fresh 1 s with a minute of stale-while-revalidate. Request 0 (t = 0) misses
    // (back at 150 ms); 1–9 are fresh hits or coalesce on that fetch; request 10 (t = 1,000 ms,
    // the copy 1 s old) is served stale at once and starts the background revalidation, at the
    // origin 1,100 ms, back 1,150 ms.
    const { lifecycle, simulation } = lifecycleFor('max-age=1, stale-while-revalidate=60', { requestLimit: 11 }, { objects: 1 });
    let atLastAnswer: number[] = [];
    const end = lifecycle.run(() => (atLastAnswer = [simulation.nowMs, lifecycle.flow.fetchesInFlight, lifecycle.flow.originActivity.requests]));
    expect(end.simulatedMs).toBe(1_000);
    expect(atLastAnswer).toEqual([1_000, 1, 1]);
    expect(simulation.nowMs).toBe(1_150);
    expect(lifecycle.flow.fetchesInFlight).toBe(0);
    expect(lifecycle.flow.originActivity.requests).toBe(2);
    expect(lifecycle.flow.originActivity.byCause.backgroundRevalidation).toBe(1);
  });

  it('a cache-only warm-up: its requests never reach the flow; every request the flow takes is measured', () => {
    const { lifecycle, answered, phasesSeen } = lifecycleFor('max-age=3600', { requestLimit: 20 }, { cacheWarmup: { kind: 'requests', requests: 15, start: 'empty' } });
    expect(lifecycle.phase).toBe('warming');
    const reports: RunProgress[] = [];
    const end = lifecycle.run(() => null, (progress) => reports.push(progress), 10);
    // issue 26: the warm-up reports its own progress (it read 0 % and "0 requests" throughout), then the run its own.
    expect(reports[0]).toEqual({ simulatedMs: 1_400, requests: 15, fraction: 1, warming: { requests: 15, target: 15, until: 'requests', filling: false, fraction: 1, lastBlockHitRatio: null } });
    expect(runPhaseText(reports[0])).toBe('warming to 15');
    expect(reports.slice(1).every((report) => report.warming === undefined)).toBe(true);
    expect(runPhaseText(reports[reports.length - 1])).toBe('sim 3.4 s');
    expect(runPhaseText({ ...reports[0], warming: { requests: 3e6, target: 2e8, until: 'steady', filling: false, fraction: 0.015, lastBlockHitRatio: 0.97104 } })).toBe(
      'warming steady, ≤ 200 M · block 97.1 % CDN',
    );
    // The stationary start's fill comes before the first warmed request and says so (docs/warmup.md "A stationary start").
    expect(runPhaseText({ ...reports[0], warming: { requests: 0, target: 2e8, until: 'steady', filling: true, fraction: 0, lastBlockHitRatio: null } })).toBe(
      'filling caches (stationary start), then steady',
    );
    expect(phasesSeen.slice(0, 15)).toEqual(Array<RunPhase>(15).fill('warming'));
    expect(phasesSeen[15]).toBe('measuring');
    expect(lifecycle.requests).toBe(20);
    expect(lifecycle.warmupRequests).toBe(0);
    expect(lifecycle.warmupFacts()).toMatchObject({ method: 'caches', until: 'requests', requests: 15, simulatedMs: 1_400 });
    expect(answered.measured).toBe(20);
    // The warm-up stored the ten objects: the 20 requests (t = 1,500 … 3,400 ms) are all fresh hits.
    expect(lifecycle.flow.originActivity.requests).toBe(0);
    expect(end.simulatedMs).toBe(3_400);
  });
});

describe('runScenario: the life cycle from a scenario', () => {
  const scenario = (text: string) => parseScenarioText(text, 'scenarios/test.yaml');

  it('a request limit reached by the first request after a timed cache-only warm-up ends the run at that arrival', () => {
    // 100 requests/s for 2 s warm the caches (about 200); the first request at ≥ 2 s goes to the flow and is the limit.
    const result = runScenario(scenario('content: { objects: 2000 }\ntraffic: { rate: 100/s }\nrun: { requests: 1, warmup: { duration: 2s } }\n'));
    expect(result.totalRequests).toBe(1);
    expect(result.stopReason).toBe('requests');
    expect(result.warmup.method).toBe('caches');
    expect(result.warmup.simulatedMs).toBe(2_000);
    // The run ends at that request's arrival (a few ms after 2 s), not when its answer is back.
    expect(result.simulatedMs).toBeGreaterThanOrEqual(2_000);
    expect(result.simulatedMs).toBeLessThan(2_000 + 100);
    expect(result.metrics.all.count).toBe(1);
  });
});
