import { apportionDue, exactDueE4, junketStatement, programmeDue, ProgrammeVersion } from '../../../src/domain';

/** A programme's dues shared among those who earned them add up to its total exactly, each within a minor unit of its own. */
describe('apportionDue', () => {
  const roundHalfAway = (x: bigint) => (x >= 0n ? (x + 5_000n) / 10_000n : -((-x + 5_000n) / 10_000n));
  // A small seeded generator (not the code under test): shares of either sign, of any size.
  let seed = 20261129;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  it('adds up to the rounded total, each share within one minor unit of its exact amount, in 2,000 drawn cases', () => {
    for (let n = 0; n < 2_000; n++) {
      const count = 1 + (next() % 7);
      const exact = Array.from({ length: count }, () => BigInt(next() % 2_000_001) - (n % 3 === 0 ? 1_000_000n : 0n));
      const total = roundHalfAway(exact.reduce((a, b) => a + b, 0n));
      const shares = apportionDue(total, exact);
      expect(shares.reduce((a, b) => a + b, 0n)).toBe(total);
      shares.forEach((s, i) => {
        const diff = s * 10_000n - exact[i];
        expect(diff > -10_000n && diff < 10_000n).toBe(true);
      });
    }
  });

  it('gives the leftover units to the largest remainders, the earlier share on a tie', () => {
    // 3 × 0.3333 = 0.9999, rounded 1: the first share takes it.
    expect(apportionDue(1n, [3_333n, 3_333n, 3_333n])).toEqual([1n, 0n, 0n]);
    expect(apportionDue(1n, [2_000n, 4_000n, 4_000n])).toEqual([0n, 1n, 0n]);
    expect(apportionDue(-2n, [-7_500n, -7_500n])).toEqual([-1n, -1n]);
    expect(apportionDue(0n, [])).toEqual([]);
  });

  it('refuses a total that is not the rounding of the shares', () => {
    expect(() => apportionDue(5n, [10_000n])).toThrow(RangeError);
  });

  it("a junket's members' and agents' shares add up to its programmes' commission and allowance", () => {
    const versions: ProgrammeVersion[] = [{ basis: 'ROLLING', commissionBps: 125, allowanceBps: 33, effectiveFrom: '2026-01-01' }];
    const membership = (agentCode: string | null) => [{ operatorId: 'J', agentCode, programmeCode: 'R', effectiveFrom: '2026-01-01' }];
    const day = (patronId: string, d: string, rolled: bigint, customerNet: bigint) => ({
      patronId,
      day: d,
      rolled,
      customerNet,
      handle: rolled,
      wagers: 1,
      theoE12: 0n,
      expectedRolledE12: 0n,
    });
    const s = junketStatement({
      operatorId: 'J',
      from: '2026-03-01',
      to: '2026-03-31',
      opening: 0n,
      memberships: new Map([
        ['A', membership('AG1')],
        ['B', membership('AG1')],
        ['C', membership(null)],
      ]),
      programmes: new Map([['R', versions]]),
      play: [
        day('A', '2026-03-02', 333_333n, -1_000n),
        day('B', '2026-03-02', 333_333n, 500n),
        day('C', '2026-03-03', 333_334n, 0n),
        day('A', '2026-03-04', 7n, 0n),
      ],
      exchanges: [],
      entries: [],
      playerCredit: [],
    });
    const total = programmeDue(versions, [{ day: 'x', rolled: 1_000_007n, win: 0n }], 0n);
    expect([s.totals.commission, s.totals.allowance]).toEqual([total.commission, total.allowance]);
    for (const list of [s.shares.members, s.shares.agents]) {
      expect(list.reduce((a, x) => a + x.commission, 0n)).toBe(s.totals.commission);
      expect(list.reduce((a, x) => a + x.allowance, 0n)).toBe(s.totals.allowance);
    }
    expect(s.shares.agents.map((a) => a.id)).toEqual(['', 'AG1']);
    // Each member within a minor unit of their own exact dues.
    const exactA = exactDueE4(versions, [
      { day: '2026-03-02', rolled: 333_333n, win: 1_000n },
      { day: '2026-03-04', rolled: 7n, win: 0n },
    ]);
    const a = s.shares.members.find((m) => m.id === 'A')!;
    expect(a.commission * 10_000n - exactA.commission).toBeGreaterThan(-10_000n);
    expect(a.commission * 10_000n - exactA.commission).toBeLessThan(10_000n);
  });
});
