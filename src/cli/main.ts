#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { boundedMessage, isUserError } from '../userError.js';
import { compareCommand } from './commands/compare.js';
import { mergeCommand } from './commands/merge.js';
import { planCommand } from './commands/plan.js';
import { sweepCommand } from './commands/sweep.js';
import { chartCommand } from './commands/chart.js';
import { explainCommand } from './commands/explain.js';
import { harCommand } from './commands/har.js';
import { replayCommand } from './commands/replay.js';
import { CheckFailedError, EXIT_CHECK_FAILED, runCommand } from './commands/run.js';
import { schemaCommand } from './commands/schema.js';
import { topologyCommand } from './commands/topology.js';
import { trafficCommand } from './commands/traffic.js';
import { validateCommand } from './commands/validate.js';
import { EXIT_INTERRUPTED, InterruptedError } from './interrupted.js';
import { ConservationFailedError, EXIT_CONSERVATION_FAILED } from './conservationFailure.js';
import { joinNegativeValues, refuseEmptyValues, refuseRepeatedFlags, withFlagSuggestions } from './flags.js';
import { packageInfo } from './packageInfo.js';
import { terminalColumns } from './terminalColumns.js';
import { foldColumns } from '../report/consoleTable.js';

/** Exit codes: 0 success, 2 a user mistake (message, no stack trace), 1 an internal error, 3 `run --check` found a stated figure outside, 4 a conservation check failed (docs/conservation.md). */
export const EXIT_OK = 0;
export const EXIT_INTERNAL = 1;
export const EXIT_USAGE = 2;

class UsageError extends Error {}

const MISSING_POSITIONAL: Record<string, string> = {
  run: '`cdnsim run` needs a scenario file, for example: cdnsim run scenarios/baseline.yaml',
  validate: '`cdnsim validate` needs one or more scenario files, for example: cdnsim validate scenarios/*.yaml',
  replay: '`cdnsim replay` needs one or more trace files, for example: cdnsim replay test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin --cache-size 0.01,0.1',
  compare: '`cdnsim compare` needs a scenario file, for example: cdnsim compare scenarios/ttl-strategies.yaml',
  sweep: '`cdnsim sweep` needs a scenario file and --param, for example: cdnsim sweep scenarios/ttl-strategies.yaml --param edge.capacity=100MB,1GB',
  plan: '`cdnsim plan` needs a scenario file and a target, for example: cdnsim plan scenarios/baseline.yaml --edge-hit-ratio 90%',
  merge: '`cdnsim merge` needs the folders of a sweep\'s shards, for example: cdnsim merge results/x/shard-0 results/x/shard-1',
  chart: '`cdnsim chart` needs a run folder, for example: cdnsim chart results/baseline/<run-id>',
  traffic: '`cdnsim traffic` needs a traffic class (eu-2, eu-3, tc-0, v) or a model folder, for example: cdnsim traffic eu-2 --requests 2M --out eu-2.oracleGeneral.bin',
  har: '`cdnsim har` needs a HAR file (browser DevTools → Network → "Save all as HAR"), for example: cdnsim har test/fixtures/har/page-load.har',
};

/** yargs' wording for a missing positional or a mistyped command says too little. */
function clearerUsageMessage(message: string, argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith('-'));
  if (message.startsWith('Not enough non-option arguments') && command && MISSING_POSITIONAL[command]) return MISSING_POSITIONAL[command];
  if (message.startsWith('Did you mean') && command) return `unknown command '${command}'. ${message}`;
  return message;
}

/**
 * The flags of the command being parsed. yargs hands `fail` its usage object (typed as the
 * Argv), whose `getDescriptions` lists the command's options by name.
 */
function knownFlags(usage: unknown): string[] {
  const describe = (usage as { getDescriptions?: () => Record<string, unknown> }).getDescriptions;
  return typeof describe === 'function' ? Object.keys(describe.call(usage)).filter((name) => name.length > 1) : [];
}

export async function main(rawArgv: string[]): Promise<number> {
  const argv = joinNegativeValues(rawArgv);
  let cli = yargs(argv)
    .scriptName('cdnsim')
    .usage('$0 <command> [options]')
    .epilogue('A discrete-event CDN simulator: layered HTTP caching, hit ratios and latency. See README.md.')
    .version(packageInfo().version)
    .strict()
    .demandCommand(1, 'name a command: run, compare, sweep, plan, merge, chart, replay, traffic, explain, har, validate, schema or topology')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    // No wrapping by yargs: its own cuts words (run.r|equests) and examples could not be copied; foldColumns folds the help between words (below).
    .wrap(null)
    .exitProcess(false)
    .middleware(refuseRepeatedFlags, true)
    .middleware(refuseEmptyValues, true)
    .fail((message, error, instance) => {
      if (error) throw error;
      throw new UsageError(withFlagSuggestions(clearerUsageMessage(message, argv), knownFlags(instance)));
    });
  for (const add of [runCommand, compareCommand, sweepCommand, planCommand, mergeCommand, chartCommand, replayCommand, trafficCommand, explainCommand, harCommand, validateCommand, schemaCommand, topologyCommand]) cli = add(cli);
  // yargs prints --help and --version through console.log and offers no other hook: fold what it prints to the terminal's width (issue 26).
  const log = console.log;
  const columns = terminalColumns();
  console.log = (...args: unknown[]) => log(foldColumns(args.map(String).join(' '), columns));
  try {
    await cli.parseAsync();
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cdnsim: ${boundedMessage(error.message)}\nRun 'cdnsim --help' (or 'cdnsim <command> --help') for usage.\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CheckFailedError) {
      process.stderr.write(`cdnsim: ${error.message}\n`);
      return EXIT_CHECK_FAILED;
    }
    if (error instanceof ConservationFailedError) {
      process.stderr.write(`cdnsim: ${error.message}\n`);
      return EXIT_CONSERVATION_FAILED;
    }
    if (error instanceof InterruptedError) {
      process.stderr.write(`\ncdnsim: ${error.message}\n`);
      return EXIT_INTERRUPTED;
    }
    if (isUserError(error)) {
      process.stderr.write(`cdnsim: ${boundedMessage(error.message)}\n`);
      return EXIT_USAGE;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`cdnsim: internal error: ${detail}\nThis is a bug in cdnsim; please report it with the command line and the scenario file.\n`);
    return EXIT_INTERNAL;
  } finally {
    console.log = log;
  }
}

// A closed pipe (`cdnsim schema | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_OK);
  throw error;
});

process.exitCode = await main(hideBin(process.argv));
