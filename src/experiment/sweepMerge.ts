import type { SweepDocument } from '../report/sweepReport.js';
import { UserError } from '../userError.js';
import { gridPoints, shardPointIndexes } from './sweepGrid.js';
import type { SweepParam } from './scenarioParams.js';

/**
 * `cdnsim merge`: the shards of one sweep (`--shard i/N` for every i) joined into the
 * document an unsharded run writes. The shards must agree on everything but their points,
 * and together hold each slice exactly once.
 */

export interface ShardFile {
  /** Where it was read from, for messages. */
  source: string;
  document: SweepDocument;
}

const sameSweep = (a: SweepDocument, b: SweepDocument): boolean =>
  a.scenario === b.scenario && a.seed === b.seed && a.replicates === b.replicates && JSON.stringify(a.params) === JSON.stringify(b.params);

export function mergeShards(files: readonly ShardFile[]): SweepDocument {
  if (files.length === 0) throw new UserError('merge: expected the folders of a sweep\'s shards (each holding a sweep.json written with --shard i/N)');
  const [first] = files;
  for (const file of files) {
    if (file.document.shard === undefined) throw new UserError(`merge: ${file.source} is not a shard (its sweep.json has no "shard"; it was run without --shard)`);
    if (file.document.target !== undefined) throw new UserError(`merge: ${file.source} holds a --target search, which runs whole, not in shards`);
    if (!sameSweep(file.document, first.document)) {
      throw new UserError(`merge: ${file.source} is a shard of another sweep than ${first.source} (scenario, seed, replicates and --param values must be the same)`);
    }
  }
  const count = first.document.shard?.count ?? 0;
  const byIndex = new Map<number, ShardFile>();
  for (const file of files) {
    const shard = file.document.shard as { index: number; count: number };
    if (shard.count !== count) throw new UserError(`merge: ${file.source} is shard ${shard.index}/${shard.count}, ${first.source} is one of ${count}; run every shard with the same N`);
    const twin = byIndex.get(shard.index);
    if (twin) throw new UserError(`merge: shard ${shard.index}/${count} is given twice (${twin.source} and ${file.source})`);
    byIndex.set(shard.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new UserError(`merge: shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing; give the folders of all ${count} shards`);

  const params: SweepParam[] = first.document.params.map((param) => ({ path: param.path, segments: [], values: param.values }));
  const grid = gridPoints(params);
  const points = new Array<SweepDocument['points'][number]>(grid.length);
  for (const [index, file] of byIndex) {
    const expected = shardPointIndexes(grid.length, { index, count });
    if (file.document.points.length !== expected.length) {
      throw new UserError(`merge: ${file.source} holds ${file.document.points.length} points, shard ${index}/${count} of this grid has ${expected.length}; the shard did not finish or was edited`);
    }
    expected.forEach((gridIndex, i) => {
      points[gridIndex] = file.document.points[i];
    });
  }
  const { shard: _shard, ...rest } = first.document;
  return { ...rest, points };
}
