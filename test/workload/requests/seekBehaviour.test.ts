import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mean, standardDeviation } from 'simple-statistics';
import { RandomStream } from '../../../src/sim/random.js';
import { CHUNK_SIZE_BYTES } from '../../../src/policy/ranges.js';
import {
  MediaSessions,
  WHOLE_OBJECT,
  cappedExponentialMean,
  chunkIndicesForRange,
  watchShareRate,
  windowCount,
  type MediaSessionSpec,
  type MediaWindow,
} from '../../../src/workload/requests/seekBehaviour.js';

const MB = 1_000_000;

function blankWindow(): MediaWindow {
  return { rangeStart: 0, rangeEnd: 0, seek: 0, sessionSerial: -1, sessionContinues: 0 };
}

/** Runs one whole session on slot 0 and returns its windows as [start, end, seek] triples. */
function runSession(sessions: MediaSessions, objectSize: number, stream: RandomStream): [number, number, number][] {
  const out = blankWindow();
  sessions.start(0, 7, objectSize, stream, out);
  const windows: [number, number, number][] = [[out.rangeStart, out.rangeEnd, out.seek]];
  const serial = out.sessionSerial;
  while (out.sessionContinues === 1) {
    if (!sessions.advance(0, serial, stream, out)) throw new Error('a session that said it continues could not be continued');
    windows.push([out.rangeStart, out.rangeEnd, out.seek]);
  }
  return windows;
}

describe('chunkIndicesForRange: spec 4.8, 5,000,000-byte chunks (hand examples)', () => {
  const size = 23 * MB; // 5 chunks: 4 whole ones and 3 MB

  it.each([
    [0, 4 * MB - 1, [0]],
    [4 * MB, 8 * MB - 1, [0, 1]],
    [8 * MB, 12 * MB - 1, [1, 2]],
    [4_999_999, 5_000_000, [0, 1]],
    [5_000_000, 9_999_999, [1]],
    [20 * MB, size - 1, [4]],
    [0, size - 1, [0, 1, 2, 3, 4]],
  ])('bytes %i–%i of a 23 MB object touch chunks %j', (first, last, chunks) => {
    expect(chunkIndicesForRange(first, last, size)).toEqual(chunks);
  });

  it('a whole-object request (−1, −1) touches every chunk: 23 MB → 5, exactly 10 MB → 2', () => {
    expect(chunkIndicesForRange(WHOLE_OBJECT, WHOLE_OBJECT, size)).toEqual([0, 1, 2, 3, 4]);
    expect(chunkIndicesForRange(WHOLE_OBJECT, WHOLE_OBJECT, 10 * MB)).toEqual([0, 1]);
    expect(CHUNK_SIZE_BYTES).toBe(5_000_000);
  });

  it('a range past the last byte is refused', () => {
    expect(() => chunkIndicesForRange(0, size, size)).toThrow(/past the last byte/);
  });

  it('property: chunk lists are ascending, unique, contiguous and hold exactly the chunks of first and last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2e9 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (size, a, b) => {
        const first = Math.min(size - 1, Math.floor(Math.min(a, b) * size));
        const last = Math.min(size - 1, Math.max(first, Math.floor(Math.max(a, b) * size)));
        const chunks = chunkIndicesForRange(first, last, size);
        expect(chunks[0]).toBe(Math.floor(first / CHUNK_SIZE_BYTES));
        expect(chunks[chunks.length - 1]).toBe(Math.floor(last / CHUNK_SIZE_BYTES));
        for (let i = 1; i < chunks.length; i++) expect(chunks[i]).toBe(chunks[i - 1] + 1);
      }),
    );
  });
});

describe('watch length: capped exponential with the configured mean', () => {
  it.each([0.05, 0.2, 0.4, 0.75, 0.99])('the rate for mean %f gives that mean back', (share) => {
    expect(cappedExponentialMean(watchShareRate(share))).toBeCloseTo(share, 10);
  });

  it('mean 100 % means every viewer watches to the end (rate 0); mean 0 is refused', () => {
    expect(watchShareRate(1)).toBe(0);
    expect(() => watchShareRate(0)).toThrow(RangeError);
  });

  it('the documented default shape: with a 40 % mean, about 36 % stop within the first 20 % and about 11 % watch it all', () => {
    const rate = watchShareRate(0.4);
    expect(1 - Math.exp(-0.2 * rate)).toBeCloseTo(0.36, 2);
    expect(Math.exp(-rate)).toBeCloseTo(0.11, 2);
  });
});

describe('MediaSessions: windows, seeks, session end', () => {
  const spec: MediaSessionSpec = { windowBytes: 4 * MB, seekProbability: 0, meanWatchShare: 1 };

  it('a session starts at byte 0 and, without seeks and watched to the end, reads every aligned window in order', () => {
    const sessions = new MediaSessions(spec, 1);
    const windows = runSession(sessions, 23 * MB, new RandomStream('t', 'seq'));
    expect(windows).toEqual([
      [0, 3_999_999, 0],
      [4 * MB, 7_999_999, 0],
      [8 * MB, 11_999_999, 0],
      [12 * MB, 15_999_999, 0],
      [16 * MB, 19_999_999, 0],
      [20 * MB, 23 * MB - 1, 0], // the last window is shorter and ends at the last byte
    ]);
  });

  it('an object smaller than one window is one request for all of it', () => {
    const sessions = new MediaSessions(spec, 1);
    expect(runSession(sessions, 3 * MB, new RandomStream('t', 'small'))).toEqual([[0, 3 * MB - 1, 0]]);
  });

  it('a finished, replaced or ended session cannot be continued', () => {
    const sessions = new MediaSessions(spec, 2);
    const stream = new RandomStream('t', 'end');
    const out = blankWindow();
    sessions.start(1, 3, 3 * MB, stream, out); // one window: over at once
    expect(out.sessionContinues).toBe(0);
    expect(sessions.advance(1, out.sessionSerial, stream, out)).toBe(false);
    sessions.start(1, 3, 40 * MB, stream, out);
    const first = out.sessionSerial;
    sessions.start(1, 4, 40 * MB, stream, out); // the client starts another video
    expect(sessions.advance(1, first, stream, out)).toBe(false);
    const second = out.sessionSerial;
    sessions.end(1);
    expect(sessions.advance(1, second, stream, out)).toBe(false);
    expect(sessions.activeSerial(1)).toBe(-1);
  });

  it('share of non-sequential windows ≈ seekProbability 5 %: within 3σ of the binomial over later requests; seeks land on window boundaries', () => {
    const sessions = new MediaSessions({ windowBytes: 4 * MB, seekProbability: 0.05, meanWatchShare: 1 }, 1);
    const stream = new RandomStream('t', 'seeks');
    const size = 400 * MB; // 100 windows
    const jumps: number[] = [];
    for (let session = 0; session < 400; session++) {
      const windows = runSession(sessions, size, stream);
      expect(windows[0][0]).toBe(0);
      for (let i = 1; i < windows.length; i++) {
        const sequential = windows[i][0] === windows[i - 1][1] + 1;
        expect(windows[i][2]).toBe(sequential ? 0 : 1); // the seek flag says exactly that
        expect(windows[i][0] % (4 * MB)).toBe(0);
        jumps.push(sequential ? 0 : 1);
      }
    }
    const n = jumps.length;
    expect(n).toBeGreaterThan(20_000);
    expect(Math.abs(mean(jumps) - 0.05)).toBeLessThan(3 * Math.sqrt((0.05 * 0.95) / n));
  });

  it('without seeks, the mean share of windows asked for matches meanWatchShare 40 % within 3 standard errors plus one window', () => {
    const sessions = new MediaSessions({ windowBytes: 4 * MB, seekProbability: 0, meanWatchShare: 0.4 }, 1);
    const stream = new RandomStream('t', 'watch');
    const windows = windowCount(1000 * MB, 4 * MB); // 250
    const shares: number[] = [];
    for (let session = 0; session < 5000; session++) shares.push(runSession(sessions, 1000 * MB, stream).length / windows);
    expect(Math.abs(mean(shares) - 0.4)).toBeLessThan((3 * standardDeviation(shares)) / Math.sqrt(shares.length) + 1 / windows);
    expect(Math.min(...shares)).toBeGreaterThan(0);
  });

  it('property: every range lies in [0, size), starts on a window boundary, is one window or the tail; a session asks for at most every window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3e9 }),
        fc.integer({ min: 1, max: 20 * MB }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.integer(),
        (size, windowBytes, seekProbability, meanWatchShare, seed) => {
          fc.pre(size / windowBytes <= 5000);
          const sessions = new MediaSessions({ windowBytes, seekProbability, meanWatchShare }, 1);
          const windows = runSession(sessions, size, new RandomStream('t', String(seed)));
          expect(windows.length).toBeLessThanOrEqual(windowCount(size, windowBytes));
          for (const [first, last] of windows) {
            expect(first).toBeGreaterThanOrEqual(0);
            expect(last).toBeLessThan(size);
            expect(first % windowBytes).toBe(0);
            expect(last).toBe(Math.min(first + windowBytes, size) - 1);
            const chunks = chunkIndicesForRange(first, last, size);
            for (let i = 1; i < chunks.length; i++) expect(chunks[i]).toBeGreaterThan(chunks[i - 1]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('invalid specs are refused', () => {
    expect(() => new MediaSessions({ windowBytes: 0, seekProbability: 0, meanWatchShare: 0.5 }, 1)).toThrow(/windowBytes/);
    expect(() => new MediaSessions({ windowBytes: 10, seekProbability: 1.5, meanWatchShare: 0.5 }, 1)).toThrow(/seekProbability/);
    expect(() => new MediaSessions({ windowBytes: 10, seekProbability: 0, meanWatchShare: 0 }, 1)).toThrow(/meanWatchShare/);
  });
});
