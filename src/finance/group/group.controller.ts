import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FIGURE_READERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { GroupLinkDto } from './dto/group-link.dto';
import { GroupService } from './group.service';

@ApiTags('Group')
@Controller('v1/group')
export class GroupController {
  constructor(private readonly group: GroupService) {}

  @Endpoint('GET', 'links', {
    operationId: 'groupLinks',
    summary: "The group's links to its properties",
    description:
      "On a casino group's database: each property it subscribes to, whether its changes are arriving now, and when it last heard from it. A statement read while a property's link is down holds that property's figures as they stood when the link went down. On a property's own database the list is empty.",
    roles: FIGURE_READERS,
    type: GroupLinkDto,
    isArray: true,
  })
  links(): Promise<GroupLinkDto[]> {
    return this.group.links();
  }
}
