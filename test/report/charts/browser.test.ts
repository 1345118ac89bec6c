import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCharts } from '../../../src/report/charts/writeCharts.js';
import { fixtureFolder, writeRunFixture } from '../../support/chartFixtures.js';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it when missing), or CHROMIUM_PATH. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

let browser: Browser | undefined;
let cannotRun: string | null = existsSync(CHROMIUM) ? null : `no browser at ${CHROMIUM} (install Debian's chromium: apt-get install -y chromium, or set CHROMIUM_PATH)`;

beforeAll(async () => {
  if (cannotRun !== null) return;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  } catch (error) {
    cannotRun = `chromium at ${CHROMIUM} does not start here: ${(error as Error).message.split('\n')[0]}`;
  }
});

afterAll(async () => {
  await browser?.close();
});

describe('report.html in a real browser (issue 15)', () => {
  it('opens from disk with no network request, draws every chart with marks, and logs no error; keeps a screenshot', async (context) => {
    if (cannotRun !== null || browser === undefined) {
      console.warn(`skipped the browser test: ${cannotRun}`);
      context.skip();
      return;
    }
    const folder = writeRunFixture(fixtureFolder('browser'));
    const written = await writeCharts(folder);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    const reportUrl = pathToFileURL(join(folder, 'report.html')).href;
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (request.url() !== reportUrl && !request.url().startsWith('data:')) requests.push(request.url());
    });
    await page.goto(reportUrl);
    await page.waitForSelector('body[data-charts="done"]', { timeout: 60_000 });
    const charts = await page.$$eval('.chart', (elements) =>
      elements.map((element) => ({
        name: element.getAttribute('data-chart'),
        drawn: element.getAttribute('data-drawn'),
        // Items of the data marks (role-mark), not axes, legends or titles.
        items: [...element.querySelectorAll('svg g.role-mark')].reduce((sum, group) => sum + group.childElementCount, 0),
      })),
    );
    expect(charts.map((chart) => chart.name)).toEqual(written.drawn.map((chart) => chart.name));
    for (const chart of charts) {
      expect(chart.drawn, chart.name ?? '').toBe('true');
      expect(chart.items, chart.name ?? '').toBeGreaterThan(0);
    }
    // A tooltip: hovering the CDN hit ratio's point in chart 1 shows vega-tooltip's box with the row's numbers.
    const point = page.locator('#chart-stated svg g.role-mark.mark-symbol path').nth(4);
    await point.hover({ force: true });
    await page.waitForSelector('#vg-tooltip-element.visible', { timeout: 10_000 });
    expect(await page.textContent('#vg-tooltip-element')).toMatch(/CDN hit ratio.*at least 95 %.*outside/s);
    expect(await page.$$eval('table tr.outside', (rows) => rows.length)).toBe(2);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
