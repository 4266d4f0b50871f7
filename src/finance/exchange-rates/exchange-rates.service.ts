import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../platform/common/context';
import { AppError } from '../../platform/common/errors';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService } from '../../platform/database/prisma.service';
import { formatRate, MAX_RATE, parseRate, RATE_SCALE } from '../../domain';
import { ExchangeRate } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { ExchangeRateDto, ExchangeRatesQueryDto, SetExchangeRateDto } from './dto/exchange-rate.dto';

/** The daily rates a group's reports translate with (domain/money/fx.ts). Entries are never changed. */
@Injectable()
export class ExchangeRatesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  async set(dto: SetExchangeRateDto, ctx: RequestContext): Promise<ExchangeRateDto> {
    if (dto.currency === dto.into)
      throw new AppError('VALIDATION_FAILED', `A rate translates one currency into another: currency and into are both ${dto.into}`);
    const rateE9 = parseRate(dto.rate);
    if (rateE9 === null) throw new AppError('VALIDATION_FAILED', `rate must be above 0 and at most ${MAX_RATE / RATE_SCALE}, with at most 9 decimals`);
    return this.prisma.transaction(ctx, async (tx) => {
      const r = await tx.exchangeRate.create({
        data: { rateDay: new Date(`${dto.day}T00:00:00Z`), currency: dto.currency, intoCurrency: dto.into, rateE9, enteredByKeyId: ctx.actor.keyId },
      });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'exchangeRate.set',
        entityType: 'exchangeRate',
        entityId: r.id,
        data: { day: dto.day, currency: dto.currency, into: dto.into, rateE9: rateE9.toString() },
        seals: [seal('exchange_rates', r.id)],
      });
      return toDto(r, true);
    });
  }

  /** Every entry of the days asked for, oldest day first, each day's entries in the order they were made. */
  async list(q: ExchangeRatesQueryDto): Promise<ExchangeRateDto[]> {
    assertDayRange(q.from, q.to);
    const rows = await this.prisma.exchangeRate.findMany({
      where: { rateDay: { gte: new Date(`${q.from}T00:00:00Z`), lte: new Date(`${q.to}T00:00:00Z`) }, ...(q.into ? { intoCurrency: q.into } : {}) },
      orderBy: [{ rateDay: 'asc' }, { currency: 'asc' }, { intoCurrency: 'asc' }, { enteredAt: 'asc' }, { id: 'asc' }],
    });
    // The last entry of each day and pair is the one in force.
    return rows.map((r, i) => {
      const next = rows[i + 1];
      const inForce = !next || next.rateDay.getTime() !== r.rateDay.getTime() || next.currency !== r.currency || next.intoCurrency !== r.intoCurrency;
      return toDto(r, inForce);
    });
  }
}

function toDto(r: ExchangeRate, inForce: boolean): ExchangeRateDto {
  return {
    id: r.id,
    day: r.rateDay.toISOString().slice(0, 10),
    currency: r.currency,
    into: r.intoCurrency,
    rate: formatRate(r.rateE9),
    enteredBy: r.enteredByKeyId,
    enteredAt: r.enteredAt.toISOString(),
    inForce,
  };
}
