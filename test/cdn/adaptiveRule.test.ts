import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classVerdict, nextTtlMs, type TtlBounds, type VerdictLimits } from '../../src/cdn/adaptiveRule.js';

/** The defaults of docs/ttl-strategies.md: 90 % target, 5 % budget, 100 requests, ×2, 10 s start, 1 h cap. */
const LIMITS: VerdictLimits = { targetHitRatio: 0.9, maxStaleShare: 0.05, minRequests: 100 };
const BOUNDS: TtlBounds = { headerTtlMs: 60_000, maxTtlMs: 3_600_000, startTtlMs: 10_000, factor: 2 };

describe('spec 1.2 item 6: the adaptive controller\'s verdict on one window of a class', () => {
  it('a hit ratio below the target within the budget is below-target; at or above it, hold', () => {
    expect(classVerdict({ requests: 1000, cdnHits: 899, outdated: 50 }, LIMITS)).toBe('below-target');
    expect(classVerdict({ requests: 1000, cdnHits: 900, outdated: 50 }, LIMITS)).toBe('hold');
  });

  it('an outdated share over the budget is over-budget, even when the hit ratio is also below the target (the budget bounds the controller)', () => {
    expect(classVerdict({ requests: 1000, cdnHits: 500, outdated: 51 }, LIMITS)).toBe('over-budget');
    expect(classVerdict({ requests: 1000, cdnHits: 990, outdated: 51 }, LIMITS)).toBe('over-budget');
  });

  it('fewer requests than minRequests (99 of 100), or none, give no verdict', () => {
    expect(classVerdict({ requests: 99, cdnHits: 0, outdated: 99 }, LIMITS)).toBe('hold');
    expect(classVerdict({ requests: 0, cdnHits: 0, outdated: 0 }, { ...LIMITS, minRequests: 0 })).toBe('hold');
  });
});

describe('spec 1.2 item 6: the TTL action on a verdict (whole seconds, RFC 9111 §1.2.2)', () => {
  it('doubles from the headers\' 60 s up to the 1 h cap: 60 → 120 → … → 1920 → 3600, then stays', () => {
    const steps = [60_000];
    for (let i = 0; i < 7; i++) steps.push(nextTtlMs('below-target', steps[steps.length - 1], BOUNDS));
    expect(steps.map((ms) => ms / 1000)).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  it('halves on over-budget down to the headers\' lifetime and no further: 3600 → 1800 → … → 112 → 60 → 60', () => {
    const steps = [3_600_000];
    for (let i = 0; i < 7; i++) steps.push(nextTtlMs('over-budget', steps[steps.length - 1], BOUNDS));
    expect(steps.map((ms) => ms / 1000)).toEqual([3600, 1800, 900, 450, 225, 112, 60, 60]);
  });

  it('a class sent max-age=0 is raised to startTtl (10 s), then doubled', () => {
    const bounds = { ...BOUNDS, headerTtlMs: 0 };
    expect(nextTtlMs('below-target', 0, bounds)).toBe(10_000);
    expect(nextTtlMs('below-target', 10_000, bounds)).toBe(20_000);
    expect(nextTtlMs('over-budget', 10_000, bounds)).toBe(5_000);
  });

  it('headers longer than maxTtl (a year, immutable) are never raised nor lowered below themselves', () => {
    const bounds = { ...BOUNDS, headerTtlMs: 31_536_000_000 };
    expect(nextTtlMs('below-target', 31_536_000_000, bounds)).toBe(31_536_000_000);
    expect(nextTtlMs('over-budget', 31_536_000_000, bounds)).toBe(31_536_000_000);
  });

  it('a small factor (1.01) still moves by at least a second', () => {
    expect(nextTtlMs('below-target', 20_000, { ...BOUNDS, headerTtlMs: 20_000, factor: 1.01 })).toBe(21_000);
  });

  const bounds = fc
    .record({
      headerS: fc.integer({ min: 0, max: 7200 }),
      maxS: fc.integer({ min: 1, max: 86_400 }),
      startS: fc.integer({ min: 1, max: 600 }),
      factor: fc.double({ min: 1.01, max: 10, noNaN: true }),
    })
    .map(({ headerS, maxS, startS, factor }): TtlBounds => ({ headerTtlMs: headerS * 1000, maxTtlMs: maxS * 1000, startTtlMs: Math.min(startS, maxS) * 1000, factor }));
  const verdicts = fc.array(fc.constantFrom('below-target' as const, 'over-budget' as const, 'hold' as const), { maxLength: 60 });

  it('property: from the headers\' lifetime, any sequence of verdicts keeps the TTL in whole seconds between the headers\' and max(headers, maxTtl)', () => {
    fc.assert(
      fc.property(bounds, verdicts, (b, sequence) => {
        let ttl = b.headerTtlMs;
        for (const verdict of sequence) {
          ttl = nextTtlMs(verdict, ttl, b);
          expect(ttl % 1000).toBe(0);
          expect(ttl).toBeGreaterThanOrEqual(b.headerTtlMs);
          expect(ttl).toBeLessThanOrEqual(Math.max(b.headerTtlMs, b.maxTtlMs));
        }
      }),
    );
  });

  it('property: below-target never lowers and raises whenever the TTL is under maxTtl; over-budget never raises and lowers whenever it is above the headers\'; hold keeps it', () => {
    fc.assert(
      fc.property(bounds, fc.integer({ min: 0, max: 90_000 }), (b, ttlS) => {
        const ttl = Math.max(ttlS * 1000, b.headerTtlMs);
        const raised = nextTtlMs('below-target', ttl, b);
        const lowered = nextTtlMs('over-budget', ttl, b);
        expect(raised).toBeGreaterThanOrEqual(ttl);
        if (ttl < b.maxTtlMs) expect(raised).toBeGreaterThan(ttl);
        expect(lowered).toBeLessThanOrEqual(ttl);
        if (ttl > b.headerTtlMs) expect(lowered).toBeLessThan(ttl);
        expect(nextTtlMs('hold', ttl, b)).toBe(ttl);
      }),
    );
  });

  it('property: the verdict is over-budget exactly when the outdated share exceeds the budget (with enough requests)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (requests, hitShare, outdatedShare) => {
        const counts = { requests, cdnHits: Math.floor(hitShare * requests), outdated: Math.floor(outdatedShare * requests) };
        const verdict = classVerdict(counts, LIMITS);
        expect(verdict === 'over-budget').toBe(counts.outdated / requests > LIMITS.maxStaleShare);
        if (verdict !== 'over-budget') expect(verdict === 'below-target').toBe(counts.cdnHits / requests < LIMITS.targetHitRatio);
      }),
    );
  });
});
