import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { formatCount } from '../../report/consoleTable.js';
import { formatBytes, parseCount, parseSize } from '../../units.js';
import { UserError } from '../../userError.js';
import { EXPORT_FORMATS, exportTrace, writeTrace, type ExportFormat } from '../../workload/trafficModels/traceExport.js';
import { DEFAULT_FIDELITY, SHIPPED_TRAFFIC_CLASSES, loadTrafficModel, type Fidelity } from '../../workload/trafficModels/trafficModel.js';
import { checkOutputFile } from '../outputPath.js';
import { existsSync, statSync } from 'node:fs';
import { loadScenarioWithSets, parseScenarioSets } from '../../experiment/scenarioParams.js';
import { SET_OPTION } from '../flags.js';
import { buildRunNetwork } from '../../experiment/runNetwork.js';
import { RandomStreams } from '../../sim/random.js';
import { nearest } from '../../suggest.js';
import { depthCapFor } from '../../workload/trafficModels/modelTraffic.js';
import { generateModelStream } from '../../experiment/modelStream.js';
import { edgeDemand, edgeDepthCaps } from '../../experiment/runContent.js';

interface TrafficArgs {
  model: string;
  pop?: string;
  class?: string;
  set?: string[];
  requests: string;
  format: ExportFormat;
  out: string;
  /** Absent unless given: a scenario's class says its own (refused with a scenario), a class or folder defaults to DEFAULT_FIDELITY. */
  fidelity?: Fidelity;
  rate?: number;
  depthCap?: string;
  seed?: number;
  progress: boolean;
}

/** Requests a trace may hold: its arrays take 20 bytes a request (2 GB at this count). */
const MAX_REQUESTS = 100_000_000;

/** `cdnsim traffic <class>`: a production traffic model's stream as a trace (docs/traffic-models.md). */
export function trafficCommand(yargs: Argv): Argv {
  return yargs.command<TrafficArgs>(
    COMMAND_LINES.traffic.command,
    COMMAND_LINES.traffic.describe,
    (command) =>
      command
        .positional('model', { type: 'string', describe: `a shipped class (${SHIPPED_TRAFFIC_CLASSES.join(', ')}), a folder of footprint-descriptor files, or a scenario file with a model class`, demandOption: true })
        .option('requests', { type: 'string', demandOption: 'name the number of requests, e.g. --requests 2M', describe: 'requests after the model\'s warm-up (2000000, 2M); with a scenario, of the class (at --pop)' })
        .option('format', { choices: EXPORT_FORMATS, default: 'oracleGeneral' as ExportFormat, describe: 'trace format' })
        .option('out', { type: 'string', demandOption: 'name the trace file, e.g. --out eu-2.oracleGeneral.bin', describe: 'trace file (written atomically)' })
        .option('fidelity', { choices: ['fd', 'bfd'] as const, describe: `reproduce the request hit-rate curve (fd) or the byte hit-rate curve (bfd); default ${DEFAULT_FIDELITY}; not with a scenario (its class's fidelity)` })
        .option('rate', { type: 'number', describe: 'mean requests per second (default: the model\'s own); not with a scenario (its traffic.rate)' })
        .option('depth-cap', { type: 'string', describe: 'deepest LRU stack the generator keeps (default 1TB): the curve is exact up to it; not with a scenario' })
        .option('seed', { type: 'number', describe: 'same seed, same trace (default: the scenario\'s seed, or 1 for a class)' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress on a terminal (--no-progress to hide)' })
        .option('pop', { type: 'string', describe: 'with a scenario file instead of a class: only this PoP\'s (or edge\'s) requests of the stream a run generates (default: every PoP\'s, merged in time order)' })
        .option('class', { type: 'string', describe: 'with a scenario file: the content class with a model (default: the first)' })
        .option('set', { ...SET_OPTION, describe: `with a scenario file: ${SET_OPTION.describe}` })
        .example('$0 traffic eu-2 --requests 2M --out eu-2.oracleGeneral.bin', 'then: cdnsim replay eu-2.oracleGeneral.bin --warmup <the warm-up it prints> --cache-size 1GB,10GB')
        .example('$0 traffic scenario.yaml --requests 1M --format csv --out cdn.csv', "a scenario's model class at all its PoPs as a run generates it, with a pop column") as unknown as Argv<TrafficArgs>,
    (args) => executeTraffic(args),
  );
}

function executeTraffic(args: TrafficArgs): void {
  const requests = parseCount(args.requests);
  if (!requests.ok || requests.value === 0 || requests.value > MAX_REQUESTS) {
    throw new UserError(`--requests: expected a count from 1 to ${formatCount(MAX_REQUESTS)} (2000000, 2M; the trace is built in memory, 20 bytes a request), found ${args.requests}`);
  }
  // One rule for both sources, as the scenario's own seed key has it (0 … 2^53 − 1).
  if (args.seed !== undefined && !(Number.isSafeInteger(args.seed) && args.seed >= 0)) throw new UserError(`--seed: expected a whole number ≥ 0, found ${args.seed}`);
  if (args.rate !== undefined && !(args.rate > 0 && Number.isFinite(args.rate))) throw new UserError(`--rate: expected requests per second above 0, found ${args.rate}`);
  let depthCapBytes: number | undefined;
  if (args.depthCap !== undefined) {
    const parsed = parseSize(args.depthCap);
    if (!parsed.ok || parsed.value <= 0) throw new UserError(`--depth-cap: expected a size above 0 (100GB, 1TB), found ${args.depthCap}`);
    depthCapBytes = parsed.value;
  }
  checkOutputFile(args.out);
  if (isScenarioFile(args.model)) {
    if (args.rate !== undefined || depthCapBytes !== undefined) {
      throw new UserError(`--rate and --depth-cap are for a traffic class or model folder; with a scenario the stream is the run's: set traffic.rate, or the class's depthCap, in ${args.model}`);
    }
    scenarioTraffic(args, requests.value);
    return;
  }
  if (args.pop !== undefined || args.class !== undefined || args.set !== undefined) {
    throw new UserError(`--pop, --class and --set read a scenario file (.yaml, .yml or .json) as the first argument; '${args.model}' is a traffic class or a model folder`);
  }
  const model = loadTrafficModel(args.model);
  const fidelity = args.fidelity ?? DEFAULT_FIDELITY;
  const seed = args.seed ?? 1;
  const showProgress = args.progress && process.stderr.isTTY === true;
  const result = exportTrace({
    model,
    fidelity,
    requests: requests.value,
    ratePerSecond: args.rate,
    depthCapBytes,
    seed,
    format: args.format,
    out: args.out,
    progress: showProgress ? (done, total) => process.stderr.write(`\rtraffic ${model.name}: ${Math.floor((100 * done) / total)} %`) : undefined,
  });
  if (showProgress) process.stderr.write('\r\x1b[K');
  const total = result.warmupRequests + result.requests;
  const lines = [
    `${args.out}: ${formatCount(total)} requests of ${model.name} (${fidelity}), ${formatCount(result.objects)} objects, ${result.ratePerSecond.toFixed(1)} requests/s, seed ${seed}, ${args.format}`,
    `The first ${formatCount(result.warmupRequests)} are the model's warm-up (its initial LRU stack, bottom to top): replay with --warmup ${result.warmupRequests}`,
  ];
  if (result.clampedSizes > 0) lines.push(`${formatCount(result.clampedSizes)} requests are larger than oracleGeneral's 4294967295-byte size field and were written at that size`);
  process.stdout.write(lines.join('\n') + '\n');
}

function isScenarioFile(argument: string): boolean {
  return /\.(ya?ml|json)$/i.test(argument) && existsSync(argument) && statSync(argument).isFile();
}

/**
 * A scenario's model class as a run generates it (docs/traffic-models.md, "The CDN's stream
 * as a trace"): every PoP's stream merged in time order, or with `--pop` one PoP's requests
 * of it; the run's seed, rate, depth caps and sharing.
 */
function scenarioTraffic(args: TrafficArgs, requests: number): void {
  const file = args.model;
  const scenario = loadScenarioWithSets(file, parseScenarioSets(args.set));
  const classes = scenario.content.classes ?? [];
  const modelClasses = classes.filter((klass) => klass.traffic !== undefined);
  if (modelClasses.length === 0) throw new UserError(`${file}: no content class has a model (content.classes[i].model); traffic reads a scenario for one of its model classes`);
  const klass = args.class === undefined ? modelClasses[0] : modelClasses.find((candidate) => candidate.name === args.class);
  if (klass === undefined || klass.traffic === undefined) {
    throw new UserError(`--class: expected a class with a model among ${modelClasses.map((candidate) => candidate.name).join(', ')}, found ${args.class}`);
  }
  const classIndex = classes.indexOf(klass);
  if (args.fidelity !== undefined) {
    // The trace is the run's stream, which reads the class's own fidelity: the flag would make a stream no run draws.
    throw new UserError(`--fidelity is for a traffic class or model folder; with a scenario the class says its own (${klass.name}: ${klass.traffic.fidelity}): --set content.classes[${classIndex}].fidelity=${args.fidelity}, or its fidelity key in ${file}`);
  }
  // --seed was checked with the other flags; the scenario's seed by its schema.
  const seed = args.seed ?? scenario.seed;
  const network = buildRunNetwork(scenario, new RandomStreams(seed));
  const demand = edgeDemand(network);
  const busy = network.edgeNodes.map((node, e) => ({ name: node.name, demand: demand[e] })).filter((edge) => edge.demand > 0).sort((a, b) => b.demand - a.demand);
  const busiest = busy.slice(0, 8).map((edge) => `${edge.name} ${(100 * edge.demand).toFixed(1)} %`).join(', ');
  let edge = -1;
  if (args.pop !== undefined) {
    const popCode = args.pop;
    edge = network.edgeNodes.findIndex((node) => node.name === popCode);
    if (edge < 0) {
      const guess = nearest(popCode, network.edgeNodes.map((node) => node.name));
      throw new UserError(`--pop: no PoP or edge '${popCode}' in ${file}${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the busiest: ${busiest}`);
    }
    if (demand[edge] === 0) throw new UserError(`--pop: ${popCode} gets no requests in ${file} (no client place is nearest to it); the busiest: ${busiest}`);
  }
  const share = klass.share / classes.reduce((sum, candidate) => sum + candidate.share, 0);
  const keptShare = share * (edge < 0 ? 1 : demand[edge]);
  // Sized as a run whose arrivals give this many of the kept requests: the ids a run reserves follow its length.
  const runRequests = Math.ceil(requests / keptShare);
  const showProgress = args.progress && process.stderr.isTTY === true;
  const label = `traffic ${klass.name}${edge < 0 ? '' : ` at ${args.pop}`}`;
  if (showProgress) process.stderr.write(`${label}: the PoPs' initial stacks…`);
  const stream = generateModelStream({
    scenario,
    classIndex,
    edge,
    requests,
    runRequests,
    seed,
    progress: showProgress ? (kept) => process.stderr.write(`\r${label}: generating ${Math.floor((100 * kept) / requests)} %\x1b[K`) : undefined,
  });
  const total = stream.ids.length;
  const clampedSizes = writeTrace(stream, args.format, args.out, showProgress ? (written) => process.stderr.write(`\r${label}: writing ${Math.floor((100 * written) / total)} %\x1b[K`) : undefined);
  if (showProgress) process.stderr.write('\r\x1b[K');
  const model = klass.traffic.model;
  const ratePerSecond = scenario.traffic.rate * keptShare;
  const lines = [
    edge < 0
      ? `Class ${klass.name} of ${scenario.name} at its ${busy.length} PoPs with traffic, merged in time order (each PoP's stream at the rate routed to it); the busiest: ${busiest}`
      : `${args.pop}'s stream of class ${klass.name} in ${scenario.name}: ${(100 * demand[edge]).toFixed(2)} % of the clients × ${(100 * share).toFixed(1)} % of requests, its stack capped at ${formatBytes(depthCapFor(klass.traffic, edgeDepthCaps(network, demand)[edge]))}; its requests of the run's stream, new objects shared from other PoPs included (sharing ${(100 * klass.traffic.sharing).toFixed(0)} %)`,
    `${args.out}: ${formatCount(total)} requests of ${model} (${klass.traffic.fidelity}), ${ratePerSecond.toFixed(1)} requests/s, seed ${seed}, ${args.format}${args.format === 'csv' ? ' with a pop column' : ''}; a run of ${formatCount(stream.arrivals)} requests (all classes) draws them`,
    `The first ${formatCount(stream.warmupRequests)} are the model's warm-up (${edge < 0 ? 'every PoP\'s initial LRU stack' : 'its initial LRU stack'}, bottom to top, at time 0): replay with --warmup ${stream.warmupRequests}`,
  ];
  if (clampedSizes > 0) lines.push(`${formatCount(clampedSizes)} requests are larger than oracleGeneral's 4294967295-byte size field and were written at that size`);
  process.stdout.write(lines.join('\n') + '\n');
}
