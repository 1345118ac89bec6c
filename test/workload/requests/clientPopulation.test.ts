import { describe, expect, it } from 'vitest';
import { mean } from 'simple-statistics';
import { RandomStream } from '../../../src/sim/random.js';
import { ClientPopulation, type ClientPopulationSpec } from '../../../src/workload/requests/clientPopulation.js';

const SPEC: ClientPopulationSpec = { groups: 2, clientsPerGroup: 1000, revisitShare: 0.4, repeatShare: 0.3, recentObjects: 8 };

/** The sampler's use of the population: arrive, maybe repeat, else remember a fresh object. */
function drive(population: ClientPopulation, group: number, stream: RandomStream, freshObject: number): { slot: number; isNew: number; repeat: number; objectId: number } {
  const slot = population.arrive(group, stream);
  const isNew = population.arrivedNew;
  if (isNew === 0 && population.drawsRepeat(slot, stream)) return { slot, isNew, repeat: 1, objectId: population.recentObject(slot, stream) };
  population.remember(slot, freshObject);
  return { slot, isNew, repeat: 0, objectId: freshObject };
}

describe('ClientPopulation: returning and new clients (binomial checks at 3σ)', () => {
  const population = new ClientPopulation(SPEC);
  const stream = new RandomStream('t', 'population');
  const returning: number[] = [];
  const repeats: number[] = [];
  const seenBy = new Map<number, Set<number>>();
  let repeatsOfUnseen = 0;
  let slotOutOfGroup = 0;
  let idOutOfGroup = 0;
  for (let i = 0; i < 200_000; i++) {
    const group = i & 1;
    const first = population.createdIn(group) === 0;
    const { slot, isNew, repeat, objectId } = drive(population, group, stream, i);
    if (population.groupOf(slot) !== group) slotOutOfGroup++;
    const id = population.clientIdOf(slot);
    if (id % 2 !== group) idOutOfGroup++;
    if (!first) returning.push(1 - isNew);
    if (isNew === 0) repeats.push(repeat);
    let seen = seenBy.get(id);
    if (!seen) seenBy.set(id, (seen = new Set()));
    if (repeat === 1 && !seen.has(objectId)) repeatsOfUnseen++;
    seen.add(objectId);
  }

  it('share of requests from returning clients ≈ revisitShare 40 % (the first request of each group is always new)', () => {
    const n = returning.length;
    expect(Math.abs(mean(returning) - 0.4)).toBeLessThan(3 * Math.sqrt((0.4 * 0.6) / n));
  });

  it("share of returning clients' requests that are repeats ≈ repeatShare 30 %", () => {
    const n = repeats.length;
    expect(Math.abs(mean(repeats) - 0.3)).toBeLessThan(3 * Math.sqrt((0.3 * 0.7) / n));
  });

  it('a repeat re-asks an object the same client asked for before; slots stay in their group', () => {
    expect(repeatsOfUnseen).toBe(0);
    expect(slotOutOfGroup).toBe(0);
  });

  it('clients ever created ≈ (1 − revisitShare) × requests; ids are unique and encode the group', () => {
    const created = population.createdIn(0) + population.createdIn(1);
    expect(Math.abs(created / 200_000 - 0.6)).toBeLessThan(0.01);
    expect(seenBy.size).toBe(created);
    expect(idOutOfGroup).toBe(0);
  });
});

describe('ClientPopulation: fixed memory', () => {
  it('with N clients per group the (N+1)-th new client reuses the oldest slot, with a fresh id and an empty ring', () => {
    const population = new ClientPopulation({ groups: 1, clientsPerGroup: 3, revisitShare: 0, repeatShare: 0, recentObjects: 2 });
    const stream = new RandomStream('t', 'reuse');
    const slots = [0, 1, 2, 3].map((i) => drive(population, 0, stream, 100 + i).slot);
    expect(slots).toEqual([0, 1, 2, 0]);
    expect(population.clientIdOf(0)).toBe(3);
    expect([1, 2].map((slot) => population.clientIdOf(slot))).toEqual([1, 2]);
    expect(population.recentCountOf(0)).toBe(1);
  });

  it('the ring keeps the last recentObjects objects', () => {
    const population = new ClientPopulation({ groups: 1, clientsPerGroup: 1, revisitShare: 1, repeatShare: 0, recentObjects: 3 });
    const stream = new RandomStream('t', 'ring');
    for (let object = 0; object < 10; object++) drive(population, 0, stream, object);
    expect(population.recentCountOf(0)).toBe(3);
    const drawn = new Set<number>();
    for (let i = 0; i < 200; i++) drawn.add(population.recentObject(0, stream));
    expect([...drawn].sort()).toEqual([7, 8, 9]);
  });

  it('invalid specs are refused with the field named', () => {
    expect(() => new ClientPopulation({ ...SPEC, clientsPerGroup: 0 })).toThrow(/clientsPerGroup/);
    expect(() => new ClientPopulation({ ...SPEC, recentObjects: 256 })).toThrow(/recentObjects/);
    expect(() => new ClientPopulation({ ...SPEC, revisitShare: -0.1 })).toThrow(/revisitShare/);
  });
});
