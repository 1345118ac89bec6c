import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { DEFAULT_COLUMNS, formatMs, formatTableWithin, wrapLine } from '../../report/consoleTable.js';
import { terminalColumns } from '../terminalColumns.js';
import { STATED_GLOBAL_LATENCY_MS, STATED_LAYER_LATENCY_MS, summariseLatency, type LatencyFigures } from '../../topology/latencySummary.js';
import { popsServedBy } from '../../topology/regionalTier.js';
import { REGIONS } from '../../topology/regions.js';
import type { Site } from '../../topology/sites.js';
import { buildTopology, type Topology } from '../../topology/topology.js';
import type { TopologySpec } from '../../topology/topologySpec.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { topologySpecOf } from '../../scenario/scenarioTopology.js';
import { UserError } from '../../userError.js';

interface TopologyArgs {
  json: boolean;
  scenario?: string;
}

export function topologyCommand(yargs: Argv): Argv {
  return yargs.command<TopologyArgs>(
    COMMAND_LINES.topology.command,
    COMMAND_LINES.topology.describe,
    (command) =>
      command
        .option('json', { type: 'boolean', default: false, describe: 'print {pops, regionalSites, origins} as JSON' })
        .option('scenario', { type: 'string', describe: "the topology of this scenario file (its topology section and traffic.regions)" })
        .example('$0 topology', 'the default topology and its calibrated latencies')
        .example('$0 topology --scenario scenarios/baseline.yaml', "a scenario's PoPs, regional tier, origins and latencies")
        .example('$0 topology --json | jq ".pops | length"', 'count the PoPs') as unknown as Argv<TopologyArgs>,
    (args) => {
      const topology = buildTopology(args.scenario === undefined ? undefined : scenarioTopologySpec(args.scenario));
      process.stdout.write(args.json ? `${JSON.stringify(topologyRecord(topology), null, 2)}\n` : topologyText(topology, terminalColumns()));
    },
  );
}

/** The TopologySpec of a scenario file; a regions-model scenario has no PoPs to show. */
function scenarioTopologySpec(file: string): TopologySpec {
  const scenario = loadScenarioFile(file);
  if (scenario.topology.model !== 'pops') {
    throw new UserError(
      `${file}: topology.model is ${scenario.topology.model}, which has one edge per region and no PoPs to show; ` +
        'cdnsim topology describes model: pops (set `topology: { model: pops }` in the scenario, or run `cdnsim topology` for the default network)',
    );
  }
  return topologySpecOf(scenario.topology, scenario.traffic.regions);
}

export interface TopologyRecord {
  pops: { code: string; city: string; country: string; region: string; lat: number; lon: number; sizeClass: string; regionalSite: string | null }[];
  regionalSites: { code: string; city: string; region: string; lat: number; lon: number }[];
  origins: { code: string; city: string; region: string; lat: number; lon: number }[];
}

const siteRecord = ({ code, city, region, lat, lon }: Site) => ({ code, city, region, lat, lon });

/** The `--json` document. `regionalSite` is null when the regional tier is off. */
export function topologyRecord(topology: Topology): TopologyRecord {
  const { pops, regionalTier, origins } = topology;
  return {
    pops: pops.map((pop, index) => ({
      code: pop.code,
      city: pop.city,
      country: pop.country,
      region: pop.region,
      lat: pop.lat,
      lon: pop.lon,
      sizeClass: pop.sizeClass,
      regionalSite: regionalTier.enabled ? regionalTier.sites[regionalTier.siteOfPop[index]].code : null,
    })),
    regionalSites: regionalTier.sites.map(siteRecord),
    origins: origins.map(siteRecord),
  };
}

const range = ([low, high]: readonly [number, number]) => `${low}–${high}`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** Codes separated by spaces, wrapped to `width` columns after an indent. */
function wrapCodes(codes: readonly string[], indent: number, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const code of codes) {
    if (line !== '' && indent + line.length + 1 + code.length > width) {
      lines.push(line);
      line = code;
    } else line = line === '' ? code : `${line} ${code}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((text, i) => (i === 0 ? text : `${' '.repeat(indent)}${text}`));
}

/** The human report, in `columns` (issue 26). */
export function topologyText(topology: Topology, columns: number = DEFAULT_COLUMNS): string {
  const { pops, regionalTier, origins } = topology;
  const summary = summariseLatency(topology);
  const majors = pops.filter((pop) => pop.sizeClass === 'major').length;
  const out: string[] = [];
  out.push(
    `${pops.length} PoPs (${majors} major, ${pops.length - majors} minor), ` +
      (regionalTier.enabled ? `${regionalTier.sites.length} regional sites, ` : 'no regional tier, ') +
      `${origins.length === 1 ? 'origin' : 'origins'} ${origins.map((o) => `${o.code} (${o.city}, ${o.region})`).join(', ')}; ` +
      `${topology.clients.cities.length} client places.`,
  );
  out.push('');
  const row = (name: string, popCount: number, majorCount: number, f: LatencyFigures, stated: string): string[] => [
    name,
    String(popCount),
    String(majorCount),
    percent(f.demandShare),
    formatMs(f.nearestPopRttMs.p50),
    formatMs(f.nearestPopRttMs.p90),
    formatMs(f.nearestPopRttMs.p99),
    formatMs(f.edgeHitMs),
    stated,
    formatMs(f.regionalHitMs),
    formatMs(f.originFetchMs),
  ];
  const rows = summary.regions.map((figures) => {
    const inRegion = pops.filter((pop) => pop.region === figures.region);
    return row(figures.region, inRegion.length, inRegion.filter((pop) => pop.sizeClass === 'major').length, figures, range(figures.statedMs));
  });
  rows.push(row('global', pops.length, majors, summary.global, String(STATED_GLOBAL_LATENCY_MS)));
  out.push(formatTableWithin(['region', 'PoPs', 'major', 'demand', 'RTT p50', 'RTT p90', 'RTT p99', 'edge hit', 'stated', 'regional', 'origin'], rows, columns));
  out.push('');
  out.push('RTT: propagation round trip from the client places to their nearest PoP (demand-weighted percentiles, ms).');
  out.push('edge hit, regional, origin: mean time to first byte when that layer serves the request (ms), last mile included.');
  out.push(
    `Layers (spec 4.9): edge hit ${formatMs(summary.global.edgeHitMs)} ms (stated ${range(STATED_LAYER_LATENCY_MS.edge)}), ` +
      `regional hit ${formatMs(summary.global.regionalHitMs)} ms (stated ${range(STATED_LAYER_LATENCY_MS.regional)}), ` +
      `origin service ${formatMs(summary.originServiceMs)} ms (stated ${range(STATED_LAYER_LATENCY_MS.origin)}).`,
  );
  out.push('');
  if (regionalTier.enabled) {
    out.push('Regional sites and the PoPs they serve:');
    const served = popsServedBy(regionalTier, pops);
    const places = regionalTier.sites.map((site) => `${site.city}, ${site.region}`);
    const codeWidth = Math.max(...regionalTier.sites.map((site) => site.code.length));
    const placeWidth = Math.max(...places.map((place) => place.length));
    regionalTier.sites.forEach((site, s) => {
      const label = `  ${site.code.padEnd(codeWidth)}  ${places[s].padEnd(placeWidth)}  ${String(served[s].length).padStart(3)} PoPs: `;
      out.push(`${label}${wrapCodes(served[s].map((pop) => pop.code), label.length, columns).join('\n')}`);
    });
  } else {
    out.push('The regional tier is off: PoPs fetch from the origin directly.');
  }
  out.push('');
  out.push(`PoPs per region: ${REGIONS.map((region) => `${region} ${pops.filter((pop) => pop.region === region).length}`).join(', ')}.`);
  // "DXB Dubai, Europe" serving Cairo reads as a mistake without this.
  out.push('Regions are the five of spec 1.1: the Middle East, Turkey and the Caucasus count as Europe;');
  out.push('Mexico, Central America and the Caribbean as Latin America.');
  out.push('Data: data/pops.json (derived from a public PoP list, MIT; data/README.md). Model and calibration: docs/topology.md.');
  // Prose lines folded; the table and the code lists are already laid out in `columns`.
  return `${out.flatMap((line) => line.split('\n')).flatMap((line) => (line.startsWith(' ') ? [line] : wrapLine(line, columns))).join('\n')}\n`;
}
