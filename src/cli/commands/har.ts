import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { replayHar, type HarReplayResult } from '../../experiment/harReplay.js';
import { DEPLOYMENT_KINDS, type Deployment, type DeploymentKind } from '../../policy/deployment.js';
import { harReportDocument, harReportJson, harReportText } from '../../report/harReport.js';
import { parseDuration } from '../../units.js';
import { UserError } from '../../userError.js';
import { readHar } from '../../recorded/realTraffic/harReader.js';
import type { SkippedTraffic, TrafficRecord } from '../../recorded/realTraffic/trafficRecord.js';
import { createHarProgressReporter } from '../progressBar.js';
import { terminalColumns } from '../terminalColumns.js';

interface HarArgs {
  file: string;
  deployment: DeploymentKind;
  framework: string;
  cdn: boolean;
  visits: number;
  interval: string;
  newClient: boolean;
  skipBad: number;
  json: boolean;
  progress: boolean;
}

/** The bar's share for reading the file; replaying its visits takes the rest. */
const READING_SHARE = 0.5;

/** A guard against a typo such as --visits 1e9, not a limit of the replay. */
const MAX_VISITS = 1000;
/**
 * Requests replayed (visits × the HAR's requests) at the most: a large export times many
 * visits would run for hours and hold a row per entry and visit. 1 M takes a few minutes.
 */
const MAX_REPLAYED_REQUESTS = 1_000_000;

export function harCommand(yargs: Argv): Argv {
  return yargs.command<HarArgs>(
    COMMAND_LINES.har.command,
    COMMAND_LINES.har.describe,
    (command) =>
      command
        .positional('file', { type: 'string', describe: 'HAR file (HTTP Archive 1.2, as Chrome or Firefox export it)', demandOption: true })
        .option('deployment', { choices: DEPLOYMENT_KINDS, default: 'full-stack' as DeploymentKind, describe: 'deployment kind (spec 1.3)' })
        .option('framework', { type: 'string', default: 'next', describe: 'framework path segment without the underscore (spec 4.3: /_<framework>/static/*)' })
        .option('cdn', { type: 'boolean', default: true, describe: 'CDN enabled; --no-cdn disables it, which only a container deployment allows (spec 1.3)' })
        .option('visits', { type: 'number', default: 2, describe: 'page loads, each replaying the whole HAR' })
        .option('interval', { type: 'string', default: '10m', describe: "time from one visit's start to the next (90s, 10m, 1h)" })
        .option('new-client', { type: 'boolean', default: false, describe: 'visits after the first by a new client: empty browser cache, warm CDN' })
        .option('skip-bad', { type: 'number', default: 0, describe: 'skip up to this many malformed entries (reported) instead of stopping' })
        .option('json', { type: 'boolean', default: false, describe: 'print the replay as JSON and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .example('$0 har test/fixtures/har/page-load.har', 'the same visitor loads the page twice, 10 minutes apart')
        .example('$0 har test/fixtures/har/page-load.har --new-client --interval 30s', 'a first visitor, then another in the same PoP 30 s later')
        .example('$0 har test/fixtures/har/page-load.har --deployment static --json', 'as a static site, machine-readable') as unknown as Argv<HarArgs>,
    (args) => executeHar(args),
  );
}

async function executeHar(args: HarArgs): Promise<void> {
  const deployment = deploymentOf(args);
  const visits = checkedVisits(args.visits);
  const intervalMs = checkedInterval(args.interval);
  if (!Number.isInteger(args.skipBad) || args.skipBad < 0) throw new UserError(`--skip-bad: expected a whole number ≥ 0, found ${String(args.skipBad)}`);

  const progress = createHarProgressReporter(args.progress && !args.json);
  const records: TrafficRecord[] = [];
  let result: HarReplayResult;
  let skipped: SkippedTraffic;
  try {
    // Reading is most of the time on a large HAR, replaying the rest: the bar gives each a share.
    const reader = readHar(args.file, {
      skipBad: args.skipBad,
      onBytesRead: (bytesRead, totalBytes) => progress.update({ phase: 'reading', fraction: totalBytes > 0 ? READING_SHARE * (bytesRead / totalBytes) : 0, requests: records.length }),
    });
    for await (const record of reader) records.push(record);
    skipped = reader.skipped;
    if (records.length === 0) {
      const why = skipped.total === 0 ? 'log.entries is empty' : `all ${skipped.total} entries were skipped (${skipped.examples.map((example) => example.reason).join(', ')})`;
      throw new UserError(`${args.file}: no HTTP requests to replay: ${why}`);
    }
    checkReplayedRequests(args.file, records.length, visits);
    result = replayHar(records, {
      deployment,
      visits,
      intervalMs,
      newClientPerVisit: args.newClient,
      onProgress: (replayed, total) => progress.update({ phase: 'replaying', fraction: READING_SHARE + (1 - READING_SHARE) * (replayed / total), requests: replayed }),
    });
  } finally {
    progress.stop();
  }
  const document = harReportDocument(args.file, result, skipped);
  process.stdout.write(args.json ? harReportJson(document) : harReportText(document, terminalColumns()));
}

/** As `cdnsim explain` builds it (spec 1.3). */
function deploymentOf(args: HarArgs): Deployment {
  if (!args.cdn && args.deployment !== 'container') {
    throw new UserError('--no-cdn: only a container deployment can run without the CDN (spec 1.3); add --deployment container');
  }
  if (!/^[A-Za-z0-9._-]+$/.test(args.framework)) throw new UserError(`--framework: expected a path segment such as next or nuxt, got '${args.framework}'`);
  return { kind: args.deployment, framework: args.framework, cdnEnabled: args.cdn };
}

function checkedVisits(visits: number): number {
  if (!Number.isInteger(visits) || visits < 1 || visits > MAX_VISITS) throw new UserError(`--visits: expected a whole number from 1 to ${MAX_VISITS}, got ${String(visits)}`);
  return visits;
}

function checkReplayedRequests(file: string, requests: number, visits: number): void {
  if (requests * visits <= MAX_REPLAYED_REQUESTS) return;
  const most = Math.floor(MAX_REPLAYED_REQUESTS / requests);
  if (most < 1) throw new UserError(`${file} holds ${requests.toLocaleString('en-US')} requests; at most ${MAX_REPLAYED_REQUESTS.toLocaleString('en-US')} are replayed (hours of work otherwise): export fewer pages`);
  throw new UserError(
    `--visits ${visits}: ${file} holds ${requests.toLocaleString('en-US')} requests, so ${visits} visits would replay ${(requests * visits).toLocaleString('en-US')}; ` +
      `at most ${MAX_REPLAYED_REQUESTS.toLocaleString('en-US')} are replayed (hours of work otherwise): give --visits ${most} or fewer`,
  );
}

function checkedInterval(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new UserError(`--interval: expected ${parsed.expected}, got '${text}'`);
  return parsed.value;
}
