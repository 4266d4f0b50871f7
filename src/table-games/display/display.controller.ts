import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, DISPLAY_READERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { DisplayDto } from './dto/display.dto';
import { DisplayService } from './display.service';

@ApiTags('Display')
@Controller('v1')
export class DisplayController {
  constructor(private readonly display: DisplayService) {}

  @Endpoint('GET', 'tables/:id/display', {
    operationId: 'getTableDisplay',
    summary: "The table-side display's board: limits, shoe, roads and last results",
    description:
      "What the big screen beside a table shows the players, and nothing a player should not see: the table's code, game, currency and decks; the limits in force (each offered bet's minimum, maximum and pay); " +
      "the open shoe's counters (else the table's last shoe: a closed table still shows its last board); the shoe's five roads with the look-ahead, exactly as `GET /v1/shoes/{id}/roads`; " +
      'and its last 20 results newest first, with their cards, voided ones marked. No wagers, seats, patrons, commission, figures or dealers. ' +
      'A DISPLAY key reads its own table only; `GET /v1/tables/{id}/display/events` says when to read it again.',
    roles: DISPLAY_READERS,
    type: DisplayDto,
    errors: ['NOT_FOUND'],
  })
  board(@IdParam() tableId: string, @CurrentActor() actor: Actor): Promise<DisplayDto> {
    return this.display.board(tableId, actor);
  }
}
