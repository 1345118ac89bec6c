import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalColumns } from '../../src/cli/terminalColumns.js';
import { compareDocument, compareText } from '../../src/report/compareReport.js';
import { foldColumns, formatTableWithin, widestLine, wrapLine } from '../../src/report/consoleTable.js';
import { statedTableText, statedText } from '../../src/report/statedTable.js';
import type { NodeFiguresRow, Summary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { sweepText, type SweepDocument } from '../../src/report/sweepReport.js';
import { loadScenarioFile, parseScenarioText } from '../../src/scenario/load.js';
import { cdnsim, REPO, temporaryFolder } from '../cli/helpers.js';

/**
 * Issue 26, "the answer first, in the terminal's width": every command's terminal text fits
 * 100 columns (COLUMNS respected down to 80), a run opens with the figures that size a CDN,
 * and the stated table is whole only for a scenario that models the service or on --stated.
 */

/** The golden run (test/golden/small.yaml): 8 PoPs, browser caches, two content classes, an error burst. */
const golden = (): Summary => JSON.parse(readFileSync(join(REPO, 'test/golden/small.summary.json'), 'utf8')) as Summary;

const linesOver = (text: string, columns: number): string[] => text.split('\n').filter((line) => [...line].length > columns);

/** The golden summary with 40 PoPs instead of 8 (copies renamed), so the edge table is summed per region. */
function withManyPops(summary: Summary): Summary {
  const edges: NodeFiguresRow[] = Array.from({ length: 5 }, (_, copy) => summary.edges.map((edge) => ({ ...edge, name: `${edge.name}${copy}` }))).flat();
  return { ...summary, edges };
}

describe('the run text fits the terminal and opens with the answer (issue 26)', () => {
  it('the golden run at 100 and at 80 columns: no line wider; the same figures at both widths', () => {
    for (const summary of [golden(), withManyPops(golden())]) {
      for (const statedTable of [false, true]) {
        expect(linesOver(summaryText(summary, { columns: 100, statedTable }), 100)).toEqual([]);
        expect(linesOver(summaryText(summary, { columns: 80, statedTable }), 80)).toEqual([]);
      }
    }
  });

  it('opens with CDN and edge hit ratio, the origin load (requests/s and Gbit/s, mean and peak), the busiest PoP against its uplink, latency by region', () => {
    const lines = summaryText(golden()).split('\n');
    // Line 0 (and its fold) is the header; the answer follows the first blank line.
    const start = lines.indexOf('') + 1;
    // hitRatio.cdn 0.881127, hitRatio.edge 0.678859, byteHitRatio.cdn 0.926336; capacity.origin: 1,043 requests over 19.999 s, 68 in the busiest second;
    // capacity.busiest[0]: LOS, 0.072626 Gbit/s over 1 s = 0.0726 % of its 100 Gbit/s uplink.
    expect(lines.slice(start, start + 5)).toEqual([
      'CDN hit ratio 88.11 % · edge hit ratio 67.89 % · CDN byte hit ratio 92.63 %',
      'origin load: 49.7 requests/s mean, peak 68 in 1 s',
      'origin egress: 0.010 Gbit/s mean, peak 0.024 over 1 s',
      'busiest PoP: LOS (Africa) peaks at 0.073 Gbit/s over 1 s, 0.07 % of its 100 Gbit/s uplink',
      '',
    ]);
    expect(lines[start + 5]).toMatch(/^latency \(ms\) +requests +mean +p50 +p90 +p95 +p99 +p99\.9$/);
    expect(lines[start + 6]).toMatch(/^all +[\d,]+ /);
    // One row per region with clients (Europe and Africa in the golden run), in latencyMs.byRegion's order; none of 0 requests.
    const regions = ['Europe', 'Africa'];
    expect(lines.slice(start + 7, start + 7 + regions.length).map((line) => line.split(/ {2,}/)[0])).toEqual(regions);
    expect(lines[start + 7 + regions.length]).toBe('');
  });

  it('spec 1.1: elsewhere the stated figures are one line (5 within, 8 outside, 7 n/a in the golden run), stated.csv named; whole on request', () => {
    const summary = golden();
    const text = summaryText(summary, { columns: 100, statedTable: false });
    expect(text).toContain('\nstated figures: 5 within, 8 outside, 7 n/a — stated.csv (the whole table: --stated)\n');
    expect(text).not.toContain('figure (expect: key)');
    expect(text).not.toContain('\noutside: ');
    const whole = summaryText(summary, { columns: 100, statedTable: true });
    expect(whole).toMatch(/\nfigure \(expect: key\) +service states \(spec §\) +cdnsim judges by +this run +verdict\n/);
    // Every row once, then the verdicts counted and why each of the 8 outside is outside.
    for (const row of summary.stated) expect(whole).toMatch(new RegExp(`\\n${row.id.replace(/\./g, '\\.')} {2,}`));
    expect(whole.match(/\noutside: /g)).toHaveLength(8);
  });

  it('the stated table says what the service states and where, and what cdnsim judges by: the ±5 % is the project\'s; uplink.major compares the 1 s peak with the uplink', () => {
    const cells = (id: string): string[] => (statedTableText(golden().stated, 100).split('\n').find((line) => line.startsWith(`${id} `)) ?? '').split(/ {2,}/);
    // 25.45 × 0.95 = 24.18 and × 1.05 = 26.72 ms.
    expect(cells('latency.global.edge').slice(1, 3)).toEqual(['25.45 ms average (1.1)', '±5 %: 24.2–26.7 ms']);
    expect(cells('latency.global.all').slice(1, 3)).toEqual(['25.45 ms average (1.1)', 'shown, not judged']);
    expect(cells('latency.region.europe').slice(1, 3)).toEqual(['18–25 ms average (1.1)', 'the range']);
    // LOS peaks at 0.072626 of 100 Gbit/s: 0.0726 %, within.
    expect(cells('uplink.major').slice(1)).toEqual(['100 Gbit/s uplinks (1.1)', '1 s peak ≤ uplink', '0.073 % of it', 'within']);
    expect(cells('chunkSize').slice(1)).toEqual(['5 MB chunks (4.8, 8)', 'exactly', '–', 'n/a']);
  });

  it("a row held to the scenario's expect shows the expect as what it is judged by", () => {
    const rows = golden().stated.map((row) => (row.id === 'cdnHitRatio' ? { ...row, stated: 'at least 60.000 % (scenario expect; stated at least 95 % (spec 1.1))', verdict: 'within' as const } : row));
    const line = statedTableText(rows, 100).split('\n').find((text) => text.startsWith('cdnHitRatio '));
    expect(line?.split(/ {2,}/).slice(1)).toEqual(['95 % hit ratio (1.1)', 'expect ≥ 60.000 %', '88.113 %', 'within']);
  });

  it('a whole table wider than the terminal gives way to the one line, saying why', () => {
    const rows = golden().stated.map((row) => (row.id === 'pops' ? { ...row, id: `pops${'x'.repeat(60)}` } : row));
    expect(statedText(rows, { whole: true, columns: 80 })).toBe('stated figures: 5 within, 8 outside, 7 n/a — stated.csv (wider than 80 columns)');
  });

  it('tables too wide for the terminal: the class table and the edge table by region leave their wide columns to classes.csv and pops.csv', () => {
    const text = summaryText(withManyPops(golden()), { columns: 80, statedTable: false });
    expect(text).toContain("\n(each edge cache's own figures — pops.csv)");
    expect(text).toContain("\n(each class's catalogue, new objects and updates — classes.csv)");
    // Where each class's headers come from: one line per source, under the table.
    expect(text).toMatch(/\nheaders of [a-z-]+(, [a-z-]+)*: /);
  });
});

describe('the other commands\' text fits 100 columns (issue 26)', () => {
  it('compare: a table of 13 columns splits into blocks that each name the strategies', () => {
    const summary = golden();
    const document = compareDocument('small', 1, [
      { name: 'respect-headers', description: "spec 4.1: the origin's headers as the scenario sends them", summary },
      { name: 'adaptive-from-1m', description: 'spec 1.2 item 6: fixed:1m, then the adaptive controller with its defaults', summary },
    ]);
    for (const columns of [100, 80]) {
      const text = compareText(document, columns);
      expect(linesOver(text, columns)).toEqual([]);
      const headers = text.split('\n').filter((line) => line.startsWith('strategy '));
      expect(headers.length).toBeGreaterThanOrEqual(2);
      // Each block has both strategies' rows.
      expect(text.split('\n').filter((line) => line.startsWith('adaptive-from-1m '))).toHaveLength(headers.length);
    }
  });

  it('sweep with two parameters: the point named in one column, repeated in each block', () => {
    const estimate = { mean: 0.9, ci95Low: 0.89, ci95High: 0.91, n: 3 };
    const document: SweepDocument = {
      schemaVersion: 1,
      scenario: 'toy',
      seed: 1,
      params: [
        { path: 'edge.capacity', values: ['1GB', '8GB'] },
        { path: 'traffic.rate', values: ['10k/s', '100k/s'] },
      ],
      replicates: 3,
      points: [{ values: { 'edge.capacity': '1GB', 'traffic.rate': '10k/s' }, figures: { 'hitRatio.cdn': estimate, 'byteHitRatio.cdn': estimate, originByteOffload: estimate, 'hitRatio.edge': estimate, 'latencyMs.all.p95': { mean: 250, ci95Low: 240, ci95High: 260, n: 3 }, 'cdn.staleness.share': estimate, 'cdn.origin.requests': { mean: 12345, ci95Low: 12000, ci95High: 12690, n: 3 }, originOffload: estimate } }],
    } as unknown as SweepDocument;
    const text = sweepText(document, 80);
    expect(linesOver(text, 80)).toEqual([]);
    expect(text.split('\n').filter((line) => line.startsWith('1GB, 10k/s ')).length).toBeGreaterThanOrEqual(2);
  });

  it('property: wrapLine keeps every word in order, each line within the width, continuation lines indented', () => {
    const word = fc.stringMatching(/^[a-z0-9.%()/–]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), fc.integer({ min: 40, max: 120 }), fc.boolean(), (words, columns, dotted) => {
        const line = words.join(dotted ? ' · ' : ' ');
        const lines = wrapLine(line, columns);
        expect(widestLine(lines.join('\n'))).toBeLessThanOrEqual(columns);
        expect(lines.slice(1).every((folded) => folded.startsWith('  '))).toBe(true);
        // A fold between " · " parts drops the dot: the indented line shows the break.
        expect(lines.join(' ').split(/ · | +/).filter(Boolean)).toEqual(words);
      }),
    );
  });

  it('formatTableWithin: a table that fits is left whole; a wider one keeps each cell under its own header', () => {
    const header = ['name', 'alpha', 'beta', 'gamma'];
    const rows = [['a', '1'.repeat(30), '2'.repeat(30), '3'.repeat(30)]];
    expect(formatTableWithin(header, rows, 200)).toBe(`name  ${'alpha'.padStart(30)}  ${'beta'.padStart(30)}  ${'gamma'.padStart(30)}\na     ${'1'.repeat(30)}  ${'2'.repeat(30)}  ${'3'.repeat(30)}`);
    expect(formatTableWithin(header, rows, 80)).toBe(
      `name  ${'alpha'.padStart(30)}  ${'beta'.padStart(30)}\na     ${'1'.repeat(30)}  ${'2'.repeat(30)}\n\nname  ${'gamma'.padStart(30)}\na     ${'3'.repeat(30)}`,
    );
  });

  it('foldColumns: a description continues under itself; an example command longer than the line folds with a backslash', () => {
    const option = `  --flag  ${'word '.repeat(30).trim()}`;
    const folded = foldColumns(option, 60).split('\n');
    expect(widestLine(folded.join('\n'))).toBeLessThanOrEqual(60);
    expect(folded.slice(1).every((line) => line.startsWith(' '.repeat(10)) && line[10] !== ' ')).toBe(true);
    const example = `  cdnsim replay ${'trace.bin '.repeat(8).trim()}  what it does`;
    expect(foldColumns(example, 60).split('\n')).toEqual(['  cdnsim replay trace.bin trace.bin trace.bin trace.bin \\', '      trace.bin trace.bin trace.bin trace.bin', '      what it does']);
  });

  it('terminalColumns: COLUMNS when set, the terminal\'s width on a TTY, else 100; never under 80', () => {
    expect(terminalColumns({}, { isTTY: false })).toBe(100);
    expect(terminalColumns({}, { isTTY: true, columns: 132 })).toBe(132);
    expect(terminalColumns({ COLUMNS: '120' }, { isTTY: true, columns: 132 })).toBe(120);
    expect(terminalColumns({ COLUMNS: '40' }, { isTTY: false })).toBe(80);
    expect(terminalColumns({ COLUMNS: 'wide' }, { isTTY: false })).toBe(100);
  });
});

describe('modelsService marks the scenarios that model the service itself (issue 26)', () => {
  it('scenarios/baseline.yaml models the service; a scenario says nothing → false', () => {
    expect(loadScenarioFile(join(REPO, 'scenarios/baseline.yaml')).modelsService).toBe(true);
    expect(parseScenarioText('content: { objects: 10 }\n', 'plain.yaml').modelsService).toBe(false);
  });

  it('from the command line: one stated line; whole with --stated or modelsService: true; every line within COLUMNS (100 by default, 80 when set)', () => {
    const folder = temporaryFolder('terminal-width');
    const body = 'content: { objects: 200 }\ntopology: { model: regions, jitter: 0 }\nrun: { requests: 3000, warmup: 1000 }\n';
    const plain = join(folder, 'plain.yaml');
    const service = join(folder, 'service.yaml');
    writeFileSync(plain, body);
    writeFileSync(service, `modelsService: true\n${body}`);
    const run = (file: string, extra: string[], columns?: number) => cdnsim(['run', file, '--no-progress', '--no-charts', '--out', join(folder, `run-${extra.join('')}-${columns ?? 100}-${file.endsWith('service.yaml') ? 's' : 'p'}`), ...extra], { columns });
    const oneLine = run(plain, []);
    expect(oneLine.status).toBe(0);
    expect(oneLine.stdout).toMatch(/\nstated figures: \d+ within, \d+ outside, \d+ n\/a — stated\.csv \(the whole table: --stated\)\n/);
    expect(linesOver(oneLine.stdout, 100)).toEqual([]);
    for (const whole of [run(plain, ['--stated'], 80), run(service, [], 80)]) {
      expect(whole.status).toBe(0);
      expect(whole.stdout).toContain('\nfigure (expect: key)  ');
      expect(linesOver(whole.stdout, 80)).toEqual([]);
    }
    rmSync(folder, { recursive: true, force: true });
  }, 300_000);

  it('every command\'s --help fits 80 columns with COLUMNS=80 (so 100 without), the list of commands 100 by default', () => {
    for (const command of ['run', 'compare', 'sweep', 'merge', 'chart', 'replay', 'explain', 'har', 'validate', 'schema', 'topology']) {
      const result = cdnsim([command, '--help'], { columns: 80 });
      expect(result.status).toBe(0);
      expect(linesOver(result.stdout, 80)).toEqual([]);
    }
    expect(linesOver(cdnsim(['--help']).stdout, 100)).toEqual([]);
  }, 300_000);

  it('har, explain and topology fit 100 columns, and 80 with COLUMNS=80', () => {
    for (const columns of [undefined, 80]) {
      for (const args of [
        ['har', 'test/fixtures/har/page-load.har', '--no-progress'],
        ['explain', '--url', '/_next/static/chunks/app.js', '--res-header', 'Cache-Control: public, max-age=1', '--now', 'Sat, 21 Nov 2026 12:00:00 GMT'],
        ['topology'],
      ]) {
        const result = cdnsim(args, { columns });
        expect(result.status, result.stderr).toBe(0);
        expect(linesOver(result.stdout, columns ?? 100)).toEqual([]);
      }
    }
  }, 300_000);
});
