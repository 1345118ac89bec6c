import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import {
  answerRange,
  CDN_RANGE_OPTIONS,
  combineContent,
  combinedHeaderFields,
  contentOf,
  heldBytes,
  ifRangeMatches,
  isComplete,
  parseContentRange,
  sharedStrongValidator,
  type StoredContent,
} from '../../src/policy/partialContent.js';
import { CHUNK_SIZE_BYTES } from '../../src/policy/ranges.js';

const FC_OPTIONS = { numRuns: 300, seed: 9111 };
const NOW = Date.UTC(2026, 0, 1);
const fields = (input: HeaderInput) => normaliseHeaders(input);
const get = (range?: string, extra: HeaderInput = {}) => ({ method: 'GET', headers: fields(range === undefined ? extra : { ...extra, Range: range }) });
const complete = (body: string): StoredContent => ({ completeLength: body.length, pieces: [{ first: 0, bytes: body }] });

describe('parseContentRange (RFC 9110 §14.4)', () => {
  it.each<[string, ReturnType<typeof parseContentRange>]>([
    ['bytes 4-9/10', { first: 4, last: 9, completeLength: 10 }],
    ['BYTES 0-0/*', { first: 0, last: 0, completeLength: undefined }],
    ['  bytes 0-4/10 ', { first: 0, last: 4, completeLength: 10 }],
  ])('RFC 9110 §14.4: %s is a byte range', (value, expected) => {
    expect(parseContentRange(value)).toEqual(expected);
  });

  it.each(['bytes */10', 'bytes 5-4/10', 'bytes 0-10/10', 'items 0-1/2', 'bytes 0-1', 'bytes=0-1/2', ''])('RFC 9110 §14.4: %j is not a satisfied byte range', (value) => {
    expect(parseContentRange(value)).toBeUndefined();
  });

  it('never throws, and what it accepts is ordered and inside the complete length (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(fc.nat(), fc.nat(), fc.option(fc.nat())).map(([a, b, n]) => `bytes ${a}-${b}/${n ?? '*'}`)), (value) => {
        const range = parseContentRange(value);
        if (range === undefined) return;
        expect(range.first).toBeLessThanOrEqual(range.last);
        if (range.completeLength !== undefined) expect(range.last).toBeLessThan(range.completeLength);
      }),
      FC_OPTIONS,
    );
  });
});

describe('contentOf: what a response holds of the representation (RFC 9111 §3.3)', () => {
  it('a 200 is complete; a 206 is one part at its Content-Range', () => {
    expect(isComplete(contentOf(200, fields({}), '0123456789')!)).toBe(true);
    expect(contentOf(206, fields({ 'Content-Range': 'bytes 0-4/10' }), '01234')).toEqual({ completeLength: 10, pieces: [{ first: 0, bytes: '01234' }] });
  });

  it('RFC 9111 §3.3: a 206 shorter than its Content-Range is incomplete: only the bytes that arrived are held', () => {
    const content = contentOf(206, fields({ 'Content-Range': 'bytes 4-9/10' }), '01234')!;
    expect(heldBytes(content, 4, 8)).toBe('01234');
    expect(heldBytes(content, 5, 9)).toBeUndefined();
  });

  it('a multipart 206 (no Content-Range) and other statuses hold nothing', () => {
    expect(contentOf(206, fields({ 'Content-Type': 'multipart/byteranges; boundary=x' }), '--x')).toBeUndefined();
    expect(contentOf(404, fields({}), 'gone')).toBeUndefined();
  });
});

describe('combineContent (RFC 9111 §3.4)', () => {
  const first = contentOf(206, fields({ 'Content-Range': 'bytes 0-4/10' }), '01234')!;
  const second = contentOf(206, fields({ 'Content-Range': 'bytes 5-9/10' }), '56789')!;

  it('RFC 9111 §3.4: adjacent parts with a shared strong validator become the complete representation', () => {
    const combined = combineContent(first, second, true);
    expect(isComplete(combined)).toBe(true);
    expect(heldBytes(combined, 0, 9)).toBe('0123456789');
  });

  it('RFC 9111 §3.4: without permission to combine, the new part replaces the stored one', () => {
    expect(combineContent(first, second, false)).toBe(second);
  });

  it('the newer bytes win where parts overlap, and a different complete length is not combined', () => {
    const newer = contentOf(206, fields({ 'Content-Range': 'bytes 3-5/10' }), 'abc')!;
    expect(heldBytes(combineContent(first, newer, true), 0, 5)).toBe('012abc');
    const other = contentOf(206, fields({ 'Content-Range': 'bytes 5-9/11' }), '56789')!;
    expect(combineContent(first, other, true)).toBe(other);
  });

  it('every byte of either part is held after combining, and parts stay sorted and disjoint (property)', () => {
    const part = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 20 })).map(([start, length]) => ({ first: start, bytes: 'x'.repeat(Math.min(length, 80 - start)) }));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
        let content: StoredContent | undefined;
        for (const piece of parts) content = combineContent(content, { completeLength: 80, pieces: [piece] }, true);
        for (const piece of parts) expect(heldBytes(content!, piece.first, piece.first + piece.bytes.length - 1)).toBe(piece.bytes);
        const pieces = content!.pieces;
        for (let i = 1; i < pieces.length; i++) expect(pieces[i].first).toBeGreaterThan(pieces[i - 1].first + pieces[i - 1].bytes.length);
      }),
      FC_OPTIONS,
    );
  });

  it('RFC 9111 §3.4: the combined response has the newest fields without Content-Range, and its complete length', () => {
    const combined = combinedHeaderFields(fields({ 'Content-Range': 'bytes 5-9/10', A: '2', 'Content-Length': '5' }), combineContent(first, second, true));
    expect(Object.fromEntries(combined)).toEqual({ a: '2', 'content-length': '10' });
  });

  it('RFC 9110 §8.8.3: only the same strong ETag lets parts combine', () => {
    expect(sharedStrongValidator(fields({ ETag: '"v1"' }), fields({ ETag: '"v1"' }))).toBe('"v1"');
    expect(sharedStrongValidator(fields({ ETag: 'W/"v1"' }), fields({ ETag: 'W/"v1"' }))).toBeUndefined();
    expect(sharedStrongValidator(fields({ ETag: '"v1"' }), fields({ ETag: '"v2"' }))).toBeUndefined();
    expect(sharedStrongValidator(fields({}), fields({}))).toBeUndefined();
  });
});

describe('answerRange: a GET answered from stored content (RFC 9111 §3.3, RFC 9110 §14.2)', () => {
  const stored = { headers: fields({ ETag: '"v1"' }), content: complete('01234567890') };

  it.each<[string, string]>([
    ['bytes=0-1', '01'],
    ['bytes=1-', '1234567890'],
    ['bytes=-1', '0'],
    ['bytes=9-100', '90'],
  ])('RFC 9110 §14.1.2: %s from complete content is a 206 of %j', (range, bytes) => {
    const answer = answerRange(get(range), stored, NOW);
    expect(answer.kind).toBe('partial');
    if (answer.kind === 'partial') expect(answer.bytes).toBe(bytes);
  });

  it('RFC 9110 §15.3.7: the Content-Range names the part and the complete length', () => {
    expect(answerRange(get('bytes=2-3'), stored, NOW)).toEqual({ kind: 'partial', first: 2, last: 3, bytes: '23', contentRange: 'bytes 2-3/11' });
  });

  it('RFC 9110 §14.1.1: a range past the end is unsatisfiable (416)', () => {
    expect(answerRange(get('bytes=20-30'), stored, NOW)).toEqual({ kind: 'unsatisfiable', contentRange: 'bytes */11' });
  });

  it('RFC 9110 §14.2: no Range, an invalid one, several ranges or a HEAD get the whole stored response', () => {
    for (const request of [get(), get('bytes=x'), get('bytes=0-1, 4-5'), { method: 'HEAD', headers: fields({ Range: 'bytes=0-1' }) }]) {
      expect(answerRange(request, stored, NOW)).toEqual({ kind: 'whole' });
    }
  });

  it('RFC 9110 §13.1.5: If-Range with another validator gets the whole response; with the stored strong ETag the range', () => {
    expect(answerRange(get('bytes=0-1', { 'If-Range': '"v0"' }), stored, NOW)).toEqual({ kind: 'whole' });
    expect(answerRange(get('bytes=0-1', { 'If-Range': '"v1"' }), stored, NOW).kind).toBe('partial');
    expect(ifRangeMatches('W/"v1"', fields({ ETag: 'W/"v1"' }), NOW)).toBe(false);
  });

  it('RFC 9111 §3.3: a part answers only a range wholly within it; a whole request is not answered from a part', () => {
    const part = { headers: fields({}), content: contentOf(206, fields({ 'Content-Range': 'bytes 4-9/10' }), '012345')! };
    expect(answerRange(get('bytes=6-8'), part, NOW)).toMatchObject({ kind: 'partial', bytes: '234' });
    expect(answerRange(get('bytes=0-5'), part, NOW)).toEqual({ kind: 'fetch', range: 'bytes=0-5', ifRange: undefined, combine: false });
    expect(answerRange(get(), part, NOW)).toEqual({ kind: 'fetch', range: undefined, ifRange: undefined, combine: false });
  });

  it('RFC 9111 §3.4: a part with a strong ETag is completed by asking for the missing bytes with If-Range', () => {
    const part = { headers: fields({ ETag: '"v1"' }), content: contentOf(206, fields({ 'Content-Range': 'bytes 0-4/10' }), '01234')! };
    expect(answerRange(get(), part, NOW)).toEqual({ kind: 'fetch', range: 'bytes=5-', ifRange: '"v1"', combine: true });
    expect(answerRange(get('bytes=3-7'), part, NOW)).toEqual({ kind: 'fetch', range: 'bytes=5-7', ifRange: '"v1"', combine: true });
  });

  it('spec 4.8: at a CDN layer a range miss asks for whole 5 MB chunks, and with a part stored only their missing bytes', () => {
    const twelveMb = 12_000_000;
    expect(answerRange(get('bytes=6000000-6000099'), undefined, NOW, CDN_RANGE_OPTIONS)).toEqual({ kind: 'fetch', range: `bytes=${CHUNK_SIZE_BYTES}-${2 * CHUNK_SIZE_BYTES - 1}`, ifRange: undefined, combine: false });
    expect(answerRange(get('bytes=7000000-'), undefined, NOW, CDN_RANGE_OPTIONS)).toMatchObject({ range: `bytes=${CHUNK_SIZE_BYTES}-` });
    expect(answerRange(get('bytes=-100'), undefined, NOW, CDN_RANGE_OPTIONS)).toMatchObject({ range: 'bytes=-100' });
    // Chunk 1 (5,000,000-9,999,999) is held up to 6,999,999: the rest of chunk 1 is asked for.
    const part = { headers: fields({ ETag: '"v1"' }), content: { completeLength: twelveMb, pieces: [{ first: CHUNK_SIZE_BYTES, bytes: 'x'.repeat(2_000_000) }] } };
    expect(answerRange(get('bytes=6500000-7500000'), part, NOW, CDN_RANGE_OPTIONS)).toEqual({ kind: 'fetch', range: 'bytes=7000000-9999999', ifRange: '"v1"', combine: true });
    // The last chunk is shorter; its missing bytes reach the end, so the range is open.
    expect(answerRange(get('bytes=11000000-11000001'), part, NOW, CDN_RANGE_OPTIONS)).toMatchObject({ range: 'bytes=10000000-' });
  });
});
