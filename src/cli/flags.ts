import type { Arguments, Argv } from 'yargs';
import { echoValue, UserError } from '../userError.js';
import { nearest } from '../suggest.js';

/**
 * The one place where command-line flags are read before a command sees them: repeated
 * flags are refused, and a value that starts with a minus sign stays a value.
 */

/** A flag name as the user types it: `cacheSize` → `--cache-size`. */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * yargs reads `--duration -5s` as the flag without a value and the short options -5 and -s
 * ("Unknown arguments: 5, s"). A token after a long flag that starts with a minus and a
 * digit or a point is the flag's value, so it is joined to it (`--duration=-5s`) and the
 * command's own check says what is wrong with it.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    const next = argv[i + 1];
    if (token === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    if (/^--[A-Za-z][\w-]*$/.test(token) && !token.startsWith('--no-') && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${token}=${next}`);
      i++;
    } else {
      joined.push(token);
    }
  }
  return joined;
}

/**
 * yargs turns a flag given twice into a list, which a command expecting one string or number
 * would misread (`--seed 1 --seed 2` → ["1", "2"]). Only flags declared as lists may repeat.
 * Runs as a middleware before validation, when the command's own options are known.
 */
export function refuseRepeatedFlags(args: Arguments, yargs?: Argv): void {
  if (yargs === undefined) return;
  const options = (yargs as unknown as { getOptions(): { array: string[] } }).getOptions();
  const repeatable = new Set(options.array);
  const reported = new Set<string>();
  for (const [key, value] of Object.entries(args)) {
    if (key === '_' || key === '$0' || !Array.isArray(value) || value.length < 2) continue;
    const flag = flagName(key);
    // yargs lists a list option under its declared name; the camel-case alias is the same flag.
    if (repeatable.has(key) || repeatable.has(flag.slice(2))) continue;
    if (reported.has(flag)) continue;
    reported.add(flag);
    const values = value.map((item) => echoValue(String(item), 40)).join(', ');
    throw new UserError(`${flag} was given ${value.length} times (${values}); give it once`);
  }
}

/**
 * A string flag given an empty value (`--out ''`, often an unset shell variable) would be
 * read as absent and fall back to its default without a word: it is refused instead.
 */
export function refuseEmptyValues(args: Arguments, yargs?: Argv): void {
  if (yargs === undefined) return;
  const options = (yargs as unknown as { getOptions(): { string: string[] } }).getOptions();
  for (const key of options.string) {
    if (args[key] !== '') continue;
    throw new UserError(`${flagName(key)}: expected a value, found an empty one (an unset shell variable?); leave the flag out for its default`);
  }
}

/** "Unknown argument: sed" → "Unknown argument: sed (did you mean --seed?)". */
export function withFlagSuggestions(message: string, flags: readonly string[]): string {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (match === null) return message;
  const hints = match[1].split(', ').flatMap((word) => {
    const bare = word.replace(/^-+/, '');
    const suggestion = nearest(bare, flags);
    return suggestion === undefined ? [] : [`--${bare}: did you mean --${suggestion}?`];
  });
  return hints.length === 0 ? message : `${message} (${hints.join('; ')})`;
}

/** --set PATH=VALUE, as run, plan and traffic take it (experiment/scenarioParams.ts parseScenarioSet and loadScenarioWithSets read it). */
export const SET_OPTION = {
  type: 'string',
  array: true,
  describe: 'PATH=VALUE: sets one scenario key, as the file would hold it, e.g. --set content.classes[0].sharing=25% (repeat for more)',
} as const;
