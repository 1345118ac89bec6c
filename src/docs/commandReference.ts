import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * docs/commands.md: hand-written notes per command around blocks generated from each
 * command's `--help`, so the flags listed cannot lag the CLI. `npm run docs:generate`
 * rewrites the blocks (and adds a section for a command the page does not have yet);
 * test/docs/generatedReferences.test.ts fails while the committed page differs.
 *
 * A block is the text between `<!-- generated: cdnsim <command> --help -->` and
 * `<!-- end generated -->`; `cdnsim --help` (every command, one line each) has one too.
 */

/** Help texts by command line: `cdnsim --help` under '', each command's under its name. */
export type HelpTexts = ReadonlyMap<string, string>;

const BLOCK = /<!-- generated: cdnsim (?:(\S+) )?--help -->\n[\s\S]*?<!-- end generated -->/g;

/** The commands `cdnsim --help` lists, in its order (the word after `cdnsim` on each line of "Commands:"). */
export function commandNames(topHelp: string): string[] {
  const section = topHelp.split(/\n(?=\S)/).find((part) => part.startsWith('Commands:')) ?? '';
  return [...section.matchAll(/^ {2}cdnsim (\S+)/gm)].map((match) => match[1]!);
}

function block(command: string, help: string): string {
  const line = command === '' ? 'cdnsim --help' : `cdnsim ${command} --help`;
  return `<!-- generated: ${line} -->\n\`\`\`text\n$ ${line}\n${help.trimEnd()}\n\`\`\`\n<!-- end generated -->`;
}

/**
 * The page with every generated block rewritten from `helps`. A command `cdnsim --help`
 * lists without a block on the page gets a section of its own at the end; a block for a
 * command it no longer lists is an error, since its notes would describe nothing.
 */
export function commandsPage(current: string, helps: HelpTexts): string {
  const top = helps.get('');
  if (top === undefined) throw new Error('commandsPage needs the text of `cdnsim --help`');
  const commands = commandNames(top);
  const seen = new Set<string>();
  const rewritten = current.replace(BLOCK, (_text, command: string | undefined) => {
    const name = command ?? '';
    const help = helps.get(name);
    if (help === undefined || (name !== '' && !commands.includes(name))) {
      throw new Error(`docs/commands.md has a block for \`cdnsim ${name} --help\`, a command \`cdnsim --help\` does not list: remove its section`);
    }
    seen.add(name);
    return block(name, help);
  });
  const added = commands
    .filter((name) => !seen.has(name))
    .map((name) => `\n## cdnsim ${name}\n\n${block(name, helps.get(name) ?? '')}\n`);
  return `${rewritten.trimEnd()}\n${added.join('')}`;
}

/** `--help` of the built CLI, as a user sees it: no colour, and 100 columns whatever the terminal (the width the CLI's output is held to). */
export async function helpText(args: readonly string[], cli: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [cli, ...args, '--help'], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', COLUMNS: '100' } });
    return stdout;
  } catch (error) {
    throw new Error(`cdnsim ${args.join(' ')} --help failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every help text the commands page holds: `cdnsim --help` under '', then each command's (side by side: each is a process start). */
export async function allHelpTexts(cli: string): Promise<Map<string, string>> {
  const top = await helpText([], cli);
  const names = commandNames(top);
  const texts = await Promise.all(names.map((name) => helpText([name], cli)));
  return new Map([['', top], ...names.map((name, i): [string, string] => [name, texts[i]!])]);
}
