import { dirname, join, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import type { NodeCurve } from '../../cache/hitRatioCurves.js';
import { planLayer, storageByTarget, withPlannedCapacities, type LayerPlan, type PlanNodeInput } from '../../experiment/capacityPlan.js';
import { loadScenarioRecording } from '../../experiment/recordedCaching.js';
import type { RunProgress } from '../../experiment/runScenario.js';
import { confirmLayer, layerHitRatio, layerResult, overUplink, planCsv, planText, type PlanDocument, type PlanRow } from '../../report/planReport.js';
import { newRunFolder } from '../../report/runFolder.js';
import type { NodeFiguresRow, Summary } from '../../report/summary.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { parseScenarioText } from '../../scenario/load.js';
import type { Scenario } from '../../scenario/schema.js';
import { scenarioToInput } from '../../scenario/serialize.js';
import { parseWarmupFlag, withWarmup } from '../../scenario/warmupSchema.js';
import { loadPopTable } from '../../topology/pops.js';
import { formatBytes, parseFraction } from '../../units.js';
import { formatPercent } from '../../report/consoleTable.js';
import { UserError } from '../../userError.js';
import { runSimulationWorker } from '../simulationWorker.js';
import { checkRunFolder, claimRunFolder } from '../outputPath.js';
import type { PlanWorkerInput, PlanWorkerMessage } from '../planWorker.js';
import { createProgressReporter } from '../progressBar.js';
import { checkedOverrides, checkRunLength, RUN_LENGTH_OPTIONS } from './run.js';
import { SET_OPTION } from '../flags.js';
import { loadScenarioWithSets, parseScenarioSets } from '../../experiment/scenarioParams.js';

interface PlanArgs {
  scenario: string;
  'edge-hit-ratio': string;
  'regional-hit-ratio'?: string;
  'max-uplink-share': string;
  seed?: string;
  requests?: string;
  duration?: string;
  warmup?: string;
  set?: string[];
  out?: string;
  json: boolean;
  progress: boolean;
  charts: boolean;
}

const EXAMPLE = 'cdnsim plan scenarios/baseline.yaml --edge-hit-ratio 90%';

export function planCommand(yargs: Argv): Argv {
  return yargs.command<PlanArgs>(
    COMMAND_LINES.plan.command,
    COMMAND_LINES.plan.describe,
    (command) =>
      command
        .positional('scenario', { type: 'string', describe: 'scenario file (YAML or JSON); its edge (and regional) policy must be lru', demandOption: true })
        .option('edge-hit-ratio', { type: 'string', demandOption: `give the target, for example: ${EXAMPLE}`, describe: 'the hit ratio every PoP is sized for, e.g. 90% or 0.9 (per lookup, as summary.json edges[].hitRatio)' })
        .option('regional-hit-ratio', { type: 'string', describe: "size each regional site too, for this hit ratio (read from a run with the planned PoPs: a site's input depends on their sizes)" })
        .option('max-uplink-share', { type: 'string', default: '70%', describe: "list the PoPs whose 1 s peak egress is above this share of their uplink in the confirmation run" })
        .options(RUN_LENGTH_OPTIONS)
        .option('set', { ...SET_OPTION, describe: `${SET_OPTION.describe}; planned.yaml records the result` })
        .option('warmup', { type: 'string', describe: 'replaces run.warmup for every run of the plan: steady, 25%, 500000, 60s, or 0 (docs/warmup.md)' })
        .option('out', { type: 'string', describe: 'folder to write (default results/<scenario>/plan-<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print plan.json on stdout and nothing else' })
        .option('progress', { type: 'boolean', default: true, describe: 'progress bar on a terminal (--no-progress to hide)' })
        .option('charts', { type: 'boolean', default: true, describe: 'draw charts/*.svg, charts/*.png and report.html (--no-charts to skip)' })
        .example(EXAMPLE, "the baseline's 339 PoPs from their stationary state (its steady warm-up): 1.24 TB sized per PoP against 1.43 TB at 4.22 GB each, saving 191 GB (13.3 %, half of it the 115 idle PoPs); all 224 PoPs with traffic can reach 90 %, 179 meet it in the confirmation run (docs/plan.md)")
        .example(`${EXAMPLE} --regional-hit-ratio 50%`, "its 14 regional sites too, from a run with the planned PoPs (three runs; docs/plan.md)") as unknown as Argv<PlanArgs>,
    (args) => executePlan(args),
  );
}

/** A target hit ratio from a flag: above 0 and at most 100 %. */
export function parseTargetFlag(flag: string, text: string): number {
  const parsed = parseFraction(text);
  if (!parsed.ok || parsed.value === 0) throw new UserError(`${flag}: expected ${parsed.ok ? 'a hit ratio above 0' : 'a hit ratio such as 90% or 0.9'}, found "${text}"`);
  return parsed.value;
}

/** A run of the plan and what it returned. */
interface PlanStep {
  summary: Summary;
  curves: NodeCurve[];
  curvesCsv: string;
  wallSeconds: number;
  warmupRequests: number;
}

/** The layer's curves as the plan reads them, in summary.json's order (a node without a curve has no lookups). */
function planInputs(layer: 'edge' | 'regional', rows: readonly NodeFiguresRow[], curves: readonly NodeCurve[]): PlanNodeInput[] {
  const byNode = new Map(curves.filter((curve) => curve.layer === layer).map((curve) => [curve.node, curve.histogram]));
  return rows.map((row) => {
    const histogram = byNode.get(row.name);
    if (histogram === undefined) throw new Error(`plan: no ${layer} curve for ${row.name}`);
    return { code: row.name, ...(row.region === undefined ? {} : { region: row.region }), histogram };
  });
}

/** A target no node can reach is a user mistake (exit 2): the message names the highest maximum. */
function checkReachable(plan: LayerPlan, flag: string, nodeWord: string): void {
  if (plan.uniformCapacityBytes !== null) return;
  const best = plan.nodes.filter((node) => node.status !== 'idle').sort((a, b) => b.maxHitRatio - a.maxHitRatio)[0];
  if (best === undefined) throw new UserError(`${flag}: no ${nodeWord} had a measured request, so there is no curve to size from; lengthen the run (--requests) or shorten its warm-up`);
  throw new UserError(
    `${flag} ${formatPercent(plan.target, 1)}: no ${nodeWord} reaches it at any capacity: the most any size gives is ${formatPercent(best.maxHitRatio, 2)}, at ${best.code} ` +
      "(an unbounded cache misses each object's first request). Ask for at most that, or measure more requests (--requests) so that first requests weigh less",
  );
}

/** The city of each PoP and regional site, for plan.csv's name column. */
function cityLookup(scenario: Scenario): (code: string) => string {
  const cities = new Map<string, string>(loadPopTable().map((pop) => [pop.code, pop.city]));
  if (scenario.topology.model === 'pops') {
    for (const pop of scenario.topology.pops.add) cities.set(pop.code, pop.city);
    for (const site of scenario.topology.regionalTier.sites) if (typeof site !== 'string') cities.set(site.code, site.city);
  }
  return (code) => (scenario.topology.model === 'pops' ? (cities.get(code) ?? '') : '');
}

async function executePlan(args: PlanArgs): Promise<void> {
  const edgeTarget = parseTargetFlag('--edge-hit-ratio', args['edge-hit-ratio']);
  const regionalTarget = args['regional-hit-ratio'] === undefined ? undefined : parseTargetFlag('--regional-hit-ratio', args['regional-hit-ratio']);
  const uplinkBound = parseFraction(args['max-uplink-share']);
  if (!uplinkBound.ok || uplinkBound.value === 0) throw new UserError(`--max-uplink-share: expected a share above 0 such as 70%, found "${args['max-uplink-share']}"`);
  const overrides = checkedOverrides(args);
  let warmup;
  if (args.warmup !== undefined) {
    const parsed = parseWarmupFlag(args.warmup);
    if (!parsed.ok) throw new UserError(parsed.message);
    warmup = parsed.warmup;
  }
  const loaded = withWarmup(loadScenarioWithSets(args.scenario, parseScenarioSets(args.set)), warmup);
  checkRunLength(loaded, overrides);
  if (loaded.edge.policy !== 'lru') {
    throw new UserError(`${args.scenario}: edge.policy is ${loaded.edge.policy}; cdnsim plan reads each PoP's hit-ratio curve off byte stack distances, which give the hits of LRU alone (docs/curves.md). Plan with edge.policy: lru, or sweep edge.capacity`);
  }
  const tier = loaded.topology.model === 'pops' && loaded.topology.regionalTier.enabled;
  if (regionalTarget !== undefined && !tier) throw new UserError(`--regional-hit-ratio: ${args.scenario} has no regional tier to size (topology.regionalTier.enabled: false, or model: regions)`);
  if (regionalTarget !== undefined && loaded.regional.policy !== 'lru') throw new UserError(`--regional-hit-ratio: regional.policy is ${loaded.regional.policy}; a regional site's curve needs lru (docs/curves.md)`);
  if (loaded.content.recorded) await loadScenarioRecording(loaded.content.recorded, args.scenario);
  // The run length and seed of the command line become the planned scenario's: running it repeats the confirmation.
  const seed = overrides.seed ?? loaded.seed;
  const lengthGiven = overrides.requests !== undefined || overrides.durationMs !== undefined;
  const scenario: Scenario = {
    ...loaded,
    seed,
    run: lengthGiven ? { ...loaded.run, requests: overrides.requests, durationMs: overrides.durationMs } : loaded.run,
    content: loaded.content.recorded ? { ...loaded.content, recorded: { ...loaded.content.recorded, file: resolve(dirname(args.scenario), loaded.content.recorded.file) } } : loaded.content,
  };
  const startedAt = new Date();
  const { folder } = args.out ? { folder: args.out } : newRunFolder('results', scenario.name, seed, startedAt, 'plan-');
  checkRunFolder(folder, '--out', 'plan.json');
  const progress = createProgressReporter(args.progress);
  const say = (line: string) => {
    if (!args.json) process.stderr.write(`${line}\n`);
  };
  const step = async (what: Scenario): Promise<PlanStep> => {
    const started = performance.now();
    const done = await runInWorker({ scenario: what, scenarioFile: args.scenario, overrides: {} }, (p) => progress.update(p), folder);
    return { summary: JSON.parse(done.summaryJson) as Summary, curves: done.curves, curvesCsv: done.curvesCsv, wallSeconds: (performance.now() - started) / 1000, warmupRequests: done.cacheWarmupRequests + (JSON.parse(done.summaryJson) as Summary).warmupRequests };
  };

  const runs: PlanDocument['runs'] = [];
  let first: PlanStep;
  let second: PlanStep | undefined;
  let confirmation: PlanStep;
  let edgePlan: LayerPlan;
  let regionalPlan: LayerPlan | undefined;
  let planned: Scenario;
  try {
    say(`plan: run 1 of ${regionalTarget === undefined ? 2 : 3}: ${scenario.name} with every cache's hit-ratio curve`);
    first = await step(scenario);
    edgePlan = planLayer(planInputs('edge', first.summary.edges, first.curves), edgeTarget);
    checkReachable(edgePlan, '--edge-hit-ratio', 'PoP');
    planned = { ...withPlannedCapacities(scenario, 'edge', edgePlan), name: plannedName(scenario.name) };
    runs.push({ name: 'curves', purpose: "every cache's curve with the scenario's own capacities; the PoPs are sized from it", measuredRequests: first.summary.requests, warmupRequests: first.warmupRequests, wallSeconds: round1(first.wallSeconds) });
    if (regionalTarget !== undefined) {
      // A regional site sees its PoPs' misses: its curve is read from a run with the planned PoPs.
      say('plan: run 2 of 3: the planned PoPs, for the regional sites\' curves');
      second = await step(planned);
      regionalPlan = planLayer(planInputs('regional', second.summary.regionals, second.curves), regionalTarget);
      checkReachable(regionalPlan, '--regional-hit-ratio', 'regional site');
      planned = withPlannedCapacities(planned, 'regional', regionalPlan);
      runs.push({ name: 'regional curves', purpose: "the planned PoPs; the regional sites are sized from this run's curves", measuredRequests: second.summary.requests, warmupRequests: second.warmupRequests, wallSeconds: round1(second.wallSeconds) });
    }
    say(`plan: run ${regionalTarget === undefined ? 2 : 3} of ${regionalTarget === undefined ? 2 : 3}: confirming the planned scenario`);
    // Written and read back first: the confirmation runs the file a user gets.
    planned = parseScenarioText(plannedYaml(planned, edgeTarget, regionalTarget), join(folder, 'planned.yaml'));
    confirmation = await step(planned);
    runs.push({ name: 'confirmation', purpose: 'planned.yaml as written (the same seed and requests)', measuredRequests: confirmation.summary.requests, warmupRequests: confirmation.warmupRequests, wallSeconds: round1(confirmation.wallSeconds) });
  } finally {
    progress.stop();
  }

  const cityOf = cityLookup(scenario);
  const edgeRows = confirmLayer('edge', edgePlan, first.summary.edges, confirmation.summary.edges, confirmation.curves, cityOf);
  const edge = layerResult(edgePlan, edgeRows, layerHitRatio(confirmation.summary.edges));
  let regionalRows: PlanRow[] = [];
  let regional;
  if (regionalPlan !== undefined && second !== undefined) {
    regionalRows = confirmLayer('regional', regionalPlan, second.summary.regionals, confirmation.summary.regionals, confirmation.curves, cityOf);
    regional = layerResult(regionalPlan, regionalRows, layerHitRatio(confirmation.summary.regionals));
  }
  const document: PlanDocument = {
    scenario: scenario.name,
    seed,
    targetMetShare: edge.targetMetShare,
    edge,
    ...(regional === undefined ? {} : { regional }),
    maxUplinkShare: uplinkBound.value,
    overUplink: overUplink(edgeRows, uplinkBound.value),
    runs,
    storageByTarget: storageByTarget(planInputs('edge', first.summary.edges, first.curves)),
    nodes: [...edgeRows, ...regionalRows],
  };

  claimRunFolder(folder, '--out', 'plan.json');
  const json = `${JSON.stringify(document, null, 2)}\n`;
  writeFileAtomic(join(folder, 'plan.json'), json);
  writeFileAtomic(join(folder, 'plan.csv'), planCsv(document.nodes));
  writeFileAtomic(join(folder, 'planned.yaml'), plannedYaml(planned, edgeTarget, regionalTarget));
  writeFileAtomic(join(folder, 'curves.csv'), first.curvesCsv);
  writeFileAtomic(join(folder, 'summary.json'), `${JSON.stringify(confirmation.summary, null, 2)}\n`);
  const where = relative(process.cwd(), folder) || folder;
  const written = `written: ${join(where, 'plan.json')}, plan.csv, planned.yaml (run it: cdnsim run ${join(where, 'planned.yaml')}), curves.csv (run 1), summary.json (confirmation)`;
  let charts = '';
  if (args.charts) {
    const { writePlanCharts } = await import('../../report/charts/planCharts.js');
    charts = `\n${await writePlanCharts(folder, document, confirmation.summary)}`;
  }
  if (args.json) {
    process.stdout.write(json);
    process.stderr.write(`${written}${charts}\n`);
  } else {
    process.stdout.write(`${planText(document)}\n\n${written}${charts}\n`);
  }
}

/** The planned scenario's name (its runs' results folder): the scenario's, marked planned, within the 100 characters a name may have. */
const plannedName = (name: string): string => `${name.slice(0, 92)}-planned`;

const round1 = (seconds: number): number => Math.round(seconds * 10) / 10;

/** planned.yaml: the scenario with the planned capacities, loadable by `cdnsim run`. */
function plannedYaml(planned: Scenario, edgeTarget: number, regionalTarget: number | undefined): string {
  const header = [
    `# Written by cdnsim plan (docs/plan.md): each PoP's edge capacity sized for a ${formatPercent(edgeTarget, 1)} edge hit ratio from its own curve`,
    ...(regionalTarget === undefined ? [] : [`# and each regional site's for ${formatPercent(regionalTarget, 1)}`]),
    `# (edge.capacityByPop${regionalTarget === undefined ? '' : ', regional.capacityBySite'}; edge.capacity is the one size for all that meets it, ${formatBytes(planned.edge.capacity)}).`,
    "# `cdnsim run planned.yaml` repeats the plan's confirmation run (the same seed and run length).",
  ];
  return `${header.join('\n')}\n${stringify(scenarioToInput(planned), { lineWidth: 0 })}`;
}

/** One run in a worker thread (src/cli/simulationWorker.ts); Ctrl-C stops it, writes nothing, exits 130 (as `cdnsim run`). */
function runInWorker(input: PlanWorkerInput, onProgress: (progress: RunProgress) => void, folder: string): Promise<Extract<PlanWorkerMessage, { type: 'done' }>> {
  return runSimulationWorker({ script: new URL('../planWorker.js', import.meta.url), input, folder, finishedFile: 'plan.json', noun: 'plan' }, onProgress);
}
