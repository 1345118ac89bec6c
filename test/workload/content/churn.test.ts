import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../../src/sim/random.js';
import { Simulation } from '../../../src/sim/simulation.js';
import { ClassCatalogue, type CatalogueClass } from '../../../src/workload/content/classCatalogue.js';
import { ContentChurn, ObjectState, churnReservation, type ChurnHooks } from '../../../src/workload/content/churn.js';
import { classFromPreset, type ChurnSpec, type ContentPresetName } from '../../../src/workload/content/contentClasses.js';

const HOUR_MS = 3_600_000;

function churnSpec(overrides: Partial<Omit<ChurnSpec, 'updates'>> & { updates?: Partial<ChurnSpec['updates']> } = {}): ChurnSpec {
  return {
    newObjectsPerSecond: overrides.newObjectsPerSecond ?? 0,
    oneHitWonderShare: overrides.oneHitWonderShare ?? 0,
    entry: overrides.entry ?? 'top',
    updates: { perSecond: 0, newUrl: false, onDeployShare: 0, ...overrides.updates },
  };
}

function klass(name: string, objects: number, presetName: ContentPresetName = 'html', share = 1): CatalogueClass {
  return { ...classFromPreset(name, presetName), objects, share };
}

/** A catalogue and its churn, with ids reserved for `horizonMs`. */
function setup(classes: readonly CatalogueClass[], specs: readonly ChurnSpec[], seed: number, horizonMs: number, deploys = 0) {
  const streams = new RandomStreams(seed);
  const reservedIds = classes.map((c, i) => churnReservation(specs[i], c.objects, horizonMs, deploys));
  const catalogue = new ClassCatalogue(classes, streams, { reservedIds });
  return { catalogue, churn: new ContentChurn(catalogue, specs, streams), streams };
}

function ranking(catalogue: ClassCatalogue, classIndex: number): number[] {
  return Array.from({ length: catalogue.rankedObjects[classIndex] }, (_, rank) => catalogue.idAtRank(classIndex, rank));
}

/** Ids returned by `draws` picks (pick and pickOne) that are not ranked now (must be none). */
function unrankedPicks(catalogue: ClassCatalogue, churn: ContentChurn, draws: number, seed: number): number {
  const stream = new RandomStreams(seed).stream('test.requests');
  let bad = 0;
  for (let i = 0; i < draws; i++) {
    if (churn.stateOf[catalogue.pick(stream.next(), stream.next())] !== ObjectState.ranked) bad++;
    if (churn.stateOf[catalogue.pickOne(stream.next())] !== ObjectState.ranked) bad++;
  }
  return bad;
}

describe('churn: id reservation', () => {
  it('no churn reserves nothing; otherwise the mean plus 6σ plus 8', () => {
    expect(churnReservation(churnSpec(), 1_000, 10 * HOUR_MS)).toBe(0);
    // 50/h over 10 h: mean 500, 500 + 6·√500 = 634.2 → 635, + 8.
    expect(churnReservation(churnSpec({ newObjectsPerSecond: 50 / 3600 }), 1_000, 10 * HOUR_MS)).toBe(643);
    // Updates without new URLs keep their ids.
    expect(churnReservation(churnSpec({ updates: { perSecond: 1, newUrl: false } }), 1_000, HOUR_MS)).toBe(0);
    // With new URLs each update needs an id: 3600 + 6·60 + 8.
    expect(churnReservation(churnSpec({ updates: { perSecond: 1, newUrl: true } }), 1_000, HOUR_MS)).toBe(3_968);
  });

  it('deploys with new URLs reserve a binomial share of the class per deploy (mean + 6σ + 1, at most the class)', () => {
    const spec = churnSpec({ updates: { newUrl: true, onDeployShare: 0.1 } });
    // 1000 · 0.1 = 100, σ = √90 = 9.49: 100 + 56.9 → 157, + 1 = 158 per deploy.
    expect(churnReservation(spec, 1_000, HOUR_MS, 3)).toBe(3 * 158);
    expect(churnReservation(churnSpec({ updates: { newUrl: true, onDeployShare: 1 } }), 10, HOUR_MS, 2)).toBe(20);
  });

  it('running out of reserved ids is an error naming the class', () => {
    const { churn } = setup([klass('pages', 10)], [churnSpec({ newObjectsPerSecond: 1 })], 1, 0);
    expect(() => churn.addNewObject(0, 0.5)).toThrow(/content class 'pages' used all 0 ids reserved for churn/);
  });
});

describe('churn: new objects', () => {
  it('entry top: the new object takes rank 1, every object moves down one rank, the last one retires', () => {
    const { catalogue, churn } = setup([klass('pages', 5)], [churnSpec({ newObjectsPerSecond: 1 })], 1, 60_000);
    expect(ranking(catalogue, 0)).toEqual([0, 1, 2, 3, 4]);
    const first = churn.addNewObject(0, 0.99);
    expect(first).toBe(5);
    expect(churn.lastWasOneHitWonder).toBe(false);
    expect(ranking(catalogue, 0)).toEqual([5, 0, 1, 2, 3]);
    expect(churn.stateOf[4]).toBe(ObjectState.retired);
    const second = churn.addNewObject(0, 0.99);
    expect(ranking(catalogue, 0)).toEqual([second, first, 0, 1, 2]);
    // pickOne reads the same ring: evenly spaced draws hit exactly the ranked ids.
    const hit = new Set(Array.from({ length: 10_000 }, (_, i) => catalogue.pickOne(i / 10_000)));
    expect([...hit].sort((a, b) => a - b)).toEqual([0, 1, 2, first, second].sort((a, b) => a - b));
    expect(churn.retiredCount[0]).toBe(2);
    expect(churn.newObjectCount[0]).toBe(2);
    // Aging: after four more new objects `first` sits at rank 6 of 5, i.e. it has retired.
    for (let i = 0; i < 4; i++) churn.addNewObject(0, 0.99);
    expect(churn.stateOf[first]).toBe(ObjectState.retired);
    expect(catalogue.classOf(second)).toBe(0);
  });

  it('entry drawn: the new object replaces the object at the rank drawn from the class\'s Zipf law', () => {
    const { catalogue, churn } = setup([klass('pages', 100)], [churnSpec({ newObjectsPerSecond: 1, entry: 'drawn' })], 1, 60_000);
    const uRank = 0.42;
    const rank = catalogue.pickRank(0, uRank);
    const displaced = catalogue.idAtRank(0, rank);
    const id = churn.addNewObject(0, 0.99, uRank);
    expect(catalogue.idAtRank(0, rank)).toBe(id);
    expect(churn.stateOf[displaced]).toBe(ObjectState.retired);
    const others = ranking(catalogue, 0).filter((_, r) => r !== rank);
    expect(others).toEqual(Array.from({ length: 100 }, (_, r) => r).filter((r) => r !== displaced));
  });

  it('a one-hit wonder gets an id but no rank, so pick never returns it', () => {
    const { catalogue, churn } = setup([klass('pages', 50)], [churnSpec({ newObjectsPerSecond: 1, oneHitWonderShare: 0.3 })], 1, 60_000);
    const id = churn.addNewObject(0, 0.1);
    expect(churn.lastWasOneHitWonder).toBe(true);
    expect(churn.stateOf[id]).toBe(ObjectState.oneHitWonder);
    expect(ranking(catalogue, 0)).toEqual(Array.from({ length: 50 }, (_, r) => r));
    expect(unrankedPicks(catalogue, churn, 100_000, 2)).toBe(0);
    expect(catalogue.objectSizes[id]).toBeGreaterThan(0);
    expect(catalogue.pathOf(id)).toMatch(/^\/blog\/[a-z]+-[a-z]+-50$/);
  });

  it('new objects appear at the configured rate (count within 3σ of Poisson), one-hit wonders at their share (3σ of binomial)', () => {
    const rate = 3_600 / 3_600; // 3600/h
    const horizon = 10_000_000; // 10,000 s: mean 10,000 new objects
    const share = 0.3;
    const { catalogue, churn } = setup([klass('pages', 1_000)], [churnSpec({ newObjectsPerSecond: rate, oneHitWonderShare: share })], 4, horizon);
    const simulation = new Simulation();
    let oneHitWonders = 0;
    let ranked = 0;
    churn.attach(simulation, { onOneHitWonder: () => oneHitWonders++, onNewObject: () => ranked++ });
    simulation.run({ untilMs: horizon });
    const mean = (rate * horizon) / 1000;
    const created = churn.newObjectCount[0];
    expect(Math.abs(created - mean)).toBeLessThan(3 * Math.sqrt(mean));
    expect(oneHitWonders + ranked).toBe(created);
    expect(churn.oneHitWonderCount[0]).toBe(oneHitWonders);
    expect(Math.abs(oneHitWonders - created * share)).toBeLessThan(3 * Math.sqrt(created * share * (1 - share)));
    expect(unrankedPicks(catalogue, churn, 100_000, 5)).toBe(0);
  });

  it('in the request stream, the share of new objects requested exactly once is the one-hit-wonder share (3σ); ranked newcomers are requested many times', () => {
    // 1000 pages, Zipf 0.8, 200 requests/s; a ranked newcomer starts at rank 1 (≈ 6 % of
    // requests) and sinks one rank per new object (2/s), so it collects dozens of requests.
    const horizon = 2_000_000;
    const { catalogue, churn, streams } = setup([klass('pages', 1_000)], [churnSpec({ newObjectsPerSecond: 2, oneHitWonderShare: 0.4 })], 6, horizon);
    const simulation = new Simulation();
    const requests = new Uint32Array(catalogue.idCapacity);
    const createdAt = new Float64Array(catalogue.idCapacity).fill(-1);
    const hooks: ChurnHooks = {
      onOneHitWonder: (id) => {
        createdAt[id] = simulation.nowMs;
        requests[id]++; // its single request, sent by the workload
      },
      onNewObject: (id) => {
        createdAt[id] = simulation.nowMs;
      },
    };
    churn.attach(simulation, hooks);
    const stream = streams.stream('test.requests');
    const request = simulation.defineEvent('test.request', () => {
      requests[catalogue.pick(stream.next(), stream.next())]++;
      simulation.scheduleAfter(stream.exponential(0.2), request);
    });
    simulation.schedule(0, request);
    simulation.run({ untilMs: horizon });

    // Newcomers of the last 100 s have had little time to be requested; leave them out.
    let counted = 0;
    let once = 0;
    let rankedRequests = 0;
    let rankedCount = 0;
    for (let id = catalogue.rankedObjects[0]; id < churn.nextFreeId[0]; id++) {
      if (createdAt[id] < 0 || createdAt[id] > horizon - 100_000) continue;
      counted++;
      if (requests[id] === 1) once++;
      if (churn.stateOf[id] === ObjectState.oneHitWonder) expect(requests[id]).toBe(1);
      else {
        rankedRequests += requests[id];
        rankedCount++;
      }
    }
    expect(counted).toBeGreaterThan(3_000);
    expect(Math.abs(once - 0.4 * counted)).toBeLessThan(3 * Math.sqrt(counted * 0.4 * 0.6));
    expect(rankedRequests / rankedCount).toBeGreaterThan(20);
  });
});

describe('churn: content updates', () => {
  it('newUrl: true (hashed assets): the rank gets a fresh id of the same type, with its own drawn size, and the next version; the old id is retired and never picked again', () => {
    const { catalogue, churn } = setup([klass('assets', 200, 'static-asset')], [churnSpec({ updates: { perSecond: 1, newUrl: true } })], 7, 60_000);
    const old = catalogue.idAtRank(0, 3);
    const oldPath = catalogue.pathOf(old);
    const sizeBefore = catalogue.objectSizes[200];
    const fresh = churn.applyUpdate(0, 3);
    expect(fresh).toBe(200);
    expect(catalogue.idAtRank(0, 3)).toBe(fresh);
    expect(churn.stateOf[old]).toBe(ObjectState.retired);
    expect(churn.stateOf[fresh]).toBe(ObjectState.ranked);
    expect(churn.versionOf[fresh]).toBe(1);
    // The fresh id keeps the size drawn for it (its request keys were laid out from it).
    expect(catalogue.objectSizes[fresh]).toBe(sizeBefore);
    expect(catalogue.fileTypeOf(fresh)).toBe(catalogue.fileTypeOf(old));
    expect(catalogue.pathOf(fresh)).not.toBe(oldPath);
    expect(catalogue.pathOf(fresh).slice(-3)).toBe(oldPath.slice(-3));
    // A second update of the same rank carries the version on.
    expect(churn.versionOf[churn.applyUpdate(0, 3)]).toBe(2);
    const stream = new RandomStreams(8).stream('test');
    let oldPicked = 0;
    for (let i = 0; i < 200_000; i++) if (catalogue.pick(stream.next(), stream.next()) === old) oldPicked++;
    expect(oldPicked).toBe(0);
  });

  it('newUrl: false: the id stays and its version increments', () => {
    const { catalogue, churn } = setup([klass('pages', 100)], [churnSpec({ updates: { perSecond: 1, newUrl: false } })], 9, 60_000);
    const id = catalogue.idAtRank(0, 10);
    expect(churn.applyUpdate(0, 10)).toBe(id);
    expect(churn.applyUpdate(0, 10)).toBe(id);
    expect(churn.versionOf[id]).toBe(2);
    expect(churn.stateOf[id]).toBe(ObjectState.ranked);
    expect(churn.nextFreeId[0]).toBe(100);
  });

  it('updates arrive at their rate (3σ of Poisson); with new URLs every update retires one id and no retired id is picked', () => {
    const horizon = 5_000_000; // 5000 s at 1/s
    const { catalogue, churn } = setup([klass('assets', 2_000, 'static-asset')], [churnSpec({ updates: { perSecond: 1, newUrl: true } })], 10, horizon);
    const simulation = new Simulation();
    let notified = 0;
    let changedIds = 0;
    churn.attach(simulation, {
      onUpdate: (id, previous) => {
        notified++;
        if (id !== previous) changedIds++;
      },
    });
    simulation.run({ untilMs: horizon });
    const updates = churn.updateCount[0];
    expect(Math.abs(updates - 5_000)).toBeLessThan(3 * Math.sqrt(5_000));
    expect(notified).toBe(updates);
    expect(changedIds).toBe(updates);
    expect(churn.retiredCount[0]).toBe(updates);
    expect(unrankedPicks(catalogue, churn, 200_000, 11)).toBe(0);
  });

  it('a deploy updates each object with its class\'s onDeploy share (3σ of binomial); classes without one are left alone', () => {
    const classes = [klass('assets', 2_000, 'static-asset', 0.5), klass('pages', 500, 'html', 0.5)];
    const specs = [churnSpec({ updates: { newUrl: true, onDeployShare: 0.25 } }), churnSpec()];
    const { catalogue, churn } = setup(classes, specs, 12, 0, 2);
    const pagesBefore = ranking(catalogue, 1);
    let notified = 0;
    const first = churn.deploy({ onUpdate: () => notified++ });
    expect(Math.abs(first - 500)).toBeLessThan(3 * Math.sqrt(2_000 * 0.25 * 0.75));
    expect(notified).toBe(first);
    churn.deploy();
    expect(churn.retiredCount[0]).toBe(churn.updateCount[0]);
    expect(ranking(catalogue, 1)).toEqual(pagesBefore);
    expect(unrankedPicks(catalogue, churn, 100_000, 13)).toBe(0);
  });

  it('spec 1.2 item 6: deployClass(c) updates only class c: onDeploy 40% of 1,000 same-URL pages raises about 400 versions, ids unchanged', () => {
    const classes = [klass('assets', 1_000, 'static-asset', 0.5), klass('pages', 1_000, 'html', 0.5)];
    const specs = [churnSpec({ updates: { newUrl: true, onDeployShare: 0.4 } }), churnSpec({ updates: { onDeployShare: 0.4 } })];
    const { catalogue, churn } = setup(classes, specs, 5, 0, 1);
    const assetsBefore = ranking(catalogue, 0);
    const pagesBefore = ranking(catalogue, 1);
    const sameUrl: number[] = [];
    const updated = churn.deployClass(1, { onUpdate: (id, previous) => id === previous && sameUrl.push(id) });
    // 1,000 × 0.4 = 400, σ ≈ 15.5.
    expect(Math.abs(updated - 400)).toBeLessThan(3 * Math.sqrt(1_000 * 0.4 * 0.6));
    expect(sameUrl).toHaveLength(updated);
    expect(ranking(catalogue, 1)).toEqual(pagesBefore);
    expect(pagesBefore.filter((id) => churn.versionOf[id] === 1)).toHaveLength(updated);
    expect(ranking(catalogue, 0)).toEqual(assetsBefore);
    expect(churn.updateCount[0]).toBe(0);
  });
});

describe('churn: determinism', () => {
  function run(seed: number, pagesRate: number) {
    const classes = [klass('assets', 500, 'static-asset', 0.5), klass('pages', 300, 'html', 0.5)];
    const specs = [
      churnSpec({ newObjectsPerSecond: 0.5, oneHitWonderShare: 0.3, updates: { perSecond: 0.5, newUrl: true } }),
      churnSpec({ newObjectsPerSecond: pagesRate, oneHitWonderShare: 0.2, entry: 'drawn', updates: { perSecond: 1, newUrl: false } }),
    ];
    const horizon = 1_000_000;
    const { catalogue, churn } = setup(classes, specs, seed, horizon);
    const simulation = new Simulation();
    const assetEvents: string[] = [];
    churn.attach(simulation, {
      onNewObject: (id, c) => c === 0 && assetEvents.push(`new ${id - catalogue.classStart[0]} @${simulation.nowMs}`),
      onOneHitWonder: (id, c) => c === 0 && assetEvents.push(`once ${id - catalogue.classStart[0]} @${simulation.nowMs}`),
      onUpdate: (id, previous, c) => c === 0 && assetEvents.push(`update ${previous - catalogue.classStart[0]}→${id - catalogue.classStart[0]} @${simulation.nowMs}`),
    });
    simulation.run({ untilMs: horizon });
    return { catalogue, churn, assetEvents };
  }

  it('the same seed gives the same churn: versions, states, rankings and event times', () => {
    const a = run(21, 1);
    const b = run(21, 1);
    expect(a.assetEvents).toEqual(b.assetEvents);
    expect(Array.from(a.churn.versionOf)).toEqual(Array.from(b.churn.versionOf));
    expect(Array.from(a.churn.stateOf)).toEqual(Array.from(b.churn.stateOf));
    expect(Array.from(a.catalogue.idOfRankSlot)).toEqual(Array.from(b.catalogue.idOfRankSlot));
    expect(a.assetEvents.length).toBeGreaterThan(500);
    expect(run(22, 1).assetEvents).not.toEqual(a.assetEvents);
  });

  it('one class\'s churn does not shift another\'s: changing the pages\' rate leaves the assets\' events unchanged', () => {
    expect(run(21, 3).assetEvents).toEqual(run(21, 1).assetEvents);
  });
});
