import { describe, expect, it } from 'vitest';
import { OUTCOME_REVALIDATED } from '../../src/cdn/layeredFlow.js';
import { EDGE_DECISION, REGIONAL_DECISION } from '../../src/policy/compile.js';
import { flowHarness } from './flowHarness.js';

// The harness's tiered flow: edge 0, regional 1, origin 2. A cold miss's response is made at 115 ms.
const EDGE = 0;
const ORIGIN = 2;
const HUNDRED_SECONDS = { 'cache-control': 'public, max-age=100' };

describe('spec 1.2 item 6: a CDN lifetime changed during a run applies at the next freshness check (RFC 9111 §4.2)', () => {
  it('lowered from 100 s to 10 s: the copy stored at 0 s is stale at 60 s and revalidated (304), though it was stored with 100 s', () => {
    const { run, table } = flowHarness({ headers: HUNDRED_SECONDS });
    const [cold, hit] = run([{ timeMs: 0 }, { timeMs: 50_000 }]);
    expect(cold.layer).toBe(ORIGIN);
    expect(hit.layer).toBe(EDGE);
    table.setTtlMs(0, EDGE_DECISION, 10_000);
    table.setTtlMs(0, REGIONAL_DECISION, 10_000);
    const [afterLowering, hitAgain] = run([{ timeMs: 60_000 }, { timeMs: 60_500 }]);
    expect(afterLowering.layer).toBe(ORIGIN);
    expect(afterLowering.outcome & OUTCOME_REVALIDATED).toBeTruthy();
    // The 304 renewed the copy with the 10 s in force: fresh again half a second later.
    expect(hitAgain.layer).toBe(EDGE);
  });

  it('raised from 100 s to 1000 s: the copy stored at 0 s is still fresh at 500 s, an edge hit', () => {
    const { run, table } = flowHarness({ headers: HUNDRED_SECONDS });
    run([{ timeMs: 0 }]);
    table.setTtlMs(0, EDGE_DECISION, 1_000_000);
    table.setTtlMs(0, REGIONAL_DECISION, 1_000_000);
    const [late] = run([{ timeMs: 500_000 }]);
    expect(late.layer).toBe(EDGE);
    expect(late.latencyMs).toBe(20);
  });

  it('control: without a change the copy stored with 100 s is stale at 500 s and goes upstream', () => {
    const { run } = flowHarness({ headers: HUNDRED_SECONDS });
    run([{ timeMs: 0 }]);
    const [late] = run([{ timeMs: 500_000 }]);
    expect(late.layer).toBe(ORIGIN);
  });

  it('the table refuses a class it has not compiled and a negative lifetime', () => {
    const { table } = flowHarness({ headers: HUNDRED_SECONDS });
    expect(() => table.setTtlMs(7, EDGE_DECISION, 1000)).toThrow(/no compiled class 7/);
    expect(() => table.setTtlMs(0, EDGE_DECISION, -1)).toThrow(/TTL ≥ 0/);
  });
});
