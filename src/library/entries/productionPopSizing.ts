import type { LibraryEntry } from '../libraryEntry.js';
import { edgeRowsBusiestFirst, readPlan, storageAtTargets } from '../planFigures.js';
import { bytes, count, markdownTable, percent } from '../markdown.js';
import { curveOf, readCsv, roundFigure as round, sameFraction } from '../outputs.js';

/**
 * `cdnsim plan` on four European PoPs serving production video traffic (the footprint
 * descriptor `v`, scenarios/library/production-pop-sizing.yaml), and the same plan of its
 * Zipf twin (production-pop-sizing-zipf.yaml: same PoPs, rate and mean object size): how much
 * storage the model asks for against the Zipf model's answer (docs/traffic-models.md).
 */

const TARGET = 0.5;
/** v's LRU request hit rate at 100 GB and beyond: 1 − its first requests (docs/traffic-models.md). */
const MODEL_CEILING = 0.6035;
/**
 * Targets of the storage table (plan.json storageByTarget, from the same curves; it starts at
 * 50 %). 58 %: the highest whole target below every PoP's maximum under the model (59.5 % at
 * the lowest), so the model's row is a size at which every PoP meets it.
 */
const STORAGE_TARGETS = [0.5, 0.55, 0.58, 0.7, 0.8, 0.9];

interface PopRow {
  readonly code: string;
  readonly name: string;
  readonly requests: number;
  readonly maxHitRatio: number;
  readonly plannedBytes: number;
  readonly confirmed: number;
  readonly met: boolean;
}

interface PlanFigures {
  readonly plannedBytes: number;
  readonly uniformBytes: number;
  readonly popsMet: number;
  readonly popsWithTraffic: number;
  readonly unreachable: number;
  readonly highestMaxHitRatio: number;
  readonly confirmedLayerHitRatio: number;
  /** Storage (sized per PoP) by target; targets no PoP reaches are absent. */
  readonly storageByTarget: readonly { readonly target: number; readonly plannedBytes: number }[];
  readonly rows: readonly PopRow[];
}

interface ProductionPopSizingFigures {
  readonly [key: string]: unknown;
  readonly target: number;
  readonly model: PlanFigures;
  readonly zipf: PlanFigures;
  /** Per PoP (the model's rows' order): the model run's curve at the size the Zipf plan gave that PoP. */
  readonly modelHitRatioAtZipfSize: readonly number[];
}


function planFigures(folder: string): PlanFigures {
  const plan = readPlan(folder);
  const edge = plan.edge;
  return {
    plannedBytes: edge.total.plannedBytes,
    uniformBytes: edge.total.uniformBytes,
    popsMet: edge.nodesMet,
    popsWithTraffic: edge.nodesWithTraffic,
    unreachable: edge.unreachable,
    highestMaxHitRatio: round(edge.highestMaxHitRatio),
    confirmedLayerHitRatio: round(edge.layerHitRatio.confirmed),
    storageByTarget: storageAtTargets(plan, STORAGE_TARGETS).map((entry) => ({ target: entry.target, plannedBytes: entry.plannedBytes })),
    rows: edgeRowsBusiestFirst(plan).map((node) => ({
        code: node.code,
        name: node.name,
        requests: node.requests,
        maxHitRatio: round(node.maxHitRatio),
        plannedBytes: node.plannedCapacityBytes,
        confirmed: round(node.confirmedHitRatio),
        met: node.met,
      })),
  };
}

/** A PoP's curve (curves.csv, run 1) at `capacity`: the point of the largest grid capacity not above it (a curve is a step function of the grid). */
function curveAt(rows: readonly Record<string, string>[], node: string, capacity: number): number {
  const point = curveOf(rows, 'edge', node, 'library production-pop-sizing').findLast((candidate) => candidate.capacity <= capacity);
  if (point === undefined) throw new Error(`library production-pop-sizing: curves.csv has no edge row for ${node} at or below ${capacity} bytes`);
  return point.hitRatio;
}

const storageAt = (plan: PlanFigures, target: number): number | undefined => plan.storageByTarget.find((entry) => sameFraction(entry.target, target))?.plannedBytes;
const ratio = (f: ProductionPopSizingFigures): number => f.model.plannedBytes / f.zipf.plannedBytes;
const zipfSizeOf = (f: ProductionPopSizingFigures, code: string): number => f.zipf.rows.find((row) => row.code === code)?.plannedBytes ?? Number.NaN;
/** The model's layer hit ratio on its curves at the Zipf plan's sizes, weighted by each PoP's requests. */
const modelLayerAtZipfSizes = (f: ProductionPopSizingFigures): number => {
  const requests = f.model.rows.reduce((sum, row) => sum + row.requests, 0);
  return f.model.rows.reduce((sum, row, i) => sum + row.requests * f.modelHitRatioAtZipfSize[i], 0) / requests;
};
const lowestMax = (plan: PlanFigures): number => Math.min(...plan.rows.filter((row) => row.requests > 0).map((row) => row.maxHitRatio));
const storageText = (value: number | undefined): string => (value === undefined ? 'no PoP reaches it' : bytes(value));

export const productionPopSizing: LibraryEntry<ProductionPopSizingFigures> = {
  name: 'production-pop-sizing',
  title: 'Production video traffic: PoP storage against the Zipf model',
  question: 'How much storage does a PoP need for production video traffic (a global CDN\'s footprint descriptor), and how far off is the Zipf model\'s answer for the same PoPs and request rate?',
  command: { kind: 'plan', args: ['--edge-hit-ratio', `${TARGET * 100}%`], twin: 'production-pop-sizing-zipf' },
  charts: [{ file: 'plan-storage.svg', alt: "The four PoPs' total storage against the target every PoP meets under the video model: a wall at its ceiling near 60 %" }],
  figures: (folder, twinFolder) => {
    if (twinFolder === undefined) throw new Error('library production-pop-sizing: the Zipf twin\'s plan folder is missing');
    const model = planFigures(folder);
    const zipf = planFigures(twinFolder);
    const curves = readCsv(folder, 'curves.csv');
    const zipfSize = (code: string): number => {
      const row = zipf.rows.find((r) => r.code === code);
      if (row === undefined) throw new Error(`library production-pop-sizing: the Zipf twin has no PoP ${code}`);
      return row.plannedBytes;
    };
    return {
      target: TARGET,
      model,
      zipf,
      modelHitRatioAtZipfSize: model.rows.map((row) => round(curveAt(curves, row.code, zipfSize(row.code)))),
    };
  },
  results(f) {
    return [
      `Each plan recorded every PoP's curve over 100,000 measured requests, sized each PoP at the smallest capacity (a grid of 64 steps a decade) where its own curve reaches ${percent(f.target, 0)}, and confirmed it with a second run. The PoPs, busiest first:`,
      '',
      markdownTable(
        ['PoP', 'measured requests', 'video model: size', 'confirmed', 'highest on its curve', 'Zipf twin: size', 'confirmed', 'the model at the Zipf size'],
        f.model.rows.map((row, i) => {
          const twin = f.zipf.rows.find((r) => r.code === row.code);
          return [`${row.code} (${row.name})`, count(row.requests), bytes(row.plannedBytes), percent(row.confirmed), percent(row.maxHitRatio), bytes(zipfSizeOf(f, row.code)), twin === undefined ? '' : percent(twin.confirmed), percent(f.modelHitRatioAtZipfSize[i])];
        }),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
      '',
      `For ${percent(f.target, 0)} at every PoP the video model takes **${bytes(f.model.plannedBytes)}** for the four PoPs (${bytes(f.model.uniformBytes)} at one size for all); the Zipf twin **${bytes(f.zipf.plannedBytes)}** (${bytes(f.zipf.uniformBytes)}): the model asks for **×${ratio(f).toFixed(2)}** the Zipf answer. Built to the Zipf plan, the PoPs would answer **${percent(modelLayerAtZipfSizes(f))}** of production video requests (the model's curves at the Zipf sizes, weighted by requests), not ${percent(f.target, 0)}. Confirmed: the model's plan met the target at ${f.model.popsMet} of ${f.model.popsWithTraffic} PoPs (layer ${percent(f.model.confirmedLayerHitRatio)}), the twin's at ${f.zipf.popsMet} of ${f.zipf.popsWithTraffic} (${percent(f.zipf.confirmedLayerHitRatio)}).`,
      '',
      'Storage for the four PoPs by target, sized per PoP from the same curves (`plan.json` `storageByTarget`):',
      '',
      markdownTable(
        ['target', 'video model', 'Zipf twin', 'model ÷ Zipf'],
        STORAGE_TARGETS.map((target) => {
          const model = storageAt(f.model, target);
          const zipf = storageAt(f.zipf, target);
          return [percent(target, 0), storageText(model), storageText(zipf), model === undefined || zipf === undefined ? '' : `×${(model / zipf).toFixed(2)}`];
        }),
        ['l', 'r', 'r', 'r'],
      ),
    ].join('\n');
  },
  conclusions(f) {
    const model90 = storageAt(f.model, 0.9);
    const zipf90 = storageAt(f.zipf, 0.9);
    return [
      {
        text: `For ${percent(f.target, 0)} at every PoP, production video traffic needs ×${ratio(f).toFixed(1)} the storage the Zipf model says (${bytes(f.model.plannedBytes)} against ${bytes(f.zipf.plannedBytes)}), though the twin has the model's request rate, mean object size and as many objects as the model reuses: built to the Zipf plan, the PoPs would answer ${percent(modelLayerAtZipfSizes(f), 1)} of the requests, not ${percent(f.target, 0)}. The model's reuses spread deeper down the stack (v needs 10 GB for 42 %, 100 GB for 60 %) than a Zipf popularity's, whose most popular objects take the hits in the first gigabytes.`,
        holds: ratio(f) > 1.3 && modelLayerAtZipfSizes(f) < f.target - 0.03,
      },
      {
        text: `Above about ${percent(lowestMax(f.model), 0)} no size helps: each PoP's curve under the model flattens at ${percent(lowestMax(f.model), 1)} to ${percent(f.model.highestMaxHitRatio, 1)} (v's ceiling is ${percent(MODEL_CEILING)}: ${percent(1 - MODEL_CEILING)} of its requests are for objects the PoP never saw), while the Zipf twin's curves go to ${percent(f.zipf.highestMaxHitRatio, 0)} from its stationary start: the Zipf plan for 90 % (${storageText(zipf90)}) is a target production video traffic ${model90 === undefined ? 'does not reach at any size' : 'reaches only at ' + bytes(model90)}. Pick a target below the model's ceiling; a planner who asks the Zipf model for 90 % buys storage for a hit ratio that first requests rule out.`,
        holds: model90 === undefined && zipf90 !== undefined && f.model.highestMaxHitRatio < 0.63 && lowestMax(f.model) > 0.58 && f.zipf.highestMaxHitRatio === 1,
      },
      {
        text: `Under either model the four PoPs need about the same size each, though ${f.model.rows[0].code} measured ×${(Math.max(...f.model.rows.map((r) => r.requests)) / Math.min(...f.model.rows.map((r) => r.requests))).toFixed(1)} the requests of the quietest: a model's curve counts requests, not seconds (every PoP draws its own stream from v; Che's characteristic time for Zipf), so the request rate does not size a PoP, its traffic's shape does.`,
        holds: Math.max(...f.model.rows.map((r) => r.plannedBytes)) / Math.min(...f.model.rows.map((r) => r.plannedBytes)) < 1.3 && Math.max(...f.zipf.rows.map((r) => r.plannedBytes)) / Math.min(...f.zipf.rows.map((r) => r.plannedBytes)) < 1.3,
      },
      {
        text: `The confirmation runs met ${percent(f.target, 0)} at ${f.model.popsMet + f.zipf.popsMet} of the ${f.model.popsWithTraffic + f.zipf.popsWithTraffic} PoPs of the two plans (with the same seed a PoP sees the same requests in both runs); the plan's answer stands on 100,000 measured requests, a few ten thousand per PoP.`,
        holds: f.model.popsMet >= f.model.popsWithTraffic - 1 && f.zipf.popsMet >= f.zipf.popsWithTraffic - 1,
      },
    ];
  },
};
