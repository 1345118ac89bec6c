import type { Argv, PositionalOptions } from 'yargs';

/**
 * A variadic positional (`<files..>`) that must be given. yargs gives every variadic
 * positional a default of [], which its help then shows beside [required]
 * (`[required] [default: []]`, a contradiction); an explicit `default: undefined` keeps
 * that default out of the help. A missing one is still refused: the command's `<…>` demands it.
 */
export function requiredFileList<T>(command: Argv<T>, key: string, describe: string): Argv<T> {
  const options: PositionalOptions = { type: 'string', array: true, describe, default: undefined };
  return command.positional(key, options) as unknown as Argv<T>;
}
