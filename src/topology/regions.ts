/** The five regions of the service description (spec 1.1, "Average latency by region"). */
export const REGIONS = ['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa'] as const;

export type Region = (typeof REGIONS)[number];

/** Stated average latency per region in ms (spec 1.1), as [low, high]. */
export const STATED_REGION_LATENCY_MS: Readonly<Record<Region, readonly [number, number]>> = {
  'North America': [15, 20],
  Europe: [18, 25],
  'Asia-Pacific': [22, 28],
  'Latin America': [25, 35],
  Africa: [30, 45],
};
