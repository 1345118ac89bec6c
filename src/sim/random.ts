import seedrandom from 'seedrandom';

/**
 * One seeded random stream. Draws are uniform in [0, 1) from seedrandom's Alea generator
 * (fast, 32-bit resolution is ample for sampling); the helpers below are the few
 * distributions the simulator needs, written once here.
 */
export class RandomStream {
  private readonly prng: () => number;
  private spareNormal = NaN;

  constructor(readonly name: string, seedText: string) {
    this.prng = seedrandom.alea(seedText);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.prng() * n);
  }

  /** Exponential with the given rate (mean 1/rate), e.g. Poisson inter-arrival times. */
  exponential(rate: number): number {
    return -Math.log(1 - this.prng()) / rate;
  }

  /** Standard normal (Marsaglia polar method; the spare draw is kept for the next call). */
  normal(): number {
    if (this.spareNormal === this.spareNormal) {
      const spare = this.spareNormal;
      this.spareNormal = NaN;
      return spare;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.prng() - 1;
      v = 2 * this.prng() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * factor;
    return u * factor;
  }

  /** Lognormal given its median (e^mu) and the sigma of the underlying normal. */
  lognormal(median: number, sigma: number): number {
    return sigma === 0 ? median : median * Math.exp(sigma * this.normal());
  }
}

/**
 * Independent named streams derived from one master seed. A stream's draws depend only on
 * (master seed, stream name), so adding a component with a stream of its own does not
 * shift the numbers any other component sees.
 */
export class RandomStreams {
  private readonly streams = new Map<string, RandomStream>();

  constructor(readonly masterSeed: number | string) {}

  /** The stream for a component; the same name always returns the same stream. */
  stream(name: string): RandomStream {
    let stream = this.streams.get(name);
    if (!stream) {
      stream = new RandomStream(name, `cdnsim:${this.masterSeed}:${name}`);
      this.streams.set(name, stream);
    }
    return stream;
  }
}
