import { playShoe } from '../../support/device-shoe';
import {
  BetType,
  DeviceEvent,
  evaluateCoup,
  HoldReason,
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

/** One fault put into a coup's events: the events with it, and the hold it must give. */
type Fault = (coup: DeviceEvent[], rules: RuleSet) => { events: DeviceEvent[]; reason: HoldReason } | null;
const cardsOf = (events: DeviceEvent[]) => events.flatMap((e, i) => (e.type === 'CARD_DEALT' ? [i] : []));
const shifted = (events: DeviceEvent[], from: number, by: number): DeviceEvent[] =>
  events.map((e, i) => (i >= from && e.type === 'CARD_DEALT' ? { ...e, drawn: e.drawn + by } : e));

const FAULTS: Record<string, Fault> = {
  'a card dropped': (coup) => {
    const [, second] = cardsOf(coup);
    return { events: coup.filter((_, i) => i !== second), reason: 'CARD_SKIPPED' };
  },
  'a card read twice': (coup) => {
    const [first] = cardsOf(coup);
    return { events: [...coup.slice(0, first + 1), coup[first], ...coup.slice(first + 1)], reason: 'CARD_READ_TWICE' };
  },
  'two cards reported out of their turn': (coup) => {
    const [, second, third] = cardsOf(coup);
    const e = [...coup];
    [e[second], e[third]] = [e[third], e[second]];
    return { events: e, reason: 'CARD_SKIPPED' };
  },
  'a burn read as dealt': (coup) => {
    const [first] = cardsOf(coup);
    const burnt: DeviceEvent = { ...(coup[first] as DeviceEvent & { type: 'CARD_DEALT' }), slot: 'P1' };
    return { events: [...coup.slice(0, first), burnt, ...shifted(coup, first, 1).slice(first)], reason: 'CARD_OUT_OF_ORDER' };
  },
  'the button pressed before the third card': (coup) => {
    const cards = cardsOf(coup);
    if (cards.length < 5) return null;
    const button = coup[coup.length - 1];
    const last = cards[cards.length - 1];
    return { events: [...coup.slice(0, last), button, ...coup.slice(last, -1)], reason: 'RESULT_BEFORE_COMPLETE' };
  },
  'the wrong button': (coup) => {
    const button = coup[coup.length - 1] as DeviceEvent & { type: 'RESULT_CONFIRMED' };
    const wrong = button.winner === 'PLAYER' ? 'BANKER' : 'PLAYER';
    return { events: [...coup.slice(0, -1), { type: 'RESULT_CONFIRMED', winner: wrong }], reason: 'RESULT_DISAGREES' };
  },
  'a bet moved after the first card': (coup) => {
    const [first] = cardsOf(coup);
    const late: DeviceEvent = { type: 'BET_DETECTED', seat: 1, betType: 'PLAYER', chips: [{ serial: 'LATE-1', denomination: 999_00n, chipSet: 'HKD-2026' }] };
    return { events: [...coup.slice(0, first + 2), late, ...coup.slice(first + 2)], reason: 'BET_AFTER_CARDS' };
  },
};

describe('one fault in a coup', () => {
  const rules = RULES[0];
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: that coup held with its reason, none of it settled; the coups before it as dealt`, () => {
      let tried = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const { events, coups } = playShoe(rules, seed * 104729);
        const target = 5 + (seed % 20);
        const faulted = fault(coups[target].events, rules);
        if (!faulted) continue;
        tried++;
        const start = events.indexOf(coups[target].events[0]);
        const before = events.slice(0, start);
        const out = read(rules, [...before, ...faulted.events]);
        const holds = out.filter((o) => o.kind === 'HOLD');
        expect(holds.map((h) => h.kind === 'HOLD' && h.reason)).toEqual([faulted.reason]);
        const settled = out.filter((o) => o.kind === 'COUP');
        expect(settled).toHaveLength(target);
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
      const out = read(plain, [{ type: 'SHOE_SHUFFLED', decks: 8 }, { type: 'BET_DETECTED', ...bet, chips }]);
      expect(out).toEqual([{ kind: 'HOLD', reason: 'BET_NOT_OFFERED', detail: expect.stringContaining(`Seat ${bet.seat}`) }]);
    }
  });

  it('a held coup settles nothing until it is cancelled; the next coup then reads cleanly', () => {
    const rules = RULES[0];
    const { events, coups } = playShoe(rules, 5);
    const start = events.indexOf(coups[3].events[0]);
    const wrong = FAULTS['the wrong button'](coups[3].events, rules)!;
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
