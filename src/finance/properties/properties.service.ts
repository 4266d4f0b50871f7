import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { Actor } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { DEFAULT_EXPECTED_PACE, expectedPaceInForce, isValidTimeZone, US_TITLE_31, VARIANTS } from '../../domain';
import { PaceTarget, Property } from '../../generated/prisma/client';
import { minorUnits } from '../../platform/common/exact-json';
import { CreatePropertyDto, PropertyDto } from './dto/property.dto';
import { PaceTargetDto, PaceTargetsDto, SetPaceTargetDto } from './dto/pace-target.dto';
import { seal } from '../../foundation/ledger/seals';
import { AuditLog } from '../../foundation/ledger/audit-log';

@Injectable()
export class PropertiesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  async create(dto: CreatePropertyDto, ctx: RequestContext): Promise<PropertyDto> {
    if (!isValidTimeZone(dto.timeZone)) throw new AppError('VALIDATION_FAILED', `"${dto.timeZone}" is not a time zone; use an IANA name such as Europe/Monaco`);
    const existing = await this.prisma.property.findUnique({ where: { name: dto.name } });
    if (existing) throw new AppError('CONFLICT', `A property named "${dto.name}" already exists`);
    // The cash-reporting settings: the US ones where the request leaves one out.
    const cash = {
      cashCurrency: dto.cashCurrency ?? US_TITLE_31.currency,
      mtlThreshold: dto.mtlThreshold === undefined ? US_TITLE_31.mtl : BigInt(dto.mtlThreshold),
      ctrThreshold: dto.ctrThreshold === undefined ? US_TITLE_31.ctr : BigInt(dto.ctrThreshold),
      structuringFloorBps: dto.structuringFloorBps ?? US_TITLE_31.structuringFloorBps,
    };
    if (cash.mtlThreshold > cash.ctrThreshold) {
      throw new AppError('VALIDATION_FAILED', `ctrThreshold (${cash.ctrThreshold}) must be at least mtlThreshold (${cash.mtlThreshold})`);
    }
    return this.prisma.transaction(ctx, async (tx) => {
      const p = await tx.property.create({ data: { ...dto, ...cash } });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'property.create',
        entityType: 'property',
        entityId: p.id,
        data: { ...dto, ...cash },
        seals: [seal('properties', p.id)],
      });
      return toDto(p);
    });
  }

  /** Every property, or only its own table's for a terminal's key: a terminal reads what it writes. */
  async list(actor: Actor): Promise<PropertyDto[]> {
    const where = actor.tableId ? { tables: { some: { id: actor.tableId } } } : {};
    return (await this.prisma.property.findMany({ where, orderBy: { createdAt: 'asc' } })).map(toDto);
  }

  async get(id: string, actor: Actor): Promise<PropertyDto> {
    const p = await this.prisma.property.findUnique({ where: { id } });
    if (!p) throw notFound('Property', id);
    if (actor.tableId && !(await this.prisma.casinoTable.count({ where: { id: actor.tableId, propertyId: id } }))) {
      throw new AppError('FORBIDDEN', "This terminal's key is bound to a table of another property");
    }
    return toDto(p);
  }

  /** A property's entry of the pace it expects of a variant (docs/domain.md §13): a new row, the latest in force. */
  async setPaceTarget(propertyId: string, dto: SetPaceTargetDto, ctx: RequestContext): Promise<PaceTargetDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      if (!(await tx.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
      const t = await tx.paceTarget.create({
        data: { propertyId, variant: dto.variant, decisionsPerHour: dto.decisionsPerHour, enteredByKeyId: ctx.actor.keyId },
      });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'paceTarget.set',
        entityType: 'property',
        entityId: propertyId,
        data: { variant: dto.variant, decisionsPerHour: dto.decisionsPerHour },
        seals: [seal('pace_targets', t.id)],
      });
      return paceTargetDto(t, true);
    });
  }

  /** The pace in force for every variant (the property's latest entry, else the default), and every entry made. */
  async paceTargets(propertyId: string): Promise<PaceTargetsDto> {
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    const rows = await this.prisma.paceTarget.findMany({ where: { propertyId }, orderBy: [{ enteredAt: 'asc' }, { id: 'asc' }] });
    const inForce = expectedPaceInForce(
      rows.map((r) => ({ id: r.id, variant: r.variant, decisionsPerHour: r.decisionsPerHour, enteredAt: r.enteredAt.getTime() })),
    );
    const current = new Set(VARIANTS.map((v) => inForce[v].entry?.id));
    return {
      propertyId,
      inForce: VARIANTS.map((v) => ({
        variant: v,
        decisionsPerHour: inForce[v].decisionsPerHour,
        source: inForce[v].source,
        defaultDecisionsPerHour: DEFAULT_EXPECTED_PACE[v],
        entryId: inForce[v].entry?.id ?? null,
      })),
      entries: rows.map((r) => paceTargetDto(r, current.has(r.id))),
    };
  }
}

function paceTargetDto(t: PaceTarget, inForce: boolean): PaceTargetDto {
  return {
    id: t.id,
    propertyId: t.propertyId,
    variant: t.variant,
    decisionsPerHour: t.decisionsPerHour,
    enteredBy: t.enteredByKeyId,
    enteredAt: t.enteredAt.toISOString(),
    inForce,
  };
}

function toDto(p: Property): PropertyDto {
  return {
    id: p.id,
    name: p.name,
    timeZone: p.timeZone,
    gamingDayStartHour: p.gamingDayStartHour,
    compShareBps: p.compShareBps,
    cashCurrency: p.cashCurrency,
    mtlThreshold: minorUnits(p.mtlThreshold),
    ctrThreshold: minorUnits(p.ctrThreshold),
    structuringFloorBps: p.structuringFloorBps,
    createdAt: p.createdAt.toISOString(),
  };
}
