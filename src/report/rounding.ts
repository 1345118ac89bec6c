/** `value` rounded to `digits` decimal places, as every figure in summary.json and the CSVs is written. */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
