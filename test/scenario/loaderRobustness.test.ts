import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import { scenarioJsonSchema } from '../../src/scenario/jsonSchema.js';

/** Never a stack trace for a user mistake: whatever the text, the loader returns a scenario or throws a ScenarioError. */
function loadsOrExplains(text: string, file: string): void {
  try {
    parseScenarioText(text, file);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    for (const problem of error.problems) {
      expect(problem.line).toBeGreaterThanOrEqual(1);
      expect(problem.column).toBeGreaterThanOrEqual(1);
      expect(problem.message.length).toBeGreaterThan(0);
    }
  }
}

describe('scenario loader robustness (property tests)', () => {
  it('arbitrary text: a scenario or a located ScenarioError, never another exception', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => loadsOrExplains(text, 'fuzz.yaml')), { seed: 7, numRuns: 1500 });
  });

  it('arbitrary JSON values, at the top level and in every section', () => {
    const sections = ['run', 'traffic', 'content', 'edge', 'regional', 'topology', 'latency', 'origin', 'seed', 'name'];
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...sections), (value, section) => {
        loadsOrExplains(JSON.stringify(value), 'fuzz.json');
        loadsOrExplains(JSON.stringify({ [section]: value }), 'fuzz.json');
      }),
      { seed: 11, numRuns: 1500 },
    );
  });

  it('YAML made of scenario-like lines (keys, units, indentation, flow maps)', () => {
    const line = fc.tuple(
      fc.constantFrom('', '  ', '    ', ' '),
      fc.constantFrom('edge', 'capacity', 'traffic', 'rate', 'regions', 'Europe', 'run', 'warmup', 'requests', 'content', 'objectSize', 'median', '- x', '{', '}', '&a', '*a'),
      fc.constantFrom(':', ': ', ''),
      fc.constantFrom('', '5GB', '20k/s', '35%', '-1', 'null', '[1, 2]', '{ a: 1 }', '250ms', '"x"', '1e400', '~'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => loadsOrExplains(lines.map((parts) => parts.join('')).join('\n'), 'fuzz.yaml')),
      { seed: 13, numRuns: 2000 },
    );
  });
});

describe('the JSON Schema agrees with the loader', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(scenarioJsonSchema());
  const scenarioFiles = readdirSync('scenarios').filter((file) => /\.(ya?ml|json)$/.test(file));

  it.each(scenarioFiles)('accepts the shipped scenarios/%s (as the loader does)', (file) => {
    const text = readFileSync(join('scenarios', file), 'utf8');
    const parsed = parseScenarioText(text, file);
    expect(parsed.name.length).toBeGreaterThan(0);
    // The schema checks the file as written, so it is given the YAML's data.
    expect(validate(parseYaml(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects an unknown key and a wrongly typed section, as the loader does', () => {
    expect(validate({ edge: { capacty: '5GB' } })).toBe(false);
    expect(validate({ edge: 5 })).toBe(false);
    expect(validate({ traffic: { regions: { Europa: 1 } } })).toBe(false);
    expect(validate({ edge: { policy: 'lur' } })).toBe(false);
    expect(validate({ edge: { capacity: '5GB', policy: 'lru' }, run: { requests: '2M', warmup: '25%' } })).toBe(true);
  });
});
