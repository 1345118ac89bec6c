import type { RandomStream } from '../../sim/random.js';
import { CHUNK_SIZE_BYTES, chunkCount, chunksForRange } from '../../policy/ranges.js';

/**
 * How a viewer reads a large media object with `Range` requests (spec 4.8): a viewing session
 * starts at byte 0 and asks for one window of `windowBytes` per request, in order; before each
 * later request the viewer seeks (scrubs) with probability `seekProbability` to a uniformly
 * random other window. The session ends when the viewer has asked for its drawn watch length,
 * or when reading in order reaches the last byte.
 *
 * Windows are aligned: window k is bytes [k·w, min((k+1)·w, size) − 1], as a player fetching
 * fixed segments asks for them; a seek lands on a window boundary. A seek never picks the
 * window that reading in order would ask for next, so "not the next window in order" happens
 * with probability exactly `seekProbability` (it may pick the current or an earlier window:
 * a rewind). With w = 4 MB and the CDN's 5 MB chunks, windows straddle chunk boundaries, as
 * real players' requests do.
 *
 * Watch length: a share W of the object's windows, W = min(1, X) with X exponential, its rate
 * chosen so that E[W] = `meanWatchShare`; the mass at W = 1 is the viewers who watch to the
 * end. Viewers mostly stop early: Finamore et al., "YouTube Everywhere: Impact of Device and
 * Infrastructure Synergies on User Experience" (IMC 2011) find that most YouTube sessions are
 * aborted well before the end of the video. The capped exponential and the default mean of
 * 40 % are a cdnsim approximation of that shape, not a fit to the paper's data: with the
 * default, about 36 % of sessions stop within the first 20 % and about 11 % watch it all.
 * A session asks for ⌈W · windows⌉ windows, at least one.
 *
 * State is per client slot in typed arrays (one session per client at a time; starting
 * another replaces it): no allocation per request.
 */

/** A whole-object request carries this as rangeStart and rangeEnd. */
export const WHOLE_OBJECT = -1;

export const DEFAULT_WINDOW_BYTES = 4_000_000;
/** cdnsim choice: an occasional scrub; not a measured figure. */
export const DEFAULT_SEEK_PROBABILITY = 0.05;
/** See the module comment (Finamore et al. 2011, approximate). */
export const DEFAULT_MEAN_WATCH_SHARE = 0.4;
/**
 * Objects at least this large are played as media with range requests: two 5 MB chunks
 * (spec 4.8 splits "large media" into chunks; smaller objects are fetched whole).
 */
export const DEFAULT_MEDIA_MIN_BYTES = 2 * CHUNK_SIZE_BYTES;

export interface MediaSessionSpec {
  /** Bytes asked for per request (the last window of an object may be shorter). */
  readonly windowBytes: number;
  /** Probability that a request after the first jumps to a random other window, [0, 1]. */
  readonly seekProbability: number;
  /** Mean share of an object's windows a session asks for, (0, 1]. */
  readonly meanWatchShare: number;
}

/** The range part of a request; filled in place. */
export interface MediaWindow {
  /** First byte, inclusive; WHOLE_OBJECT (−1) for a request without Range. */
  rangeStart: number;
  /** Last byte, inclusive, < object size; WHOLE_OBJECT (−1) for a request without Range. */
  rangeEnd: number;
  /** 1 when this window is not the one after the previous (a seek). */
  seek: number;
  /** Serial of the session within its client slot (0, 1, 2, …); −1 when the request belongs to no media session. */
  sessionSerial: number;
  /** 1 when the session will ask for another window (the caller schedules it). */
  sessionContinues: number;
}

/** Windows an object of `objectSize` bytes is read in. */
export function windowCount(objectSize: number, windowBytes: number): number {
  return Math.ceil(objectSize / windowBytes);
}

/**
 * Rate λ of the exponential behind the watch share: E[min(1, X)] = (1 − e^−λ)/λ = mean.
 * 0 when mean is 1 (everyone watches to the end). Solved once by bisection (f decreases in λ).
 */
export function watchShareRate(meanWatchShare: number): number {
  if (!(meanWatchShare > 0 && meanWatchShare <= 1)) throw new RangeError(`meanWatchShare must be in (0, 1], got ${meanWatchShare}`);
  if (meanWatchShare >= 1 - 1e-12) return 0;
  let low = 0;
  let high = 1 / meanWatchShare; // f(1/m) = m(1 − e^(−1/m)) < m
  for (let i = 0; i < 200; i++) {
    const middle = (low + high) / 2;
    if (cappedExponentialMean(middle) > meanWatchShare) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** E[min(1, X)] for X exponential with rate λ > 0. */
export function cappedExponentialMean(rate: number): number {
  return rate === 0 ? 1 : -Math.expm1(-rate) / rate;
}

/**
 * Which chunks (spec 4.8, 5,000,000 bytes each by default) bytes rangeStart..rangeEnd of an
 * object touch, ascending; every chunk for a whole-object request (both −1). Builds on the
 * policy engine's chunk arithmetic (src/policy/ranges.ts). Allocates the list: for reports
 * and tests; the request path can use chunksForRange directly.
 */
export function chunkIndicesForRange(rangeStart: number, rangeEnd: number, objectSize: number, chunkSize: number = CHUNK_SIZE_BYTES): number[] {
  let firstChunk: number;
  let lastChunk: number;
  if (rangeStart === WHOLE_OBJECT && rangeEnd === WHOLE_OBJECT) {
    firstChunk = 0;
    lastChunk = chunkCount(objectSize, chunkSize) - 1;
  } else {
    if (!(rangeEnd < objectSize)) throw new RangeError(`range end ${rangeEnd} is past the last byte of an object of ${objectSize} bytes`);
    ({ firstChunk, lastChunk } = chunksForRange(rangeStart, rangeEnd, chunkSize));
  }
  const chunks: number[] = [];
  for (let chunk = firstChunk; chunk <= lastChunk; chunk++) chunks.push(chunk);
  return chunks;
}

/** Viewing sessions, one slot per client. */
export class MediaSessions {
  private readonly windowBytes: number;
  private readonly seekProbability: number;
  private readonly watchRate: number;
  private readonly objectIds: Int32Array;
  private readonly objectSizes: Float64Array;
  /** Index of the window reading in order asks for next. */
  private readonly nextWindow: Float64Array;
  /** Windows the viewer still asks for. */
  private readonly windowsLeft: Float64Array;
  /** Serial of the slot's active session, −1 when none. */
  private readonly serials: Float64Array;
  /**
   * Sessions started per slot: the next serial. Per slot rather than global, so that one
   * group's serials do not depend on other groups' traffic (DESIGN "Determinism").
   */
  private readonly started: Float64Array;

  constructor(spec: MediaSessionSpec, slots: number) {
    if (!(Number.isSafeInteger(spec.windowBytes) && spec.windowBytes >= 1)) throw new RangeError(`windowBytes must be a whole number of bytes ≥ 1, got ${spec.windowBytes}`);
    if (!(spec.seekProbability >= 0 && spec.seekProbability <= 1)) throw new RangeError(`seekProbability must be in [0, 1], got ${spec.seekProbability}`);
    this.windowBytes = spec.windowBytes;
    this.seekProbability = spec.seekProbability;
    this.watchRate = watchShareRate(spec.meanWatchShare);
    this.objectIds = new Int32Array(slots);
    this.objectSizes = new Float64Array(slots);
    this.nextWindow = new Float64Array(slots);
    this.windowsLeft = new Float64Array(slots);
    this.serials = new Float64Array(slots).fill(-1);
    this.started = new Float64Array(slots);
  }

  /** Starts a session on `objectId` for `slot` (replacing any other) and fills its first window, from byte 0. */
  start(slot: number, objectId: number, objectSize: number, stream: RandomStream, out: MediaWindow): void {
    const windows = windowCount(objectSize, this.windowBytes);
    const share = this.watchRate === 0 ? 1 : Math.min(1, stream.exponential(this.watchRate));
    const watched = Math.min(windows, Math.max(1, Math.ceil(share * windows)));
    const serial = this.started[slot]++;
    this.objectIds[slot] = objectId;
    this.objectSizes[slot] = objectSize;
    this.serials[slot] = serial;
    this.windowsLeft[slot] = watched;
    out.sessionSerial = serial;
    this.read(slot, 0, 0, out);
  }

  /**
   * Fills the next window of the slot's session `serial`; false (out untouched) when that
   * session is over or was replaced (another session, or the slot went to a new client).
   */
  advance(slot: number, serial: number, stream: RandomStream, out: MediaWindow): boolean {
    if (serial < 0 || this.serials[slot] !== serial) return false;
    let window = this.nextWindow[slot];
    let seek = 0;
    if (stream.next() < this.seekProbability) {
      // Uniform over every window but the next in order (there are ≥ 2 windows, or the
      // session would have ended at the last byte).
      const other = stream.int(windowCount(this.objectSizes[slot], this.windowBytes) - 1);
      window = other >= window ? other + 1 : other;
      seek = 1;
    }
    out.sessionSerial = serial;
    this.read(slot, window, seek, out);
    return true;
  }

  /** Ends the slot's session, if any (its client left). */
  end(slot: number): void {
    this.serials[slot] = -1;
  }

  /** Serial of the slot's active session, −1 when none. */
  activeSerial(slot: number): number {
    return this.serials[slot];
  }

  /** Object of the slot's last session. */
  objectOf(slot: number): number {
    return this.objectIds[slot];
  }

  private read(slot: number, window: number, seek: number, out: MediaWindow): void {
    const size = this.objectSizes[slot];
    const first = window * this.windowBytes;
    const last = Math.min(first + this.windowBytes, size) - 1;
    out.rangeStart = first;
    out.rangeEnd = last;
    out.seek = seek;
    const left = this.windowsLeft[slot] - 1;
    this.windowsLeft[slot] = left;
    this.nextWindow[slot] = window + 1;
    const continues = left > 0 && last < size - 1;
    out.sessionContinues = continues ? 1 : 0;
    if (!continues) this.serials[slot] = -1;
  }
}
