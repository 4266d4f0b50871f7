import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { CARDS_PER_DECK, formatCard, outcomeOf, parseCards, roadsOf } from '../../domain';
import { Shoe } from '../../generated/prisma/client';
import { seatCommissions, toSeatCommissionDto } from '../../foundation/ledger/commission-ledger';
import { PitService } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { prismaRunner } from '../../platform/database/sql';

import { AuditLog } from '../../foundation/ledger/audit-log';
import { ClosedShoeDto, OpenShoeDto, ShoeDto } from './dto/shoe.dto';
import { seal } from '../../foundation/ledger/seals';
import { RoadsDto } from '../../platform/common/roads.dto';

@Injectable()
export class ShoesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
  ) {}

  async open(tableId: string, dto: OpenShoeDto, ctx: RequestContext): Promise<ShoeDto> {
    const { actor } = ctx;
    assertTableAccess(actor, tableId);
    const burn = parseCards(dto.burnCards ?? []);
    return this.prisma.transaction(ctx, async (tx) => {
      const id = await this.changes.openShoe(prismaRunner(tx), tableId, {
        decks: dto.decks,
        burn,
        cutCardPosition: dto.cutCardPosition ?? null,
        shuffleRef: dto.shuffleRef ?? null,
      });
      const shoe = await tx.shoe.findUniqueOrThrow({ where: { id } });
      const { decks } = shoe;
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'shoe.open',
        entityType: 'shoe',
        entityId: shoe.id,
        data: { number: shoe.number, decks, burnCards: shoe.burnCards, cutCardPosition: shoe.cutCardPosition, shuffleRef: shoe.shuffleRef },
        seals: [seal('shoes', shoe.id)],
      });
      return toShoeDto(shoe, [], []);
    });
  }

  async get(id: string, actor: Actor): Promise<ShoeDto> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id } });
    if (!shoe) throw notFound('Shoe', id);
    assertTableAccess(actor, shoe.tableId);
    return this.describe(this.prisma, shoe);
  }

  /**
   * The scoreboard's roads of the shoe (domain/game/roads.ts): its settled coups in order, voided ones
   * left out (a void takes its coup off every road).
   */
  async roads(shoeId: string, actor: Actor): Promise<RoadsDto> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
    if (!shoe) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    const coups = await this.prisma.coup.findMany({
      where: { shoeId, status: 'SETTLED', void: null },
      orderBy: { number: 'asc' },
      select: { number: true, winner: true, natural: true, playerCards: true, bankerCards: true },
    });
    const roads = roadsOf(
      coups.map((c) => {
        const o = outcomeOf(parseCards(c.playerCards), parseCards(c.bankerCards));
        return { number: c.number, winner: c.winner!, natural: c.natural!, playerPair: o.playerPair, bankerPair: o.bankerPair };
      }),
    );
    return { shoeId, coups: coups.length, ...roads };
  }

  async listForTable(tableId: string, actor: Actor): Promise<ShoeDto[]> {
    assertTableAccess(actor, tableId);
    await this.pit.withProperty(tableId);
    const shoes = await this.prisma.shoe.findMany({ where: { tableId }, orderBy: { number: 'asc' } });
    return Promise.all(shoes.map((s) => this.describe(this.prisma, s)));
  }

  async close(id: string, ctx: RequestContext): Promise<ClosedShoeDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.pit.lock(tx, id, actor, { mustBeOpen: true });
      const { shoe } = locked;
      // Tie bets waiting for a next coup that will not come go back to their owners.
      const returnedIds = await this.changes.closeShoe(prismaRunner(tx), locked, new Date());
      const returned = { count: returnedIds.length };
      const closed = await tx.shoe.findUniqueOrThrow({ where: { id } });
      // A player's bank ends with its shoe: the banker takes it and what was set aside.
      const banksClosed = await tx.bank.updateManyAndReturn({
        where: { shoeId: id, status: 'ACTIVE' },
        data: { status: 'SHOE_CLOSED', closedAt: closed.closedAt },
        select: { id: true },
      });
      const owed = (await seatCommissions(tx, id)).filter((o) => o.outstanding > 0n).map(toSeatCommissionDto);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'shoe.close',
        entityType: 'shoe',
        entityId: id,
        data: { carriedBetsReturned: returned.count, commissionOutstanding: owed },
        seals: [seal('shoes', id), ...banksClosed.map((b) => seal('banks', b.id)), ...returnedIds.map((w) => seal('wagers', w))],
      });
      return { ...(await this.describe(tx, closed)), commissionOutstanding: owed, carriedBetsReturned: returned.count };
    });
  }

  private async describe(db: Tx | PrismaService, shoe: Shoe): Promise<ShoeDto> {
    const coups = await db.coup.findMany({
      where: { shoeId: shoe.id },
      orderBy: { number: 'asc' },
      select: {
        id: true,
        number: true,
        status: true,
        winner: true,
        playerTotal: true,
        bankerTotal: true,
        playerCards: true,
        bankerCards: true,
        void: { select: { id: true } },
      },
    });
    return toShoeDto(
      shoe,
      coups,
      coups.filter((c) => !c.void).flatMap((c) => interleave(c.playerCards, c.bankerCards)),
    );
  }
}

/** Cards of a coup in dealing order: P B P B, then Player's third, then Banker's. */
function interleave(player: string[], banker: string[]): string[] {
  return [player[0], banker[0], player[1], banker[1], ...player.slice(2), ...banker.slice(2)].filter((c) => c !== undefined);
}

type CoupRow = {
  id: string;
  number: number;
  status: string;
  winner: string | null;
  playerTotal: number | null;
  bankerTotal: number | null;
  void: { id: string } | null;
};

function toShoeDto(shoe: Shoe, coups: CoupRow[], coupCards: string[]): ShoeDto {
  const remaining: Record<string, number> = {};
  shoe.remaining.forEach((n, card) => (remaining[formatCard(card)] = n));
  return {
    id: shoe.id,
    tableId: shoe.tableId,
    number: shoe.number,
    decks: shoe.decks,
    status: shoe.status,
    burnCards: shoe.burnCards,
    cutCardPosition: shoe.cutCardPosition,
    shuffleRef: shoe.shuffleRef,
    cardsDealt: shoe.cardsDealt,
    cardsLeft: shoe.decks * CARDS_PER_DECK - shoe.cardsDealt,
    coupCount: shoe.coupCount,
    lastCoupNumber: shoe.lastCoupNumber,
    openCoupId: shoe.openCoupId,
    cardsSeen: [...shoe.burnCards, ...coupCards],
    remaining,
    coups: coups.map((c) => ({
      id: c.id,
      number: c.number,
      status: c.status,
      voided: c.void !== null,
      winner: c.winner,
      playerTotal: c.playerTotal,
      bankerTotal: c.bankerTotal,
    })),
    openedAt: shoe.openedAt.toISOString(),
    closedAt: shoe.closedAt?.toISOString() ?? null,
  };
}
