/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string
 * alignment), for "did you mean" suggestions: `lur` is one edit from `lru`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const d = new Array<number>(rows * columns);
  for (let i = 0; i < rows; i++) d[i * columns] = i;
  for (let j = 0; j < columns; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * columns + j] + 1, d[i * columns + j - 1] + 1, d[(i - 1) * columns + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * columns + j - 2] + 1);
      d[i * columns + j] = best;
    }
  }
  return d[rows * columns - 1];
}

/**
 * The candidate closest to `word` (case-insensitive), if it is close enough to be a
 * plausible typo: within a third of the word's length, at least 1 and at most 3 edits.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.min(3, Math.max(1, Math.ceil(word.length / 3)));
  return bestDistance <= allowed ? best : undefined;
}
