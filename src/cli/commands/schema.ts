import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { scenarioJsonSchema } from '../../scenario/jsonSchema.js';
import { checkOutputFile } from '../outputPath.js';

interface SchemaArgs {
  out?: string;
}

export function schemaCommand(yargs: Argv): Argv {
  return yargs.command<SchemaArgs>(
    COMMAND_LINES.schema.command,
    COMMAND_LINES.schema.describe,
    (command) => command.option('out', { type: 'string', describe: 'write it to this file instead of stdout' }) as unknown as Argv<SchemaArgs>,
    (args) => {
      if (args.out !== undefined) checkOutputFile(args.out);
      const text = `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
      if (args.out) writeFileAtomic(args.out, text);
      else process.stdout.write(text);
    },
  );
}
