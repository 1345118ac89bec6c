import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoragePoint } from '../experiment/capacityPlan.js';
import type { PlanDocument, PlanRow } from '../report/planReport.js';
import { sameFraction } from './outputs.js';

/** A `cdnsim plan` folder's plan.json, as the plan writes it (src/report/planReport.ts). */
export function readPlan(folder: string): PlanDocument {
  return JSON.parse(readFileSync(join(folder, 'plan.json'), 'utf8')) as PlanDocument;
}

/** The plan's storage-by-target points at the page's targets (plan.json holds a finer grid). */
export function storageAtTargets(plan: PlanDocument, targets: readonly number[]): StoragePoint[] {
  return plan.storageByTarget.filter((entry) => targets.some((t) => sameFraction(t, entry.target)));
}

/** The plan's PoP rows, busiest first (ties by code): the order of a page's table. */
export function edgeRowsBusiestFirst(plan: PlanDocument): PlanRow[] {
  return plan.nodes.filter((node) => node.layer === 'edge').sort((a, b) => b.requests - a.requests || a.code.localeCompare(b.code));
}
