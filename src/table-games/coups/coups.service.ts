import { PitService } from '../../foundation/pit/pit.service';
import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor } from '../../platform/common/actor';
import { AppError } from '../../platform/common/errors';
import { Metrics } from '../../platform/common/metrics';
import { PrismaService } from '../../platform/database/prisma.service';
import { nextCoupNumber, recordedOfflineAt } from '../../domain';
import { ReadShoe } from '../../foundation/pit/pit.service';
import { pgRunner, SqlRunner } from '../../platform/database/sql';
import { AccessService } from '../../foundation/access/access.service';
import { TableWithClock } from '../../foundation/pit/table-rules';
import { CoupDto, HandsDto, RecordCoupDto } from './dto/coup.dto';
import { assertCasinoBanked, carriedWager, CoupSettlement, Hands, parseHands, Plan } from './coup-settlement';
import { StepwiseCoupsService } from './stepwise-coups.service';

/**
 * A whole coup recorded in one call (the pit terminal's usual way), or, without cards, opened for
 * betting (StepwiseCoupsService). Settled by the one settlement path (CoupSettlement).
 */
@Injectable()
export class CoupsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly settlement: CoupSettlement,
    private readonly stepwise: StepwiseCoupsService,
    private readonly keys: AccessService,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Records a coup. With cards: the whole coup, settled at once. Without: the coup opens for
   * betting. Any error leaves no trace and uses no number.
   */
  async record(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    if (!dto.cards) {
      if (dto.recordedAt !== undefined)
        throw new AppError('VALIDATION_FAILED', 'recordedAt is for a whole coup sent later: a coup opened for betting is recorded as it happens');
      await this.confirmKey(ctx.actor);
      return this.stepwise.openForBetting(shoeId, dto, ctx);
    }
    const coup = await this.settleWhole(shoeId, dto.cards, dto, ctx);
    this.metrics.settled(coup.wagers.length);
    return coup;
  }

  /**
   * A caller recognised from memory (AccessService) is confirmed by the settlement statement
   * itself; a request that goes any other way confirms its key here first, once.
   */
  private async confirmKey(actor: Actor): Promise<void> {
    if (actor.unconfirmed && !(await this.keys.isValid(actor.keyId, actor.keyHash ?? null)))
      throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
  }

  /**
   * A whole coup: settle in memory from the shoe as this instance's last coup of it left it (else
   * from a read of it), and write everything in the one settlement statement, which applies only if
   * the shoe has not moved since (and, for a caller recognised from memory, only if the key is still
   * valid). When the shoe moved, the same again from a read; when it moved again, behind the shoe's
   * row lock.
   */
  private async settleWhole(shoeId: string, cards: HandsDto, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    const pool = pgRunner(this.prisma.pool);
    const confirm = actor.unconfirmed ? actor : null;
    let hands: Hands;
    let table: TableWithClock;
    try {
      // Inside: a caller recognised from memory learns nothing (not even that a shoe exists) before its key is confirmed.
      hands = parseHands(cards);
      table = await this.pit.tableOf(shoeId);
      const remembered = this.pit.remembered(shoeId, actor, table);
      if (remembered) {
        // Computed from memory: an error may come from what changed since (cards returned to the
        // shoe by a void, say), so it is only believed from a read.
        const plan = await this.planWhole(ctx, pool, remembered, hands, dto).catch(() => null);
        const written = plan && (await this.settlement.write(pool, ctx, plan, remembered.version, confirm));
        if (plan && written) return this.settled(remembered, plan, written);
        this.pit.forget(shoeId);
      }
      const read = await this.pit.snapshot(shoeId, actor, table);
      const plan = await this.planWhole(ctx, pool, read, hands, dto);
      const written = await this.settlement.write(pool, ctx, plan, read.version, confirm);
      if (written) return this.settled(read, plan, written);
    } catch (e) {
      await this.confirmKey(actor);
      throw e;
    }
    await this.confirmKey(actor);
    return this.prisma.rawTransaction(ctx, async (client) => {
      const db = pgRunner(client);
      const read = await this.pit.lockRaw(client, shoeId, actor, table);
      const plan = await this.planWhole(ctx, db, read, hands, dto);
      const written = await this.settlement.write(db, ctx, plan, read.version, null);
      if (!written) throw new Error(`Coup ${plan.dto.id}: the shoe moved under its lock`);
      return this.settled(read, plan, written);
    });
  }

  /** A whole coup written: the pit remembers the shoe as it left it; the answer. */
  private settled(read: ReadShoe, plan: Plan, version: string): CoupDto {
    const p = plan.params;
    this.pit.rememberSettled(read, {
      remaining: p.remaining,
      cardsDealt: p.cardsDealt,
      coupCount: p.coupCount,
      lastCoupNumber: p.lastCoupNumber,
      version,
      carried: plan.carriedForward.map((w) => ({ ...w, amount: w.amount.toString() })),
    });
    return plan.dto;
  }

  /** A whole coup planned on a read of the shoe: the tie bets waiting on it and the new wagers, settled. */
  private async planWhole(ctx: RequestContext, db: SqlRunner, read: ReadShoe, hands: Hands, dto: RecordCoupDto): Promise<Plan> {
    assertCasinoBanked(read.table);
    const wagers = [...read.carried.map(carriedWager), ...(await this.settlement.newWagers(db, read, dto.wagers))];
    const number = nextCoupNumber(read.shoe, dto.number);
    const offline = recordedOfflineAt(dto.recordedAt, new Date(), read.shoe.openedAt);
    return this.settlement.plan(ctx, read, { id: randomUUID(), number, isNew: true, recordedOfflineAt: offline }, hands, wagers);
  }
}
