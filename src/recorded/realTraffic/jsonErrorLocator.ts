import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import Verifier from 'stream-json/utils/Verifier.js';
import { TraceError } from '../traces/traceError.js';
import { guessLineFormat } from '../traces/traceFile.js';
import { HOW_TO_EXPORT, notHarFileError } from './notHarFile.js';
import { quoteText } from './trafficRecord.js';

/** True for the tokenizer's "malformed JSON" errors (not for the reader's own TraceErrors). */
export function isParserError(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof TraceError) && error.message.startsWith('Parser ');
}

/** A stream-json Verifier error: where the JSON goes wrong. */
interface VerifierError extends Error {
  line: number;
  pos: number;
  offset: number;
}

/**
 * The tokenizer says only that the JSON is malformed; stream-json's Verifier, run over the
 * file again (on this error path only), says where: line, column and character offset.
 */
export async function malformedJsonError(file: string, blockBytes: number, parserError: Error): Promise<TraceError> {
  const verifier = new Verifier();
  // Later writes to a failed verifier error again; the first error is the one that counts.
  verifier.on('error', () => {});
  const failure = new Promise<VerifierError | undefined>((resolve) => {
    verifier.once('error', (error) => resolve(error as VerifierError));
    verifier.once('finish', () => resolve(undefined));
  });
  const decoder = new StringDecoder('utf8');
  // The text of the last two blocks, to quote what stands at the fault.
  let previous = '';
  let current = '';
  let currentStart = 0;
  /** The start of the first line with text (JS whitespace includes a byte-order mark). */
  let firstLine: string | undefined;
  const input = createReadStream(file, { highWaterMark: blockBytes });
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      currentStart += current.length;
      previous = current;
      current = decoder.write(chunk);
      if (firstLine === undefined && /\S/.test(current)) firstLine = current.trimStart().split('\n')[0];
      const written = await new Promise<boolean>((resolve) => verifier.write(chunk, (error) => resolve(error == null)));
      if (!written) break;
    }
  } finally {
    input.destroy();
  }
  if (!verifier.destroyed) verifier.end();
  const fault = await failure;
  if (firstLine === undefined) return notHarFileError(file, 'the file is empty');
  if (fault === undefined || typeof fault.line !== 'number') return unlocatedJsonError(file, parserError);
  const reason = fault.message.replace(/^ERROR at \d+ \(\d+, \d+\): /, '').replace(/^Verifier (cannot parse input: |has )?/, '');
  const text = previous + current;
  const at = fault.offset - (currentStart - previous.length);
  let found = '';
  let hint = '';
  // The fault is in the text kept unless a single token spans more than a block before it.
  if (at >= 0) {
    const rest = text.slice(at);
    if (rest.trim() === '') {
      found = ', found the end of the file';
      hint = ' The file ends before the JSON does: was the export interrupted?';
    } else found = `, found ${quoteText(rest.split('\n')[0], 30)}`;
  }
  // A file that does not even start like JSON was probably given by mistake: say what it looks like.
  if (guessLineFormat(firstLine) === 'clf') hint += ` This looks like an access log in Common/Combined Log Format, not a HAR. ${HOW_TO_EXPORT}.`;
  else if (!/^[{[]/.test(firstLine)) hint += ` This is not JSON. ${HOW_TO_EXPORT}.`;
  return new TraceError(`${file}:${fault.line}:${fault.pos}: malformed JSON: ${reason}${found}.${hint}`, file, fault.line);
}

/** The tokenizer's own words, when the fault cannot be located. */
export function unlocatedJsonError(file: string, parserError: Error): TraceError {
  return new TraceError(`${file}: malformed JSON: ${parserError.message.replace(/^Parser (cannot parse input: |has )?/, '')}`, file);
}
