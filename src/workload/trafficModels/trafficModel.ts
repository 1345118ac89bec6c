import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { dataFilePath } from '../../topology/dataFiles.js';
import { nearest } from '../../suggest.js';
import { UserError } from '../../userError.js';
import { TrafficModelError, parseDescriptor, parseSizeDistribution, type FootprintDescriptor, type SizeDistribution } from './modelFiles.js';

/**
 * A traffic class described by footprint descriptors (docs/traffic-models.md): one of the
 * production classes shipped in data/traffic-models (TRAGEN, BSD 2-Clause) or a user's
 * folder of files in the same format.
 */

/** The classes shipped in data/traffic-models. */
export const SHIPPED_TRAFFIC_CLASSES = ['eu-2', 'eu-3', 'tc-0', 'v'] as const;

/**
 * Which curve the generated stream reproduces: the request hit-rate curve (`fd`, the default:
 * the CDN hit ratio the spec states is request-weighted, spec 1.1) or the byte hit-rate curve (`bfd`).
 */
export type Fidelity = 'fd' | 'bfd';
export const DEFAULT_FIDELITY: Fidelity = 'fd';

export interface TrafficModel {
  /** The class name, or the folder as the scenario gave it. */
  name: string;
  folder: string;
  fd: FootprintDescriptor;
  /** Null when the folder has no byte-weighted descriptor. */
  bfd: FootprintDescriptor | null;
  sizes: SizeDistribution;
}

const FD_FILES = ['fd.txt', 'footprint_desc_all.txt'];
const BFD_FILES = ['bfd.txt', 'byte_footprint_desc_all.txt'];
// popularity.txt first: TRAGEN's sz.txt of some classes holds only part of the distribution.
const SIZE_FILES = ['popularity.txt', 'sz.txt', 'iat_sz_all.txt'];
/** Fractions plus the miss share must add up to 1 within this (the shipped files are within 1e-5). */
const SUM_TOLERANCE = 0.01;

const cache = new Map<string, TrafficModel>();

/**
 * The model `nameOrPath` names: a shipped class, or a folder (relative to `baseFolder`, the
 * scenario's folder). Parsed once per folder per process.
 */
export function loadTrafficModel(nameOrPath: string, baseFolder: string = process.cwd()): TrafficModel {
  const folder = modelFolder(nameOrPath, baseFolder);
  const known = cache.get(folder);
  if (known !== undefined) return known;
  const fdFile = findFile(folder, FD_FILES, nameOrPath, 'request-weighted footprint descriptor');
  const bfdFile = BFD_FILES.map((name) => join(folder, name)).find((file) => existsSync(file));
  const sizeFile = findFile(folder, SIZE_FILES, nameOrPath, 'size distribution');
  const fd = parseDescriptor(readFileSync(fdFile, 'utf8'), fdFile);
  checkReachable(fd, 'fd', fdFile);
  const bfd = bfdFile === undefined ? null : parseDescriptor(readFileSync(bfdFile, 'utf8'), bfdFile);
  if (bfd !== null && bfdFile !== undefined) checkReachable(bfd, 'bfd', bfdFile);
  const model: TrafficModel = { name: nameOrPath, folder, fd, bfd, sizes: parseSizeDistribution(readFileSync(sizeFile, 'utf8'), sizeFile) };
  cache.set(folder, model);
  return model;
}

/** The descriptor a fidelity reads; a user error when the model has no byte-weighted one, at the class's `fidelity` key. */
export function descriptorFor(model: TrafficModel, fidelity: Fidelity): FootprintDescriptor {
  if (fidelity === 'fd') return model.fd;
  if (model.bfd === null) throw new UserError(`traffic model ${model.name} has no byte-weighted descriptor (${BFD_FILES.join(' or ')} in ${model.folder}): use fidelity: fd`, ['fidelity']);
  return model.bfd;
}

/** The share of requests (fd) or bytes (bfd) that are first requests of an object. */
export function missShare(descriptor: FootprintDescriptor, fidelity: Fidelity): number {
  return fidelity === 'fd' ? descriptor.missRequests / descriptor.requests : descriptor.missKB / descriptor.totalKB;
}

/**
 * The original trace's LRU hit rate at `capacityBytes` (request-weighted from fd, byte-weighted
 * from bfd): the rows whose stack distance is below the capacity (1 KB = 1000 bytes).
 */
export function modelHitRate(descriptor: FootprintDescriptor, capacityBytes: number): number {
  const limitKB = capacityBytes / 1000;
  let hit = 0;
  for (let i = 0; i < descriptor.fraction.length; i++) if (descriptor.stackDistanceKB[i] < limitKB) hit += descriptor.fraction[i];
  return hit;
}

/** The deepest stack-distance bin's lower edge, in bytes. */
export function deepestStackBytes(descriptor: FootprintDescriptor): number {
  let deepest = 0;
  for (let i = 0; i < descriptor.stackDistanceKB.length; i++) if (descriptor.stackDistanceKB[i] > deepest) deepest = descriptor.stackDistanceKB[i];
  return deepest * 1000;
}

function checkReachable(descriptor: FootprintDescriptor, fidelity: Fidelity, file: string): void {
  let sum = 0;
  for (let i = 0; i < descriptor.fraction.length; i++) sum += descriptor.fraction[i];
  const miss = missShare(descriptor, fidelity);
  if (Math.abs(sum + miss - 1) > SUM_TOLERANCE) {
    throw new TrafficModelError(
      `the curve cannot be reached: the rows' fractions add up to ${sum.toFixed(4)} and the header's miss share is ${miss.toFixed(4)}; a stream's reuses and first requests add up to 1, so they must too (within ${SUM_TOLERANCE})`,
      file,
    );
  }
}

function modelFolder(nameOrPath: string, baseFolder: string): string {
  if ((SHIPPED_TRAFFIC_CLASSES as readonly string[]).includes(nameOrPath)) return dataFilePath(join('traffic-models', nameOrPath));
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.startsWith('.');
  const folder = isAbsolute(nameOrPath) ? nameOrPath : resolve(baseFolder, nameOrPath);
  if (existsSync(folder) && statSync(folder).isDirectory()) return folder;
  if (looksLikePath) throw new UserError(`traffic model folder not found: ${folder} (a folder holding ${FD_FILES[0]} and ${SIZE_FILES[0]} or ${SIZE_FILES[1]})`);
  const guess = nearest(nameOrPath, SHIPPED_TRAFFIC_CLASSES);
  throw new UserError(
    `unknown traffic class '${nameOrPath}'${guess === undefined ? '' : ` (did you mean ${guess}?)`}: the shipped classes are ${SHIPPED_TRAFFIC_CLASSES.join(', ')}, or give a folder of footprint-descriptor files relative to the scenario (docs/traffic-models.md)`,
  );
}

function findFile(folder: string, names: readonly string[], model: string, what: string): string {
  for (const name of names) {
    const file = join(folder, name);
    if (existsSync(file)) return file;
  }
  throw new UserError(`traffic model ${model}: no ${what} in ${folder} (expected ${names.join(' or ')})`);
}
