import { LruStore } from '../src/cache/lru.js';
import { runScenario } from '../src/experiment/runScenario.js';
import { LatencyHistogram } from '../src/metrics/latencyHistogram.js';
import { parseScenarioText } from '../src/scenario/load.js';
import { EventQueue } from '../src/sim/eventQueue.js';
import { RandomStreams } from '../src/sim/random.js';
import { Simulation } from '../src/sim/simulation.js';
import { AliasTable } from '../src/workload/aliasTable.js';
import { zipfProbabilities } from '../src/workload/zipf.js';
import { DEFAULT_DEPTH_CAP_BYTES, FreshObjects, ObjectSizes, StackModelGenerator } from '../src/workload/trafficModels/stackGenerator.js';
import { loadTrafficModel } from '../src/workload/trafficModels/trafficModel.js';
import { runCacheZoo } from './cacheZoo.js';
import { allFeaturesScenario } from './featureScenario.js';
import { runChartBenchmarks } from './chartBench.js';
import { runWarmupBenchmarks } from './warmupBench.js';
import { measure, report } from './harness.js';
import { runHotPathBenchmarks } from './hotPathBench.js';
import { runPolicyBenchmarks } from './policyBench.js';
import { runReplayBenchmarks } from './replayBench.js';
import { runMemoryBenchmarks } from './runMemoryBench.js';
import { runSparseBenchmarks } from './sparseBench.js';
import { runTopologyBenchmarks } from './topologyBench.js';
import { runWorkloadBenchmarks } from './workloadBench.js';
import { runTraceReaderBenchmarks } from './traceReaderBench.js';
import { runTimelineBenchmarks } from './timelineBench.js';
import { runSweepBenchmarks } from './sweepBench.js';
import { runAdaptiveBenchmarks } from './adaptiveBench.js';
import { runIncidentBenchmarks } from './incidentBench.js';
import { runCurvesBenchmarks } from './curvesBench.js';
import { runReferenceBenchmarks } from './referenceBench.js';

/**
 * `npm run bench`: one JSON line per benchmark. Rates are operations per second (best
 * and median of the repeats). Arguments: names to run (default all), each a prefix of the
 * benchmarks' names: `npm run bench -- reference` (or `-- --only reference`) runs
 * `reference.baselineFlow` alone.
 */
// `--only NAME` is the same as NAME (`npm run bench -- --only reference`).
const selected = new Set(process.argv.slice(2).filter((argument) => argument !== '--only'));
const wanted = (name: string) => selected.size === 0 || [...selected].some((s) => name.startsWith(s));

// Kernel: a hold model (pop one event, schedule one) at a steady queue depth.
for (const depth of [16, 10_000, 1_000_000]) {
  const name = `kernel.hold.depth${depth}`;
  if (!wanted(name)) continue;
  const events = 2_000_000;
  const result = measure(5, () => {
    const simulation = new Simulation(depth * 2);
    const random = new RandomStreams(1).stream('bench');
    const hold = simulation.defineEvent('hold', () => simulation.scheduleAfter(random.exponential(1), hold));
    for (let i = 0; i < depth; i++) simulation.schedule(random.exponential(1), hold);
    simulation.run({ maxEvents: events });
    return events;
  });
  report({ name, queueDepth: depth, eventsPerSecond: result.bestPerSecond, medianEventsPerSecond: result.medianPerSecond });
}

// The flow's event mix: a third of the events are arrivals of five processes, each request
// then keeps two more events in flight for tens of ms (about 4,600 pending, as in
// slice.allFeatures). Arrivals in a queue of their own (EventKindOptions.arrivals) against
// all events in the main queue (the calendar queue); both handle the same events in the same order.
if (wanted('kernel.arrivals')) {
  const events = 3_000_000;
  const rate = (arrivalsApart: boolean) =>
    measure(5, () => {
      const simulation = new Simulation(1 << 14);
      const random = new RandomStreams(1).stream('bench');
      const hop = simulation.defineEvent('hop', (left) => {
        if (left > 0) simulation.scheduleAfter(random.exponential(1 / 60), hop, left - 1);
      });
      const arrival = simulation.defineEvent(
        'arrival',
        (process) => {
          simulation.scheduleAfter(random.exponential(1 / 60), hop, 1);
          simulation.scheduleAfter(random.exponential(1 / 0.25), arrival, process);
        },
        { arrivals: arrivalsApart },
      );
      for (let process = 0; process < 5; process++) simulation.schedule(random.exponential(1 / 0.25), arrival, process);
      simulation.run({ maxEvents: events });
      return events;
    });
  const apart = rate(true);
  const together = rate(false);
  report({
    name: 'kernel.arrivals',
    apartEventsPerSecond: apart.medianPerSecond,
    oneQueueEventsPerSecond: together.medianPerSecond,
    speedup: Number((apart.medianPerSecond / together.medianPerSecond).toFixed(3)),
  });
}

// The raw queue without the handler dispatch, for the cost split.
if (wanted('kernel.queue')) {
  const depth = 10_000;
  const operations = 2_000_000;
  const result = measure(5, () => {
    const queue = new EventQueue(depth * 2);
    let t = 0;
    for (let i = 0; i < depth; i++) queue.push((t += 0.37) % 1000, 0);
    for (let i = 0; i < operations; i++) {
      queue.pop();
      queue.push(queue.poppedTime + ((i * 7919) % 1000), 0);
    }
    return operations;
  });
  report({ name: 'kernel.queue.push+pop', queueDepth: depth, operationsPerSecond: result.bestPerSecond, medianOperationsPerSecond: result.medianPerSecond });
}

if (wanted('random.alea')) {
  const draws = 10_000_000;
  const stream = new RandomStreams(1).stream('bench');
  const result = measure(5, () => {
    let sum = 0;
    for (let i = 0; i < draws; i++) sum += stream.next();
    if (sum < 0) throw new Error('unreachable');
    return draws;
  });
  report({ name: 'random.alea', drawsPerSecond: result.bestPerSecond, medianDrawsPerSecond: result.medianPerSecond });
}

if (wanted('workload.zipfAlias')) {
  const table = new AliasTable(zipfProbabilities(1_000_000, 0.8));
  const stream = new RandomStreams(1).stream('bench');
  const draws = 10_000_000;
  const result = measure(5, () => {
    let sum = 0;
    for (let i = 0; i < draws; i++) sum += table.sample(stream.next());
    if (sum < 0) throw new Error('unreachable');
    return draws;
  });
  report({ name: 'workload.zipfAlias', objects: 1_000_000, samplesPerSecond: result.bestPerSecond, medianSamplesPerSecond: result.medianPerSecond });
}

// Issue 28: production traffic from a footprint descriptor (eu-2, fd, the default 1 TB stack:
// 3.2 M objects), after the model's warm-up; the stack grows with every new object.
if (wanted('workload.trafficModel')) {
  const model = loadTrafficModel('eu-2');
  const streams = new RandomStreams(1);
  const sizes = new ObjectSizes(model.sizes);
  const generator = new StackModelGenerator(model.fd, new FreshObjects(sizes, streams.stream('sizes')), streams.stream('draws'), sizes, { fidelity: 'fd', depthCapBytes: DEFAULT_DEPTH_CAP_BYTES });
  while (generator.inWarmup) generator.next();
  const requests = 2_000_000;
  const result = measure(5, () => {
    let sum = 0;
    for (let i = 0; i < requests; i++) {
      generator.next();
      sum += generator.objectId;
    }
    if (sum < 0) throw new Error('unreachable');
    return requests;
  });
  report({ name: 'workload.trafficModel.eu-2', stackObjects: generator.stackObjects, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond });
}

if (wanted('cache.lru')) {
  const objects = 1_000_000;
  const table = new AliasTable(zipfProbabilities(objects, 0.8));
  const stream = new RandomStreams(1).stream('bench');
  const requests = 10_000_000;
  const keys = new Int32Array(requests);
  for (let i = 0; i < requests; i++) keys[i] = table.sample(stream.next());
  let hits = 0;
  const result = measure(5, () => {
    const lru = new LruStore({ capacity: 100_000, countMode: true, keySpace: objects });
    hits = 0;
    for (let i = 0; i < requests; i++) {
      if (lru.lookup(keys[i], 0)) hits++;
      else lru.insert(keys[i], 1, Infinity);
    }
    return requests;
  });
  report({ name: 'cache.lru.countMode.zipf0.8', objects, capacity: 100_000, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond, hitRatio: Number((hits / requests).toFixed(6)) });
}

// Every registered eviction policy on one trace, byte and count mode (bench/cacheZoo.ts).
if (wanted('cache-zoo')) runCacheZoo();

if (wanted('metrics.histogram')) {
  const samples = 10_000_000;
  const values = new Float64Array(1 << 16);
  const stream = new RandomStreams(1).stream('bench');
  for (let i = 0; i < values.length; i++) values[i] = stream.lognormal(25, 0.5);
  const result = measure(5, () => {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < samples; i++) histogram.record(values[i & 0xffff]);
    return samples;
  });
  report({ name: 'metrics.histogram.record', recordsPerSecond: result.bestPerSecond, medianRecordsPerSecond: result.medianPerSecond });
}

// A whole run end to end: workload → caches → metrics, through the kernel, catalogue
// construction included. `slice.edgeOrigin`: the regions model (five edges over an origin).
// `slice.tiered`: the PoP model (339 PoP caches on local key ids, 14 regional caches, the
// physical latency model). A small catalogue stays in the CPU caches; a large one shows the
// cost of random memory access.
const sliceModels = [
  { prefix: 'slice.edgeOrigin', topology: 'topology: { model: regions }' },
  { prefix: 'slice.tiered', topology: 'topology: { model: pops }' },
];
for (const { prefix, topology } of sliceModels) {
  for (const objects of [1_000, 1_000_000]) {
    const name = `${prefix}.objects${objects}`;
    if (!wanted(name)) continue;
    const requests = 2_000_000;
    const scenario = parseScenarioText(
      `run: { requests: ${requests}, warmup: 25% }\ncontent: { objects: ${objects} }\nedge: { capacity: 4GB }\n${topology}\n`,
      'bench-slice.yaml',
    );
    let events = 0;
    const result = measure(3, () => {
      const run = runScenario(scenario);
      events = run.events;
      return run.totalRequests;
    });
    report({ name, requests, objects, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond, eventsPerRequest: events / requests });
  }
}

// The PoP model with every feature of the layered flow on: seven content classes (their
// churn, stale-while-revalidate pages, no-cache and no-store routes), returning clients with
// browsers, variants and media chunks, and an outage, an error burst, a slowdown and a purging
// deploy inside the measured part. Against `slice.tiered.*`, the cost of the features.
if (wanted('slice.allFeatures')) {
  const requests = 2_000_000;
  const scenario = allFeaturesScenario(requests);
  let events = 0;
  const result = measure(3, () => {
    const run = runScenario(scenario);
    events = run.events;
    return run.totalRequests;
  });
  report({ name: 'slice.allFeatures', requests, requestsPerSecond: result.bestPerSecond, medianRequestsPerSecond: result.medianPerSecond, eventsPerRequest: events / requests });
}

runReferenceBenchmarks(wanted);
runHotPathBenchmarks(wanted);
runAdaptiveBenchmarks(wanted);
runPolicyBenchmarks(wanted);
runTopologyBenchmarks(wanted);
await runChartBenchmarks(wanted);
runWorkloadBenchmarks(wanted);
runTraceReaderBenchmarks(wanted);
runReplayBenchmarks(wanted);
runSparseBenchmarks(wanted);
runTimelineBenchmarks(wanted);
runIncidentBenchmarks(wanted);
runCurvesBenchmarks(wanted);
runMemoryBenchmarks(wanted);
runWarmupBenchmarks(wanted);
await runSweepBenchmarks(wanted);
