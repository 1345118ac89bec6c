import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { REPO } from '../cli/helpers.js';
import { expand, mutatedCopy, mutationPicks } from './scenarioMutations.js';

/**
 * Mutated input files for the readers behind `cdnsim har` and `cdnsim replay`: byte-level
 * damage (a cut, a deleted or repeated range, inserted tokens and bytes, a flipped byte)
 * that a partial download or a hand edit makes, and, for HAR, the structural mutations of
 * the scenario fuzz (key deletions and renames, type swaps, extreme numbers, list lengths,
 * deep nesting, huge strings) applied to the parsed export.
 */

export interface MutatedInput {
  /** The shipped file it came from. */
  source: string;
  /** File name to write it under (its extension selects the trace format). */
  name: string;
  bytes: Buffer;
  /** What was done, for a failure's report. */
  description: string;
}

/** Text that means something to one of the formats: JSON punctuation, numbers at the edges, line ends, log fields. */
const TOKENS = ['"', '{', '}', '[', ']', ',', ':', '\n', '\r\n', '\0', ' ', '-1', '1e999', 'NaN', '-0', '18446744073709551616', '\\u0000', '\\', 'null', '"log"', '"entries"', '[01/Jan/1970:00:00:00 +0000]', '"GET / HTTP/1.1"', '\uFEFF', '\u00e9'];

type ByteEdit =
  | { op: 'cut'; at: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'repeat'; at: number; length: number; times: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'bytes'; at: number; bytes: number[] }
  | { op: 'flip'; at: number; bit: number };

const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  fc.nat().map((at): ByteEdit => ({ op: 'cut', at })),
  fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }).map((edit): ByteEdit => ({ op: 'delete', ...edit })),
  fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 100 }), times: fc.integer({ min: 2, max: 50 }) }).map((edit): ByteEdit => ({ op: 'repeat', ...edit })),
  fc.record({ at: fc.nat(), text: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 8 })) }).map((edit): ByteEdit => ({ op: 'insert', ...edit })),
  fc.record({ at: fc.nat(), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 24 }) }).map((edit): ByteEdit => ({ op: 'bytes', ...edit })),
  fc.record({ at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }).map((edit): ByteEdit => ({ op: 'flip', ...edit })),
);

function edit(bytes: Buffer, change: ByteEdit): Buffer {
  const at = bytes.length === 0 ? 0 : change.at % (bytes.length + 1);
  switch (change.op) {
    case 'cut':
      return bytes.subarray(0, at);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
    case 'repeat': {
      const range = bytes.subarray(at, at + change.length);
      return Buffer.concat([bytes.subarray(0, at), ...Array.from({ length: change.times }, () => range), bytes.subarray(at + change.length)]);
    }
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(change.text), bytes.subarray(at)]);
    case 'bytes':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(change.bytes), bytes.subarray(at)]);
    case 'flip': {
      if (at >= bytes.length) return bytes;
      const copy = Buffer.from(bytes);
      copy[at] ^= 1 << change.bit;
      return copy;
    }
  }
}

const byteEdits = fc.array(byteEdit, { minLength: 1, maxLength: 3 });

function byteMutated(source: { file: string; bytes: Buffer }, name: string): fc.Arbitrary<MutatedInput> {
  return byteEdits.map((edits) => ({
    source: source.file,
    name,
    bytes: edits.reduce(edit, source.bytes),
    description: edits.map((change) => JSON.stringify(change)).join('; '),
  }));
}

const read = (file: string, limit = Infinity): { file: string; bytes: Buffer } => {
  const bytes = readFileSync(join(REPO, file));
  return { file, bytes: bytes.subarray(0, Math.min(bytes.length, limit)) };
};

/** The HAR exports the repository ships that a replay accepts. */
const HAR_SOURCES = [read('test/fixtures/har/page-load.har')];
const HAR_DATA = HAR_SOURCES.map((source) => ({ file: source.file, data: JSON.parse(source.bytes.toString('utf8')) as unknown }));

/** A HAR with one to three structural mutations, as JSON text. */
const structurallyMutatedHar: fc.Arbitrary<MutatedInput> = fc
  .record({ source: fc.constantFrom(...HAR_DATA), picks: mutationPicks })
  .map(({ source, picks }) => {
    const { data, done } = mutatedCopy(source.data, picks);
    return { source: source.file, name: 'mutated.har', bytes: Buffer.from(expand(JSON.stringify(data, null, 2))), description: done.join('; ') };
  });

export const mutatedHar: fc.Arbitrary<MutatedInput> = fc.oneof(structurallyMutatedHar, fc.constantFrom(...HAR_SOURCES).chain((source) => byteMutated(source, 'mutated.har')));

/**
 * The shipped traces of every format, the large ones cut to their first few hundred
 * records (a cut at a record boundary: the damage is the mutation's), named so that the
 * file name selects the format as a user's would.
 */
const TRACE_SOURCES: readonly { source: { file: string; bytes: Buffer }; name: string }[] = [
  { source: read('test/fixtures/traces/cloudPhysicsIO.oracleGeneral.bin', 24 * 400), name: 'mutated.oracleGeneral.bin' },
  { source: read('test/fixtures/traces/cloudPhysicsIO.oracleSizes.webcachesim.tr', 8_000), name: 'mutated.tr' },
  { source: read('test/fixtures/traces/cloudPhysicsIO.csv', 8_000), name: 'mutated.csv' },
  { source: read('test/fixtures/traces/ids.txt'), name: 'mutated.txt' },
  { source: read('test/fixtures/traces/nginx-access.log'), name: 'mutated-access.log' },
].map(({ source, name }) => {
  // A text trace cut mid-line would start every case with a damaged last line.
  const text = !name.endsWith('.bin');
  const end = text ? source.bytes.lastIndexOf(0x0a) + 1 : source.bytes.length;
  return { source: { file: source.file, bytes: source.bytes.subarray(0, end) }, name };
});

export const mutatedTrace: fc.Arbitrary<MutatedInput> = fc.constantFrom(...TRACE_SOURCES).chain(({ source, name }) => byteMutated(source, name));
