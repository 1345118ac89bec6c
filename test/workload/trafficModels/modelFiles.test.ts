import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TrafficModelError, formatDescriptor, parseDescriptor, parseSizeDistribution, type FootprintDescriptor } from '../../../src/workload/trafficModels/modelFiles.js';
import { UserError } from '../../../src/userError.js';

const FD = `100 5000.0 0 3600 40 2000.0
0 0 0.5
0 200000 0.05
200 200000 0.05
`;

describe('footprint descriptor files (docs/traffic-models.md, TRAGEN format)', () => {
  it('reads the header and rows as written', () => {
    const fd = parseDescriptor(FD, 'fd.txt');
    expect([fd.requests, fd.totalKB, fd.startSeconds, fd.endSeconds, fd.missRequests, fd.missKB]).toEqual([100, 5000, 0, 3600, 40, 2000]);
    expect(Array.from(fd.reuseSeconds)).toEqual([0, 0, 200]);
    expect(Array.from(fd.stackDistanceKB)).toEqual([0, 200000, 200000]);
    expect(Array.from(fd.fraction)).toEqual([0.5, 0.05, 0.05]);
  });

  it('names the file, the line, what was expected and what was found', () => {
    expect(() => parseDescriptor('100 5000 0 3600 40\n', 'm/fd.txt')).toThrow("m/fd.txt:1: expected a header of six numbers 'requests totalKB startSeconds endSeconds missRequests missKB', found '100 5000 0 3600 40'");
    expect(() => parseDescriptor(`${FD}0 abc 0.1\n`, 'fd.txt')).toThrow("fd.txt:5: expected a row of three numbers 'reuseTimeSeconds stackDistanceKB fraction', found '0 abc 0.1'");
    expect(() => parseDescriptor('100 5000 0 3600 40 2000\n0 0 1.5\n', 'fd.txt')).toThrow('fd.txt:2: expected a fraction between 0 and 1, found 1.5');
    expect(() => parseDescriptor('100 5000 0 3600 140 2000\n', 'fd.txt')).toThrow('fd.txt:1: expected missRequests between 0 and requests (100), found 140');
    expect(() => parseDescriptor('\n\n', 'fd.txt')).toThrow('fd.txt: expected a header line');
    expect(() => parseDescriptor('100 5000 0 3600 40 2000\n0 -200000 0.1\n', 'fd.txt')).toThrow('fd.txt:2: expected a reuse time and a stack distance ≥ 0, found 0 and -200000');
    try {
      parseDescriptor('1 1 0 1 0 0\n0 0 x\n', 'f');
    } catch (error) {
      expect(error).toBeInstanceOf(TrafficModelError);
      expect((error as TrafficModelError).line).toBe(2);
    }
  });

  it('size distributions: the marginal over blocks, merged by size and normalised', () => {
    const sizes = parseSizeDistribution('1\n10.0 0.2\n20.0 0.1\n2\n10.0 0.1\n', 'popularity.txt');
    expect(Array.from(sizes.sizeKB)).toEqual([10, 20]);
    expect(sizes.probability[0]).toBeCloseTo(0.75, 12);
    expect(sizes.probability[1]).toBeCloseTo(0.25, 12);
    expect(() => parseSizeDistribution('10.0 0.2\n', 'sz.txt')).toThrow("sz.txt:1: expected a block key (one number) before the first 'sizeKB probability' row, found '10.0 0.2'");
    expect(() => parseSizeDistribution('1\n0 0.2\n', 'sz.txt')).toThrow('sz.txt:2: expected a size above 0 KB, found 0');
    expect(() => parseSizeDistribution('1\n', 'sz.txt')).toThrow('sz.txt: expected at least one size with a probability above 0, found none');
  });

  const descriptor: fc.Arbitrary<FootprintDescriptor> = fc
    .record({
      requests: fc.integer({ min: 1, max: 1e9 }),
      totalKB: fc.integer({ min: 1, max: 1e12 }),
      start: fc.integer({ min: 0, max: 2e9 }),
      span: fc.integer({ min: 0, max: 1e6 }),
      missShare: fc.double({ min: 0, max: 1, noNaN: true }),
      rows: fc.array(fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e7 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 30 }),
    })
    .map(({ requests, totalKB, start, span, missShare, rows }) => ({
      requests,
      totalKB,
      startSeconds: start,
      endSeconds: start + span,
      missRequests: Math.floor(requests * missShare),
      missKB: Math.floor(totalKB * missShare),
      reuseSeconds: Float64Array.from(rows, (row) => row[0] * 200),
      stackDistanceKB: Float64Array.from(rows, (row) => row[1] * 200000),
      fraction: Float64Array.from(rows, (row) => row[2]),
    }));

  it('property: a descriptor written and read back is the same descriptor', () => {
    fc.assert(
      fc.property(descriptor, (written) => {
        expect(parseDescriptor(formatDescriptor(written), 'fd.txt')).toEqual(written);
      }),
    );
  });

  it('property: any text either parses or is a located user error (never a crash)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.array(fc.oneof(fc.constantFrom('0', '1', '-1', '0.5', '1e3', 'NaN', 'Infinity', '1e400', '', ' ', '\t', 'x', '200000'), fc.string({ maxLength: 4 })), { maxLength: 40 }).map((parts) => parts.join(' ').replace(/x/g, '\n')),
      descriptor.map(formatDescriptor).chain((good) => fc.tuple(fc.nat(good.length), fc.string({ maxLength: 3 })).map(([at, junk]) => good.slice(0, at) + junk + good.slice(at))),
    );
    fc.assert(
      fc.property(text, (input) => {
        for (const parse of [parseDescriptor, parseSizeDistribution]) {
          try {
            parse(input, 'model.txt');
          } catch (error) {
            expect(error).toBeInstanceOf(UserError);
            expect((error as Error).message.startsWith('model.txt')).toBe(true);
          }
        }
      }),
    );
  });
});
