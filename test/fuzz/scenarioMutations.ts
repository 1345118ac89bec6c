import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { REPO } from '../cli/helpers.js';

/** Every scenario the repository ships, as data. */
export const SHIPPED_SCENARIOS: readonly { file: string; data: unknown }[] = readdirSync(join(REPO, 'scenarios'))
  .filter((name) => /\.(ya?ml|json)$/.test(name))
  .sort()
  .map((name) => ({ file: join('scenarios', name), data: parse(readFileSync(join(REPO, 'scenarios', name), 'utf8')) as unknown }));

type Path = (string | number)[];

/** Every path to a value inside `data` (the root excluded). */
function pathsOf(data: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(data)) data.forEach((item, index) => (out.push([...prefix, index]), pathsOf(item, [...prefix, index], out)));
  else if (data !== null && typeof data === 'object') for (const [key, value] of Object.entries(data)) (out.push([...prefix, key]), pathsOf(value, [...prefix, key], out));
  return out;
}

const DEEP = '__cdnsim_fuzz_deep__';
const HUGE = '__cdnsim_fuzz_huge__';

/** What a mutation puts at a path. */
export type Mutation =
  | { op: 'delete' }
  | { op: 'rename'; key: string }
  | { op: 'set'; value: unknown }
  | { op: 'resize'; length: number }
  | { op: 'deep'; depth: number; brackets: boolean }
  | { op: 'huge'; length: number };

const EXTREME_NUMBERS = [-1, -5, 0, -0, 0.5, 1e-300, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e15, 1e308, -1e308, Infinity, -Infinity, NaN];
const UNIT_GARBAGE = ['5 parsecs', '-5s', '1e999GB', '%', '10%%', '-10%', '∞', '12kb/s/s', '', ' ', '0x10', '1,5', '20k/s/s', '100000000000000000000000%', '1e-9999ms', 'NaN', '-', '٣٤٥', '1GiB', '..', '.', '1e12', '1e20', '1e9/s', '0B', '1M', '100%', '10M/s', '10000001/s'];
const TYPE_SWAPS: unknown[] = [null, true, false, 'x', 0, [], {}, [1, 2], { a: 1 }, [[]], '[]'];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ op: 'delete' }),
  fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('Edge', 'capacitty', 'rate ', '__proto__', 'constructor', 'toString', '$schema')).map((key): Mutation => ({ op: 'rename', key })),
  fc.constantFrom(...TYPE_SWAPS).map((value): Mutation => ({ op: 'set', value })),
  fc.oneof(fc.constantFrom(...EXTREME_NUMBERS), fc.double(), fc.integer()).map((value): Mutation => ({ op: 'set', value })),
  fc.oneof(fc.constantFrom(...UNIT_GARBAGE), fc.string({ maxLength: 20 })).map((value): Mutation => ({ op: 'set', value })),
  fc.integer({ min: 0, max: 200 }).map((length): Mutation => ({ op: 'resize', length })),
  fc.record({ depth: fc.integer({ min: 50, max: 3000 }), brackets: fc.boolean() }).map(({ depth, brackets }): Mutation => ({ op: 'deep', depth, brackets })),
  fc.integer({ min: 1000, max: 400_000 }).map((length): Mutation => ({ op: 'huge', length })),
);

function apply(data: unknown, path: Path, change: Mutation): void {
  let parent = data as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1];
  if (parent === null || typeof parent !== 'object') return;
  switch (change.op) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return;
    case 'rename':
      if (Array.isArray(parent)) return;
      Object.defineProperty(parent, change.key, { value: parent[key], enumerable: true, writable: true, configurable: true });
      if (change.key !== key) delete parent[key];
      return;
    case 'set':
      // A copy: the swap values are shared constants, and a later mutation must not change them for every other case.
      parent[key] = structuredClone(change.value);
      return;
    case 'resize': {
      const value = parent[key];
      const item = Array.isArray(value) ? value[0] : value;
      parent[key] = Array.from({ length: change.length }, () => item);
      return;
    }
    case 'deep':
      parent[key] = `${DEEP}${change.depth}:${change.brackets ? '[' : '{'}`;
      return;
    case 'huge':
      parent[key] = `${HUGE}${change.length}`;
  }
}

/** One to three mutations at paths picked by index. */
export const mutationPicks = fc.array(fc.record({ at: fc.nat(), change: mutation }), { minLength: 1, maxLength: 3 });

/** A copy of `source` with the picked mutations applied, and what was done, for a failure's report. */
export function mutatedCopy(source: unknown, picks: readonly { at: number; change: Mutation }[]): { data: unknown; done: string[] } {
  const data = structuredClone(source);
  const done: string[] = [];
  for (const { at, change } of picks) {
    const paths = pathsOf(data);
    if (paths.length === 0) break;
    const path = paths[at % paths.length];
    done.push(`${change.op} ${JSON.stringify(change).slice(0, 80)} at ${path.join('.')}`);
    apply(data, path, change);
  }
  return { data, done };
}

export interface MutatedScenario {
  /** The shipped scenario it came from. */
  source: string;
  /** File name the text is given under (`.json` or `.yaml`). */
  file: string;
  text: string;
  /** What was done, for a failure's report. */
  description: string;
}

/** The markers (deep nesting, huge strings) expanded in the text, where no serialiser has to walk them. */
export function expand(text: string): string {
  return text
    .replace(new RegExp(`["']?${DEEP}(\\d+):([[{])["']?`, 'g'), (_all, depth: string, open: string) => {
      const n = Number(depth);
      return open === '[' ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a": '.repeat(n)}1${'}'.repeat(n)}`;
    })
    .replace(new RegExp(`["']?${HUGE}(\\d+)["']?`, 'g'), (_all, length: string) => `"${'x'.repeat(Number(length))}"`);
}

/** A shipped scenario with one to three mutations, as YAML or JSON text; sometimes a second document after it. */
export const mutatedScenario: fc.Arbitrary<MutatedScenario> = fc
  .record({
    scenario: fc.constantFrom(...SHIPPED_SCENARIOS),
    picks: mutationPicks,
    json: fc.boolean(),
    secondDocument: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  })
  .map(({ scenario, picks, json, secondDocument }) => {
    const { data, done } = mutatedCopy(scenario.data, picks);
    const body = json ? JSON.stringify(data, null, 2) : stringify(data);
    const text = expand(secondDocument && !json ? `${body}---\nname: second\n` : body);
    return { source: scenario.file, file: `${scenario.file.replace(/\.\w+$/, '')}-mutated.${json ? 'json' : 'yaml'}`, text, description: done.join('; ') };
  });
