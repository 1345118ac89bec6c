import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../../src/userError.js';
import { LineSplitter } from '../../../src/recorded/traces/lineSplitter.js';
import { formatFromFileName, openTrace, TRACE_FORMATS, TraceError, type TraceFormat } from '../../../src/recorded/traces/traceReader.js';
import { errorOf, FIXTURES, fixture, scratchDirectory } from './helpers.js';

const write = scratchDirectory();

describe('formatFromFileName', () => {
  it.each([
    ['cloudPhysicsIO.oracleGeneral.bin', 'oracleGeneral'],
    ['/data/w44.oracleGeneral', 'oracleGeneral'],
    ['trace.BIN', 'oracleGeneral'],
    ['a.tr', 'webcachesim'],
    ['wiki.webcachesim', 'webcachesim'],
    ['x.csv', 'csv'],
    ['ids.txt', 'txt'],
    ['/var/log/nginx/access.log', 'clf'],
    ['access.log.1', 'clf'],
    ['access.log-20261121', 'clf'],
    ['shop.log', 'clf'],
    ['access.log.2.gz', undefined],
    ['trace.oracleGeneral.bin.zst', undefined],
    ['trace.dat', undefined],
  ] as const)('%s → %s', (file, format) => {
    expect(formatFromFileName(file)).toBe(format);
  });
});

describe('openTrace', () => {
  it('lists the formats', () => {
    expect(TRACE_FORMATS).toEqual(['oracleGeneral', 'webcachesim', 'csv', 'txt', 'clf']);
  });

  it('says when the file is missing, suggesting a near name', () => {
    const missing = join(FIXTURES, 'cloudPhysicsIO.cvs');
    const error = errorOf(() => openTrace(missing));
    expect(error).toBeInstanceOf(TraceError);
    expect(isUserError(error)).toBe(true);
    expect(error.message).toBe(`trace file not found: ${missing} (did you mean cloudPhysicsIO.csv?)`);
    expect(errorOf(() => openTrace('/nonexistent/dir/x.tr')).message).toBe('trace file not found: /nonexistent/dir/x.tr');
  });

  it('says when the path is a directory', () => {
    const directory = join(write('placeholder', ''), '..', 'traces.tr');
    mkdirSync(directory, { recursive: true });
    expect(errorOf(() => openTrace(directory)).message).toBe(`${directory} is a directory, not a trace file`);
    expect(errorOf(() => openTrace(FIXTURES, { format: 'csv' })).message).toBe(`${FIXTURES} is a directory, not a trace file`);
    expect(errorOf(() => openTrace(FIXTURES)).message).toBe(`${FIXTURES} is a directory, not a trace file`);
  });

  it('asks for --format when the name does not tell, guessing from the content', () => {
    const text = write('trace.dat', '1 2 3\n4 5 6\n');
    expect(errorOf(() => openTrace(text)).message).toBe(
      `cannot tell the format of ${text} from its name; it looks like webcachesim text ("time id size" per line): pass --format webcachesim`,
    );
    const log = write('requests', '203.0.113.7 - - [21/Nov/2026:10:15:02 +0100] "GET / HTTP/1.1" 200 5123 "-" "curl"\n');
    expect(errorOf(() => openTrace(log)).message).toMatch(/it looks like an access log in Common\/Combined Log Format: pass --format clf$/);
    const empty = write('nothing', '');
    expect(errorOf(() => openTrace(empty)).message).toBe(
      `cannot tell the format of ${empty} from its name; pass --format with one of oracleGeneral, webcachesim, csv, txt, clf`,
    );
    const zst = write('w44.oracleGeneral.bin.zst', 'x');
    expect(errorOf(() => openTrace(zst)).message).toBe(
      `${zst}: compressed traces are not read directly; decompress it first (zstd -d ${zst}), or stream it through a pipe: <(zstd -dc ${zst}) and --format oracleGeneral`,
    );
    expect(openTrace(text, { format: 'webcachesim' }).format).toBe('webcachesim');
  });

  it('suggests the nearest format name for a misspelt one', () => {
    const error = errorOf(() => openTrace(fixture('ids.txt'), { format: 'oracleGenral' as TraceFormat }));
    expect(error.message).toBe('unknown trace format "oracleGenral" — did you mean oracleGeneral? Formats: oracleGeneral, webcachesim, csv, txt, clf.');
  });

  it('checks skipBad', () => {
    expect(errorOf(() => openTrace(fixture('ids.txt'), { skipBad: -1 })).message).toBe('--skip-bad must be a whole number ≥ 0, got -1');
    expect(errorOf(() => openTrace(fixture('ids.txt'), { skipBad: 1.5 }))).toBeInstanceOf(TraceError);
  });
});

describe('LineSplitter', () => {
  function lines(content: string | Buffer, blockBytes: number): string[] {
    const file = write('lines.txt', content);
    const fd = openSync(file, 'r');
    try {
      const splitter = new LineSplitter(fd, file, blockBytes);
      const out: string[] = [];
      while (splitter.next()) {
        expect(splitter.lineNumber).toBe(out.length + 1);
        out.push(splitter.buffer.toString('utf8', splitter.start, splitter.end));
      }
      expect(splitter.bytesConsumed).toBe(Buffer.byteLength(content));
      return out;
    } finally {
      closeSync(fd);
    }
  }

  it.each([1, 2, 3, 5, 16, 4096])('splits lines cut by blocks of %i bytes, \\r\\n split between blocks included', (blockBytes) => {
    const content = 'alpha\r\nbeta\n\ngamma-delta-epsilon-zeta-eta-theta\r\n\r\nlast without newline';
    expect(lines(content, blockBytes)).toEqual(['alpha', 'beta', '', 'gamma-delta-epsilon-zeta-eta-theta', '', 'last without newline']);
  });

  it('skips a UTF-8 byte-order mark and handles empty files and a lone newline', () => {
    expect(lines('\ufeffa\nb\n', 2)).toEqual(['a', 'b']);
    expect(lines('', 16)).toEqual([]);
    expect(lines('\n', 16)).toEqual(['']);
    expect(lines('x', 16)).toEqual(['x']);
  });
});
