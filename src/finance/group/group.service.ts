import { Injectable } from '@nestjs/common';
import { GROUP_PUBLICATION, groupLinks } from '../../platform/database/group';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { GroupLinkDto } from './dto/group-link.dto';

/** A group's links to its properties, as its database sees them. */
@Injectable()
export class GroupService {
  constructor(private readonly prisma: PrismaService) {}

  async links(): Promise<GroupLinkDto[]> {
    return (await groupLinks(prismaRunner(this.prisma))).map((l) => ({
      name: l.name.slice(GROUP_PUBLICATION.length + 1),
      enabled: l.enabled,
      connected: l.connected,
      receivedLsn: l.receivedLsn,
      lastMessageAt: l.lastMessageAt?.toISOString() ?? null,
      latestEndAt: l.latestEndAt?.toISOString() ?? null,
      tablesCopying: l.tablesCopying,
    }));
  }
}
