import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarioJsonSchema } from '../scenario/jsonSchema.js';
import { allHelpTexts, commandsPage } from './commandReference.js';
import { scenarioKeysPage } from './scenarioKeys.js';

/**
 * `npm run docs:generate`: rewrites the references generated from the code, in one command
 * so they are rerun together after a merge: schemas/scenario.schema.json (`cdnsim schema`),
 * docs/scenario-keys.md (the scenario schema) and docs/commands.md's blocks (each command's
 * `--help`, from the built CLI). A script rather than a `cdnsim` command: it writes into the
 * clone, which is a contributor's job, not a user's.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

function writeIfChanged(path: string, text: string): void {
  const file = join(REPO, path);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (before === text) return;
  writeFileSync(file, text);
  process.stdout.write(`written: ${path}\n`);
}

writeIfChanged('schemas/scenario.schema.json', `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
writeIfChanged('docs/scenario-keys.md', scenarioKeysPage());
const commandsFile = join(REPO, 'docs/commands.md');
writeIfChanged('docs/commands.md', commandsPage(existsSync(commandsFile) ? readFileSync(commandsFile, 'utf8') : '# Commands\n', await allHelpTexts(CLI)));
process.stdout.write('references are current\n');
