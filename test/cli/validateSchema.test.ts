import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../src/scenario/jsonSchema.js';
import { REPO, cdnsim, expectNoStackTrace, temporaryFolder } from './helpers.js';

describe('cdnsim validate', () => {
  it('accepts every shipped scenario', () => {
    const result = cdnsim(['validate', 'scenarios/baseline.yaml']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('ok      scenarios/baseline.yaml (scenario "baseline")\n');
  });

  it('reads a scenario\'s recording as run does: a missing one, a malformed HAR and a folder are invalid (exit 2), the shipped one is ok', () => {
    const folder = temporaryFolder('validate-recording');
    const shipped = readFileSync(join(REPO, 'scenarios/har-amplified.yaml'), 'utf8');
    expect(shipped).toContain('file: recordings/nextjs-page-load.har');
    const withRecording = (name: string, recording: string): string => {
      const file = join(folder, name);
      writeFileSync(file, shipped.replace('file: recordings/nextjs-page-load.har', `file: ${recording}`));
      return file;
    };
    writeFileSync(join(folder, 'bad.har'), readFileSync(join(REPO, 'test/fixtures/har/bad-json.har')));
    const cases: [string, RegExp][] = [
      [withRecording('missing.yaml', 'missing.har'), /missing\.yaml:25:11: `content\.recorded\.file`: file not found: .*missing\.har.*\. The path is relative to the scenario file\./],
      [withRecording('malformed.yaml', 'bad.har'), /bad\.har:90:45: malformed JSON: expected ','/],
      [withRecording('folder.yaml', folder), /folder\.yaml:25:11: `content\.recorded\.file`: .* is a folder, not a HAR export or an access log\. The path is relative/],
    ];
    for (const [file, message] of cases) {
      const result = cdnsim(['validate', file]);
      expect(result.status, file).toBe(2);
      expect(result.stdout, file).toBe(`invalid ${file}\n`);
      expect(result.stderr, file).toMatch(message);
      expect(expectNoStackTrace(result.stderr), file).toBe(true);
    }
    expect(cdnsim(['validate', 'scenarios/har-amplified.yaml']).status).toBe(0);
  });

  it('reports each invalid file and exits 2', () => {
    const folder = temporaryFolder('validate');
    const bad = join(folder, 'bad.json');
    writeFileSync(bad, '{\n  "traffic": { "rate": "fast" }\n}\n');
    const result = cdnsim(['validate', 'scenarios/baseline.yaml', bad]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe(`ok      scenarios/baseline.yaml (scenario "baseline")\ninvalid ${bad}\n`);
    expect(result.stderr).toContain(
      `${bad}:2:24: \`traffic.rate\`: expected a rate such as 20k/s, 1200/s, 3M/h or a number per second, found "fast"`,
    );
    expect(result.stderr).toContain('cdnsim: 1 of 2 scenario files invalid (details above)');
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});

describe('cdnsim schema', () => {
  it('prints a JSON Schema with every section, units as strings or numbers, and no unknown keys allowed', () => {
    const result = cdnsim(['schema']);
    expect(result.status).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'name', 'description', 'modelsService', 'seed', 'run', 'traffic', 'deployment', 'content', 'edge', 'regional', 'topology', 'cdn', 'metrics', 'incidents', 'expect', 'strategies']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.edge.properties.capacity.type).toEqual(['string', 'number']);
    expect(schema.properties.edge.properties.policy.enum).toEqual(['lru', 'fifo', 'clock', 'sieve', 's3fifo', 'lfu', 'arc', 'twoq', 's4lru', 'gdsf']);
    expect(schema.properties.traffic.properties.regions.additionalProperties).toBe(false);
    // Both topology models' keys, for completion: model pops (PoPs, tier, physical latency) and model regions.
    expect(Object.keys(schema.properties.topology.properties)).toEqual([
      'model', 'pops', 'regionalTier', 'origins', 'clients', 'routing', 'latency', 'edgeSites', 'clientToEdge', 'jitter', 'originLatency',
    ]);
    expect(schema.properties.topology.properties.model.enum).toEqual(['pops', 'regions']);
  });

  it('the committed schemas/scenario.schema.json is up to date (regenerate: cdnsim schema --out schemas/scenario.schema.json)', () => {
    const committed = readFileSync(join(REPO, 'schemas/scenario.schema.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
  });
});
