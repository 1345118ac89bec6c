import type { Config } from 'vega-lite';

/**
 * One look for every chart: DejaVu Sans (the font the PNG renderer is given, so SVG, PNG and
 * the browser measure the same glyphs), type large enough to read on a slide, and the
 * Okabe–Ito palette, which stays distinguishable under the common colour-vision deficiencies.
 */
export const CHART_FONT = 'DejaVu Sans';

/** Okabe & Ito (2008), "Color Universal Design": eight colours safe for colour-blind readers. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'] as const;

/** Named roles, so every chart uses the same colour for the same meaning. */
export const COLOURS = {
  simulated: '#0072B2',
  stated: '#009E73',
  within: '#009E73',
  outside: '#D55E00',
  notApplicable: '#999999',
  incident: '#CC79A7',
  capacity: '#000000',
  land: '#E6E6E6',
} as const;

/** The size of a single chart's plot area, in CSS pixels (the PNG is drawn at PNG_SCALE × this). */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 320;
/** PNGs are drawn at twice the SVG's size: sharp on a projector and in a README. */
export const PNG_SCALE = 2;

export const THEME: Config = {
  font: CHART_FONT,
  background: '#ffffff',
  padding: 12,
  view: { stroke: '#dddddd' },
  title: { fontSize: 18, fontWeight: 'bold', anchor: 'start', subtitleFontSize: 13, subtitleColor: '#444444', offset: 12 },
  axis: { labelFontSize: 13, titleFontSize: 14, titleFontWeight: 'normal', gridColor: '#e8e8e8', labelLimit: 260, titlePadding: 8 },
  legend: { labelFontSize: 13, titleFontSize: 13, titleFontWeight: 'normal', orient: 'bottom', direction: 'horizontal', labelLimit: 260, symbolSize: 120 },
  header: { labelFontSize: 14, titleFontSize: 14, labelFontWeight: 'bold', labelAnchor: 'start', labelAngle: 0, labelAlign: 'left', labelOrient: 'top' },
  range: { category: [...PALETTE], ordinal: { scheme: 'viridis' }, ramp: { scheme: 'viridis' } },
  point: { size: 90, filled: true },
  line: { strokeWidth: 2.5 },
  text: { fontSize: 12 },
  concat: { spacing: 28 },
};
