import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { SeatingDto, SeatingsQueryDto, StartSeatingDto, TableSeatingDto } from './dto/seating.dto';
import { SeatingsService } from './seatings.service';

@ApiTags('Patrons')
@Controller('v1')
export class SeatingsController {
  constructor(private readonly seatings: SeatingsService) {}

  @Endpoint('POST', 'tables/:id/seatings', {
    operationId: 'seatPatron',
    summary: "A patron's card in at a seat",
    description:
      "Records that the patron's card is in at this seat from now: until it comes out, every wager on the seat that names no patron is theirs, in this visit. Several patrons may share a seat (back-betting: their wagers must then name whose they are) and one patron may hold several seats of the table; a patron is never seated at two tables at once.",
    writes:
      "a seating; the audit entry `seating.start` (the table's stream). The version of the table's open shoe moves, so a coup computed before the card went in is computed again.",
    roles: RECORDERS,
    status: 201,
    type: SeatingDto,
    errors: ['NOT_FOUND', 'TABLE_CLOSED', 'ALREADY_SEATED', 'PATRON_SEATED_ELSEWHERE', 'UNKNOWN_PATRON'],
  })
  start(@IdParam() id: string, @Body() dto: StartSeatingDto, @CurrentContext() ctx: RequestContext): Promise<SeatingDto> {
    return this.seatings.start(id, dto, ctx);
  }

  @Endpoint('POST', 'seatings/:id/end', {
    operationId: 'endSeating',
    summary: "A patron's card out",
    description:
      "Ends the visit: the seat's next wagers are no longer the patron's. The time between card in and card out is the time played in the patron's rating.",
    writes: "the seating's end (once); the audit entry `seating.end` (the table's stream). The version of the table's open shoe moves.",
    roles: RECORDERS,
    type: SeatingDto,
    errors: ['NOT_FOUND', 'SEATING_ENDED'],
  })
  end(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<SeatingDto> {
    return this.seatings.end(id, ctx);
  }

  @Endpoint('GET', 'tables/:id/seatings', {
    operationId: 'listSeatings',
    summary: 'Who is seated at the table',
    description:
      "The seatings open at the table now, in the order the cards went in; with `gamingDay`, every seating begun that gaming day, ended or not. Each with the patron's play in it: coups, handle and average bet (the pit's seat map).",
    roles: EVERYONE,
    type: TableSeatingDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() id: string, @Query() q: SeatingsQueryDto, @CurrentActor() actor: Actor): Promise<TableSeatingDto[]> {
    return this.seatings.list(id, q.gamingDay, actor);
  }
}
