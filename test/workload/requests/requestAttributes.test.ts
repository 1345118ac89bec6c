import { describe, expect, it } from 'vitest';
import { mean } from 'simple-statistics';
import { RandomStreams } from '../../../src/sim/random.js';
import { DEFAULT_MOBILE_SHARES } from '../../../src/topology/clients.js';
import { REGIONS } from '../../../src/topology/regions.js';
import { Catalogue } from '../../../src/workload/catalogue.js';
import {
  DEVICE_MOBILE,
  RequestAttributeSampler,
  newRequestAttributes,
  type ObjectSource,
  type RequestAttributeSpec,
  type RequestAttributes,
} from '../../../src/workload/requests/requestAttributes.js';
import { WHOLE_OBJECT } from '../../../src/workload/requests/seekBehaviour.js';

const MOBILE = REGIONS.map((region) => DEFAULT_MOBILE_SHARES[region]);
const MB = 1_000_000;

function spec(overrides: { revisitShare?: number; repeatShare?: number; clientsPerGroup?: number; avifShare?: number; queryReorderShare?: number } = {}): RequestAttributeSpec {
  return {
    mobileShares: MOBILE,
    avifShare: overrides.avifShare ?? 0.92,
    avifSizeShare: 0.1,
    queryReorderShare: overrides.queryReorderShare ?? 0.1,
    population: {
      groups: REGIONS.length,
      clientsPerGroup: overrides.clientsPerGroup ?? 100_000,
      revisitShare: overrides.revisitShare ?? 0,
      repeatShare: overrides.repeatShare ?? 0,
      recentObjects: 8,
    },
    media: { windowBytes: 4 * MB, seekProbability: 0.05, meanWatchShare: 0.4, minBytes: 10 * MB },
  };
}

/** sigma 3: a few per cent of the objects are 10 MB or more, so media sessions occur too. */
function catalogue(seed: number): Catalogue {
  return new Catalogue({ objects: 10_000, zipfExponent: 0.8, objectSize: { median: 32_000, sigma: 3, min: 100, max: 1e9 } }, new RandomStreams(seed).stream('catalogue.sizes'));
}

const FIELDS = ['group', 'clientSlot', 'clientId', 'newClient', 'repeat', 'continuation', 'objectId', 'sizeBytes', 'device', 'acceptsAvif', 'queryReordered', 'rangeStart', 'rangeEnd', 'seek', 'sessionSerial', 'sessionContinues'] as const;

function snapshot(record: RequestAttributes): number[] {
  return FIELDS.map((field) => record[field]);
}

/** σ of a binomial share: the tolerance below is 3σ (a false alarm about 0.3 % of the time per check; seeds are fixed). */
function binomialSigma(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

describe('RequestAttributeSampler: shares match their parameters (3σ of the binomial; every request a new client, so draws are independent)', () => {
  const sampler = new RequestAttributeSampler(spec(), catalogue(1), new RandomStreams(1), REGIONS);
  const out = newRequestAttributes();
  const perRegion = 200_000;
  const mobile: number[][] = REGIONS.map(() => []);
  const avif: number[] = [];
  const reordered: number[] = [];
  for (let i = 0; i < perRegion; i++) {
    for (let region = 0; region < REGIONS.length; region++) {
      sampler.sample(region, out);
      mobile[region].push(out.device === DEVICE_MOBILE ? 1 : 0);
      avif.push(out.acceptsAvif);
      reordered.push(out.queryReordered);
    }
  }

  it.each(REGIONS.map((region, r) => [region, r] as const))('mobile share in %s matches the topology default within 3σ', (_region, r) => {
    expect(Math.abs(mean(mobile[r]) - MOBILE[r])).toBeLessThan(3 * binomialSigma(MOBILE[r], perRegion));
  });

  it('AVIF share ≈ 92 % within 3σ', () => {
    expect(Math.abs(mean(avif) - 0.92)).toBeLessThan(3 * binomialSigma(0.92, avif.length));
  });

  it('query-reorder share ≈ 10 % within 3σ', () => {
    expect(Math.abs(mean(reordered) - 0.1)).toBeLessThan(3 * binomialSigma(0.1, reordered.length));
  });

  it('objects under media.minBytes are whole-object requests; larger ones start a session at byte 0', () => {
    const small = newRequestAttributes();
    let media = 0;
    let checked = 0;
    for (let i = 0; i < 20_000; i++) {
      sampler.sample(0, small);
      if (small.sizeBytes < 10 * MB) {
        if (small.rangeStart !== WHOLE_OBJECT || small.rangeEnd !== WHOLE_OBJECT || small.sessionSerial !== -1) throw new Error(`object ${small.objectId} has a range`);
      } else {
        media++;
        expect([small.rangeStart, small.rangeEnd, small.sessionSerial >= 0]).toEqual([0, 4 * MB - 1, true]);
      }
      checked++;
    }
    expect(checked).toBe(20_000);
    expect(media).toBeGreaterThan(0);
  });
});

describe('RequestAttributeSampler: revisits', () => {
  it('a returning client keeps its device and AVIF support; device share stays near the parameter (clients repeat, so the tolerance is 0.01, not the binomial)', () => {
    const sampler = new RequestAttributeSampler(spec({ revisitShare: 0.4, repeatShare: 0.3, clientsPerGroup: 50_000 }), catalogue(2), new RandomStreams(2), REGIONS);
    const out = newRequestAttributes();
    const traits = new Map<number, number>();
    let changed = 0;
    const mobile: number[] = [];
    const returning: number[] = [];
    const repeats: number[] = [];
    for (let i = 0; i < 300_000; i++) {
      sampler.sample(1, out); // Europe
      const trait = out.device * 2 + out.acceptsAvif;
      const known = traits.get(out.clientId);
      if (known !== undefined && known !== trait) changed++;
      traits.set(out.clientId, trait);
      mobile.push(out.device);
      if (i > 0) returning.push(1 - out.newClient);
      if (out.newClient === 0) repeats.push(out.repeat);
    }
    expect(changed).toBe(0);
    expect(Math.abs(mean(mobile) - DEFAULT_MOBILE_SHARES.Europe)).toBeLessThan(0.01);
    expect(Math.abs(mean(returning) - 0.4)).toBeLessThan(3 * binomialSigma(0.4, returning.length));
    expect(Math.abs(mean(repeats) - 0.3)).toBeLessThan(3 * binomialSigma(0.3, repeats.length));
  });
});

describe('RequestAttributeSampler: media objects get viewing sessions (spec 4.8)', () => {
  // Object 0: 50 MB media; object 1: 2 KB page. pick: u < 0.5 → media.
  const objects: ObjectSource = { objectSizes: Float64Array.from([50 * MB, 2_000]), pick: (u) => (u < 0.5 ? 0 : 1) };

  it('the first request of a session is the first window; continueSession walks the session with the same client and object', () => {
    const sampler = new RequestAttributeSampler(spec({ clientsPerGroup: 10 }), objects, new RandomStreams(3), REGIONS);
    const out = newRequestAttributes();
    do sampler.sample(0, out);
    while (out.objectId !== 0 || out.sessionContinues === 0);
    expect([out.rangeStart, out.rangeEnd, out.seek, out.continuation]).toEqual([0, 4 * MB - 1, 0, 0]);
    const { clientSlot, clientId, device, acceptsAvif, sessionSerial } = out;
    let windows = 1;
    while (out.sessionContinues === 1) {
      expect(sampler.continueSession(clientSlot, sessionSerial, out)).toBe(true);
      windows++;
      expect([out.clientSlot, out.clientId, out.objectId, out.device, out.acceptsAvif, out.continuation, out.queryReordered]).toEqual([clientSlot, clientId, 0, device, acceptsAvif, 1, 0]);
      expect(out.rangeEnd).toBeLessThan(50 * MB);
      expect(out.rangeStart % (4 * MB)).toBe(0);
    }
    expect(windows).toBeLessThanOrEqual(13); // ⌈50 MB / 4 MB⌉
    expect(sampler.continueSession(clientSlot, sessionSerial, out)).toBe(false);
  });

  it('a session ends when its client slot goes to a new client', () => {
    const sampler = new RequestAttributeSampler(spec({ clientsPerGroup: 1 }), objects, new RandomStreams(4), REGIONS);
    const out = newRequestAttributes();
    do sampler.sample(0, out);
    while (out.sessionContinues === 0);
    const { clientSlot, sessionSerial } = out;
    sampler.sample(0, out); // revisitShare 0: a new client takes the only slot
    expect(out.newClient).toBe(1);
    expect(sampler.continueSession(clientSlot, sessionSerial, out)).toBe(false);
  });
});

describe('RequestAttributeSampler: determinism (DESIGN "Determinism")', () => {
  function run(seed: number, groups: readonly number[], n: number): number[][] {
    const sampler = new RequestAttributeSampler(spec({ revisitShare: 0.4, repeatShare: 0.3, clientsPerGroup: 1000 }), catalogue(seed), new RandomStreams(seed), REGIONS);
    const out = newRequestAttributes();
    const rows: number[][] = [];
    for (let i = 0; i < n; i++) {
      for (const group of groups) {
        sampler.sample(group, out);
        rows.push(snapshot(out));
      }
    }
    return rows;
  }

  it('the same seed gives the same attributes; another seed other ones', () => {
    expect(run(7, [0, 1, 2], 5_000)).toEqual(run(7, [0, 1, 2], 5_000));
    expect(run(8, [0, 1, 2], 5_000)).not.toEqual(run(7, [0, 1, 2], 5_000));
  });

  it("a region's attributes do not depend on other regions' traffic (one stream per region)", () => {
    const alone = run(9, [2], 5_000);
    const mixed = run(9, [2, 4], 5_000).filter((row) => row[0] === 2);
    // Client ids and session serials do not depend on the traffic elsewhere: rows are equal field by field.
    expect(mixed).toEqual(alone);
    expect(alone.some((row) => row[FIELDS.indexOf('sessionSerial')] >= 0)).toBe(true); // media sessions included
  });
});

describe('RequestAttributeSampler: invalid specs', () => {
  it('a share outside [0, 1] or a group count mismatch is refused with the field named', () => {
    expect(() => new RequestAttributeSampler({ ...spec(), avifShare: 1.2 }, catalogue(1), new RandomStreams(1), REGIONS)).toThrow(/avifShare/);
    expect(() => new RequestAttributeSampler({ ...spec(), mobileShares: [0.5] }, catalogue(1), new RandomStreams(1), REGIONS)).toThrow(/mobile shares/);
  });
});
