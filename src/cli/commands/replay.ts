import { basename, join, relative } from 'node:path';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { CACHE_POLICY_NAMES, type CachePolicyName } from '../../cache/registry.js';
import { replay, type CacheSizeSpec, type ReplayConfig, type ReplayResult, type ReplayWarmup } from '../../experiment/replay.js';
import { formatCount, formatPercent, formatTableWithin, wrapLine, wrapText } from '../../report/consoleTable.js';
import { terminalColumns } from '../terminalColumns.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { nearest } from '../../suggest.js';
import { formatBinaryBytes, formatBytes, parseCount, parseDuration, parseFraction, parseSize } from '../../units.js';
import { echoValue, UserError } from '../../userError.js';
import { TRACE_FORMATS, type TraceFormat, type TraceReaderOptions } from '../../recorded/traces/traceReader.js';
import { checkOutputFile, checkRunFolder, claimRunFolder } from '../outputPath.js';
import { createReplayProgressReporter } from '../progressBar.js';
import { requiredFileList } from '../positionals.js';

interface ReplayArgs {
  traces: string[];
  format?: TraceFormat;
  policy: string;
  cacheSize: string;
  countMode: boolean;
  ttl?: string;
  warmup: string;
  skipBad: number;
  csvTimeCol?: number;
  csvIdCol?: number;
  csvSizeCol?: number;
  csvHeader?: boolean;
  csvDelimiter?: string;
  out?: string;
  report?: string;
  charts: boolean;
  json: boolean;
  progress: boolean;
  pipeline: boolean;
}

export function replayCommand(yargs: Argv): Argv {
  return yargs.command<ReplayArgs>(
    COMMAND_LINES.replay.command,
    COMMAND_LINES.replay.describe,
    (command) =>
      requiredFileList(command, 'traces', 'trace files, replayed one after another')
        .option('format', { choices: TRACE_FORMATS, describe: 'trace format (default: from the file name)' })
        .option('policy', { type: 'string', default: 'lru', describe: `eviction policies, comma-separated: ${CACHE_POLICY_NAMES.join(', ')}` })
        .option('cache-size', {
          type: 'string',
          demandOption: 'name the cache sizes, e.g. --cache-size 1GB,4GB, or --cache-size 0.01,0.1 for fractions of the working set',
          describe: 'comma-separated: bytes (202976972, 193MiB, 1GB), objects with --count-mode (10000, 50k), or a fraction of the working set (a number with a decimal point: 0.01,0.1,1.0)',
        })
        .option('count-mode', { type: 'boolean', default: false, describe: 'capacity in objects instead of bytes' })
        .option('ttl', { type: 'string', describe: 'comma-separated TTLs set at insertion (60,300 seconds, or 5m, 1h); default: no expiry' })
        .option('warmup', { type: 'string', default: '0', describe: 'requests not measured: a count (100000, 50k) or a share of the trace (20%, 0.2)' })
        .option('skip-bad', { type: 'number', default: 0, describe: 'skip up to this many malformed lines/records (reported) instead of stopping' })
        .option('csv-time-col', { type: 'number', describe: 'csv: 1-based time column (seconds)' })
        .option('csv-id-col', { type: 'number', describe: 'csv: 1-based object id column' })
        .option('csv-size-col', { type: 'number', describe: 'csv: 1-based size column (bytes)' })
        .option('csv-header', { type: 'boolean', describe: 'csv: the first line is a header' })
        .option('csv-delimiter', { type: 'string', describe: "csv: field delimiter (default ',')" })
        .option('out', { type: 'string', describe: 'also write the rows as JSON to this file (atomically)' })
        .option('report', { type: 'string', describe: 'write replay.json, its charts (charts/*.svg, *.png: hit ratio against cache size) and report.html into this folder' })
        .option('charts', { type: 'boolean', default: true, describe: 'with --report: draw the charts and report.html (--no-charts: replay.json alone)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the rows as a JSON array and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .option('pipeline', { type: 'boolean', default: true, describe: 'read the trace in a worker thread while the caches run in this one (--no-pipeline: one thread; same numbers)' })
        .example('$0 replay test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin --policy lru,fifo,s3fifo --cache-size 0.01,0.1', 'three policies at 1 % and 10 % of the working set')
        .example('$0 replay test/fixtures/traces/nginx-access.log --cache-size 1GB --ttl 60,300 --json', 'an nginx access log with two TTLs')
        .example('$0 replay test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin --policy lru,s3fifo --cache-size 0.01,0.05,0.1,0.2 --report results/replay-cloudphysics', 'hit-ratio curves as charts and a report page') as unknown as Argv<ReplayArgs>,
    (args) => executeReplay(args),
  );
}

async function executeReplay(args: ReplayArgs): Promise<void> {
  // yargs drops a lone '-' (stdin), which would leave no trace at all.
  if (args.traces.length === 0) throw new UserError("name one or more trace files; to read a pipe, give /dev/stdin (for example: zstd -dc trace.zst | cdnsim replay /dev/stdin --format oracleGeneral --cache-size 0.1)");
  const config: ReplayConfig = {
    policies: parsePolicies(args.policy),
    cacheSizes: parseCacheSizes(args.cacheSize, args.countMode),
    countMode: args.countMode,
    ttlsSeconds: args.ttl === undefined ? [null] : parseTtls(args.ttl),
    warmup: parseWarmup(args.warmup),
  };
  if (!Number.isInteger(args.skipBad) || args.skipBad < 0) throw new UserError(`--skip-bad: expected a whole number ≥ 0, found ${String(args.skipBad)}`);
  // Before the replay, which may take minutes: a bad --out must not be found after it.
  if (args.out !== undefined) checkOutputFile(args.out);
  if (args.report !== undefined) checkRunFolder(args.report, '--report', 'replay.json');
  const reader: TraceReaderOptions = { format: args.format, skipBad: args.skipBad, csv: csvOptions(args) };
  const progress = createReplayProgressReporter(args.progress && !args.json);
  const started = performance.now();
  let result: ReplayResult;
  try {
    result = replay(args.traces, config, { reader, onProgress: (p) => progress.update(p), scan: { pipeline: args.pipeline } });
  } finally {
    progress.stop();
  }
  const wallSeconds = (performance.now() - started) / 1000;
  refuseUnmeasured(result);
  const rowsJson = `${JSON.stringify(result.rows, null, 2)}\n`;
  if (args.out) writeFileAtomic(args.out, rowsJson);
  const reportLine = args.report === undefined ? '' : await writeReportFolder(args.report, rowsJson, args.charts);
  for (const entry of result.trace.skipped) {
    const examples = entry.examples.map((example) => `  line ${example.line}: ${example.problem}`).join('\n');
    process.stderr.write(`${entry.file}: skipped ${formatCount(entry.count)} malformed record(s) (--skip-bad)\n${examples}\n`);
  }
  if (args.json) {
    process.stdout.write(rowsJson);
    if (reportLine !== '') process.stderr.write(`${reportLine}\n`);
    return;
  }
  process.stdout.write(`${replayText(result, wallSeconds, /\d\s*[kmgtp]ib/i.test(args.cacheSize) ? formatBinaryBytes : formatBytes, terminalColumns())}\n${reportLine === '' ? '' : `${reportLine}\n`}`);
}

/** --report: a folder like a run's, holding replay.json and, unless --no-charts, its charts and report.html (`cdnsim chart` redraws them). */
async function writeReportFolder(folder: string, rowsJson: string, charts: boolean): Promise<string> {
  claimRunFolder(folder, '--report', 'replay.json');
  writeFileAtomic(join(folder, 'replay.json'), rowsJson);
  const written = `written: ${join(relative(process.cwd(), folder) || folder, 'replay.json')}`;
  // run.ts (and the scenario schema behind it) only when charts are drawn: a --no-charts replay starts without them.
  return wrapText(charts ? `${written}\n${await (await import('../drawCharts.js')).drawCharts(folder)}` : written, terminalColumns());
}

/** A replay that measured no request has no miss ratio to report; 0.0000 would read as a perfect cache. */
function refuseUnmeasured(result: ReplayResult): void {
  const { requests } = result.trace;
  if (requests > result.warmupRequests) return;
  // File first, unquoted, as every other trace error names it (`file: line N: …`).
  const files = result.files.map((file) => echoValue(file)).join(', ');
  const skipped = result.trace.skipped.reduce((sum, entry) => sum + entry.count, 0);
  if (requests === 0 && skipped > 0) {
    throw new UserError(`${files}: every record was malformed (${formatCount(skipped)} skipped with --skip-bad), so no request was replayed; check --format and the csv column options`);
  }
  if (requests === 0) throw new UserError(`${files}: the trace holds no request, so there is nothing to measure; check the file`);
  throw new UserError(`--warmup: the warm-up of ${formatCount(result.warmupRequests)} requests covers the whole trace (${formatCount(requests)} requests), so none is measured; use a smaller warm-up such as 20%`);
}

/** `formatSize`: sizes written as the user wrote them (--cache-size 100MiB prints 100 MiB, not 105 MB). */
function replayText(result: ReplayResult, wallSeconds: number, formatSize: (bytes: number) => string, columns: number): string {
  const { trace } = result;
  const countMode = result.rows[0]?.countMode ?? false;
  const header = [
    `${result.files.map((file) => basename(file)).join(', ')}: ${formatCount(trace.requests)} requests, ${formatCount(trace.objects)} objects, ` +
      `${formatBytes(trace.distinctBytes)} working set, ${formatSeconds(trace.lastTimeSeconds - trace.firstTimeSeconds)} of trace time`,
    `measured ${formatCount(Math.max(0, trace.requests - result.warmupRequests))} requests after a warm-up of ${formatCount(result.warmupRequests)}; ` +
      `${formatCount(result.rows.length)} cache(s) in ${wallSeconds.toFixed(2)} s (${formatCount(trace.requests / Math.max(wallSeconds, 1e-9))} requests/s)`,
    '',
  ];
  const table = formatTableWithin(
    ['policy', countMode ? 'cache (objects)' : 'cache size', 'of working set', 'ttl', 'miss ratio', 'byte miss ratio', 'hits'],
    result.rows.map((row) => [
      row.policy,
      countMode ? formatCount(row.cacheSize) : formatSize(row.cacheSize),
      formatPercent(row.cacheSize / Math.max(1, countMode ? trace.objects : trace.distinctBytes), 1),
      row.ttlSeconds === null ? '—' : `${row.ttlSeconds} s`,
      row.missRatio.toFixed(4),
      row.byteMissRatio.toFixed(4),
      formatCount(row.hits),
    ]),
    columns,
  );
  return [...header.flatMap((line) => wrapLine(line, columns)), table].join('\n');
}

function formatSeconds(seconds: number): string {
  return seconds >= 7200 ? `${(seconds / 3600).toFixed(1)} h` : `${Math.round(seconds)} s`;
}

function splitList(flag: string, text: string): string[] {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new UserError(`${flag}: expected a comma-separated list without empty items, found "${text}"`);
  return items;
}

function parsePolicies(text: string): CachePolicyName[] {
  return splitList('--policy', text).map((name) => {
    const lower = name.toLowerCase();
    if ((CACHE_POLICY_NAMES as readonly string[]).includes(lower)) return lower as CachePolicyName;
    const guess = nearest(lower, CACHE_POLICY_NAMES);
    throw new UserError(`--policy: unknown policy "${name}"${guess ? `; did you mean "${guess}"?` : ''} Known: ${CACHE_POLICY_NAMES.join(', ')}`);
  });
}

/** A number with a decimal point is a fraction of the working set (as in libCacheSim); anything else is bytes, or objects in count mode. */
export function parseCacheSizes(text: string, countMode: boolean): CacheSizeSpec[] {
  return splitList('--cache-size', text).map((item) => {
    if (/^(\d+\.\d*|\.\d+)$/.test(item)) {
      const fraction = Number(item);
      if (!(fraction > 0)) throw new UserError(`--cache-size: a fraction of the working set must be above 0, found "${item}"`);
      return { kind: 'fraction', fraction };
    }
    const parsed = countMode ? parseCount(item) : parseSize(item);
    if (!parsed.ok) {
      throw new UserError(
        `--cache-size: expected ${countMode ? 'a number of objects such as 10000 or 50k' : 'a size such as 202976972, 193MiB or 1GB'}, or a fraction such as 0.1, found "${item}"`,
      );
    }
    if (parsed.value <= 0) throw new UserError(`--cache-size: expected a size above 0, found "${item}"`);
    return { kind: 'absolute', value: parsed.value };
  });
}

function parseTtls(text: string): number[] {
  return splitList('--ttl', text).map((item) => {
    const parsed = parseDuration(item, { bareUnit: 's' });
    if (!parsed.ok || parsed.value <= 0) throw new UserError(`--ttl: expected ${parsed.ok ? 'a TTL above 0' : 'a duration such as 60 (seconds), 5m or 1h'}, found "${item}"`);
    return parsed.value / 1000;
  });
}

function parseWarmup(text: string): ReplayWarmup {
  const trimmed = text.trim();
  // A percentage or a number with a decimal point is a share (0 is the request count 0).
  if (trimmed.endsWith('%') || /^(\d+\.\d*|\.\d+)$/.test(trimmed)) {
    const parsed = parseFraction(trimmed);
    if (parsed.ok && parsed.value < 1) return { kind: 'fraction', fraction: parsed.value };
    throw new UserError(`--warmup: a share of the trace must be below 100 % (1.0), found "${text}"`);
  }
  const count = parseCount(trimmed);
  if (!count.ok) throw new UserError(`--warmup: expected a request count such as 100000 or 50k, or a share such as 20% or 0.2, found "${text}"`);
  return { kind: 'requests', requests: count.value };
}

function csvOptions(args: ReplayArgs): TraceReaderOptions['csv'] {
  const columns = { timeColumn: args.csvTimeCol, idColumn: args.csvIdCol, sizeColumn: args.csvSizeCol };
  for (const [flag, value] of [['--csv-time-col', args.csvTimeCol], ['--csv-id-col', args.csvIdCol], ['--csv-size-col', args.csvSizeCol]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new UserError(`${flag}: expected a 1-based column number, found ${String(value)}`);
  }
  const options = {
    ...Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)),
    ...(args.csvHeader === undefined ? {} : { header: args.csvHeader }),
    ...(args.csvDelimiter === undefined ? {} : { delimiter: args.csvDelimiter }),
  };
  return Object.keys(options).length > 0 ? options : undefined;
}
