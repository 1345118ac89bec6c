import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioKeyRows, scenarioKeysPage } from '../../src/docs/scenarioKeys.js';
import { allHelpTexts, commandNames, commandsPage } from '../../src/docs/commandReference.js';
import { CLI, REPO } from '../cli/helpers.js';

const FIX = 'regenerate with `npm run docs:generate` and commit the result';

describe('generated references cannot lag the code (issue 26)', () => {
  it(`docs/scenario-keys.md is the scenario schema's key reference as generated (${FIX})`, () => {
    const committed = readFileSync(join(REPO, 'docs/scenario-keys.md'), 'utf8');
    expect(committed === scenarioKeysPage(), `docs/scenario-keys.md is stale: ${FIX}`).toBe(true);
  });

  it('the key reference reads type, default and unit from the schema (edge.capacity: 1 GB, traffic.rate: 20k/s)', () => {
    const rows = new Map(scenarioKeyRows().map((row) => [row.path, row]));
    expect(rows.get('edge.capacity')).toMatchObject({ type: 'quantity', defaultValue: '1GB', unit: 'size', description: 'byte capacity of each edge cache' });
    expect(rows.get('traffic.rate')).toMatchObject({ defaultValue: '20k/s', unit: 'rate' });
    expect(rows.get('cdn.purgeDelay')).toMatchObject({ defaultValue: '2s', unit: 'duration' });
    expect(rows.get('traffic.clients.avifShare')).toMatchObject({ defaultValue: '92%', unit: 'share' });
    expect(rows.get('edge.policy')?.type).toContain('`s3fifo`');
    // Nested keys of lists and of each incident kind are listed under their parent.
    expect(rows.has('traffic.flashCrowds[].multiplier')).toBe(true);
    expect(rows.has('incidents[](kind: error-burst).share')).toBe(true);
  });

  it(`docs/commands.md holds every command's --help exactly as the CLI prints it (${FIX})`, async () => {
    const committed = readFileSync(join(REPO, 'docs/commands.md'), 'utf8');
    const helps = await allHelpTexts(CLI);
    expect(commandNames(helps.get('')!)).toContain('run');
    expect(committed === commandsPage(committed, helps), `docs/commands.md is stale: ${FIX}`).toBe(true);
  });

  it('a command --help lists that the page lacks gets a section; a block for a command it no longer lists is refused', () => {
    const helps = new Map([['', 'cdnsim <command>\n\nCommands:\n  cdnsim run <scenario>  run\n  cdnsim plan  plan\n\nOptions:\n'], ['run', 'run help'], ['plan', 'plan help']]);
    const page = commandsPage('# Commands\n\n## cdnsim run\n\n<!-- generated: cdnsim run --help -->\nold\n<!-- end generated -->\n', helps);
    expect(page).toContain('<!-- generated: cdnsim run --help -->\n```text\n$ cdnsim run --help\nrun help\n```\n<!-- end generated -->');
    expect(page).toContain('## cdnsim plan\n\n<!-- generated: cdnsim plan --help -->');
    expect(() => commandsPage('<!-- generated: cdnsim gone --help -->\nx\n<!-- end generated -->', helps)).toThrow(/does not list/);
  });
});
