import { BankState, Standing } from '../../foundation/pit/bank-state';
import { PitService } from '../../foundation/pit/pit.service';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import {
  BanqueCall,
  ChemmyCall,
  evaluateBanqueCoup,
  evaluateCoup,
  gamingDayOf,
  HouseCommission,
  bankerTakes,
  BankStatus,
  bankOpening,
  retireOffer,
  nextCoupNumber,
  nextBankerAfter,
  parseCards,
  playBanque,
  playChemmy,
  PLAYER_BANKED,
} from '../../domain';
import { Bank, BankCoup, BankCoupVoid, Prisma } from '../../generated/prisma/client';
import { ReadShoe } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { prismaRunner } from '../../platform/database/sql';
import { applyBankCoupToRollups } from '../../foundation/ledger/rollups';
import { rulesOf } from '../../foundation/pit/table-rules';
import { seal } from '../../foundation/ledger/seals';
import {
  BankCoupCardsDto,
  BankCoupDto,
  BankCoupOutcomeDto,
  BankDto,
  OpenBankDto,
  PunterResultDto,
  RecordBankCoupDto,
  RetireBankDto,
  StandingStakeDto,
} from './dto/bank.dto';

/**
 * The player-banked games (docs/domain.md §5): banks held by a seat, coups against them, retiring and
 * passing the bank. The money is the engine's (chemmyCoup, banqueCoup); this service keeps the
 * bank's state under the shoe's lock, works out who holds the bank next, and writes each coup
 * with the house's commission in the table-day rollups and the audit log, in one transaction.
 */
@Injectable()
export class BanksService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
  ) {}

  async open(shoeId: string, dto: OpenBankDto, ctx: RequestContext): Promise<BankDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: true });
      const game = playerBankedGame(locked);
      const [last] = await tx.bank.findMany({ where: { shoeId }, orderBy: { number: 'desc' }, take: 1 });
      const amount = BigInt(dto.amount);
      const { how, rotation, outOfTurnFor, stakesAccepted } = bankOpening(
        game,
        last ? { ...last, status: last.status as BankStatus } : null,
        { bankerSeat: dto.bankerSeat, amount, declined: dto.declined ?? [], rotation: dto.rotation, how: dto.how },
        locked.limits.table,
      );
      const bank = await tx.bank.create({
        data: {
          id: randomUUID(),
          tableId: locked.shoe.tableId,
          propertyId: locked.shoe.propertyId,
          shoeId,
          number: (last?.number ?? 0) + 1,
          game,
          bankerSeat: dto.bankerSeat,
          rotation: [...rotation],
          how,
          openedWith: amount,
          stake: amount,
          openedByKeyId: actor.keyId,
          outOfTurnFor,
          stakesAccepted,
        },
      });
      await this.audit.append(tx, ctx, {
        stream: bank.tableId,
        action: 'bank.open',
        entityType: 'bank',
        entityId: bank.id,
        data: { shoeId, number: bank.number, game, bankerSeat: bank.bankerSeat, amount: amount.toString(), rotation, how, outOfTurnFor },
        seals: [seal('banks', bank.id)],
      });
      return toBankDto(bank);
    });
  }

  async coup(bankId: string, dto: RecordBankCoupDto, ctx: RequestContext): Promise<BankCoupDto> {
    const { actor } = ctx;
    const shoeId = (await this.find(bankId, actor)).shoeId;
    return this.prisma.transaction(ctx, async (tx) => {
      // The shoe's lock serialises every write to the shoe and its banks.
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: true });
      const bank = (await tx.bank.findUnique({ where: { id: bankId } }))!;
      assertActive(bank);
      const number = nextCoupNumber(locked.shoe);
      const rules = rulesOf(locked.table);
      const house: HouseCommission = { commissionBps: rules.commissionBps, rounding: rules.rounding };
      const now = new Date();
      const day = gamingDayOf(now, locked.timeZone, locked.gamingDayStartHour);
      const played = bank.game === 'CHEMIN_DE_FER' ? chemmy(bank, dto, house) : banque(bank, dto, house);

      // The cards leave the shoe as for any coup.
      const { shoe } = locked;
      await this.changes.deal(prismaRunner(tx), locked, number, Object.values(played.hands).flat());

      const { standing, ...state } = played.bank;
      const after = await tx.bank.update({
        where: { id: bank.id },
        data: {
          ...state,
          coups: bank.coups + 1,
          ...(standing === undefined ? {} : { standing: standing === null ? Prisma.DbNull : (standing as never) }),
          ...(state.status && state.status !== 'ACTIVE' ? { closedAt: now } : {}),
        },
      });
      const row = await tx.bankCoup.create({
        data: {
          id: randomUUID(),
          bankId: bank.id,
          shoeId: shoe.id,
          tableId: shoe.tableId,
          propertyId: shoe.propertyId,
          number,
          gamingDay: new Date(`${day}T00:00:00Z`),
          cards: Object.fromEntries(Object.entries(dto.cards).filter(([, v]) => v !== undefined)),
          outcome: played.outcome as never,
          bankerSeat: bank.bankerSeat,
          bankBefore: played.bankBefore,
          covered: played.covered,
          setAside: played.setAside,
          commission: played.commission,
          bankAfter: played.bankAfter,
          nextBanker: played.nextBanker,
          punters: played.punters as never,
          bankStateBefore: stateOf(bank) as never,
          settledAt: now,
          createdByKeyId: actor.keyId,
        },
      });
      await applyBankCoupToRollups(tx, shoe, day, played.commission, 1n);
      const result = toBankCoupDto(row, after);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'bank.coup',
        entityType: 'bank',
        entityId: bank.id,
        data: { ...result, bank: undefined },
        seals: [seal('bank_coups', row.id), seal('banks', bank.id)],
      });
      return result;
    });
  }

  async retire(bankId: string, dto: RetireBankDto, ctx: RequestContext): Promise<BankDto> {
    const { actor } = ctx;
    const shoeId = (await this.find(bankId, actor)).shoeId;
    return this.prisma.transaction(ctx, async (tx) => {
      await this.pit.lock(tx, shoeId, actor, { mustBeOpen: false });
      const bank = (await tx.bank.findUnique({ where: { id: bankId } }))!;
      assertActive(bank);
      const offer = retireOffer({ ...bank, game: bank.game as 'CHEMIN_DE_FER' | 'BANQUE' }, dto.amount === undefined ? undefined : BigInt(dto.amount));
      const after = await tx.bank.update({
        where: { id: bank.id },
        data: { status: 'RETIRED', offer, nextBanker: nextBankerAfter(bank.rotation, bank.bankerSeat, []), closedAt: new Date() },
      });
      const result = toBankDto(after);
      await this.audit.append(tx, ctx, {
        stream: bank.tableId,
        action: 'bank.retire',
        entityType: 'bank',
        entityId: bank.id,
        data: { bankerSeat: bank.bankerSeat, bankerTakes: result.bankerTakes, offer: offer.toString(), nextBanker: after.nextBanker },
        seals: [seal('banks', bank.id)],
      });
      return result;
    });
  }

  async get(bankId: string, actor: Actor): Promise<BankDto> {
    return toBankDto(await this.find(bankId, actor));
  }

  async listForShoe(shoeId: string, actor: Actor): Promise<BankDto[]> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId } });
    if (!shoe) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    return (await this.prisma.bank.findMany({ where: { shoeId }, orderBy: { number: 'asc' } })).map(toBankDto);
  }

  async coups(bankId: string, actor: Actor): Promise<BankCoupDto[]> {
    const bank = await this.find(bankId, actor);
    const rows = await this.prisma.bankCoup.findMany({ where: { bankId }, orderBy: { number: 'asc' }, include: { void: true } });
    return rows.map((r) => toBankCoupDto(r, bank));
  }

  private async find(bankId: string, actor: Actor): Promise<Bank> {
    const bank = await this.prisma.bank.findUnique({ where: { id: bankId } });
    if (!bank) throw notFound('Bank', bankId);
    assertTableAccess(actor, bank.tableId);
    return bank;
  }
}

function stateOf(b: Bank): BankState {
  return {
    stake: b.stake.toString(),
    setAside: b.setAside.toString(),
    commission: b.commission.toString(),
    bancoSuivi: b.bancoSuivi,
    standing: (b.standing as Standing[] | null) ?? null,
    stakesAccepted: b.stakesAccepted,
    coups: b.coups,
  };
}

/** What a coup does to the bank, and what the answer shows. */
interface Played {
  hands: Record<string, ReturnType<typeof parseCards>>;
  outcome: Record<string, unknown>;
  bankBefore: bigint;
  covered: bigint;
  setAside: bigint;
  commission: bigint;
  bankAfter: bigint | null;
  nextBanker: number;
  punters: { seat: number; side: string | null; call: string | null; bystander: boolean; stake: string; net: string; unpaid: string }[];
  bank: Partial<Pick<Bank, 'stake' | 'setAside' | 'commission' | 'bancoSuivi' | 'status' | 'nextBanker' | 'stakesAccepted'>> & { standing?: Standing[] | null };
}

/** A chemin de fer coup: the request checked for this game, the engine plays it on the bank. */
function chemmy(bank: Bank, dto: RecordBankCoupDto, house: HouseCommission): Played {
  const { player, banker, right, left } = dto.cards;
  if (!player || right || left)
    throw new AppError('VALIDATION_FAILED', "A chemin de fer coup records the punters' hand (cards.player) and the banker's (cards.banker) only");
  if (dto.declareStakesAccepted !== undefined) throw new AppError('VALIDATION_FAILED', 'declareStakesAccepted belongs to baccarat banque');
  const calls = dto.stakes?.map((s): ChemmyCall => {
    if (s.side) throw new AppError('VALIDATION_FAILED', `Seat ${s.seat}: sides belong to baccarat banque`);
    return { seat: s.seat, amount: s.amount === undefined ? undefined : BigInt(s.amount), call: s.call, bystander: s.bystander };
  });
  const hands = { player: parseCards(player), banker: parseCards(banker) };
  const outcome = evaluateCoup('CHEMIN_DE_FER', hands);
  const standing =
    (bank.standing as Standing[] | null)?.map((s) => ({ seat: s.seat, amount: BigInt(s.amount), call: s.call ?? undefined, bystander: s.bystander })) ?? null;
  const {
    stakes,
    bankBefore,
    result: r,
    next,
  } = playChemmy(
    house,
    {
      bankerSeat: bank.bankerSeat,
      rotation: bank.rotation,
      stake: bank.stake,
      setAside: bank.setAside,
      commission: bank.commission,
      bancoSuivi: bank.bancoSuivi,
      standing,
      outOfTurnFor: bank.outOfTurnFor,
    },
    { calls: calls ?? null, bankerAdds: BigInt(dto.bankerAdds ?? 0), winner: outcome.winner },
  );
  const byStake = new Map(stakes.map((s) => [s.seat, s]));
  return {
    hands,
    outcome: {
      winner: outcome.winner,
      punterTotal: outcome.playerTotal,
      bankerTotal: outcome.bankerTotal,
      natural: outcome.natural,
      handPlayer: r.handPlayer,
      stakesStand: r.stakesStand,
    },
    bankBefore,
    covered: r.covered,
    setAside: r.setAside,
    commission: r.commission,
    bankAfter: r.bankAfter,
    nextBanker: r.nextBanker,
    punters: r.punters.map((p) => {
      const s = byStake.get(p.seat)!;
      return { seat: p.seat, side: null, call: s.call ?? null, bystander: s.bystander ?? false, stake: p.stake.toString(), net: p.net.toString(), unpaid: '0' };
    }),
    bank: {
      stake: next.stake,
      setAside: next.setAside,
      commission: next.commission,
      bancoSuivi: next.bancoSuivi,
      standing: next.standing?.map((s) => ({ seat: s.seat, amount: s.amount.toString(), call: s.call ?? null, bystander: s.bystander ?? false })) ?? null,
      ...(next.passed ? { status: 'PASSED', nextBanker: r.nextBanker } : {}),
    },
  };
}

/** A baccarat banque coup: the request checked for this game, the engine plays it on the bank. */
function banque(bank: Bank, dto: RecordBankCoupDto, house: HouseCommission): Played {
  const { player, banker, right, left } = dto.cards;
  if (!right || !left || player)
    throw new AppError('VALIDATION_FAILED', 'A banque coup records the right (cards.right), left (cards.left) and banker (cards.banker) hands');
  if (dto.bankerAdds !== undefined) throw new AppError('VALIDATION_FAILED', 'bankerAdds belongs to chemin de fer');
  if (!dto.stakes?.length) throw new AppError('INVALID_STAKES', 'No one stakes against the bank');
  const calls: BanqueCall[] = dto.stakes.map((s) => {
    if (!s.side) throw new AppError('VALIDATION_FAILED', `Seat ${s.seat}: side is required (RIGHT, LEFT or A_CHEVAL)`);
    if (s.bystander) throw new AppError('VALIDATION_FAILED', `Seat ${s.seat}: bystanders belong to chemin de fer`);
    if (s.call === 'BANCO_SUIVI') throw new AppError('INVALID_STAKES', 'Banco suivi belongs to chemin de fer');
    if (s.amount === undefined && !s.call) throw new AppError('VALIDATION_FAILED', `Seat ${s.seat}: amount is required (only a banco may leave it out)`);
    return { seat: s.seat, side: s.side, amount: s.amount === undefined ? undefined : BigInt(s.amount), banco: s.call === 'BANCO' };
  });
  const hands = { right: parseCards(right), left: parseCards(left), banker: parseCards(banker) };
  const outcome = evaluateBanqueCoup(hands);
  const {
    stakes,
    result: r,
    next,
    nextBanker,
  } = playBanque(
    house,
    { bankerSeat: bank.bankerSeat, rotation: bank.rotation, stake: bank.stake, commission: bank.commission, stakesAccepted: bank.stakesAccepted },
    { calls, outcome, declareAccepted: dto.declareStakesAccepted === true },
  );
  const callOf = new Map(calls.map((c) => [c.seat, c.banco ? 'BANCO' : null]));
  return {
    hands,
    outcome: { right: outcome.right, left: outcome.left, bankerTotal: outcome.bankerTotal, bankerNatural: outcome.bankerNatural, bankBroken: r.bankBroken },
    bankBefore: bank.stake,
    covered: stakes.reduce((t, s) => t + s.amount, 0n),
    setAside: 0n,
    commission: r.commission,
    bankAfter: r.bankAfter,
    nextBanker,
    punters: r.stakes.map((p) => ({
      seat: p.seat,
      side: p.side,
      call: callOf.get(p.seat) ?? null,
      bystander: false,
      stake: p.stake.toString(),
      net: p.net.toString(),
      unpaid: p.unpaid.toString(),
    })),
    bank: { stake: next.stake, commission: next.commission, stakesAccepted: next.stakesAccepted, ...(next.broke ? { status: 'BROKE', nextBanker } : {}) },
  };
}

function playerBankedGame(locked: ReadShoe): 'CHEMIN_DE_FER' | 'BANQUE' {
  const variant = locked.table.variant;
  if (!PLAYER_BANKED.includes(variant)) {
    throw new AppError('NOT_PLAYER_BANKED', `Table ${locked.table.code} deals ${variant}, a casino-banked game: record its coups with wagers, not banks`);
  }
  return variant as 'CHEMIN_DE_FER' | 'BANQUE';
}

function assertActive(bank: Bank): void {
  if (bank.status !== 'ACTIVE') {
    const why =
      { PASSED: 'passed after a losing coup', RETIRED: 'retired', BROKE: 'is broke', SHOE_CLOSED: 'closed with its shoe' }[bank.status] ?? bank.status;
    throw new AppError('BANK_CLOSED', `Bank ${bank.number} (seat ${bank.bankerSeat}) ${why}: it takes no more coups`);
  }
}

function toBankDto(b: Bank): BankDto {
  const standing = b.standing as Standing[] | null;
  const takes = bankerTakes({ ...b, status: b.status as BankStatus });
  return {
    id: b.id,
    shoeId: b.shoeId,
    tableId: b.tableId,
    number: b.number,
    game: b.game,
    bankerSeat: b.bankerSeat,
    rotation: b.rotation,
    how: b.how,
    openedWith: minorUnits(b.openedWith),
    bank: minorUnits(b.stake),
    setAside: minorUnits(b.setAside),
    houseCommission: minorUnits(b.commission),
    bancoSuivi: b.bancoSuivi,
    standingStakes: standing
      ? standing.map((s): StandingStakeDto => ({ seat: s.seat, amount: minorUnits(BigInt(s.amount)), call: s.call, bystander: s.bystander }))
      : null,
    stakesAccepted: b.stakesAccepted,
    coups: b.coups,
    status: b.status,
    offer: minorUnitsOrNull(b.offer),
    nextBanker: b.status === 'ACTIVE' ? b.bankerSeat : b.nextBanker,
    outOfTurnFor: b.outOfTurnFor,
    bankerTakes: minorUnitsOrNull(takes),
    openedAt: b.openedAt.toISOString(),
    closedAt: b.closedAt?.toISOString() ?? null,
  };
}

function toBankCoupDto(c: BankCoup & { void?: BankCoupVoid | null }, bank: Bank): BankCoupDto {
  type P = Played['punters'][number];
  const o = c.outcome as { handPlayer?: number; stakesStand?: boolean; bankBroken?: boolean };
  return {
    id: c.id,
    bankId: c.bankId,
    shoeId: c.shoeId,
    number: c.number,
    gamingDay: c.gamingDay.toISOString().slice(0, 10),
    cards: c.cards as unknown as BankCoupCardsDto,
    outcome: c.outcome as unknown as BankCoupOutcomeDto,
    bankerSeat: c.bankerSeat,
    bankBefore: minorUnits(c.bankBefore),
    covered: minorUnits(c.covered),
    setAside: minorUnits(c.setAside),
    commission: minorUnits(c.commission),
    bankAfter: minorUnitsOrNull(c.bankAfter),
    nextBanker: c.nextBanker!,
    handPlayer: o.handPlayer ?? null,
    stakesStand: o.stakesStand ?? false,
    bankBroken: o.bankBroken ?? false,
    punters: (c.punters as unknown as P[]).map((p): PunterResultDto => ({
      seat: p.seat,
      side: p.side,
      call: p.call,
      bystander: p.bystander,
      stake: minorUnits(BigInt(p.stake)),
      net: minorUnits(BigInt(p.net)),
      unpaid: minorUnits(BigInt(p.unpaid)),
    })),
    bank: toBankDto(bank),
    void: c.void
      ? { reason: c.void.reason, voidedByKeyId: c.void.voidedByKeyId, approvedByKeyId: c.void.approvedByKeyId, voidedAt: c.void.createdAt.toISOString() }
      : null,
    settledAt: c.settledAt.toISOString(),
  };
}
