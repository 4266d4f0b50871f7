import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { assertTableAccess } from '../../platform/common/actor';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits } from '../../platform/common/exact-json';
import { AppError, notFound } from '../../platform/common/errors';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import {
  admitAsApproved,
  admitProgrammeStart,
  admitProgrammeTerms,
  gamingDayOf,
  houseWin,
  programmeDue,
  ProgrammeVersion,
  RollingDay,
  rollingAccount,
  theoreticalStdDev,
  WHOLE_PLAY,
} from '../../domain';
import { Property, RollingProgramme } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { DEFAULT_PROPERTY_ID } from '../../foundation/pit/table-rules';
import { PitService } from '../../foundation/pit/pit.service';
import {
  ChipExchangeDto,
  ChipExchangeInputDto,
  ProgrammeDto,
  ProgrammeInputDto,
  PURCHASE_MEANS,
  RETURN_MEANS,
  RollingAccountDto,
  RollingDto,
  RollingQueryDto,
} from './dto/rolling.dto';
import { ROLLING_SQL as SQL } from './rolling-sql';
import { ApprovalChecks } from '../../foundation/ledger/approval-checks';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';
import { SealRef } from '../../foundation/ledger/seals';

/** The audit stream of dead-chip exchanges: the cage's, wherever they happen (a table's exchanges name it). */
export const ROLLING_STREAM = 'cage';

/** A patron's dead-chip play on a gaming day in a currency, from the patron rollups. */
interface PlayRow {
  currency: string;
  day: string;
  wagers: number;
  stake: string;
  net: string;
  rolled: string;
  theo: string;
  expected: string;
}

/** A programme version's terms, as asked for, approved and recorded. */
type ProgrammeTerms = { code: string; name: string; basis: 'ROLLING' | 'WIN_LOSS'; commissionBps: number; allowanceBps: number; effectiveFrom: string };

/**
 * Rolling-chip play (docs/domain.md §14): dead chips bought and returned at the cage or a table, and
 * a patron's rolling account over a range (a trip), from the exchanges and the dead-chip wagers.
 */
@Injectable()
export class RollingService implements OnModuleInit {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitService,
    private readonly credit: CreditLedger,
    private readonly checks: ApprovalChecks,
  ) {}

  /** A programme version asked for is held to what its record needs, asked and approved alike. */
  onModuleInit(): void {
    this.checks.register('PROGRAMME', async (tx, asked) => {
      const property = await tx.property.findUniqueOrThrow({ where: { id: asked.propertyId } });
      await this.admitVersion(tx, property, asked.terms as unknown as ProgrammeTerms);
    });
  }

  /**
   * What a programme version needs of the records now: within the caps of the policy in force (a
   * policy approved since may have lowered them), and a start its code allows (admitProgrammeStart).
   */
  private async admitVersion(tx: Tx, property: Property, terms: ProgrammeTerms): Promise<void> {
    admitProgrammeTerms(terms, await this.credit.policy(prismaRunner(tx), property));
    const today = gamingDayOf(new Date(), property.timeZone, property.gamingDayStartHour);
    const [latest] = await tx.rollingProgramme.findMany({ where: { propertyId: property.id, code: terms.code }, orderBy: { effectiveFrom: 'desc' }, take: 1 });
    admitProgrammeStart(terms.code, terms.effectiveFrom, today, latest?.effectiveFrom.toISOString().slice(0, 10) ?? null);
  }

  /**
   * Dead chips bought or returned. A purchase draws on what stands behind it (docs/domain/credit.md):
   * against FRONT_MONEY, front money the patron holds at the cage; against a MARKER, a marker written
   * with the chips within the patron's credit line, or, for a junket's member (a membership in force
   * today), drawn on the markers the junket has taken on its account and not yet issued as chips.
   * A return gives back no more than the patron holds.
   */
  async exchange(card: string, dto: ChipExchangeInputDto, ctx: RequestContext): Promise<ChipExchangeDto> {
    const means: readonly string[] = dto.kind === 'PURCHASE' ? PURCHASE_MEANS : RETURN_MEANS;
    if (!means.includes(dto.settledIn))
      throw new AppError('VALIDATION_FAILED', `A ${dto.kind.toLowerCase()} of dead chips is settled in ${means.join(', ')}, not ${dto.settledIn}`);
    if (dto.tableId) assertTableAccess(ctx.actor, dto.tableId);
    return this.prisma.transaction(ctx, async (tx) => {
      await this.pit.assertRegistered(prismaRunner(tx), [card]);
      const table = dto.tableId ? await tx.casinoTable.findUnique({ where: { id: dto.tableId }, select: { propertyId: true, currency: true } }) : null;
      if (dto.tableId && !table) throw notFound('Table', dto.tableId);
      if (table && dto.propertyId && dto.propertyId !== table.propertyId)
        throw new AppError('VALIDATION_FAILED', 'The table is at another property than propertyId: give one or the other');
      const propertyId = table?.propertyId ?? dto.propertyId ?? DEFAULT_PROPERTY_ID;
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      const currency = dto.currency ?? table?.currency ?? property.cashCurrency;
      if (table && currency !== table.currency)
        throw new AppError('VALIDATION_FAILED', `The table deals in ${table.currency}: its dead chips are ${table.currency}, not ${currency}`);
      if (dto.kind === 'RETURN') {
        // One exchange of the patron's at a time: two returns cannot both spend the same chips.
        await prismaRunner(tx).run(SQL.lockPatronChips.bind({ patronId: card }));
        const [{ held }] = await prismaRunner(tx).query<{ held: string }>(SQL.deadHeld.bind({ patronId: card, propertyId, currency }));
        if (BigInt(dto.amount) > BigInt(held))
          throw new AppError(
            'DEAD_CHIPS_NOT_HELD',
            `Patron ${card} holds ${held} (minor units of ${currency}) of this property's dead chips (bought, less returned, less lost): the cage takes back no more than that`,
            { held: BigInt(held) },
          );
      }
      const now = new Date();
      const day = gamingDayOf(now, property.timeZone, property.gamingDayStartHour);
      const amount = BigInt(dto.amount);
      const sealed: SealRef[] = [];
      let markerId: string | null = null;
      let junketId: string | null = null;
      if (dto.kind === 'PURCHASE' && dto.settledIn === 'FRONT_MONEY') await this.credit.assertFrontMoney(tx, propertyId, card, currency, amount);
      if (dto.kind === 'PURCHASE' && dto.settledIn === 'MARKER') {
        const op = await this.credit.junketOf(tx, card, propertyId, day);
        if (op) {
          if (op.currency !== currency)
            throw new AppError(
              'VALIDATION_FAILED',
              `Patron ${card} plays for junket ${op.code}, whose account is in ${op.currency}: its dead chips on credit are ${op.currency}, not ${currency}`,
            );
          await this.credit.drawOnJunketMarkers(tx, op, amount);
          junketId = op.id;
        } else {
          const marker = await this.credit.issueMarker(
            tx,
            { propertyId, tableId: dto.tableId ?? null, patronId: card, amount, currency, gamingDay: new Date(`${day}T00:00:00Z`), at: now },
            ctx.actor.keyId,
          );
          markerId = marker.id;
          sealed.push(seal('markers', markerId));
        }
      }
      const id = randomUUID();
      await tx.chipExchange.create({
        data: {
          id,
          propertyId,
          patronId: card,
          kind: dto.kind,
          amount: BigInt(dto.amount),
          currency,
          settledIn: dto.settledIn,
          tableId: dto.tableId ?? null,
          gamingDay: new Date(`${day}T00:00:00Z`),
          at: now,
          recordedByKeyId: ctx.actor.keyId,
          markerId,
          junketId,
        },
      });
      const out: ChipExchangeDto = {
        id,
        propertyId,
        patronId: card,
        kind: dto.kind,
        amount: minorUnits(BigInt(dto.amount)),
        currency,
        settledIn: dto.settledIn,
        tableId: dto.tableId ?? null,
        gamingDay: day,
        at: now.toISOString(),
        recordedByKeyId: ctx.actor.keyId,
        markerId,
        junketId,
      };
      await this.audit.append(tx, ctx, {
        stream: ROLLING_STREAM,
        action: 'chips.exchange',
        entityType: 'chipExchange',
        entityId: id,
        data: { ...out, amount, ...(markerId ? { patronId: card } : {}) },
        seals: [seal('chip_exchanges', id), ...sealed],
      });
      return out;
    });
  }

  /** A patron's exchanges over a range, oldest first (a read of the patron's record, audited). */
  async exchanges(card: string, q: RollingQueryDto, ctx: RequestContext): Promise<ChipExchangeDto[]> {
    assertDayRange(q.from, q.to);
    return this.prisma.transaction(ctx, async (tx) => {
      await this.assertPatron(tx, card);
      const rows = await prismaRunner(tx).query<Omit<ChipExchangeDto, 'at' | 'amount'> & { at: Date; amount: string }>(
        SQL.exchangeList.bind({ patronId: card, from: q.from, to: q.to, propertyId: q.propertyId ?? null }),
      );
      await this.audit.patronRead(tx, ctx, { type: 'patron', id: card }, { what: 'chip exchanges', from: q.from, to: q.to });
      return rows.map((r) => ({ ...r, amount: minorUnits(BigInt(r.amount)), at: r.at.toISOString() }));
    });
  }

  /**
   * A patron's rolling account over a range, per currency (docs/domain.md §14): dead chips bought,
   * returned and lost, what is left in hand, the win on them, rolling-chip win % and its theory.
   */
  async rolling(card: string, q: RollingQueryDto, ctx: RequestContext): Promise<RollingDto> {
    assertDayRange(q.from, q.to);
    if (q.programme !== undefined && q.propertyId === undefined)
      throw new AppError('VALIDATION_FAILED', "A programme is its property's: give propertyId with programme");
    const range = { patronId: card, from: q.from, to: q.to, propertyId: q.propertyId ?? null };
    return this.prisma.transaction(ctx, async (tx) => {
      await this.assertPatron(tx, card);
      const versions =
        q.programme === undefined
          ? null
          : (await tx.rollingProgramme.findMany({ where: { propertyId: q.propertyId, code: q.programme }, orderBy: { effectiveFrom: 'asc' } })).map(versionOf);
      if (versions !== null && versions.length === 0) throw notFound('Programme', q.programme!);
      const db = prismaRunner(tx);
      const exchanged = await db.query<{ currency: string; purchased: string; returned: string }>(SQL.exchangesOf.bind(range));
      const play = await db.query<PlayRow>(SQL.deadPlayOf.bind(range));
      const variances = await db.query<{ currency: string; var: string }>(SQL.deadVarianceOf.bind({ ...range, wholePlay: WHOLE_PLAY }));
      type Sums = {
        purchased: bigint;
        returned: bigint;
        rolled: bigint;
        handle: bigint;
        customerNet: bigint;
        theoE12: bigint;
        expectedRolledE12: bigint;
        varE12: bigint;
        wagers: number;
        days: Map<string, { rolled: bigint; customerNet: bigint }>;
      };
      const byCurrency = new Map<string, Sums>();
      const sums = (currency: string) => {
        let s = byCurrency.get(currency);
        if (!s)
          byCurrency.set(
            currency,
            (s = {
              purchased: 0n,
              returned: 0n,
              rolled: 0n,
              handle: 0n,
              customerNet: 0n,
              theoE12: 0n,
              expectedRolledE12: 0n,
              varE12: 0n,
              wagers: 0,
              days: new Map(),
            }),
          );
        return s;
      };
      for (const e of exchanged) {
        const s = sums(e.currency);
        s.purchased += BigInt(e.purchased);
        s.returned += BigInt(e.returned);
      }
      // The rollups keep the dead-chip wagers' sums per patron, day, table, visit and bet type, and
      // the dead stakes' variance per coup (whole play): the account is their sum.
      for (const p of play) {
        const s = sums(p.currency);
        s.wagers += p.wagers;
        s.handle += BigInt(p.stake);
        s.customerNet += BigInt(p.net);
        s.rolled += BigInt(p.rolled);
        s.theoE12 += BigInt(p.theo);
        s.expectedRolledE12 += BigInt(p.expected);
        const d = s.days.get(p.day) ?? { rolled: 0n, customerNet: 0n };
        d.rolled += BigInt(p.rolled);
        d.customerNet += BigInt(p.net);
        s.days.set(p.day, d);
      }
      for (const v of variances) sums(v.currency).varE12 += BigInt(v.var);
      const accounts: RollingAccountDto[] = [...byCurrency]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([currency, s]) => {
          const a = rollingAccount(s);
          const days: RollingDay[] = [...s.days].map(([day, d]) => ({ day, rolled: d.rolled, win: houseWin(d.customerNet) }));
          const due = versions === null ? null : programmeDue(versions, days, a.win);
          return {
            currency,
            purchased: minorUnits(a.purchased),
            returned: minorUnits(a.returned),
            netPurchased: minorUnits(a.netPurchased),
            rolled: minorUnits(a.rolled),
            inHand: minorUnits(a.inHand),
            agrees: a.agrees,
            wagers: s.wagers,
            handle: minorUnits(a.handle),
            win: minorUnits(a.win),
            rollingWinPercent: a.rollingWinPercent,
            theoreticalWin: minorUnits(a.theoreticalWin),
            theoreticalWinStdDev: minorUnits(theoreticalStdDev(s.varE12)),
            theoreticalRollingWinPercent: a.theoreticalRollingWinPercent,
            programme: due && {
              code: q.programme!,
              commission: minorUnits(due.commission),
              allowance: minorUnits(due.allowance),
              netWin: minorUnits(due.netWin),
              daysOutside: [...due.daysOutside],
            },
          };
        });
      await this.audit.patronRead(tx, ctx, { type: 'patron', id: card }, { what: 'rolling account', from: q.from, to: q.to });
      return { patronId: card, from: q.from, to: q.to, accounts };
    });
  }

  /**
   * A new version of a programme (or its first), from a gaming day not yet begun at the property and
   * after the code's latest version: what was due under a version stays due. Never an edit. Its
   * terms are two persons' (docs/domain/rolling-chips.md): recorded only as the credit request
   * (act PROGRAMME) a second credit officer approved, once, and within the property's caps in force now.
   */
  async addProgramme(propertyId: string, dto: ProgrammeInputDto, ctx: RequestContext): Promise<ProgrammeDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      const db = prismaRunner(tx);
      const terms = {
        code: dto.code,
        name: dto.name,
        basis: dto.basis,
        commissionBps: dto.commissionBps,
        allowanceBps: dto.allowanceBps ?? 0,
        effectiveFrom: dto.effectiveFrom,
      };
      const requestId = dto.requestId ?? null;
      if (requestId !== null) await this.credit.lockRequest(db, requestId);
      const request = requestId === null ? null : await this.credit.request(db, requestId);
      if (requestId !== null && !request) throw notFound('Credit request', requestId);
      admitAsApproved('PROGRAMME', requestId, request, propertyId, terms);
      const recorded = await tx.rollingProgramme.findUnique({ where: { requestId: requestId! }, select: { id: true } });
      if (recorded) throw new AppError('CONFLICT', `Credit request ${requestId} is recorded already: programme version ${recorded.id}`);
      // Within the caps in force now, and from a day its code allows: as when it was asked and approved.
      await this.admitVersion(tx, property, terms);
      const now = new Date();
      const row = await tx.rollingProgramme.create({
        data: {
          id: randomUUID(),
          propertyId,
          code: dto.code,
          name: dto.name,
          basis: dto.basis,
          commissionBps: dto.commissionBps,
          allowanceBps: dto.allowanceBps ?? 0,
          effectiveFrom: new Date(`${dto.effectiveFrom}T00:00:00Z`),
          recordedByKeyId: ctx.actor.keyId,
          recordedAt: now,
          requestId,
        },
      });
      const out = programmeDto(row);
      await this.audit.append(tx, ctx, {
        stream: ROLLING_STREAM,
        action: 'programme.version',
        entityType: 'programme',
        entityId: row.id,
        data: { ...out },
        seals: [seal('rolling_programmes', row.id)],
      });
      return out;
    });
  }

  /** A property's programmes: every version, by code and effective day. */
  async programmes(propertyId: string): Promise<ProgrammeDto[]> {
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    const rows = await this.prisma.rollingProgramme.findMany({ where: { propertyId }, orderBy: [{ code: 'asc' }, { effectiveFrom: 'asc' }] });
    return rows.map(programmeDto);
  }

  private async assertPatron(tx: Tx, card: string): Promise<void> {
    if (!(await tx.patron.findUnique({ where: { card }, select: { card: true } }))) throw notFound('Patron', card);
  }
}

function versionOf(p: RollingProgramme): ProgrammeVersion {
  return { basis: p.basis, commissionBps: p.commissionBps, allowanceBps: p.allowanceBps, effectiveFrom: p.effectiveFrom.toISOString().slice(0, 10) };
}

function programmeDto(p: RollingProgramme): ProgrammeDto {
  return {
    id: p.id,
    propertyId: p.propertyId,
    code: p.code,
    name: p.name,
    basis: p.basis,
    commissionBps: p.commissionBps,
    allowanceBps: p.allowanceBps,
    effectiveFrom: p.effectiveFrom.toISOString().slice(0, 10),
    recordedByKeyId: p.recordedByKeyId,
    recordedAt: p.recordedAt.toISOString(),
    requestId: p.requestId,
  };
}
