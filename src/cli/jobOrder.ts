/**
 * The order a pool hands out jobs: the dearest first (longest-processing-time first), ties
 * in job order. A pool hands a job to whichever worker is free, so the work left when the
 * queue runs dry is at most the cheapest job's, instead of a long job started last that
 * one worker runs while the others idle. The order changes when results arrive, never
 * what they are: each job is a pure function of itself and results go back by index.
 */
export function dispatchOrder(jobCount: number, costs?: readonly number[]): number[] {
  const order = Array.from({ length: jobCount }, (_, i) => i);
  if (costs === undefined) return order;
  if (costs.length !== jobCount) throw new Error(`dispatchOrder: ${costs.length} costs for ${jobCount} jobs`);
  // Array.prototype.sort is stable: equal costs keep their job order.
  return order.sort((a, b) => costs[b] - costs[a]);
}
