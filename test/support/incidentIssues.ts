import { expect } from 'vitest';
import { incidentsSchema } from '../../src/workload/incidents/incidentSchema.js';

/** The `path: message` lines the incidents schema refuses `input` with (it must refuse it). */
export function incidentIssues(input: unknown): string[] {
  const result = incidentsSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
