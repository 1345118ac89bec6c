import type { TopLevelSpec } from 'vega-lite';
import { THEME } from './theme.js';

/** One chart: a file name (charts/<name>.svg|png), a title for the report, and its Vega-Lite specification. */
export interface Chart {
  name: string;
  title: string;
  spec: TopLevelSpec;
}

/** A chart that cannot be drawn from what the folder holds, and why. */
export interface SkippedChart {
  name: string;
  title: string;
  reason: string;
}

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** The common frame of every specification: schema, theme and title. The body gives data, marks and size. */
export function chartSpec(title: string, subtitle: string | string[] | undefined, body: Record<string, unknown>): TopLevelSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    config: THEME,
    title: subtitle === undefined ? { text: title } : { text: title, subtitle },
    ...body,
  } as TopLevelSpec;
}

/** Axis formats, so every chart writes ratios and sizes the same way. */
export const PERCENT_FORMAT = '.0%';
export const TOOLTIP_PERCENT = '.2%';
