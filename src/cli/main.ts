#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { isUserError } from '../userError.js';
import { runCommand } from './commands/run.js';
import { schemaCommand } from './commands/schema.js';
import { validateCommand } from './commands/validate.js';
import { packageInfo } from './packageInfo.js';

/** Exit codes: 0 success, 2 a user mistake (message, no stack trace), 1 an internal error. */
export const EXIT_OK = 0;
export const EXIT_INTERNAL = 1;
export const EXIT_USAGE = 2;

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  let cli = yargs(argv)
    .scriptName('cdnsim')
    .usage('$0 <command> [options]\n\nA discrete-event CDN simulator: layered HTTP caching, hit ratios and latency.')
    .version(packageInfo().version)
    .strict()
    .demandCommand(1, 'name a command: run, validate or schema')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message);
    });
  for (const add of [runCommand, validateCommand, schemaCommand]) cli = add(cli);
  try {
    await cli.parseAsync();
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cdnsim: ${error.message}\nRun 'cdnsim --help' (or 'cdnsim <command> --help') for usage.\n`);
      return EXIT_USAGE;
    }
    if (isUserError(error)) {
      process.stderr.write(`cdnsim: ${error.message}\n`);
      return EXIT_USAGE;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`cdnsim: internal error: ${detail}\nThis is a bug in cdnsim; please report it with the command line and the scenario file.\n`);
    return EXIT_INTERNAL;
  }
}

// A closed pipe (`cdnsim schema | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_OK);
  throw error;
});

process.exitCode = await main(hideBin(process.argv));
