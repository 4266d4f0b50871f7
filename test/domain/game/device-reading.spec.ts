import {
  BetType,
  cardsOf,
  DEVICE_FAULTS,
  deviceShoe as playShoe,
  DeviceEvent,
  evaluateCoup,
  NO_READING,
  readDeviceEvent,
  ReadingOutput,
  ruleSet,
  RuleSet,
  settleWager,
  SIDE_BETS,
  Variant,
} from '../../../src/domain';

/**
 * The table's devices (issue 51) report seeded shoes as a card-reading shoe and a chip reader would:
 * the shuffle, the burn, each coup's bets, its cards slot by slot with the shoe's count, the dealer's
 * button. Read cleanly, every coup comes out with the cards dealt and the bets placed, and settles as
 * the keyed coup of those cards and bets settles; nothing is held. With one fault put in (a card
 * dropped, read twice or out of its turn, a burn read as dealt, the button early or wrong, a bet moved
 * after the first card, a card the shoe cannot hold), that coup is held with the fault's reason and
 * nothing of it is settled, and the coups before it are as dealt.
 */
const SEATS = 7;

function read(rules: RuleSet, events: readonly DeviceEvent[]): ReadingOutput[] {
  let state = NO_READING;
  const out: ReadingOutput[] = [];
  for (const e of events) {
    const r = readDeviceEvent(state, e, rules, SEATS);
    state = r.state;
    if (r.out) out.push(r.out);
  }
  return out;
}

const sortBets = (bets: { seat: number; betType: string; amount: bigint }[]) =>
  [...bets].sort((a, b) => a.seat - b.seat || a.betType.localeCompare(b.betType)).map((b) => ({ seat: b.seat, betType: b.betType, amount: b.amount }));

const RULES: RuleSet[] = (['COMMISSION', 'SUPER_6', 'EZ'] as Variant[]).map((variant) => ruleSet({ variant, sideBets: [...SIDE_BETS] }));

describe('a shoe read cleanly by its devices', () => {
  for (const rules of RULES)
    it(`${rules.variant}: every coup as dealt, settled as the keyed coup, nothing held (20 seeded shoes)`, () => {
      let coups = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const { events, coups: dealt } = playShoe(rules, seed * 7919 + rules.variant.length);
        const out = read(rules, events);
        expect(out.filter((o) => o.kind === 'HOLD')).toEqual([]);
        expect(out).toHaveLength(dealt.length);
        out.forEach((o, i) => {
          if (o.kind !== 'COUP') throw new Error('held');
          const d = dealt[i];
          expect({ player: o.player, banker: o.banker, bets: sortBets(o.wagers) }).toEqual({ player: d.player, banker: d.banker, bets: sortBets(d.bets) });
          // Settled as the keyed coup of the same cards and bets settles.
          const fromDevices = o.wagers.map((w) => settleWager(rules, evaluateCoup(rules.variant, o), { betType: w.betType, amount: w.amount }));
          const keyed = sortBets(d.bets).map((w) => settleWager(rules, evaluateCoup(rules.variant, d), { betType: w.betType as BetType, amount: w.amount }));
          expect(fromDevices).toEqual(keyed);
        });
        coups += dealt.length;
      }
      expect(coups).toBeGreaterThan(20 * 60);
    });
});

describe('one fault in a coup', () => {
  const rules = RULES[0];
  for (const [name, fault] of Object.entries(DEVICE_FAULTS)) {
    it(`${name}: held with its reason if it is a fault, none of it settled; the coups before it as dealt`, () => {
      let tried = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const { events, coups } = playShoe(rules, seed * 104729);
        const target = 5 + (seed % 20);
        const faulted = fault(coups[target].events);
        if (!faulted) continue;
        tried++;
        const start = events.indexOf(coups[target].events[0]);
        const before = events.slice(0, start);
        const out = read(rules, [...before, ...faulted.events]);
        const holds = out.filter((o) => o.kind === 'HOLD');
        expect(holds.map((h) => h.kind === 'HOLD' && h.reason)).toEqual(faulted.reason ? [faulted.reason] : []);
        const settled = out.filter((o) => o.kind === 'COUP');
        // A fault that is none (the reader reading the same chips again) settles the coup as dealt.
        expect(settled).toHaveLength(faulted.reason ? target : target + 1);
        settled.forEach((o, i) => o.kind === 'COUP' && expect([o.player, o.banker]).toEqual([coups[i].player, coups[i].banker]));
      }
      expect(tried).toBeGreaterThan(0);
    });
  }

  it('a card the shoe cannot hold: a one-deck shoe reporting a card it has dealt already', () => {
    const one = ruleSet({ variant: 'COMMISSION', decks: 1 });
    const { events, coups } = playShoe(one, 42, 1);
    const coup = coups[1].events;
    const [first] = cardsOf(coup);
    const again = { ...(coups[0].events[cardsOf(coups[0].events)[0]] as DeviceEvent & { type: 'CARD_DEALT' }) };
    const start = events.indexOf(coup[0]);
    const faulted = [...coup.slice(0, first), { ...again, drawn: (coup[first] as { drawn: number }).drawn }, ...coup.slice(first + 1)];
    const out = read(one, [...events.slice(0, start), ...faulted]);
    expect(out.filter((o) => o.kind === 'HOLD').map((h) => h.kind === 'HOLD' && h.reason)).toEqual(['CARD_NOT_IN_SHOE']);
  });

  it('a bet on a seat the table has not, or a bet it does not offer: held before the cards', () => {
    const plain = ruleSet({ variant: 'COMMISSION' });
    const chips = [{ serial: 'X', denomination: 100_00n, chipSet: 'HKD-2026' }];
    for (const bet of [
      { seat: SEATS + 1, betType: 'PLAYER' as BetType },
      { seat: 0, betType: 'BANKER' as BetType },
      { seat: 3, betType: 'DRAGON_7' as BetType },
    ]) {
      const out = read(plain, [
        { type: 'SHOE_SHUFFLED', decks: 8 },
        { type: 'BET_DETECTED', ...bet, chips },
      ]);
      expect(out).toEqual([{ kind: 'HOLD', reason: 'BET_NOT_OFFERED', detail: expect.stringContaining(`Seat ${bet.seat}`) }]);
    }
  });

  it('a held coup settles nothing until it is cancelled; the next coup then reads cleanly', () => {
    const rules = RULES[0];
    const { events, coups } = playShoe(rules, 5);
    const start = events.indexOf(coups[3].events[0]);
    const wrong = DEVICE_FAULTS['the wrong button'](coups[3].events)!;
    const next = coups[4].events;
    const out = read(rules, [...events.slice(0, start), ...wrong.events, { type: 'COUP_CANCELLED' }, ...next]);
    expect(out.map((o) => o.kind)).toEqual(['COUP', 'COUP', 'COUP', 'HOLD', 'COUP']);
    const last = out[4];
    expect(last.kind === 'COUP' && [last.player, last.banker]).toEqual([coups[4].player, coups[4].banker]);
    // Without the cancel, the next coup's button settles nothing.
    const stuck = read(rules, [...events.slice(0, start), ...wrong.events, ...next]);
    expect(stuck.map((o) => o.kind)).toEqual(['COUP', 'COUP', 'COUP', 'HOLD']);
  });
});
