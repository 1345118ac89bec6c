import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { mergeShards, type ShardFile } from '../../experiment/sweepMerge.js';
import { newRunFolder } from '../../report/runFolder.js';
import { sweepCsv, sweepJson, sweepText, type SweepDocument } from '../../report/sweepReport.js';
import { writeFileAtomic } from '../../report/writeAtomic.js';
import { UserError } from '../../userError.js';
import { checkRunFolder, claimRunFolder } from '../outputPath.js';
import { printResult } from './run.js';
import { terminalColumns } from '../terminalColumns.js';

interface MergeArgs {
  dirs: string[];
  out?: string;
  json: boolean;
  charts: boolean;
}

export function mergeCommand(yargs: Argv): Argv {
  return yargs.command<MergeArgs>(
    COMMAND_LINES.merge.command,
    COMMAND_LINES.merge.describe,
    (command) =>
      command
        .positional('dirs', { type: 'string', array: true, describe: 'the shard folders, each holding a sweep.json', demandOption: true })
        .option('out', { type: 'string', describe: 'folder to write (default results/<scenario>/sweep-<run-id>/)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the merged sweep.json on stdout and nothing else' })
        .option('charts', { type: 'boolean', default: true, describe: 'draw charts/*.svg, charts/*.png and report.html into the folder (--no-charts to skip)' }) as unknown as Argv<MergeArgs>,
    (args) => executeMerge(args),
  );
}

function readShard(dir: string): ShardFile {
  const file = join(dir, 'sweep.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`merge: cannot read '${file}': ${code === 'ENOENT' ? 'no such file (is this the folder cdnsim sweep --shard wrote?)' : code === 'ENOTDIR' ? `'${dir}' is not a folder` : String(code)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UserError(`merge: '${file}' is not valid JSON (${(error as Error).message})`);
  }
  const doc = document as Partial<SweepDocument> | null;
  if (doc === null || typeof doc !== 'object' || doc.schemaVersion !== 1 || !Array.isArray(doc.points) || !Array.isArray(doc.params)) {
    throw new UserError(`merge: '${file}' is not a sweep.json of this version (expected schemaVersion 1 with params and points)`);
  }
  return { source: dir, document: doc as SweepDocument };
}

async function executeMerge(args: MergeArgs): Promise<void> {
  const merged = mergeShards(args.dirs.map(readShard));
  const folder = args.out ?? newRunFolder('results', merged.scenario, merged.seed, new Date(), 'sweep-').folder;
  checkRunFolder(folder, '--out', 'sweep.json');
  const json = sweepJson(merged);
  claimRunFolder(folder, '--out', 'sweep.json');
  writeFileAtomic(join(folder, 'sweep.json'), json);
  writeFileAtomic(join(folder, 'sweep.csv'), sweepCsv(merged));
  const written = `written: ${relative(process.cwd(), join(folder, 'sweep.json')) || folder}, sweep.csv (${args.dirs.length} shards)`;
  await printResult({ json: args.json, jsonText: json, text: sweepText(merged, terminalColumns()), written, chartsFolder: args.charts ? folder : undefined });
}
