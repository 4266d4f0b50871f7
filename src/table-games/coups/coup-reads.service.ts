import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { CoupDto } from './dto/coup.dto';
import { describeCoup, toCoupDto } from './coup-answers';

/** A coup, or a shoe's coups, as the API answers them (a terminal's key at its own table only). */
@Injectable()
export class CoupReadsService {
  constructor(private readonly prisma: PrismaService) {}

  async get(coupId: string, actor: Actor): Promise<CoupDto> {
    const coup = await this.prisma.coup.findUnique({ where: { id: coupId }, select: { tableId: true } });
    if (!coup) throw notFound('Coup', coupId);
    assertTableAccess(actor, coup.tableId);
    return describeCoup(this.prisma, coupId);
  }

  async listForShoe(shoeId: string, actor: Actor): Promise<CoupDto[]> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
    if (!shoe) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    const coups = await this.prisma.coup.findMany({ where: { shoeId }, orderBy: { number: 'asc' }, include: { wagers: true, void: true } });
    const carried = await this.prisma.wager.findMany({ where: { shoeId, carriedFromId: { not: null } } });
    return coups.map((c) => toCoupDto(c, c.wagers, c.void, carried));
  }
}
