import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { wrapText } from '../../report/consoleTable.js';
import { terminalColumns } from '../terminalColumns.js';

interface ChartArgs {
  folder: string;
}

export function chartCommand(yargs: Argv): Argv {
  return yargs.command<ChartArgs>(
    COMMAND_LINES.chart.command,
    COMMAND_LINES.chart.describe,
    (command) =>
      command
        .positional('folder', { type: 'string', describe: 'a run folder (results/<scenario>/<run-id>), or a compare or sweep folder', demandOption: true })
        .example('$0 chart results/baseline/20261125-120000-seed1', 'redraw a saved run') as unknown as Argv<ChartArgs>,
    async (args) => {
      // Loaded here: vega and resvg take a moment to load, and other commands never need them.
      const { chartsWrittenLine, writeCharts } = await import('../../report/charts/writeCharts.js');
      const written = await writeCharts(args.folder);
      process.stdout.write(`${wrapText(chartsWrittenLine(args.folder, written), terminalColumns())}\n`);
    },
  );
}
