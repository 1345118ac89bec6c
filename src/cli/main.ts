#!/usr/bin/env node
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { boundedMessage, isUserError } from '../userError.js';
import { CheckFailedError, EXIT_CHECK_FAILED } from './checkFailed.js';
import { COMMAND_LINES } from './commandLines.js';
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

type AddCommand = (yargs: Argv) => Argv;

/**
 * The commands in the order --help lists them, each module imported only when needed: importing
 * all of them at start loaded ~320 modules (the simulator, zod, charts) before `--version` or
 * `explain` could answer, about 0.9 s of CPU per process.
 */
const LAZY_COMMANDS: readonly { name: keyof typeof COMMAND_LINES; load: () => Promise<AddCommand> }[] = [
  { name: 'run', load: async () => (await import('./commands/run.js')).runCommand },
  { name: 'compare', load: async () => (await import('./commands/compare.js')).compareCommand },
  { name: 'sweep', load: async () => (await import('./commands/sweep.js')).sweepCommand },
  { name: 'plan', load: async () => (await import('./commands/plan.js')).planCommand },
  { name: 'merge', load: async () => (await import('./commands/merge.js')).mergeCommand },
  { name: 'chart', load: async () => (await import('./commands/chart.js')).chartCommand },
  { name: 'replay', load: async () => (await import('./commands/replay.js')).replayCommand },
  { name: 'traffic', load: async () => (await import('./commands/traffic.js')).trafficCommand },
  { name: 'explain', load: async () => (await import('./commands/explain.js')).explainCommand },
  { name: 'har', load: async () => (await import('./commands/har.js')).harCommand },
  { name: 'validate', load: async () => (await import('./commands/validate.js')).validateCommand },
  { name: 'schema', load: async () => (await import('./commands/schema.js')).schemaCommand },
  { name: 'topology', load: async () => (await import('./commands/topology.js')).topologyCommand },
];

/**
 * yargs runs (and builds the options of) only a command whose name is an argument, so every
 * other command needs no more than its usage line and description, for the command list of
 * --help and for "Did you mean". Any argument equal to a command's name loads that command
 * (also as an option's value, which costs a load and nothing else).
 */
async function addCommands(cli: Argv, argv: readonly string[]): Promise<Argv> {
  for (const { name, load } of LAZY_COMMANDS) {
    const { command, describe } = COMMAND_LINES[name];
    cli = argv.includes(name) ? (await load())(cli) : cli.command(command, describe);
  }
  return cli;
}

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
  cli = await addCommands(cli, argv);
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
