import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './buildComparison.js';
import { report } from './harness.js';

/** What the reference prints (its one JSON line), the fields read here. */
interface ReferenceOutput {
  requests: number;
  seconds: { loopCpu: number; processCpu: number };
  requestsPerLoopCpuSecond: number;
  peakRssMiB: number;
}

/** What bench/referenceChild.ts prints. */
interface ProjectOutput {
  requests: number;
  flowRequestsPerCpuSecond: number;
  processRequestsPerCpuSecond: number;
  peakRssMiB: number;
}

const ROUNDS = 5;
const REQUESTS = 2_000_000;

/** The repository root (this file runs from dist/bench/). */
const root = fileURLToPath(new URL('../..', import.meta.url));
/** The minimal reference of the baseline flow, beside the repository (issue 27); absent in a user's clone. */
const referencePath = resolve(root, '../shared/bench-reference/minimal-cdn-flow.mjs');

const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
const round3 = (value: number): number => Number(value.toFixed(3));

/**
 * `reference.baselineFlow` (`npm run bench -- reference`): the project's baseline flow
 * (scenarios/baseline.yaml, 2 M requests from cold caches) against the minimal JavaScript
 * reference of the same work (../shared/bench-reference/minimal-cdn-flow.mjs), 5 rounds,
 * alternating which goes first, each run in a process of its own and never two at once (on a
 * 2-core machine two measured processes beside each other measure each other). Rates are
 * requests per CPU-second (user + system) of the flow's loop: the reference's `loopCpu`, the
 * project's from its first progress report; the whole processes' rates and peak RSS beside.
 * The ratio is the project's over the reference's, per round; the target is ≥ 0.8 (median).
 */
export function runReferenceBenchmarks(wanted: (name: string) => boolean): void {
  if (!wanted('reference.baselineFlow')) return;
  if (!existsSync(referencePath)) {
    report({ name: 'reference.baselineFlow', skipped: `no reference at ${referencePath} (it lives beside the repository, not in it)` });
    return;
  }
  const child = fileURLToPath(new URL('./referenceChild.js', import.meta.url));
  const runReference = (): ReferenceOutput =>
    JSON.parse(execFileSync(process.execPath, [referencePath, '--requests', String(REQUESTS)], { encoding: 'utf8' }).trim().split('\n').pop() ?? '{}') as ReferenceOutput;
  const runProject = (): ProjectOutput =>
    JSON.parse(execFileSync(process.execPath, [child, String(REQUESTS)], { encoding: 'utf8', cwd: root }).trim().split('\n').pop() ?? '{}') as ProjectOutput;
  const references: ReferenceOutput[] = [];
  const projects: ProjectOutput[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that a drift in the machine's load falls on both alike.
    if (round % 2 === 0) {
      references.push(runReference());
      projects.push(runProject());
    } else {
      projects.push(runProject());
      references.push(runReference());
    }
  }
  const flowRatios = projects.map((project, i) => project.flowRequestsPerCpuSecond / references[i].requestsPerLoopCpuSecond);
  const processRatios = projects.map((project, i) => project.processRequestsPerCpuSecond / (references[i].requests / references[i].seconds.processCpu));
  const projectRss = projects.map((project) => project.peakRssMiB);
  const referenceRss = references.map((reference) => reference.peakRssMiB);
  report({
    name: 'reference.baselineFlow',
    rounds: ROUNDS,
    requests: REQUESTS,
    requestsPerCpuSecond: Math.round(median(projects.map((project) => project.flowRequestsPerCpuSecond))),
    referenceRequestsPerCpuSecond: Math.round(median(references.map((reference) => reference.requestsPerLoopCpuSecond))),
    ratio: round3(median(flowRatios)),
    ratioRange: range(flowRatios).map(round3).join('–'),
    // Each round's ratio in the order run: a drift in the machine's load shows here, not in the median.
    roundRatios: flowRatios.map(round3).join(' '),
    processRatio: round3(median(processRatios)),
    processRatioRange: range(processRatios).map(round3).join('–'),
    peakRssMiB: median(projectRss),
    referencePeakRssMiB: median(referenceRss),
    peakRssRatio: round3(median(projectRss) / median(referenceRss)),
  });
}
