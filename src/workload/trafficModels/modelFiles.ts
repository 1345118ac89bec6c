import { UserError, echoValue } from '../../userError.js';

/**
 * The text formats of a footprint-descriptor traffic model (TRAGEN, Sabnis and Sitaraman,
 * IMC 2021; data/traffic-models/README.md): a descriptor (`fd.txt` weighted by requests,
 * `bfd.txt` by bytes) and a size distribution (`popularity.txt` or `sz.txt`). Pure parsing:
 * a file the user must fix gives a `TrafficModelError` with its file, line, what was expected
 * and what was found; nothing else is thrown for any text.
 */

/** A model file the user has to fix: the file and (1-based) line are in the message and on the error. */
export class TrafficModelError extends UserError {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
    this.name = 'TrafficModelError';
  }
}

/** One footprint descriptor: its header, and rows (reuse time, byte stack distance, fraction). */
export interface FootprintDescriptor {
  /** Requests of the original trace. */
  requests: number;
  /** Bytes of those requests, in KB. */
  totalKB: number;
  startSeconds: number;
  endSeconds: number;
  /** First requests of an object (compulsory misses), and their KB. */
  missRequests: number;
  missKB: number;
  /** Per row: the lower edge of its reuse-time bin (s), of its stack-distance bin (KB), and its share. */
  reuseSeconds: Float64Array;
  stackDistanceKB: Float64Array;
  fraction: Float64Array;
}

/** Object sizes (KB) and their probability over objects, by size ascending, summing to 1. */
export interface SizeDistribution {
  sizeKB: Float64Array;
  probability: Float64Array;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The fields of one line: whitespace-separated decimal numbers, or the index of the first that is not. */
function numbersOf(line: string, out: number[]): number {
  out.length = 0;
  const tokens = line.trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const value = Number(token);
    if (!NUMBER.test(token) || !Number.isFinite(value)) return i;
    out.push(value);
  }
  return -1;
}

function quote(text: string): string {
  return `'${echoValue(text, 60)}'`;
}

const HEADER_FIELDS = 'requests totalKB startSeconds endSeconds missRequests missKB';

/** Parses a descriptor (`fd.txt`, `bfd.txt`, or TRAGEN's older `footprint_desc_all.txt`). */
export function parseDescriptor(text: string, file: string): FootprintDescriptor {
  const lines = text.split(/\r?\n/);
  const fields: number[] = [];
  let lineIndex = 0;
  while (lineIndex < lines.length && lines[lineIndex].trim() === '') lineIndex++;
  if (lineIndex === lines.length) throw new TrafficModelError(`expected a header line '${HEADER_FIELDS}', found an empty file`, file);
  const headerLine = lines[lineIndex];
  const badHeader = numbersOf(headerLine, fields);
  if (badHeader >= 0 || fields.length !== 6) {
    throw new TrafficModelError(`expected a header of six numbers '${HEADER_FIELDS}', found ${quote(headerLine.trim())}`, file, lineIndex + 1);
  }
  const [requests, totalKB, startSeconds, endSeconds, missRequests, missKB] = fields;
  if (!(requests > 0) || !(totalKB > 0)) throw new TrafficModelError(`expected positive requests and totalKB in the header, found ${requests} and ${totalKB}`, file, lineIndex + 1);
  if (!(missRequests >= 0 && missRequests <= requests)) throw new TrafficModelError(`expected missRequests between 0 and requests (${requests}), found ${missRequests}`, file, lineIndex + 1);
  if (!(missKB >= 0 && missKB <= totalKB)) throw new TrafficModelError(`expected missKB between 0 and totalKB (${totalKB}), found ${missKB}`, file, lineIndex + 1);
  if (!(endSeconds >= startSeconds)) throw new TrafficModelError(`expected endSeconds ≥ startSeconds, found ${endSeconds} < ${startSeconds}`, file, lineIndex + 1);
  const reuse: number[] = [];
  const distance: number[] = [];
  const fraction: number[] = [];
  for (lineIndex++; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex];
    if (line.trim() === '') continue;
    const bad = numbersOf(line, fields);
    if (bad >= 0 || (fields.length as number) !== 3) {
      throw new TrafficModelError(`expected a row of three numbers 'reuseTimeSeconds stackDistanceKB fraction', found ${quote(line.trim())}`, file, lineIndex + 1);
    }
    const [r, d, f] = fields;
    if (!(r >= 0) || !(d >= 0)) throw new TrafficModelError(`expected a reuse time and a stack distance ≥ 0, found ${r} and ${d}`, file, lineIndex + 1);
    if (!(f >= 0 && f <= 1)) throw new TrafficModelError(`expected a fraction between 0 and 1, found ${f}`, file, lineIndex + 1);
    reuse.push(r);
    distance.push(d);
    fraction.push(f);
  }
  return {
    requests,
    totalKB,
    startSeconds,
    endSeconds,
    missRequests,
    missKB,
    reuseSeconds: Float64Array.from(reuse),
    stackDistanceKB: Float64Array.from(distance),
    fraction: Float64Array.from(fraction),
  };
}

/**
 * Parses a size distribution: blocks, each a key line (a request count in `popularity.txt`,
 * a mean reuse time in `sz.txt`) and rows `sizeKB probability`; returns the size marginal
 * over all blocks, normalised (TRAGEN's `sz.txt` of some classes holds part of the mass).
 */
export function parseSizeDistribution(text: string, file: string): SizeDistribution {
  const lines = text.split(/\r?\n/);
  const fields: number[] = [];
  const bySize = new Map<number, number>();
  let inBlock = false;
  let total = 0;
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex];
    if (line.trim() === '') continue;
    const bad = numbersOf(line, fields);
    if (bad >= 0 || fields.length < 1 || fields.length > 2) {
      throw new TrafficModelError(`expected a block key (one number) or a row 'sizeKB probability', found ${quote(line.trim())}`, file, lineIndex + 1);
    }
    if (fields.length === 1) {
      inBlock = true;
      continue;
    }
    if (!inBlock) throw new TrafficModelError(`expected a block key (one number) before the first 'sizeKB probability' row, found ${quote(line.trim())}`, file, lineIndex + 1);
    const [size, p] = fields;
    if (!(size > 0)) throw new TrafficModelError(`expected a size above 0 KB, found ${size}`, file, lineIndex + 1);
    if (!(p >= 0 && p <= 1)) throw new TrafficModelError(`expected a probability between 0 and 1, found ${p}`, file, lineIndex + 1);
    bySize.set(size, (bySize.get(size) ?? 0) + p);
    total += p;
  }
  if (!(total > 0)) throw new TrafficModelError('expected at least one size with a probability above 0, found none', file);
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  return { sizeKB: Float64Array.from(sizes), probability: Float64Array.from(sizes, (size) => (bySize.get(size) ?? 0) / total) };
}

/** A descriptor as text, in the format `parseDescriptor` reads (for tests and user tools). */
export function formatDescriptor(descriptor: FootprintDescriptor): string {
  const { requests, totalKB, startSeconds, endSeconds, missRequests, missKB } = descriptor;
  const rows = [`${requests} ${totalKB} ${startSeconds} ${endSeconds} ${missRequests} ${missKB}`];
  for (let i = 0; i < descriptor.fraction.length; i++) rows.push(`${descriptor.reuseSeconds[i]} ${descriptor.stackDistanceKB[i]} ${descriptor.fraction[i]}`);
  return rows.join('\n') + '\n';
}
