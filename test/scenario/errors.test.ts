import { describe, expect, it } from 'vitest';
import { ScenarioError, formatProblem, parseScenarioText, type ScenarioProblem } from '../../src/scenario/load.js';
import { UserError } from '../../src/userError.js';

const YAML_FILE = 'scenarios/bad.yaml';
const JSON_FILE = 'scenarios/bad.json';

const SIZE = 'expected a size such as 5MB, 193MiB, 10GB or a whole number of bytes';
const TOP_LEVEL_KEYS = '`name`, `description`, `modelsService`, `seed`, `run`, `traffic`, `deployment`, `content`, `edge`, `regional`, `topology`, `cdn`, `metrics`, `incidents`, `expect`, `strategies`';
const EMPTY = 'the file is empty; expected a scenario mapping with keys such as traffic, content and edge (see scenarios/baseline.yaml)';

/** Parses `text` and returns the problems of the ScenarioError it must throw. */
function problemsOf(text: string, file = YAML_FILE): ScenarioProblem[] {
  let thrown: unknown;
  try {
    parseScenarioText(text, file);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ScenarioError);
  return [...(thrown as ScenarioError).problems];
}

function problem(line: number, column: number, keyPath: string, message: string, file = YAML_FILE): ScenarioProblem {
  return { file, line, column, keyPath, message };
}

describe('scenario errors: unknown keys', () => {
  it('unknown key with a suggestion, located at the key', () => {
    expect(problemsOf('edge:\n  capacty: 5GB\n')).toEqual([problem(2, 3, 'edge.capacty', 'unknown key — did you mean `capacity`?')]);
  });

  it('the message of a ScenarioError is file:line:column: `keyPath`: message, and it is a UserError', () => {
    let thrown: unknown;
    try {
      parseScenarioText('edge:\n  capacty: 5GB\n', YAML_FILE);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as Error).name).toBe('ScenarioError');
    expect((thrown as Error).message).toBe('scenarios/bad.yaml:2:3: `edge.capacty`: unknown key — did you mean `capacity`?');
  });

  it('a key differing only in case gets the suggestion', () => {
    expect(problemsOf('edge:\n  Capacity: 1GB\n')).toEqual([problem(2, 3, 'edge.Capacity', 'unknown key — did you mean `capacity`?')]);
  });

  it('unknown top-level key with a suggestion', () => {
    expect(problemsOf('edgee:\n  capacity: 5GB\n')).toEqual([problem(1, 1, 'edgee', 'unknown key — did you mean `edge`?')]);
    expect(problemsOf('seed: 3\ntarffic:\n  rate: 1k/s\n')).toEqual([problem(2, 1, 'tarffic', 'unknown key — did you mean `traffic`?')]);
  });

  it('unknown key with no close match lists the expected keys', () => {
    expect(problemsOf('edge:\n  zzzzzzzz: 5GB\n')).toEqual([problem(2, 3, 'edge.zzzzzzzz', 'unknown key; expected one of `policy`, `capacity`, `capacityByRegion`, `capacityByPop`')]);
    expect(problemsOf('colour: red\n')).toEqual([problem(1, 1, 'colour', `unknown key; expected one of ${TOP_LEVEL_KEYS}`)]);
  });

  it('unknown region "Europa" in traffic.regions suggests Europe, with no second "add up to 100%" problem (spec 1.1 regions)', () => {
    expect(problemsOf('traffic:\n  regions:\n    Europa: 50%\n    North America: 50%\n')).toEqual([
      problem(3, 5, 'traffic.regions.Europa', 'unknown key — did you mean `Europe`?'),
    ]);
    expect(problemsOf('traffic:\n  regions:\n    Europa: 100%\n')).toEqual([problem(3, 5, 'traffic.regions.Europa', 'unknown key — did you mean `Europe`?')]);
  });

  it('unknown region in topology.clientToEdge suggests the region', () => {
    expect(problemsOf('topology:\n  model: regions\n  clientToEdge:\n    Eurpoe: 20ms\n')).toEqual([
      problem(4, 5, 'topology.clientToEdge.Eurpoe', 'unknown key — did you mean `Europe`?'),
    ]);
  });

  it('a mistyped key inside a list item or a union option gets a suggestion too (content.classes[0], traffic.diurnal)', () => {
    expect(problemsOf('traffic:\n  diurnal: { peakHuor: 20 }\n')).toEqual([problem(2, 14, 'traffic.diurnal.peakHuor', 'unknown key — did you mean `peakHour`?')]);
    expect(problemsOf('content:\n  classes:\n    - { name: image, share: 100%, sizee: {} }\n')).toEqual([
      problem(3, 35, 'content.classes[0].sizee', 'unknown key — did you mean `size`?'),
    ]);
  });

  it('a misspelt section name inside a section', () => {
    expect(problemsOf('traffic:\n  regoins:\n    Europe: 100%\n')).toEqual([problem(2, 3, 'traffic.regoins', 'unknown key — did you mean `regions`?')]);
  });
});

describe('scenario errors: values', () => {
  it('wrong type: content.objects: many', () => {
    expect(problemsOf('content:\n  objects: many\n')).toEqual([problem(2, 12, 'content.objects', 'expected a number, found "many"')]);
  });

  it('negative size', () => {
    expect(problemsOf('edge:\n  capacity: -5GB\n')).toEqual([problem(2, 13, 'edge.capacity', `${SIZE}, found "-5GB"`)]);
  });

  it('bad size unit', () => {
    expect(problemsOf('edge:\n  capacity: 5XB\n')).toEqual([problem(2, 13, 'edge.capacity', `${SIZE}, found "5XB"`)]);
  });

  it('a list where a size is expected', () => {
    expect(problemsOf('edge:\n  capacity:\n    - 1\n')).toEqual([problem(2, 3, 'edge.capacity', `${SIZE}, found a list`)]);
  });

  it('bare-number duration for topology.originLatency is ambiguous', () => {
    expect(problemsOf('topology:\n  model: regions\n  originLatency: 120\n')).toEqual([
      problem(
        3,
        18,
        'topology.originLatency',
        'expected a duration with a unit such as 250ms, 5s, 1h or 7d (a bare number is ambiguous: write 120ms or 120s), found 120',
      ),
    ]);
  });

  it('bare-number client→edge latency is ambiguous too; an unknown duration unit is rejected', () => {
    expect(problemsOf('topology:\n  model: regions\n  clientToEdge:\n    Europe: 20\n')).toEqual([
      problem(
        4,
        13,
        'topology.clientToEdge.Europe',
        'expected a duration with a unit such as 250ms, 5s, 1h or 7d (a bare number is ambiguous: write 20ms or 20s), found 20',
      ),
    ]);
    expect(problemsOf('topology:\n  model: regions\n  originLatency: 100 millis\n')).toEqual([
      problem(3, 18, 'topology.originLatency', 'expected a duration with a unit such as 250ms, 5s, 1h or 7d, found "100 millis"'),
    ]);
  });

  it('a region name with a space is quoted in the key path', () => {
    expect(problemsOf('traffic:\n  regions:\n    North America: abc\n    Europe: 100%\n')).toEqual([
      problem(3, 20, 'traffic.regions["North America"]', 'expected a percentage such as 35% or a fraction between 0 and 1, found "abc"'),
    ]);
  });

  it('a region share above 100%', () => {
    expect(problemsOf('traffic:\n  regions:\n    Europe: 150%\n')).toEqual([
      problem(3, 13, 'traffic.regions.Europe', 'expected a percentage such as 35% or a fraction between 0 and 1, found "150%"'),
    ]);
  });

  it('region shares that do not add up to 100% give one problem at traffic.regions stating the total', () => {
    // Points at the `regions:` key, not at its first child.
    expect(problemsOf('traffic:\n  regions:\n    Europe: 50%\n    Africa: 30%\n')).toEqual([
      problem(2, 3, 'traffic.regions', 'expected region shares that add up to 100%, found a total of 80%'),
    ]);
  });

  it('enum typo gets a suggestion: edge.policy LRU → "lru", topology.edgeSites singel → "single"', () => {
    expect(problemsOf('edge:\n  policy: LRU\n')).toEqual([problem(2, 11, 'edge.policy', 'expected one of "lru", "fifo", "clock", "sieve", "s3fifo", "lfu", "arc", "twoq", "s4lru", "gdsf", found "LRU" — did you mean "lru"?')]);
    // A swap of two letters is one edit.
    expect(problemsOf('edge:\n  policy: lur\n')).toEqual([problem(2, 11, 'edge.policy', 'expected one of "lru", "fifo", "clock", "sieve", "s3fifo", "lfu", "arc", "twoq", "s4lru", "gdsf", found "lur" — did you mean "lru"?')]);
    expect(problemsOf('edge:\n  policy: lruu\n')).toEqual([problem(2, 11, 'edge.policy', 'expected one of "lru", "fifo", "clock", "sieve", "s3fifo", "lfu", "arc", "twoq", "s4lru", "gdsf", found "lruu" — did you mean "lru"?')]);
    expect(problemsOf('topology:\n  model: regions\n  edgeSites: singel\n')).toEqual([
      problem(3, 14, 'topology.edgeSites', 'expected one of "per-region", "single", found "singel" — did you mean "single"?'),
    ]);
  });

  it('enum value with no close match lists the options only', () => {
    expect(problemsOf('edge:\n  policy: random\n')).toEqual([problem(2, 11, 'edge.policy', 'expected one of "lru", "fifo", "clock", "sieve", "s3fifo", "lfu", "arc", "twoq", "s4lru", "gdsf", found "random"')]);
  });

  it('belady needs the future, so a scenario cannot name it (replay can)', () => {
    expect(problemsOf('edge:\n  policy: belady\n')).toEqual([problem(2, 11, 'edge.policy', 'expected one of "lru", "fifo", "clock", "sieve", "s3fifo", "lfu", "arc", "twoq", "s4lru", "gdsf", found "belady"')]);
  });

  it('spec 8.1 header profiles: a mistyped profile name gets the nearest one', () => {
    expect(problemsOf('content:\n  headers:\n    profile: guidance-privat\n')).toEqual([
      expect.objectContaining({ line: 3, keyPath: 'content.headers.profile', message: expect.stringContaining('did you mean "guidance-private"?') }),
    ]);
  });

  it('spec 1.3: only a container deployment may disable the CDN', () => {
    expect(problemsOf('deployment:\n  kind: static\n  cdn: false\n')).toEqual([
      problem(3, 8, 'deployment.cdn', 'expected cdn: true; only a container deployment can run without the CDN (spec 1.3), found false'),
    ]);
    expect(parseScenarioText('deployment:\n  kind: container\n  cdn: false\n', YAML_FILE).deployment).toEqual({ kind: 'container', framework: 'next', cdn: false });
  });

  it('content.headers.fields names must be header field names', () => {
    expect(problemsOf('content:\n  headers:\n    fields: { "Cache Control": "max-age=60" }\n')).toEqual([
      problem(3, 15, 'content.headers.fields["Cache Control"]', 'expected a header field name such as Cache-Control, found "Cache Control"'),
    ]);
  });

  it('objectSize min above max is reported at min', () => {
    expect(problemsOf('content:\n  objectSize:\n    min: 10MB\n    max: 1MB\n')).toEqual([
      problem(3, 10, 'content.objectSize.min', 'expected min (10000000 B) not above max (1000000 B), found "10MB"'),
    ]);
  });

  it('objectSize median below min is reported at median', () => {
    expect(problemsOf('content:\n  objectSize:\n    median: 1KB\n    min: 2KB\n')).toEqual([
      problem(3, 13, 'content.objectSize.median', 'expected a median between min (2000 B) and max (100000000 B), found "1KB"'),
    ]);
  });

  it('seed not an integer, not a number, negative', () => {
    expect(problemsOf('seed: 1.5\n')).toEqual([problem(1, 7, 'seed', 'expected a whole number, found 1.5')]);
    expect(problemsOf('seed: abc\n')).toEqual([problem(1, 7, 'seed', 'expected a number, found "abc"')]);
    expect(problemsOf('seed: "7"\n')).toEqual([problem(1, 7, 'seed', 'expected a number, found "7"')]);
    expect(problemsOf('seed: -1\n')).toEqual([problem(1, 7, 'seed', 'expected a number ≥ 0, found -1')]);
  });

  it('numeric bounds: run.requests 0, content.zipfExponent 9, objectSize.sigma -1', () => {
    expect(problemsOf('run:\n  requests: 0\n')).toEqual([problem(2, 13, 'run.requests', 'expected at least 1 request, found 0')]);
    expect(parseScenarioText('run:\n  requests: 2M\n', YAML_FILE).run.requests).toBe(2_000_000);
    expect(problemsOf('content:\n  objects: 1e9\n')).toEqual([problem(2, 12, 'content.objects', 'expected a number ≤ 20000000, found 1000000000')]);
    expect(problemsOf('content:\n  zipfExponent: 9\n')).toEqual([problem(2, 17, 'content.zipfExponent', 'expected a number ≤ 5, found 9')]);
    expect(problemsOf('content:\n  objectSize:\n    sigma: -1\n')).toEqual([problem(3, 12, 'content.objectSize.sigma', 'expected a number ≥ 0, found -1')]);
  });

  it('rate of zero and nonsense rate', () => {
    const RATE = 'expected a rate such as 20k/s, 1200/s, 3M/h or a number per second';
    expect(problemsOf('traffic:\n  rate: 0/s\n')).toEqual([problem(2, 9, 'traffic.rate', `${RATE}, found "0/s"`)]);
    expect(problemsOf('traffic:\n  rate: fast\n')).toEqual([problem(2, 9, 'traffic.rate', `${RATE}, found "fast"`)]);
  });

  it('warmup: percentage above 100%, fractional request count, nonsense', () => {
    expect(problemsOf('run:\n  warmup: 150%\n')).toEqual([problem(2, 11, 'run.warmup', 'expected a percentage of the run between 0% and 100%, found "150%"')]);
    expect(problemsOf('run:\n  warmup: 1.5\n')).toEqual([problem(2, 11, 'run.warmup', 'expected a whole number of requests (0 or more), found 1.5')]);
    expect(problemsOf('run:\n  warmup: 5 apples\n')).toEqual([
      problem(2, 11, 'run.warmup', 'expected a request count, a percentage such as 10%, a duration with a unit such as 250ms, 5s, 1h or 7d, or steady, found "5 apples"'),
    ]);
  });

  it('name with a space, description not a string', () => {
    expect(problemsOf('name: "my run"\n')).toEqual([
      problem(1, 7, 'name', 'expected a name of letters, digits, ".", "_" or "-" (it names the results folder), found "my run"'),
    ]);
    expect(problemsOf('description: 5\n')).toEqual([problem(1, 14, 'description', 'expected a string, found 5')]);
  });

  it('a name of dots only is refused: "." and ".." would write the run folder into results/ or above it', () => {
    const dots = 'expected a name with a letter, digit, "_" or "-": a name of dots only names a folder outside results/';
    expect(problemsOf('name: ".."\n')).toEqual([problem(1, 7, 'name', `${dots}, found ".."`)]);
    expect(problemsOf('name: "."\n')).toEqual([problem(1, 7, 'name', `${dots}, found "."`)]);
    expect(parseScenarioText('name: v1.2\n', YAML_FILE).name).toBe('v1.2');
  });

  it('a section given as a scalar: "expected a mapping with keys such as …"', () => {
    expect(problemsOf('edge: 5\n')).toEqual([problem(1, 7, 'edge', 'expected a mapping with keys such as policy, capacity, capacityByRegion, capacityByPop, found 5')]);
    expect(problemsOf('content:\n  objectSize: 5MB\n')).toEqual([
      problem(2, 15, 'content.objectSize', 'expected a mapping with keys such as median, sigma, min, max, found "5MB"'),
    ]);
  });
});

describe('scenario errors: file structure and syntax', () => {
  it('YAML syntax error: unclosed flow mapping, located where the parser notices', () => {
    expect(problemsOf('edge: {capacity: 5GB\nseed: 3\n')).toEqual([
      problem(2, 1, '', 'YAML syntax error: Flow map in block collection must be sufficiently indented and end with a }'),
    ]);
  });

  it('YAML syntax error: bad indentation, located at the misaligned key', () => {
    expect(problemsOf('edge:\n    capacity: 5GB\n  policy: lru\n')).toEqual([
      problem(3, 1, '', 'YAML syntax error: All mapping items must start at the same column'),
    ]);
  });

  it('YAML syntax error: tab indentation', () => {
    expect(problemsOf('edge:\n  capacity: 5GB\n\tpolicy: lru\n')).toEqual([problem(3, 1, '', 'YAML syntax error: Tabs are not allowed as indentation')]);
  });

  it('empty file', () => {
    expect(problemsOf('')).toEqual([problem(1, 1, '', EMPTY)]);
  });

  it('whitespace and comments only', () => {
    expect(problemsOf('   \n# just a comment\n\n')).toEqual([problem(1, 1, '', EMPTY)]);
  });

  it('a top-level list instead of a mapping', () => {
    expect(problemsOf('- edge\n- content\n')).toEqual([
      problem(1, 1, '', 'expected a mapping of keys such as traffic, content and edge at the top level, found a list'),
    ]);
  });

  it('a top-level scalar instead of a mapping', () => {
    expect(problemsOf('42\n')).toEqual([problem(1, 1, '', 'expected a mapping of keys such as traffic, content and edge at the top level, found 42')]);
  });

  it('duplicate key, located at the second occurrence', () => {
    expect(problemsOf('seed: 1\nseed: 2\n')).toEqual([problem(2, 1, '', 'YAML syntax error: Map keys must be unique')]);
    expect(problemsOf('edge:\n  capacity: 5GB\n  capacity: 6GB\n')).toEqual([problem(3, 3, '', 'YAML syntax error: Map keys must be unique')]);
  });

  it('more than one YAML document', () => {
    expect(problemsOf('---\nseed: 1\n---\nseed: 2\n')).toEqual([
      problem(3, 1, '', 'YAML error: a scenario file holds one document, and a second one starts here; remove the `---` line, or put each scenario in a file of its own'),
    ]);
  });

  it('JSON file with a wrong value type, located by line and column in the JSON', () => {
    expect(problemsOf('{\n  "edge": {\n    "capacity": true\n  }\n}\n', JSON_FILE)).toEqual([
      problem(3, 17, 'edge.capacity', `${SIZE}, found true`, JSON_FILE),
    ]);
    expect(problemsOf('{\n  "content": {\n    "objects": "many"\n  }\n}\n', JSON_FILE)).toEqual([
      problem(3, 16, 'content.objects', 'expected a number, found "many"', JSON_FILE),
    ]);
  });

  it('JSON syntax error and duplicate key say JSON', () => {
    expect(problemsOf('{"edge": {"capacity": 5GB}', JSON_FILE)).toEqual([problem(1, 27, '', 'JSON syntax error: Flow map must end with a }', JSON_FILE)]);
    expect(problemsOf('{"seed": 1, "seed": 2}', JSON_FILE)).toEqual([problem(1, 13, '', 'JSON syntax error: Map keys must be unique', JSON_FILE)]);
  });

  it('multiple problems in one file are all reported, sorted by line', () => {
    const text = 'seed: x\nedge:\n  capacty: 1GB\ncontent:\n  objects: -3\ntopology:\n  model: regions\n  originLatency: 5\n';
    const problems = problemsOf(text);
    expect(problems).toEqual([
      problem(1, 7, 'seed', 'expected a number, found "x"'),
      problem(3, 3, 'edge.capacty', 'unknown key — did you mean `capacity`?'),
      problem(5, 12, 'content.objects', 'expected a number > 0, found -3'),
      problem(
        8,
        18,
        'topology.originLatency',
        'expected a duration with a unit such as 250ms, 5s, 1h or 7d (a bare number is ambiguous: write 5ms or 5s), found 5',
      ),
    ]);
    let message = '';
    try {
      parseScenarioText(text, YAML_FILE);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(problems.map(formatProblem).join('\n'));
    expect(message.split('\n')[0]).toBe('scenarios/bad.yaml:1:7: `seed`: expected a number, found "x"');
  });

  it('problems are sorted by position in the file, not by schema order', () => {
    // The schema checks `seed` before `topology`; the file has topology first.
    expect(problemsOf('topology:\n  originLatency: 5\n  model: regions\nseed: x\n')).toEqual([
      problem(2, 18, 'topology.originLatency', 'expected a duration with a unit such as 250ms, 5s, 1h or 7d (a bare number is ambiguous: write 5ms or 5s), found 5'),
      problem(4, 7, 'seed', 'expected a number, found "x"'),
    ]);
  });

  it('sections of earlier scenario files that moved say where they went', () => {
    expect(problemsOf('origin:\n  latency: 100ms\n')).toEqual([
      problem(1, 1, 'origin', expect.stringContaining('the fixed origin latency moved to `topology.originLatency` with `model: regions`')),
    ]);
    expect(problemsOf('latency:\n  jitter: 0\n')).toEqual([
      problem(1, 1, 'latency', expect.stringContaining('moved to `topology` with `model: regions`')),
    ]);
  });

  it('a flash crowd names objects of the catalogue: an id beyond content.objects, or a class, is refused at its key', () => {
    expect(problemsOf('content: { objects: 100 }\ntraffic:\n  flashCrowds:\n    - { start: 1s, duration: 1s, multiplier: 2, objects: { ids: [5, 100] } }\n')).toEqual([
      expect.objectContaining({ line: 4, keyPath: 'traffic.flashCrowds[0].objects.ids[1]', message: "expected an object id below the catalogue's 100 objects, found 100" }),
    ]);
    expect(problemsOf('traffic:\n  flashCrowds:\n    - { start: 1s, duration: 1s, multiplier: 2, objects: { class: video } }\n')[0]).toMatchObject({
      keyPath: 'traffic.flashCrowds[0].objects.class',
      message: expect.stringContaining('runs have one class of content so far'),
    });
  });

  it('a key of the other topology model is refused with the fix: edgeSites belongs to model regions', () => {
    expect(problemsOf('topology:\n  edgeSites: single\n')).toEqual([
      problem(2, 14, 'topology.edgeSites', expect.stringContaining('expected no `edgeSites` under model: pops')),
    ]);
    expect(problemsOf('topology:\n  edgeSites: single\n')[0].message).toContain('add `model: regions` or remove `edgeSites`');
    expect(problemsOf('topology:\n  model: regions\n  regionalTier: { enabled: false }\n')).toEqual([
      problem(3, 3, 'topology.regionalTier', expect.stringContaining('`regionalTier` belongs to model: pops')),
    ]);
  });
});

describe('valid scenarios', () => {
  // ITU 2023 shares of Internet users (src/topology/clients.ts).
  const DEFAULT_REGIONS = { 'North America': 0.065, Europe: 0.185, 'Asia-Pacific': 0.53, 'Latin America': 0.105, Africa: 0.115 };
  // Flat arrivals from Monday 2026-01-05 00:00 UTC (src/workload/arrivals/arrivalsSchema.ts).
  const DEFAULT_ARRIVALS = { start: Date.parse('2026-01-05T00:00:00Z'), diurnal: { kind: 'off' }, weekly: [1, 1, 1, 1, 1, 1, 1], growth: { rate: 0, per: 2_592_000_000 }, flashCrowds: [] };
  const DEFAULT_CLIENT_TO_EDGE = { 'North America': 16.5, Europe: 20, 'Asia-Pacific': 23.5, 'Latin America': 28, Africa: 35 };

  it('quantities with units parse to base units and every default is filled; the name comes from the file name', () => {
    const scenario = parseScenarioText('edge: {capacity: 2GB}\ntopology: {model: regions, originLatency: 120ms}\ntraffic: {rate: 5k/s}\n', YAML_FILE);
    expect(scenario).toEqual({
      name: 'bad',
      seed: 1,
      run: { requests: 1_000_000, durationMs: undefined, warmup: { kind: 'requests', requests: 0 }, curves: false },
      traffic: { rate: 5000, regions: DEFAULT_REGIONS, ...DEFAULT_ARRIVALS },
      deployment: { kind: 'full-stack', framework: 'next', cdn: true },
      content: {
        objects: 100_000,
        zipfExponent: 0.8,
        objectSize: { median: 32_000, sigma: 1, min: 100, max: 100_000_000 },
        headers: { profile: 'guidance-static-assets', fields: {} },
      },
      edge: { policy: 'lru', capacity: 2e9 },
      regional: { policy: 'lru', capacity: 20e9 },
      topology: { model: 'regions', edgeSites: 'per-region', clientToEdge: DEFAULT_CLIENT_TO_EDGE, jitter: 0.35, originLatencyMs: 120 },
      cdn: { coalescing: true, validators: true, purgeDelayMs: 2_000 },
      metrics: { intervalMs: 60_000 },
      incidents: [],
      expect: {},
      modelsService: false,
    });
  });

  it('an empty mapping is the all-defaults scenario', () => {
    const scenario = parseScenarioText('{}\n', 'scenarios/baseline.yaml');
    expect(scenario.name).toBe('baseline');
    expect(scenario.edge).toEqual({ policy: 'lru', capacity: 1_000_000_000 });
    expect(scenario.topology.model).toBe('pops');
    expect(scenario.topology).toMatchObject({ regionalTier: { enabled: true }, routing: { misrouteProbability: 0 } });
    expect(scenario.traffic.rate).toBe(20_000);
  });

  it('JSON works too; explicit name and $schema; partial regions and latencies', () => {
    const text = JSON.stringify({
      $schema: '../scenario.schema.json',
      name: 'eu-heavy',
      seed: 7,
      run: { duration: '1h', warmup: '10%' },
      traffic: { regions: { Europe: '60%', Africa: 0.4 } },
      content: { objectSize: { median: '64KiB', min: '1KB', max: '1GB', sigma: 0 } },
      topology: { model: 'regions', edgeSites: 'single', clientToEdge: { Europe: '12ms' }, jitter: 0 },
    });
    const scenario = parseScenarioText(text, 'scenarios/x.json');
    expect(scenario).toEqual({
      name: 'eu-heavy',
      seed: 7,
      run: { requests: undefined, durationMs: 3_600_000, warmup: { kind: 'fraction', fraction: 0.1 }, curves: false },
      traffic: { rate: 20_000, regions: { 'North America': 0, Europe: 0.6, 'Asia-Pacific': 0, 'Latin America': 0, Africa: 0.4 }, ...DEFAULT_ARRIVALS },
      deployment: { kind: 'full-stack', framework: 'next', cdn: true },
      content: {
        objects: 100_000,
        zipfExponent: 0.8,
        objectSize: { median: 65_536, sigma: 0, min: 1000, max: 1e9 },
        headers: { profile: 'guidance-static-assets', fields: {} },
      },
      edge: { policy: 'lru', capacity: 1e9 },
      regional: { policy: 'lru', capacity: 20e9 },
      topology: { model: 'regions', edgeSites: 'single', clientToEdge: { ...DEFAULT_CLIENT_TO_EDGE, Europe: 12 }, jitter: 0, originLatencyMs: 100 },
      cdn: { coalescing: true, validators: true, purgeDelayMs: 2_000 },
      metrics: { intervalMs: 60_000 },
      incidents: [],
      expect: {},
      modelsService: false,
    });
    expect('$schema' in scenario).toBe(false);
  });

  it('metrics.interval: a duration of at least 1 s, 60 s by default (one row of timeseries.csv each)', () => {
    expect(parseScenarioText('metrics: { interval: 5m }\n', YAML_FILE).metrics).toEqual({ intervalMs: 300_000 });
    expect(parseScenarioText('{}\n', YAML_FILE).metrics).toEqual({ intervalMs: 60_000 });
    expect(() => parseScenarioText('metrics: { interval: 500ms }\n', YAML_FILE)).toThrow(/`metrics\.interval`: expected an interval of at least 1s/);
  });

  it('warmup as a request count and as a duration', () => {
    expect(parseScenarioText('run:\n  requests: 5000\n  warmup: 500\n', YAML_FILE).run).toEqual({
      requests: 5000,
      durationMs: undefined,
      warmup: { kind: 'requests', requests: 500 },
      curves: false,
    });
    expect(parseScenarioText('run:\n  warmup: 1m30s\n', YAML_FILE).run.warmup).toEqual({ kind: 'time', ms: 90_000 });
  });
});

describe('scenario errors: cases found in review', () => {
  it('an integer beyond 2^53 is reported once', () => {
    expect(problemsOf('seed: 9007199254740993\n')).toEqual([problem(1, 7, 'seed', 'expected a number ≤ 9007199254740991, found 9007199254740992')]);
  });

  it('an alias without its anchor is a located user error, not a crash', () => {
    expect(problemsOf('x: &a 1\ny: *b\n')).toEqual([problem(2, 4, '', 'YAML error: the alias *b has no anchor &b before it')]);
    // At the top level and as a key, too.
    expect(problemsOf('*!')).toEqual([problem(1, 1, '', 'YAML error: the alias *! has no anchor &! before it')]);
    expect(problemsOf('edge:\n  *a : 1\n')).toEqual([problem(2, 3, '', 'YAML error: the alias *a has no anchor &a before it')]);
  });

  it('a section with nothing under it (every key commented out) takes the defaults', () => {
    const scenario = parseScenarioText('edge:\n  # capacity: 5GB\ncontent:\n', YAML_FILE);
    expect(scenario.edge).toEqual({ policy: 'lru', capacity: 1_000_000_000 });
    expect(scenario.content.objects).toBe(100_000);
  });

  it('a scenario file over 4 MiB is refused before it is parsed, at 1:1, with its size (parsing holds about 35 bytes per byte of text)', () => {
    const text = `name: big\ndescription: "${'x'.repeat(5 * 1024 * 1024)}"\n`;
    expect(() => parseScenarioText(text, 'big.yaml')).toThrow(
      'big.yaml:1:1: the file holds 5.0 MiB; a scenario file is at most 4 MiB of settings (a recording goes in its own file, named by content.recorded.file)',
    );
  });
});
