import { Module } from '@nestjs/common';
import { GroupController } from './group.controller';
import { GroupService } from './group.service';

/** A casino group's view of its links to the properties (src/platform/database/group.ts makes them). */
@Module({ controllers: [GroupController], providers: [GroupService] })
export class GroupModule {}
