import type { LibraryEntry } from '../libraryEntry.js';
import { edgeRowsBusiestFirst, readPlan, storageAtTargets } from '../planFigures.js';
import { bytes, count, markdownTable, percent } from '../markdown.js';
import { roundFigure as round } from '../outputs.js';

/**
 * `cdnsim plan` on the baseline's site over Europe's PoPs (scenarios/library/pop-sizing.yaml):
 * each PoP sized from its own hit-ratio curve for a 90 % edge hit ratio, against one size for
 * all, and the confirmation run's verdict (docs/plan.md). The figures are plan.json's.
 */

const TARGET = 0.9;
/** Targets of the storage table (plan.json storageByTarget, from the same curves). */
const STORAGE_TARGETS = [0.8, 0.9, 0.95, 0.99];

interface PopRow {
  readonly code: string;
  readonly name: string;
  readonly requests: number;
  readonly plannedBytes: number;
  readonly predicted: number;
  readonly confirmed: number;
  readonly met: boolean;
}

interface PopSizingFigures {
  readonly [key: string]: unknown;
  readonly target: number;
  readonly pops: number;
  readonly popsWithTraffic: number;
  readonly plannedBytes: number;
  readonly uniformBytes: number;
  /** Null when no one size meets the target at every PoP with traffic (plan.json). */
  readonly uniformCapacityBytes: number | null;
  readonly savingBytes: number;
  readonly savingShare: number;
  readonly targetMetShare: number;
  readonly popsMet: number;
  readonly unreachable: number;
  readonly highestMaxHitRatio: number;
  readonly layerHitRatio: { readonly planned: number; readonly uniform: number | null; readonly confirmed: number };
  readonly storageByTarget: readonly { readonly target: number; readonly plannedBytes: number; readonly uniformBytes: number }[];
  readonly rows: readonly PopRow[];
}


const withTraffic = (f: PopSizingFigures): PopRow[] => f.rows.filter((row) => row.requests > 0);
const smallest = (f: PopSizingFigures): number => Math.min(...withTraffic(f).map((row) => row.plannedBytes));
const largest = (f: PopSizingFigures): number => Math.max(...withTraffic(f).map((row) => row.plannedBytes));
const requestSpread = (f: PopSizingFigures): number => Math.max(...withTraffic(f).map((row) => row.requests)) / Math.min(...withTraffic(f).map((row) => row.requests));
/** The most a PoP that missed the target fell short of it in the confirmation run (0 when none missed). */
const worstShortfall = (f: PopSizingFigures): number => Math.max(0, ...withTraffic(f).map((row) => f.target - row.confirmed));

export const popSizing: LibraryEntry<PopSizingFigures> = {
  name: 'pop-sizing',
  title: 'PoP sizing: storage per PoP for a 90 % edge hit ratio',
  question: 'How much storage does each PoP of a site need for a 90 % edge hit ratio, and what does per-PoP sizing save against one size for all?',
  command: { kind: 'plan', args: ['--edge-hit-ratio', `${TARGET * 100}%`] },
  charts: [{ file: 'plan-storage.svg', alt: "The edge layer's total storage against the target every PoP meets, sized per PoP and one size for all" }],
  figures: (folder) => {
    const plan = readPlan(folder);
    const edge = plan.edge;
    return {
      target: edge.target,
      pops: edge.total.nodes,
      popsWithTraffic: edge.nodesWithTraffic,
      plannedBytes: edge.total.plannedBytes,
      uniformBytes: edge.total.uniformBytes,
      uniformCapacityBytes: edge.uniformCapacityBytes,
      savingBytes: edge.savingBytes,
      savingShare: round(edge.savingShare),
      targetMetShare: round(plan.targetMetShare),
      popsMet: edge.nodesMet,
      unreachable: edge.unreachable,
      highestMaxHitRatio: round(edge.highestMaxHitRatio),
      layerHitRatio: { planned: round(edge.layerHitRatio.planned), uniform: edge.layerHitRatio.uniform === null ? null : round(edge.layerHitRatio.uniform), confirmed: round(edge.layerHitRatio.confirmed) },
      storageByTarget: storageAtTargets(plan, STORAGE_TARGETS),
      rows: edgeRowsBusiestFirst(plan).map((node) => ({
          code: node.code,
          name: node.name,
          requests: node.requests,
          plannedBytes: node.plannedCapacityBytes,
          predicted: round(node.predictedHitRatio),
          confirmed: round(node.confirmedHitRatio),
          met: node.met,
        })),
    };
  },
  results(f) {
    return [
      `Run 1 recorded every PoP's curve over 100,000 measured requests; each PoP got the smallest capacity on a grid of 64 steps a decade at which its own curve reaches ${percent(f.target, 0)}; run 2, the planned scenario with the same seed, confirmed it. The PoPs, busiest first:`,
      '',
      markdownTable(
        ['PoP', 'measured requests', 'planned size', 'hit ratio on the curve', 'confirmed', `meets ${percent(f.target, 0)}`],
        f.rows.map((row) => [`${row.code} (${row.name})`, count(row.requests), bytes(row.plannedBytes), percent(row.predicted), percent(row.confirmed), row.met ? 'yes' : 'no']),
        ['l', 'r', 'r', 'r', 'r', 'r'],
      ),
      '',
      `Sized per PoP: **${bytes(f.plannedBytes)}** for the ${f.pops} PoPs; one size for all: ${f.uniformCapacityBytes === null ? 'no size meets it at every PoP' : `${bytes(f.uniformCapacityBytes)} each`}, **${bytes(f.uniformBytes)}**. Per-PoP sizing saves **${bytes(f.savingBytes)} (${percent(f.savingShare, 1)})**. The confirmation run met ${percent(f.target, 0)} at ${f.popsMet} of ${f.popsWithTraffic} PoPs with traffic (\`targetMetShare\` ${percent(f.targetMetShare, 1)}); ${f.unreachable === 0 ? 'every PoP could reach it' : `${f.unreachable} could not reach it at any size`} (the highest maximum on a curve: ${percent(f.highestMaxHitRatio)}). The layer's hit ratio: ${percent(f.layerHitRatio.planned)} on the curves as planned, ${f.layerHitRatio.uniform === null ? 'no one size' : `${percent(f.layerHitRatio.uniform)} at one size`}, ${percent(f.layerHitRatio.confirmed)} confirmed.`,
      '',
      'Storage for other targets, from the same curves (`plan.json` `storageByTarget`):',
      '',
      markdownTable(
        ['target', 'sized per PoP', 'one size for all', 'saving'],
        f.storageByTarget.map((entry) => [percent(entry.target, 0), bytes(entry.plannedBytes), bytes(entry.uniformBytes), percent(entry.uniformBytes === 0 ? 0 : 1 - entry.plannedBytes / entry.uniformBytes, 1)]),
        ['l', 'r', 'r', 'r'],
      ),
    ].join('\n');
  },
  conclusions(f) {
    return [
      {
        text: `Every PoP needs about the same storage, ${bytes(smallest(f))} to ${bytes(largest(f))}, though the busiest measured ×${requestSpread(f).toFixed(0)} the requests of the quietest: with one popularity for every client, an LRU's hit ratio at a size does not depend on its request rate (Che's characteristic time counts requests, not seconds), so per-PoP sizing saves only ${percent(f.savingShare, 1)} against one size for all.`,
        holds: largest(f) / smallest(f) < 1.15 && requestSpread(f) > 5 && f.savingShare < 0.1,
      },
      {
        text: `That saving is the sampling noise of each PoP's curve, not a difference between the PoPs: a quiet PoP's curve rests on a few thousand requests, and the plan sizes it where that sample crosses the target. Per-PoP sizing pays where the PoPs' popularity differs, as between the Akamai clusters of the footprint descriptors study (Sundarrajan et al., CoNEXT 2017); this model gives every client the same catalogue popularity.`,
        holds: f.savingShare < 0.1,
      },
      {
        text: `No PoP is held below ${percent(f.target, 0)} by first requests (the highest maximum is ${percent(f.highestMaxHitRatio)}): from the stationary start each PoP's curve starts from the stationary order of the whole catalogue (docs/curves.md), where curves from empty caches count each object's first request as a miss at every size.`,
        holds: f.unreachable === 0 && f.highestMaxHitRatio === 1,
      },
      {
        text: `The confirmation run met the target at ${f.popsMet} of ${f.popsWithTraffic} PoPs, and those that missed fell short by at most ${(worstShortfall(f) * 100).toFixed(2)} points: the confirmation starts from another stationary draw (its capacities differ), and a PoP sized at the grid step where its curve just crosses the target misses by that noise. Plan with a margin (\`--edge-hit-ratio 91%\`) or on more measured requests.`,
        holds: f.targetMetShare >= 0.75 && worstShortfall(f) < 0.01,
      },
    ];
  },
};
