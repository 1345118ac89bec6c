import { z } from 'zod';
import { nearest } from '../suggest.js';
import { UserError } from '../userError.js';
import { dataFilePath, describeIssues, readJsonFile } from './dataFiles.js';
import { greatCircleKm } from './geo.js';
import { REGIONS, type Region } from './regions.js';

/**
 * Points of presence: the edge sites clients are routed to (spec 1.1: "more than 200
 * worldwide"; spec 4.9 layer 2). The default table is data/pops.json, derived from a public
 * list of one large CDN's sites by scripts/buildPops.mjs (data/README.md has the rules).
 */

/** Spec 1.1: "100 Gbit, with NVMe storage at major points of presence"; the others are minor. */
export const SIZE_CLASSES = ['major', 'minor'] as const;
export type SizeClass = (typeof SIZE_CLASSES)[number];

export interface Pop {
  /** IATA airport code of the site (custom PoPs: any 3–8 upper-case letters or digits). */
  readonly code: string;
  readonly city: string;
  readonly country: string;
  /** ISO 3166-1 alpha-2 country code. */
  readonly cca2: string;
  readonly region: Region;
  readonly lat: number;
  readonly lon: number;
  readonly sizeClass: SizeClass;
}

export const POP_CODE_PATTERN = /^[A-Z][A-Z0-9]{2,7}$/;

export const popSchema = z.strictObject({
  code: z.string().regex(POP_CODE_PATTERN, { error: 'expected a site code of 3 to 8 upper-case letters or digits, such as FRA' }),
  city: z.string().min(1, { error: 'expected the city name' }),
  country: z.string().min(1, { error: 'expected the country name' }),
  cca2: z.string().regex(/^[A-Z]{2}$/, { error: 'expected an ISO 3166-1 alpha-2 country code such as DE' }),
  region: z.enum(REGIONS, { error: `expected one of the five regions: ${REGIONS.join(', ')}` }),
  lat: z.number({ error: 'expected a latitude in degrees' }).min(-90, { error: 'expected a latitude from -90 to 90' }).max(90, { error: 'expected a latitude from -90 to 90' }),
  lon: z.number({ error: 'expected a longitude in degrees' }).min(-180, { error: 'expected a longitude from -180 to 180' }).max(180, { error: 'expected a longitude from -180 to 180' }),
  sizeClass: z.enum(SIZE_CLASSES, { error: 'expected sizeClass major or minor' }),
});

const popTableSchema = z.object({ pops: z.array(popSchema).min(1, { error: 'expected at least one PoP' }) });

/** Validates a PoP table (`{pops: [...]}`); `source` names the file in errors. Codes must be unique. */
export function parsePopTable(json: unknown, source: string): Pop[] {
  const parsed = popTableSchema.safeParse(json);
  if (!parsed.success) throw new UserError(describeIssues(source, parsed.error.issues));
  const pops = parsed.data.pops;
  const seen = new Map<string, number>();
  pops.forEach((pop, index) => {
    const first = seen.get(pop.code);
    if (first !== undefined) throw new UserError(`${source}: pops[${index}].code: ${pop.code} is also pops[${first}].code; codes must be unique`);
    seen.set(pop.code, index);
  });
  return pops;
}

let defaultTable: readonly Pop[] | undefined;

/** The committed PoP table (data/pops.json), read and validated once; or another file's. */
export function loadPopTable(path?: string): readonly Pop[] {
  if (path !== undefined) return parsePopTable(readJsonFile(path), path);
  if (!defaultTable) {
    const file = dataFilePath('pops.json');
    defaultTable = Object.freeze(parsePopTable(readJsonFile(file), file));
  }
  return defaultTable;
}

/** Which PoPs a scenario uses. Filters apply in the order of the fields below. */
export interface PopSelection {
  /** Only these codes (each must exist in the table). */
  readonly codes?: readonly string[];
  /** Only PoPs in these regions. */
  readonly regions?: readonly Region[];
  /** Only PoPs in these countries (ISO alpha-2). */
  readonly countries?: readonly string[];
  /** Drop PoPs in these countries, e.g. ['CN'] for a customer without the China network. */
  readonly excludeCountries?: readonly string[];
  /** Drop these codes (each must exist in the table). */
  readonly exclude?: readonly string[];
  /** Keep this many, spread out: majors first, each next one the farthest from those kept. */
  readonly count?: number;
  /** The scenario's own PoPs, added after the filters. */
  readonly add?: readonly Pop[];
}

function unknownCode(code: string, field: 'codes' | 'exclude', index: number, table: readonly Pop[]): UserError {
  const guess = nearest(code, table.map((pop) => pop.code));
  return new UserError(`pops.${field}: no PoP with code '${code}' in the PoP table${guess ? `; did you mean '${guess}'?` : ''}`, ['pops', field, index]);
}

/** The PoPs a selection keeps, in table order, custom PoPs last. Throws a UserError naming the field at fault. */
export function selectPops(table: readonly Pop[], selection: PopSelection = {}): Pop[] {
  const byCode = new Map(table.map((pop) => [pop.code, pop]));
  let pops: Pop[] = [...table];
  if (selection.codes) {
    for (const [index, code] of selection.codes.entries()) if (!byCode.has(code)) throw unknownCode(code, 'codes', index, table);
    const wanted = new Set(selection.codes);
    pops = pops.filter((pop) => wanted.has(pop.code));
  }
  if (selection.regions) {
    const wanted = new Set<Region>(selection.regions);
    pops = pops.filter((pop) => wanted.has(pop.region));
  }
  if (selection.countries) {
    const wanted = new Set(selection.countries);
    pops = pops.filter((pop) => wanted.has(pop.cca2));
  }
  if (selection.excludeCountries) {
    const dropped = new Set(selection.excludeCountries);
    pops = pops.filter((pop) => !dropped.has(pop.cca2));
  }
  if (selection.exclude) {
    for (const [index, code] of selection.exclude.entries()) if (!byCode.has(code)) throw unknownCode(code, 'exclude', index, table);
    const dropped = new Set(selection.exclude);
    pops = pops.filter((pop) => !dropped.has(pop.code));
  }
  if (selection.count !== undefined) {
    if (!Number.isInteger(selection.count) || selection.count < 1) throw new UserError(`pops.count: expected a whole number ≥ 1, got ${selection.count}`, ['pops', 'count']);
    if (selection.count > pops.length) throw new UserError(`pops.count: asks for ${selection.count} PoPs but the other filters leave ${pops.length}`, ['pops', 'count']);
    pops = spreadSubset(pops, selection.count);
  }
  for (const [index, pop] of (selection.add ?? []).entries()) {
    if (pops.some((kept) => kept.code === pop.code)) throw new UserError(`pops.add[${index}].code: ${pop.code} is already a PoP; pick another code or exclude the existing one`, ['pops', 'add', index, 'code']);
    pops.push(pop);
  }
  if (pops.length === 0) throw new UserError('pops: the selection leaves no PoP; a topology needs at least one', ['pops']);
  return pops;
}

/**
 * `count` PoPs spread over the map: greedy farthest-point traversal (each next PoP is the
 * one farthest from all chosen so far), over the major PoPs first and then the minor ones,
 * starting at the first major PoP in table order. Deterministic; returned in table order.
 */
export function spreadSubset(pops: readonly Pop[], count: number): Pop[] {
  const order = [...pops.keys()].sort((a, b) => Number(pops[a].sizeClass === 'minor') - Number(pops[b].sizeClass === 'minor') || a - b);
  const chosen = new Uint8Array(pops.length);
  const distance = new Float64Array(pops.length).fill(Infinity);
  const picked: number[] = [];
  for (let n = 0; n < count; n++) {
    let best = -1;
    // Majors are exhausted before any minor PoP competes.
    const majorsLeft = order.some((i) => !chosen[i] && pops[i].sizeClass === 'major');
    for (const i of order) {
      if (chosen[i] || (majorsLeft && pops[i].sizeClass !== 'major')) continue;
      if (best < 0 || distance[i] > distance[best]) best = i;
    }
    chosen[best] = 1;
    picked.push(best);
    for (let i = 0; i < pops.length; i++) {
      if (!chosen[i]) distance[i] = Math.min(distance[i], greatCircleKm(pops[i], pops[best]));
    }
  }
  return picked.sort((a, b) => a - b).map((i) => pops[i]);
}
