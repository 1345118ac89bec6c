import type { Argv } from 'yargs';
import { formatCount } from '../../report/consoleTable.js';
import { parseCount, parseSize } from '../../units.js';
import { UserError } from '../../userError.js';
import { EXPORT_FORMATS, exportTrace, type ExportFormat } from '../../workload/trafficModels/traceExport.js';
import { DEFAULT_FIDELITY, SHIPPED_TRAFFIC_CLASSES, loadTrafficModel, type Fidelity } from '../../workload/trafficModels/trafficModel.js';
import { checkOutputFile } from '../outputPath.js';

interface TrafficArgs {
  model: string;
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
    'traffic <model>',
    'write the request stream of a production traffic model (footprint descriptor) as a trace that replay and other simulators read',
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
  const model = loadTrafficModel(args.model);
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
    `${args.out}: ${formatCount(total)} requests of ${model.name} (${args.fidelity}), ${formatCount(result.objects)} objects, ${result.ratePerSecond.toFixed(1)} requests/s, seed ${args.seed}, ${args.format}`,
    `The first ${formatCount(result.warmupRequests)} are the model's warm-up (its initial LRU stack, bottom to top): replay with --warmup ${result.warmupRequests}`,
  ];
  if (result.clampedSizes > 0) lines.push(`${formatCount(result.clampedSizes)} requests are larger than oracleGeneral's 4294967295-byte size field and were written at that size`);
  process.stdout.write(lines.join('\n') + '\n');
}
