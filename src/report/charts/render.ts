import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { readFontMetrics, type FontMetrics } from './fontMetrics.js';
import { packageFile } from './packageFiles.js';
import { CHART_FONT, PNG_SCALE } from './theme.js';

/** The TrueType files resvg is given: it draws no text at all without a font it can load. */
export function chartFontFiles(): string[] {
  return ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((file) => packageFile('dejavu-fonts-ttf', `ttf/${file}`));
}

/** vega-scenegraph's text measurer, which vega exports but its typings do not declare. */
type TextMeasurer = (item: { fontSize?: number; fontWeight?: string | number }, text?: unknown) => number;
const { textMetrics } = vega as unknown as { textMetrics: { width: TextMeasurer } };

let metrics: { regular: FontMetrics; bold: FontMetrics } | undefined;

/**
 * Vega measures text with a canvas when it has one; headless it guesses. Measuring with the
 * font the PNG is drawn with puts labels and titles where resvg draws them. Text the theme
 * sets bold (titles, headers) is measured with the bold face.
 */
function measureWithChartFont(): void {
  if (metrics !== undefined) return;
  const [regular, bold] = chartFontFiles();
  metrics = { regular: readFontMetrics(regular), bold: readFontMetrics(bold) };
  const faces = metrics;
  textMetrics.width = (item, text) => {
    const line = text === null || text === undefined ? '' : String(text).trim();
    const size = item.fontSize ?? 11;
    const bold = item.fontWeight === 'bold' || (typeof item.fontWeight === 'number' && item.fontWeight >= 600);
    return (bold ? faces.bold : faces.regular).width(line, size);
  };
}

/** Compiles a Vega-Lite specification to Vega, collecting vega-lite's warnings instead of printing them. */
export function compileSpec(spec: TopLevelSpec): { vega: ReturnType<typeof compile>['spec']; warnings: string[] } {
  const warnings: string[] = [];
  const logger = {
    level: (() => logger) as never,
    error: (...args: readonly unknown[]) => {
      throw new Error(`vega-lite: ${args.join(' ')}`);
    },
    warn: (...args: readonly unknown[]) => {
      warnings.push(args.join(' '));
      return logger;
    },
    info: () => logger,
    debug: () => logger,
  };
  return { vega: compile(spec, { logger: logger as never }).spec, warnings };
}

/** Draws a specification to SVG with vega's headless view (no DOM, no canvas). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  measureWithChartFont();
  const view = new View(parse(compileSpec(spec).vega), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Rasterises an SVG with resvg, with the chart font passed explicitly (no system fonts: the same pixels everywhere). */
export function renderPng(svg: string, scale: number = PNG_SCALE): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: { fontFiles: chartFontFiles(), loadSystemFonts: false, defaultFontFamily: CHART_FONT, sansSerifFamily: CHART_FONT },
    background: '#ffffff',
  });
  return resvg.render().asPng();
}
