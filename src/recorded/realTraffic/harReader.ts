import { createReadStream, fstatSync } from 'node:fs';
import { pipeline } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import Batch from 'stream-json/utils/Batch.js';
import { openTraceFile } from '../traces/traceFile.js';
import { ENTRY_DEPTH, HarWalker } from './harWalker.js';
import { isParserError, malformedJsonError, unlocatedJsonError } from './jsonErrorLocator.js';
import { ObjectStartScanner, ScanningPassThrough } from './jsonPositionScanner.js';
import type { JsonToken } from './jsonToken.js';
import { checkBlockBytes, checkSkipBad, SkipTally, type SkippedTraffic, type TrafficReader, type TrafficReaderOptions, type TrafficRecord } from './trafficRecord.js';

// Part of the reader's public face since it was one module.
export { parseIsoDateTime } from './isoDateTime.js';

/**
 * HAR files (HTTP Archive 1.2, as Chrome, Firefox and Safari export them) as real traffic:
 * each entry of `log.entries` becomes one record with its method, URL, status, request and
 * response headers, body size and start time.
 *
 * Streaming: the file goes through stream-json's tokenizer and only one entry at a time is
 * assembled, without its body text (`content.text`, `postData.text`) and the initiator's
 * call stacks, so memory does not grow with the file (HARs "with content" carry every
 * response body, base64-encoded, and reach hundreds of MB).
 *
 * Order: records come in file order, not sorted by start time. Browsers write entries
 * roughly in the order requests were issued, but merged or multi-page exports and
 * long-lived requests break that by amounts no bounded reorder window could promise to
 * cover. A consumer that needs time order (the kernel refuses events in the past) sorts
 * the records: a HAR holds thousands of requests, not millions, and the records are small
 * once the bodies are dropped.
 *
 * Skipped, and counted by reason: non-http(s) URLs (data:, blob:, chrome-extension:, ws:)
 * and entries with status 0 (blocked or cancelled: nothing came back). Malformed entries
 * throw a TraceError naming file:line:column where the entry starts, its index, the field
 * path (`log.entries[3].response.status`), what was expected and what was found, unless
 * `skipBad` allows skipping them. Malformed JSON names file:line:column of the fault.
 */
export interface HarReaderOptions extends TrafficReaderOptions {
  /** Called as blocks are read, for a progress bar; `totalBytes` is 0 for a pipe (size unknown). */
  onBytesRead?: (bytesRead: number, totalBytes: number) => void;
}

export function readHar(file: string, options: HarReaderOptions = {}): TrafficReader {
  const skipBad = checkSkipBad(file, options.skipBad);
  const blockBytes = checkBlockBytes(options.blockBytes, DEFAULT_BLOCK_BYTES);
  let tally = new SkipTally(file, skipBad, 'entry');
  return {
    file,
    get skipped(): SkippedTraffic {
      return tally.summary();
    },
    [Symbol.asyncIterator](): AsyncIterator<TrafficRecord> {
      tally = new SkipTally(file, skipBad, 'entry');
      return harRecords(file, blockBytes, tally, options.onBytesRead);
    },
  };
}

const DEFAULT_BLOCK_BYTES = 64 << 10;
/** Tokens handed over per await: one await per token would cost more than the parsing. */
const TOKENS_PER_BATCH = 1024;

async function* harRecords(file: string, blockBytes: number, tally: SkipTally, onBytesRead?: (bytesRead: number, totalBytes: number) => void): AsyncGenerator<TrafficRecord> {
  const { fd, bytes } = openTraceFile(file, 'HAR file');
  // A pipe cannot be read a second time to locate a JSON error.
  const rereadable = fstatSync(fd).isFile();
  const starts = new ObjectStartScanner(ENTRY_DEPTH);
  const tokens = new Batch({ batchSize: TOKENS_PER_BATCH });
  const blocks = createReadStream(file, { fd, highWaterMark: blockBytes });
  if (onBytesRead) {
    let bytesRead = 0;
    blocks.on('data', (block) => onBytesRead((bytesRead += block.length), bytes));
  }
  pipeline(
    blocks,
    new ScanningPassThrough(starts),
    new Parser({ packKeys: true, streamKeys: false, packStrings: false, streamStrings: true, packNumbers: true, streamNumbers: false }),
    tokens,
    // Errors reach the loop below: pipeline destroys `tokens` with them.
    () => {},
  );
  const walker = new HarWalker(file, starts, tally);
  try {
    for await (const batch of tokens as AsyncIterable<JsonToken[]>) {
      let failure: unknown;
      try {
        for (const token of batch) walker.push(token);
      } catch (error) {
        failure = error;
      }
      // Entries before a malformed one are delivered before its error.
      yield* walker.takeRecords();
      if (failure !== undefined) throw failure;
    }
  } catch (error) {
    if (isParserError(error)) throw rereadable ? await malformedJsonError(file, blockBytes, error) : unlocatedJsonError(file, error);
    throw error;
  } finally {
    tokens.destroy();
  }
  walker.finish();
}
