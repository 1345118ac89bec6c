import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { chartFontFiles, renderSvg } from '../../../src/report/charts/render.js';
import { chartSpec } from '../../../src/report/charts/spec.js';
import { PNG_SCALE } from '../../../src/report/charts/theme.js';
import { writeCharts } from '../../../src/report/charts/writeCharts.js';
import { fixtureFolder, writeRunFixture } from '../../support/chartFixtures.js';

/** Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian). */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** Pixels darker than light grey: text, axes and marks, not the white background. */
function darkPixels(svg: string, fontFiles: string[]): number {
  const image = new Resvg(svg, { font: { fontFiles, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' }, background: '#ffffff' }).render();
  // resvg copies the pixel buffer on every read of .pixels: read it once.
  const pixels = image.pixels;
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 160) dark++;
  return dark;
}

describe('chart files (issue 15: SVG with vega headless, PNG with resvg and an explicit font)', () => {
  it('a run folder gets charts/<name>.svg and .png for each chart, PNGs twice the SVG size, and report.html', async () => {
    const folder = writeRunFixture(fixtureFolder('render'));
    const written = await writeCharts(folder);
    expect(written.drawn.map((chart) => chart.name)).toEqual(['stated', 'latency-by-region', 'hit-ratio-over-time', 'origin-load', 'pop-capacity', 'pop-map']);
    expect(written.skipped).toEqual([]);
    expect(written.files).toHaveLength(13);
    for (const chart of written.drawn) {
      const svg = readFileSync(join(folder, 'charts', `${chart.name}.svg`), 'utf8');
      const png = readFileSync(join(folder, 'charts', `${chart.name}.png`));
      const [, width, height] = /<svg[^>]*width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.length).toBeGreaterThan(10_000);
      expect(pngSize(png)).toEqual({ width: Number(width) * PNG_SCALE, height: Number(height) * PNG_SCALE });
    }
    const html = readFileSync(join(folder, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|sourceMappingURL/);
    expect(html).toContain('CDN hit ratio (edge or regional, of requests reaching the edge)');
    expect(existsSync(join(folder, 'charts', '.stated.svg.tmp'))).toBe(false);
  });

  it('text is drawn, not dropped: a title adds dark pixels with the bundled font, and none without a font', async () => {
    const body = { width: 200, height: 100, data: { values: [{ x: 1, y: 1 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative', axis: null }, y: { field: 'y', type: 'quantitative', axis: null } } };
    const withTitle = await renderSvg(chartSpec('Hit ratio per layer over time', undefined, body));
    const withoutTitle = await renderSvg(chartSpec('', undefined, body));
    const titleInk = darkPixels(withTitle, chartFontFiles()) - darkPixels(withoutTitle, chartFontFiles());
    // 29 glyphs at 18 px bold: well over a thousand dark pixels; a blank box or dropped text gives about 0.
    expect(titleInk).toBeGreaterThan(1000);
    expect(darkPixels(withTitle, []) - darkPixels(withoutTitle, [])).toBeLessThan(50);
  });
});
