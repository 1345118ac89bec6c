import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { formatCount } from '../../report/consoleTable.js';
import { formatBytes, parseCount, parseSize } from '../../units.js';
import { UserError } from '../../userError.js';
import { EXPORT_FORMATS, exportTrace, type ExportFormat } from '../../workload/trafficModels/traceExport.js';
import { DEFAULT_FIDELITY, SHIPPED_TRAFFIC_CLASSES, loadTrafficModel, type Fidelity } from '../../workload/trafficModels/trafficModel.js';
import { checkOutputFile } from '../outputPath.js';
import { existsSync, statSync } from 'node:fs';
import { loadScenarioFile } from '../../scenario/load.js';
import { buildRunNetwork } from '../../experiment/runNetwork.js';
import { RandomStreams } from '../../sim/random.js';
import { nearest } from '../../suggest.js';
import { defaultDepthCaps, depthCapFor } from '../../workload/trafficModels/modelTraffic.js';
import type { TrafficModel } from '../../workload/trafficModels/trafficModel.js';

interface TrafficArgs {
  model: string;
  pop?: string;
  class?: string;
  requests: string;
  format: ExportFormat;
  out: string;
  fidelity: Fidelity;
  rate?: number;
  depthCap?: string;
  seed: number;
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
        .positional('model', { type: 'string', describe: `a shipped class (${SHIPPED_TRAFFIC_CLASSES.join(', ')}) or a folder of footprint-descriptor files`, demandOption: true })
        .option('requests', { type: 'string', demandOption: 'name the number of requests, e.g. --requests 2M', describe: 'requests after the model\'s warm-up (2000000, 2M)' })
        .option('format', { choices: EXPORT_FORMATS, default: 'oracleGeneral' as ExportFormat, describe: 'trace format' })
        .option('out', { type: 'string', demandOption: 'name the trace file, e.g. --out eu-2.oracleGeneral.bin', describe: 'trace file (written atomically)' })
        .option('fidelity', { choices: ['fd', 'bfd'] as const, default: DEFAULT_FIDELITY, describe: 'reproduce the request hit-rate curve (fd) or the byte hit-rate curve (bfd)' })
        .option('rate', { type: 'number', describe: 'mean requests per second (default: the model\'s own)' })
        .option('depth-cap', { type: 'string', describe: 'deepest LRU stack the generator keeps (default 1TB): the curve is exact up to it' })
        .option('seed', { type: 'number', default: 1, describe: 'same seed, same trace' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress on a terminal (--no-progress to hide)' })
        .option('pop', { type: 'string', describe: 'with a scenario file instead of a class: the stream of this PoP (or edge) as the run generates it (its rate, stack depth cap, fidelity)' })
        .option('class', { type: 'string', describe: 'with a scenario file: the content class with a model (default: the first)' })
        .example('$0 traffic eu-2 --requests 2M --out eu-2.oracleGeneral.bin', 'then: cdnsim replay eu-2.oracleGeneral.bin --warmup <the warm-up it prints> --cache-size 1GB,10GB') as unknown as Argv<TrafficArgs>,
    (args) => executeTraffic(args),
  );
}

function executeTraffic(args: TrafficArgs): void {
  const requests = parseCount(args.requests);
  if (!requests.ok || requests.value === 0 || requests.value > MAX_REQUESTS) {
    throw new UserError(`--requests: expected a count from 1 to ${formatCount(MAX_REQUESTS)} (2000000, 2M; the trace is built in memory, 20 bytes a request), found ${args.requests}`);
  }
  if (!Number.isSafeInteger(args.seed)) throw new UserError(`--seed: expected a whole number, found ${args.seed}`);
  if (args.rate !== undefined && !(args.rate > 0 && Number.isFinite(args.rate))) throw new UserError(`--rate: expected requests per second above 0, found ${args.rate}`);
  let depthCapBytes: number | undefined;
  if (args.depthCap !== undefined) {
    const parsed = parseSize(args.depthCap);
    if (!parsed.ok || parsed.value <= 0) throw new UserError(`--depth-cap: expected a size above 0 (100GB, 1TB), found ${args.depthCap}`);
    depthCapBytes = parsed.value;
  }
  checkOutputFile(args.out);
  const fromScenario = isScenarioFile(args.model) ? popStream(args.model, args.pop, args.class) : undefined;
  if (fromScenario === undefined && (args.pop !== undefined || args.class !== undefined)) {
    throw new UserError(`--pop and --class read a scenario file (.yaml, .yml or .json) as the first argument; '${args.model}' is a traffic class or a model folder`);
  }
  if (fromScenario !== undefined) {
    if (depthCapBytes === undefined) depthCapBytes = fromScenario.depthCapBytes;
    if (args.rate === undefined) args.rate = fromScenario.ratePerSecond;
    args.fidelity = fromScenario.fidelity;
  }
  const model = fromScenario?.model ?? loadTrafficModel(args.model);
  const showProgress = args.progress && process.stderr.isTTY === true;
  const result = exportTrace({
    model,
    fidelity: args.fidelity,
    requests: requests.value,
    ratePerSecond: args.rate,
    depthCapBytes,
    seed: args.seed,
    format: args.format,
    out: args.out,
    progress: showProgress ? (done, total) => process.stderr.write(`\rtraffic ${model.name}: ${Math.floor((100 * done) / total)} %`) : undefined,
  });
  if (showProgress) process.stderr.write('\r\x1b[K');
  const total = result.warmupRequests + result.requests;
  const lines = [
    ...(fromScenario === undefined ? [] : [fromScenario.description]),
    `${args.out}: ${formatCount(total)} requests of ${model.name} (${args.fidelity}), ${formatCount(result.objects)} objects, ${result.ratePerSecond.toFixed(1)} requests/s, seed ${args.seed}, ${args.format}`,
    `The first ${formatCount(result.warmupRequests)} are the model's warm-up (its initial LRU stack, bottom to top): replay with --warmup ${result.warmupRequests}`,
  ];
  if (result.clampedSizes > 0) lines.push(`${formatCount(result.clampedSizes)} requests are larger than oracleGeneral's 4294967295-byte size field and were written at that size`);
  process.stdout.write(lines.join('\n') + '\n');
}

function isScenarioFile(argument: string): boolean {
  return /\.(ya?ml|json)$/i.test(argument) && existsSync(argument) && statSync(argument).isFile();
}

/** One PoP's stream of a scenario's model class: what the run draws there (docs/traffic-models.md, "One PoP's stream"). */
interface PopStream {
  model: TrafficModel;
  fidelity: Fidelity;
  ratePerSecond: number;
  depthCapBytes: number;
  description: string;
}

function popStream(file: string, popCode: string | undefined, className: string | undefined): PopStream {
  const scenario = loadScenarioFile(file);
  const classes = scenario.content.classes ?? [];
  const modelClasses = classes.filter((klass) => klass.traffic !== undefined);
  if (modelClasses.length === 0) throw new UserError(`${file}: no content class has a model (content.classes[i].model); traffic reads a scenario for one of its model classes`);
  const klass = className === undefined ? modelClasses[0] : modelClasses.find((candidate) => candidate.name === className);
  if (klass === undefined || klass.traffic === undefined) {
    throw new UserError(`--class: expected a class with a model among ${modelClasses.map((candidate) => candidate.name).join(', ')}, found ${className}`);
  }
  const network = buildRunNetwork(scenario, new RandomStreams(scenario.seed));
  const demand = new Float64Array(network.edges.length);
  network.places.demand.forEach((share, place) => (demand[network.homeEdgeOfPlace[place]] += share));
  const busy = network.edgeNodes.map((node, e) => ({ name: node.name, demand: demand[e] })).filter((edge) => edge.demand > 0).sort((a, b) => b.demand - a.demand);
  const busiest = busy.slice(0, 8).map((edge) => `${edge.name} ${(100 * edge.demand).toFixed(1)} %`).join(', ');
  if (popCode === undefined) throw new UserError(`name the PoP whose stream to write with --pop; ${busy.length} have traffic, the busiest: ${busiest}`);
  const e = network.edgeNodes.findIndex((node) => node.name === popCode);
  if (e < 0) {
    const guess = nearest(popCode, network.edgeNodes.map((node) => node.name));
    throw new UserError(`--pop: no PoP or edge '${popCode}' in ${file}${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the busiest: ${busiest}`);
  }
  if (demand[e] === 0) throw new UserError(`--pop: ${popCode} gets no requests in ${file} (no client place is nearest to it); the busiest: ${busiest}`);
  const caps = defaultDepthCaps(
    network.edges.map((edge) => edge.store.capacity),
    network.edges.map((_, edge) => network.network.regionalOf(edge)),
    network.regionals.map((regional) => regional.store.capacity),
    Array.from(demand),
  );
  const share = klass.share / classes.reduce((sum, candidate) => sum + candidate.share, 0);
  const ratePerSecond = scenario.traffic.rate * share * demand[e];
  return {
    model: loadTrafficModel(klass.traffic.folder ?? klass.traffic.model),
    fidelity: klass.traffic.fidelity,
    ratePerSecond,
    depthCapBytes: depthCapFor(klass.traffic, caps[e]),
    description: `${popCode}'s stream of class ${klass.name} in ${scenario.name}: ${(100 * demand[e]).toFixed(2)} % of the clients × ${(100 * share).toFixed(1)} % of requests, its stack capped at ${formatBytes(depthCapFor(klass.traffic, caps[e]))}; new objects all fresh (in a run, a share 'sharing' of them come from other PoPs)`,
  };
}
