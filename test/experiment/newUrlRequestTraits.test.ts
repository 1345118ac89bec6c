import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClassObjectTraits, variantMaskOfPath } from '../../src/experiment/requestVariants.js';
import { chunkCount } from '../../src/policy/ranges.js';
import { RandomStreams } from '../../src/sim/random.js';
import { ClassCatalogue } from '../../src/workload/content/classCatalogue.js';
import { ContentChurn, ObjectState, churnReservation, type ChurnHooks } from '../../src/workload/content/churn.js';
import { classFromPreset, representativePath, type ContentClass, type ContentPresetName } from '../../src/workload/content/contentClasses.js';
import { DEFAULT_MEDIA_MIN_BYTES } from '../../src/workload/requests/seekBehaviour.js';
import { RequestKeys } from '../../src/workload/requests/requestKeys.js';

/**
 * A new-URL update (hashed names, spec 8.1 row 1) hands out a fresh reserved id. The
 * request traits of every id (its key's variants, spec 4.4/4.5; whether it is read in 5 MB
 * chunks and which chunk keys it owns, spec 4.8) are fixed before the run from that id's own
 * size and file type, so whatever the update gives the fresh id must agree with them.
 */

const FRAMEWORK = 'next';

/** A preset class with new-URL updates (and, for `ranged`, range requests). */
function newUrlClass(name: string, preset: ContentPresetName, objects: number, ranged = false): ContentClass {
  const base = classFromPreset(name, preset);
  return {
    ...base,
    objects,
    share: 1,
    rangeRequests: ranged || base.rangeRequests,
    churn: { newObjectsPerSecond: 1, oneHitWonderShare: 0.3, entry: 'top', updates: { perSecond: 1, newUrl: true, onDeployShare: 0.5 } },
  };
}

/** What a run with `traffic.clients` builds for these classes: catalogue, traits, keys, churn, and the run's churn hooks. */
function assemble(classes: readonly ContentClass[], seed: number, horizonMs = 600_000, deploys = 4) {
  const streams = new RandomStreams(seed);
  const reservedIds = classes.map((klass) => churnReservation(klass.churn, klass.objects, horizonMs, deploys));
  const catalogue = new ClassCatalogue(classes, streams, { framework: FRAMEWORK, reservedIds });
  const traits = new ClassObjectTraits(catalogue, classes, FRAMEWORK, DEFAULT_MEDIA_MIN_BYTES);
  const keys = new RequestKeys({ objectSizes: catalogue.objectSizes, variantMaskOf: traits.variantMaskOf, chunkedOf: traits.rangesOf });
  const churn = new ContentChurn(
    catalogue,
    classes.map((klass) => klass.churn),
    streams,
  );
  const hooks: ChurnHooks = { onUpdate: (id, previous) => traits.noteUpdate(id, previous) };
  return { catalogue, traits, keys, churn, hooks };
}

type Assembled = ReturnType<typeof assemble>;

/**
 * Every cache key requests for `id` can take now: its whole-object key in each variant a
 * client can ask for, and, when requests read it in ranges (as the request sampler decides:
 * ranged class and at least the media minimum, from its current size), each of its chunks.
 */
function keysInUse({ catalogue, traits, keys }: Assembled, id: number): number[] {
  const codes = new Set([0, 1].flatMap((avif) => [0, 1].map((mobile) => keys.variantCode(id, avif, mobile))));
  const used = [...codes].map((code) => keys.wholeKey(id, code));
  const size = catalogue.objectSizes[id];
  if (traits.rangesOf[id] === 1 && size >= DEFAULT_MEDIA_MIN_BYTES && keys.isChunked(id)) {
    for (const code of codes) for (let chunk = 0; chunk < chunkCount(size); chunk++) used.push(keys.chunkKey(id, code, chunk));
  }
  return used;
}

function liveIds({ catalogue, churn }: Assembled): number[] {
  const ids: number[] = [];
  for (let id = 0; id < catalogue.idCapacity; id++) {
    if (churn.stateOf[id] === ObjectState.ranked || churn.stateOf[id] === ObjectState.oneHitWonder) ids.push(id);
  }
  return ids;
}

/** Pairs of live objects that share a cache key: [key, one id, the other]. */
function sharedKeys(run: Assembled): [number, number, number][] {
  const owner = new Map<number, number>();
  const shared: [number, number, number][] = [];
  for (const id of liveIds(run)) {
    for (const key of keysInUse(run, id)) {
      const other = owner.get(key);
      if (other !== undefined && other !== id) shared.push([key, other, id]);
      else owner.set(key, id);
    }
  }
  return shared;
}

/** The variant mask the policy engine gives an object of `classIndex` with its file type now (spec 4.4, 4.5). */
function expectedMask(classes: readonly ContentClass[], catalogue: ClassCatalogue, id: number): number {
  const klass = classes[catalogue.classOfId[id]];
  return variantMaskOfPath(representativePath({ path: klass.path, fileTypes: [catalogue.fileTypeOf(id)] }, FRAMEWORK));
}

/** Live objects whose variant mask is not their file type's: [id, extension, mask, expected]. */
function wrongMasks(classes: readonly ContentClass[], run: Assembled): [number, string, number, number][] {
  return liveIds(run)
    .filter((id) => run.traits.variantMaskOf[id] !== expectedMask(classes, run.catalogue, id))
    .map((id) => [id, run.catalogue.fileTypeOf(id).extension, run.traits.variantMaskOf[id], expectedMask(classes, run.catalogue, id)]);
}

/** Objects whose ranged-or-not trait disagrees with their class and current size (spec 4.8). */
function wrongRanges(classes: readonly ContentClass[], run: Assembled): number[] {
  return liveIds(run).filter((id) => {
    const ranged = classes[run.catalogue.classOfId[id]].rangeRequests && run.catalogue.objectSizes[id] >= DEFAULT_MEDIA_MIN_BYTES;
    return run.traits.rangesOf[id] !== (ranged ? 1 : 0) || run.keys.isChunked(id) !== ranged;
  });
}

describe('new-URL updates keep request traits exact (spec 4.4, 4.5, 4.8)', () => {
  it('spec 4.8: a ranged object updated at a new URL owns its own chunk keys; it shares none with the next new object', () => {
    // Seed 3, 20 videos: rank 0 holds id 0 (138.9 MB, 28 chunks); the first reserved id, 20,
    // was drawn at 56.8 MB and laid out 12 chunk keys, the next, 21, at 15.1 MB (4 chunks),
    // right after them. Copying id 0's size into id 20 made its chunks 12…15 (keys
    // 2201…2204) id 21's chunks 0…3 once a new video took id 21: two live objects on the
    // same cache keys.
    const classes = [newUrlClass('videos', 'media', 20)];
    const run = assemble(classes, 3);
    const { catalogue, churn, keys } = run;
    expect([0, 20, 21].map((id) => chunkCount(catalogue.objectSizes[id]))).toEqual([28, 12, 4]);
    expect(keys.chunkKey(21, 0, 0) - keys.chunkKey(20, 0, 0)).toBe(12);
    const fresh = churn.applyUpdate(0, 0);
    run.hooks.onUpdate?.(fresh, 0, 0);
    const added = churn.addNewObject(0, 0.99, 0); // not a one-hit wonder (share 0.3): ranked at the top
    expect([fresh, added]).toEqual([20, 21]);
    expect(sharedKeys(run)).toEqual([]);
    expect(wrongRanges(classes, run)).toEqual([]);
    // The new version is the reserved id's own file: the 12 chunks its keys were laid out for.
    expect(chunkCount(catalogue.objectSizes[fresh])).toBe(12);
  });

  it('spec 4.5: a fresh id takes its predecessor\'s file type, and its key\'s variants follow (a CSS file keyed by device, a script not)', () => {
    // Seed 6, 50 bundles: rank 0 is id 0, a CSS file; the first reserved id, 50, was drawn
    // as a script (mask 0). The new URL of the CSS file is a CSS file: mask VARIANT_DEVICE (2).
    const classes = [newUrlClass('assets', 'static-asset', 50)];
    const run = assemble(classes, 6);
    const { catalogue, churn, traits } = run;
    expect([catalogue.fileTypeOf(0).extension, catalogue.fileTypeOf(50).extension, traits.variantMaskOf[50]]).toEqual(['css', 'js', 0]);
    const fresh = churn.applyUpdate(0, 0);
    run.hooks.onUpdate?.(fresh, 0, 0);
    expect(fresh).toBe(50);
    expect(catalogue.fileTypeOf(fresh).extension).toBe('css');
    expect(traits.variantMaskOf[fresh]).toBe(2);
    expect(wrongMasks(classes, run)).toEqual([]);
  });

  it('property: after any sequence of updates, deploys and new objects, live objects\' keys are disjoint and each mask is its file type\'s', () => {
    const classes = [newUrlClass('assets', 'static-asset', 12), newUrlClass('images', 'image', 10), newUrlClass('videos', 'media', 8), newUrlClass('files', 'download', 8, true)];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('update' as const), classIndex: fc.nat(classes.length - 1), rank: fc.nat(7) }),
      fc.record({ kind: fc.constant('new' as const), classIndex: fc.nat(classes.length - 1), uOneHit: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), uRank: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) }),
      fc.record({ kind: fc.constant('deploy' as const), classIndex: fc.nat(classes.length - 1) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.array(step, { maxLength: 12 }), (seed, steps) => {
        // 10 min at 1 new object and 1 update a second, 4 deploys: ids enough for 12 steps.
        const run = assemble(classes, seed);
        for (const s of steps) {
          if (s.kind === 'update') {
            const previous = run.catalogue.idAtRank(s.classIndex, s.rank);
            run.hooks.onUpdate?.(run.churn.applyUpdate(s.classIndex, s.rank), previous, s.classIndex);
          } else if (s.kind === 'new') {
            run.churn.addNewObject(s.classIndex, s.uOneHit, s.uRank);
          } else {
            run.churn.deployClass(s.classIndex, run.hooks);
          }
        }
        expect(sharedKeys(run)).toEqual([]);
        expect(wrongMasks(classes, run)).toEqual([]);
        expect(wrongRanges(classes, run)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
