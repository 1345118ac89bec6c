import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { requiredFileList } from '../positionals.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { runLength } from '../../experiment/runLength.js';
import { expectedAfterRunEndWarnings } from '../../experiment/afterRunEnd.js';
import { UserError, boundedMessage, isUserError } from '../../userError.js';

interface ValidateArgs {
  files: string[];
}

export function validateCommand(yargs: Argv): Argv {
  return yargs.command<ValidateArgs>(
    COMMAND_LINES.validate.command,
    COMMAND_LINES.validate.describe,
    (command) => requiredFileList(command, 'files', 'scenario files') as unknown as Argv<ValidateArgs>,
    async (args) => {
      let failed = 0;
      for (const file of args.files) {
        try {
          const scenario = loadScenarioFile(file);
          // As `run` reads it before it starts: a missing or malformed recording is the scenario's mistake too.
          if (scenario.content.recorded) await loadScenarioRecording(scenario.content.recorded, file);
          process.stdout.write(`ok      ${file} (scenario "${scenario.name}")\n`);
          // Valid, but likely not what was meant: an incident or crowd after a request-count run's expected end.
          const { requestLimit, horizonMs } = runLength(scenario);
          for (const line of expectedAfterRunEndWarnings(scenario, requestLimit, horizonMs)) process.stderr.write(`warning: ${file}: ${line}\n`);
        } catch (error) {
          if (!isUserError(error)) throw error;
          failed++;
          process.stdout.write(`invalid ${file}\n`);
          process.stderr.write(`${boundedMessage(error.message)}\n`);
        }
      }
      if (failed > 0) throw new UserError(`${failed} of ${args.files.length} scenario file${args.files.length === 1 ? '' : 's'} invalid (details above)`);
    },
  );
}
