import { at, list, num, readJson, type Json } from './outputs.js';

/**
 * The points of a `cdnsim sweep` folder as the library publishes them: each point's swept
 * values and the means of the figures asked for (the library runs one replicate: the runs
 * are deterministic, and the page says so), and a target search's answer.
 */
export interface SweepPoint {
  readonly [key: string]: string | number;
}

export function sweepPoints(folder: string, figures: readonly string[]): SweepPoint[] {
  const document = readJson(folder, 'sweep.json');
  return list(document, 'points').map((point: Json) => {
    const values = at(point, 'values');
    const row: Record<string, string | number> = {};
    if (values !== null && typeof values === 'object' && !Array.isArray(values)) {
      for (const [path, value] of Object.entries(values)) row[path] = typeof value === 'number' ? value : String(value);
    }
    for (const figure of figures) row[figure] = num(point, `figures.[${figure}].mean`);
    return row;
  });
}

export interface TargetAnswer {
  readonly [key: string]: string | number | null;
  /** The smallest value meeting the target, as the scenario takes it, or null when the upper end does not. */
  readonly value: string | null;
  readonly figure: number | null;
  /** The largest value tried that does not meet it. */
  readonly below: string | null;
  readonly belowFigure: number | null;
}

export function sweepTarget(folder: string): TargetAnswer {
  const result = list(readJson(folder, 'sweep.json'), 'target.results')[0];
  const text = (path: string): string | null => {
    try {
      return String(at(result, path));
    } catch {
      return null;
    }
  };
  const mean = (path: string): number | null => {
    try {
      return num(result, `${path}.mean`);
    } catch {
      return null;
    }
  };
  return { value: text('value'), figure: mean('figure'), below: text('below'), belowFigure: mean('belowFigure') };
}

/** The figures of a library sweep without a target: its points. */
export interface SweepFigures {
  readonly [key: string]: unknown;
  readonly points: SweepPoint[];
}

/** A point's mean of `figure`. */
export const pointValue = (point: SweepPoint, figure: string): number => Number(point[figure]);
