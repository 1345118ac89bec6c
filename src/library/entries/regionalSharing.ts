import type { LibraryEntry } from '../libraryEntry.js';
import { bytes, count, markdownTable, percent } from '../markdown.js';
import { curveOf, list, num, readCsv, readJson, roundFigure as round, sameFraction, type CurvePoint, type Json } from '../outputs.js';
import { loadTrafficModel, modelHitRate } from '../../workload/trafficModels/trafficModel.js';

/**
 * `cdnsim run` of eight European PoPs over two regional sites under the social-media model
 * eu-2, once per value of `sharing` (scenarios/library/regional-sharing.yaml at 50 %, the
 * default, then with `--set` at 0, 25, 75 and 100 %): what the regional tier answers, what reaches the
 * origin, and what a regional site must hold for a target regional hit ratio, read off each
 * run's regional curves (docs/curves.md) as `cdnsim plan` reads them.
 */

/** The other values of `sharing`, each a run of the same file (whose own value is the default 50 %). */
const VARIANTS = ['0', '25%', '75%', '100%'].map((sharing) => ['--set', `content.classes[0].sharing=${sharing}`]);
/** Regional hit ratios the storage table sizes a site for. */
const TARGETS = [0.05, 0.1, 0.2, 0.3, 0.5] as const;
/** The target the conclusions size for: one that 25 %, 50 % and 75 % all reach. */
const SIZING_TARGET = 0.1;

/**
 * eu-2's LRU request curve (`modelHitRate`, fidelity fd) at the edges' 1 GB and the stacks'
 * 2 GB cap (docs/traffic-models.md), read off the shipped model as the scenario's streams
 * use it: reuses between them miss the edge and are all a regional site can answer without
 * sharing; a draw below the cap asks for a new object.
 */
const EU2 = loadTrafficModel('eu-2').fd;
const MODEL_AT_EDGE = modelHitRate(EU2, 1e9);
const MODEL_AT_CAP = modelHitRate(EU2, 2e9);
/** Share of requests whose stack distance lies between the edge and the cap: the deep reuses. */
const DEEP_REUSES = MODEL_AT_CAP - MODEL_AT_EDGE;
/** Share of a PoP's requests that draw a new object (first requests and draws below the cap). */
const NEW_DRAWS = 1 - MODEL_AT_CAP;
/** Sharing 0: the regional tier answers the deep reuses of the edge misses (0.31 %). */
const REGIONAL_AT_NO_SHARING = DEEP_REUSES / (1 - MODEL_AT_EDGE);

/**
 * The most a regional tier could answer when a share `shared` of new-object draws are shared
 * (the run's sharedShare: `sharing` itself, less where every draw found an object the PoP's
 * own stack held, as at sharing 100 %): one cache for the whole CDN holding every object any
 * PoP had asked for, so every shared draw and every deep reuse a hit.
 */
const oneCacheBound = (shared: number): number => (shared * NEW_DRAWS + DEEP_REUSES) / (NEW_DRAWS + DEEP_REUSES);

interface SiteRow {
  readonly code: string;
  readonly lookups: number;
  readonly hitRatio: number;
  /** The site's curve at its last row: the most any size gives over this run. */
  readonly ceiling: number;
}

interface SharingPoint {
  readonly sharing: number;
  /** Share of the streams' new-object draws after their stacks that were shared (summary.json trafficModels). */
  readonly sharedShare: number;
  readonly requests: number;
  /** Requests of the cache-only warm-up before the measured ones. */
  readonly warmupRequests: number;
  /** Objects the streams created after their initial stacks, over the warm-up and the run. */
  readonly createdAfterStacks: number;
  readonly edgeHitRatio: number;
  readonly regionalHitRatio: number;
  readonly cdnHitRatio: number;
  readonly originRequestsPerRequest: number;
  readonly originBytesPerRequest: number;
  readonly sites: readonly SiteRow[];
  /** The layer's curve (`all`: every site at one size): its ceiling and the smallest size giving it. */
  readonly ceiling: number;
  readonly ceilingBytes: number;
  /** Per TARGETS: the smallest size per site (one for both) meeting it, null when none does. */
  readonly storageForTarget: readonly (number | null)[];
}

interface RegionalSharingFigures {
  readonly [key: string]: unknown;
  /** By sharing, lowest first. */
  readonly points: readonly SharingPoint[];
}

/** A regional node's curve (curves.csv; `all`: the regional layer's). */
const curveRows = (rows: readonly Record<string, string>[], node: string): CurvePoint[] => curveOf(rows, 'regional', node, 'library regional-sharing');

/** The smallest grid capacity whose hit ratio reaches `target` (as plan's capacityFor), null when none does. */
function capacityFor(curve: readonly CurvePoint[], target: number): number | null {
  return curve.find((point) => point.hitRatio >= target)?.capacity ?? null;
}

function pointOf(folder: string): SharingPoint {
  const summary = readJson(folder, 'summary.json');
  const model = list(summary, 'trafficModels')[0];
  const requests = num(summary, 'requests');
  const curves = readCsv(folder, 'curves.csv');
  const layer = curveRows(curves, 'all');
  const ceiling = layer[layer.length - 1].hitRatio;
  const sites = list(summary, 'regionals')
    .filter((site: Json) => num(site, 'requests') > 0)
    .map((site: Json) => {
      const code = String((site as { name: Json }).name);
      const curve = curveRows(curves, code);
      return { code, lookups: num(site, 'requests'), hitRatio: round(num(site, 'hitRatio')), ceiling: round(curve[curve.length - 1].hitRatio) };
    });
  return {
    sharing: num(model, 'sharing'),
    sharedShare: round(num(model, 'sharedShare')),
    requests,
    warmupRequests: num(summary, 'warmup.requests'),
    createdAfterStacks: num(model, 'createdObjects') - num(model, 'startObjects'),
    edgeHitRatio: round(num(summary, 'hitRatio.edge')),
    regionalHitRatio: round(num(summary, 'hitRatio.regional')),
    cdnHitRatio: round(num(summary, 'hitRatio.cdn')),
    originRequestsPerRequest: round(num(summary, 'cdn.origin.requests') / requests),
    originBytesPerRequest: Math.round(num(summary, 'cdn.origin.bytes') / requests),
    sites,
    ceiling: round(ceiling),
    ceilingBytes: capacityFor(layer, ceiling) ?? Number.NaN,
    storageForTarget: TARGETS.map((target) => capacityFor(layer, target)),
  };
}

const at = (f: RegionalSharingFigures, sharing: number): SharingPoint => {
  const point = f.points.find((p) => sameFraction(p.sharing, sharing));
  if (point === undefined) throw new Error(`library regional-sharing: no run at sharing ${sharing}`);
  return point;
};
const storageAt = (point: SharingPoint, target: number): number | null => point.storageForTarget[TARGETS.findIndex((t) => sameFraction(t, target))] ?? null;
const storageText = (point: SharingPoint, value: number | null): string => (value === null ? `never (at most ${percent(point.ceiling, 1)})` : bytes(value));
const site = (point: SharingPoint, code: string): SiteRow | undefined => point.sites.find((s) => s.code === code);
const shared = (f: RegionalSharingFigures): SharingPoint[] => f.points.filter((p) => p.sharing > 0);
/** Objects new to the CDN per request, warm-up included (when they were created). */
const newPerRequest = (point: SharingPoint): number => point.createdAfterStacks / (point.requests + point.warmupRequests);

export const regionalSharing: LibraryEntry<RegionalSharingFigures> = {
  name: 'regional-sharing',
  title: 'Regional sites and sharing: what a regional cache holds when PoPs share objects',
  question:
    "A regional site answers a PoP's misses with objects its other PoPs fetched: when 0, 25, 50, 75 or 100 % of a PoP's new objects are ones other PoPs already asked for (`sharing`, which no licensed measurement gives), what does the regional tier answer, what reaches the origin, and how much must a regional site hold?",
  command: { kind: 'run', variants: VARIANTS },
  charts: [],
  figures: (folder, _twin, variantFolders) => {
    if (variantFolders === undefined || variantFolders.length !== VARIANTS.length) throw new Error('library regional-sharing: the other sharing values\' run folders are missing');
    return { points: [folder, ...variantFolders].map(pointOf).sort((a, b) => a.sharing - b.sharing) };
  },
  results(f) {
    const codes = f.points[0].sites.map((s) => s.code);
    return [
      `One run per value of \`sharing\` (deterministic, seed 1): every PoP's model stack through its caches, ${count(f.points[0].warmupRequests)} requests warming the caches alone (they fill the log shared objects are drawn from), then ${count(f.points[0].requests)} measured requests. \`sharing\` is the share of a PoP's new-object draws handed an object another PoP had asked for; "shared" is the share the run drew. Origin figures per measured request:`,
      '',
      markdownTable(
        ['sharing', 'shared', 'edge hit ratio', 'regional hit ratio', ...codes.map((code) => `${code}`), 'CDN hit ratio', 'origin requests', 'origin bytes', 'new objects'],
        f.points.map((p) => [
          percent(p.sharing, 0),
          percent(p.sharedShare, 1),
          percent(p.edgeHitRatio),
          percent(p.regionalHitRatio),
          ...codes.map((code) => percent(site(p, code)?.hitRatio ?? null)),
          percent(p.cdnHitRatio),
          p.originRequestsPerRequest.toFixed(4),
          bytes(p.originBytesPerRequest),
          count(p.createdAfterStacks),
        ]),
      ),
      '',
      `(${codes.map((code) => `${code}: ${count(site(f.points[0], code)?.lookups ?? 0)} lookups`).join(', ')} at sharing 0; "new objects": objects new to the whole CDN, created over the warm-up and the run after the stacks.) What a regional site must hold, from each run's regional curves (every site at one size, the layer's curve of curves.csv; a size is read within 4 %), and the most any size gives over the run:`,
      '',
      markdownTable(
        ['sharing', ...TARGETS.map((t) => `for ${percent(t, 0)}`), 'at most (any size)', 'reached at', ...codes.map((code) => `${code} at most`)],
        f.points.map((p) => [
          percent(p.sharing, 0),
          ...TARGETS.map((t) => storageText(p, storageAt(p, t))),
          percent(p.ceiling),
          bytes(p.ceilingBytes),
          ...codes.map((code) => percent(site(p, code)?.ceiling ?? null)),
        ]),
      ),
      '',
      `Derived by hand from eu-2's curve (${percent(MODEL_AT_EDGE)} at the 1 GB edges, ${percent(MODEL_AT_CAP)} at the stacks' 2 GB cap): at sharing 0 the regional tier can answer only the reuses between the two, ${percent(DEEP_REUSES, 3)} of requests, ${percent(REGIONAL_AT_NO_SHARING)} of the edges' misses; the CDN answers ${percent(MODEL_AT_CAP)} and ${(1 - MODEL_AT_CAP).toFixed(4)} origin requests per request remain. With a share s of new-object draws shared (the table's "shared"), one regional cache for the whole CDN holding every object any PoP asked for would answer (s × ${percent(NEW_DRAWS)} + ${percent(DEEP_REUSES, 3)}) ÷ ${percent(NEW_DRAWS + DEEP_REUSES)} of the edges' misses: ${shared(f).map((p) => `${percent(oneCacheBound(p.sharedShare), 1)} at sharing ${percent(p.sharing, 0)}`).join(', ')}.`,
    ].join('\n');
  },
  conclusions(f) {
    const none = at(f, 0);
    const quarter = at(f, 0.25);
    const half = at(f, 0.5);
    const most = at(f, 0.75);
    const all = at(f, 1);
    const [q, h, m] = [quarter, half, most].map((p) => storageAt(p, SIZING_TARGET));
    const ceilingShares = shared(f).map((p) => p.ceiling / oneCacheBound(p.sharedShare));
    const [big, small] = [...half.sites].sort((a, b) => b.lookups - a.lookups);
    return [
      {
        text: `Without sharing a regional site is worth nothing under eu-2, at any size: the regional tier answers ${percent(none.regionalHitRatio)} of the edges' misses (by hand ${percent(REGIONAL_AT_NO_SHARING)}: eu-2's reuses deeper than 1 GB) and its curve stops at ${percent(none.ceiling)}; the CDN answers ${percent(none.cdnHitRatio)} (eu-2's ${percent(MODEL_AT_CAP)} at the stacks' cap) and ${none.originRequestsPerRequest.toFixed(4)} origin requests per request remain (by hand ${(1 - MODEL_AT_CAP).toFixed(4)}). Everything a regional tier adds for social-media traffic is sharing.`,
        holds: Math.abs(none.regionalHitRatio - REGIONAL_AT_NO_SHARING) < 0.002 && none.ceiling < 0.01 && Math.abs(none.originRequestsPerRequest - (1 - MODEL_AT_CAP)) < 0.003,
      },
      {
        text: `A site holds only what its own PoPs fetched: with sharing, the most any size gives is ${shared(f).map((p) => percent(p.ceiling, 1)).join(', ')} at ${shared(f).map((p) => percent(p.sharing, 0)).join(', ')}, ${percent(Math.min(...ceilingShares), 0)} to ${percent(Math.max(...ceilingShares), 0)} of what one cache for the whole CDN would answer; the objects missing are those only the other site's PoPs had asked for. The smaller site's curve stops lower (at 50 %: ${small.code} ${percent(small.ceiling, 1)}, ${big.code} ${percent(big.ceiling, 1)}), though at 20 GB each answers about as much (${percent(small.hitRatio, 1)} and ${percent(big.hitRatio, 1)}): the busier site's PoPs pass it more of the shared objects, and more bytes to hold them among.`,
        holds: ceilingShares.every((share) => share > 0.5 && share <= 1) && small.ceiling < big.ceiling && Math.abs(small.hitRatio - big.hitRatio) < 0.03,
      },
      {
        text: `Sized for a ${percent(SIZING_TARGET, 0)} regional hit ratio, a site needs ${q === null ? '–' : bytes(q)} at sharing 25 %, ${h === null ? '–' : bytes(h)} at the default 50 % and ${m === null ? '–' : bytes(m)} at 75 %: ×${q === null || m === null ? '–' : (q / m).toFixed(1)} from 25 % to 75 %. If the truth is 25 %, a site needs ×${q === null || h === null ? '–' : (q / h).toFixed(1)} the size the default gives; if it is 75 %, ×${h === null || m === null ? '–' : (m / h).toFixed(2)}: size a regional tier at the default and check the plan with \`sharing\` at 25 % and 75 % (\`cdnsim plan --regional-hit-ratio\` on each).`,
        holds: q !== null && h !== null && m !== null && q > h && h > m && q / m > 2,
      },
      {
        text: `A target above a sharing value's ceiling takes no size at all: at 25 % no site size reaches ${percent(0.2, 0)} (at most ${percent(quarter.ceiling, 1)}), which ${storageAt(half, 0.2) === null ? 'is not reached at 50 % either' : `50 % reaches at ${bytes(storageAt(half, 0.2) ?? 0)}`}. Whether a regional hit ratio target can be met at all depends on the sharing assumed, not on the storage bought.`,
        holds: storageAt(quarter, 0.2) === null && storageAt(half, 0.2) !== null,
      },
      {
        text: `The origin's load follows sharing: ${none.originRequestsPerRequest.toFixed(3)} origin requests per request at 0, ${half.originRequestsPerRequest.toFixed(3)} at 50 % and ${all.originRequestsPerRequest.toFixed(3)} at 100 % (${bytes(none.originBytesPerRequest)}, ${bytes(half.originBytesPerRequest)} and ${bytes(all.originBytesPerRequest)} per request): an origin sized at the default carries ×${(none.originRequestsPerRequest / half.originRequestsPerRequest).toFixed(2)} the requests if no object is shared. At 100 % the bound is the CDN-wide reuse: only ${count(all.createdAfterStacks)} objects were new to the whole CDN over the warm-up and the run (${newPerRequest(all).toFixed(4)} per request), the rest of the origin's requests are shared objects the asking site had not seen.`,
        holds: f.points.every((p, i) => i === 0 || p.originRequestsPerRequest < f.points[i - 1].originRequestsPerRequest) && all.originRequestsPerRequest > newPerRequest(all),
      },
    ];
  },
};
