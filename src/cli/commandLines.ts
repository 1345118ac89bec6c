/**
 * Each command's usage line and description, in a module of its own: the top-level --help and
 * `--version` list or need no more than these, so main.ts imports a command's module (and the
 * simulator, schema and charts behind it) only when that command is on the command line.
 */
export interface CommandLine {
  readonly command: string;
  readonly describe: string;
}

export const COMMAND_LINES = {
  run: {
    command: 'run <scenario>',
    describe: 'run a scenario file and write summary.json, stated.csv, timeseries.csv, pops.csv, regions.csv, layers.csv, classes.csv, run.json, charts and report.html',
  },
  compare: {
    command: 'compare <scenario>',
    describe: 'run TTL strategies on identical traffic (same seed, common random numbers) and compare them; writes compare.json and compare.csv',
  },
  sweep: {
    command: 'sweep <scenario>',
    describe: 'run a scenario over a grid of key values, N replicates per point, and report each figure with its 95 % confidence interval; writes sweep.json and sweep.csv',
  },
  plan: {
    command: 'plan <scenario>',
    describe: 'size each PoP (and regional site) from its own hit-ratio curve for a target hit ratio, confirm the plan with a run, and say what it saves against one size for all; writes plan.csv, planned.yaml, plan.json, curves.csv, charts and report.html (docs/plan.md)',
  },
  merge: {
    command: 'merge <dirs..>',
    describe: 'join the shards of a sweep (folders written by cdnsim sweep --shard i/N) into the result of the whole grid',
  },
  chart: {
    command: 'chart <folder>',
    describe: 'draw the charts (charts/*.svg, charts/*.png) and report.html of a run, compare, sweep or replay folder again from its saved files',
  },
  replay: {
    command: 'replay <traces..>',
    describe: 'replay cache traces through eviction policies at several cache sizes and TTLs (one pass over the trace)',
  },
  traffic: {
    command: 'traffic <model>',
    describe: 'write the request stream of a production traffic model (footprint descriptor) as a trace that replay and other simulators read',
  },
  explain: {
    command: 'explain',
    describe: "show how one response is cached at a layer, and which rules of the spec and RFC 9111 decided it",
  },
  har: {
    command: 'har <file>',
    describe: "replay a browser's HAR export (a page load) through the simulated CDN with its real headers",
  },
  validate: {
    command: 'validate <files..>',
    describe: 'check scenario files without running them',
  },
  schema: {
    command: 'schema',
    describe: 'print the JSON Schema of scenario files (for editor completion)',
  },
  topology: {
    command: 'topology',
    describe: 'show the modelled network: PoPs per region, regional sites and the PoPs they serve, origins, nearest-PoP round trips and expected latencies',
  },
} as const satisfies Record<string, CommandLine>;
