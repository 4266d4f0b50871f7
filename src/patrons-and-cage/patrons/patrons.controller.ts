import { Body, Controller, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { PATRON_READERS, PATRON_REGISTRARS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { CardParam } from '../../platform/common/validation';
import { BetFiguresDto, PatronDto, PatronLookupDto, RatingDto, RatingQueryDto, RegisterPatronDto, VisitsPageDto, VisitsQueryDto } from './dto/patron.dto';
import { PatronsService } from './patrons.service';

@ApiTags('Patrons')
@ApiExtraModels(BetFiguresDto)
@Controller('v1/patrons')
export class PatronsController {
  constructor(private readonly patrons: PatronsService) {}

  @Endpoint('POST', '', {
    operationId: 'registerPatron',
    summary: 'Register a player card',
    description:
      "Adds a patron to the register under the casino's player-card number, with a name and a tier only where the casino keeps them (nothing else personal). A wager or a seating may name only a registered card.",
    writes: 'a patron; the audit entry `patron.register` (stream `patrons`).',
    roles: PATRON_REGISTRARS,
    status: 201,
    type: PatronDto,
    errors: ['CONFLICT'],
  })
  register(@Body() dto: RegisterPatronDto, @CurrentContext() ctx: RequestContext): Promise<PatronDto> {
    return this.patrons.register(dto, ctx);
  }

  @Endpoint('GET', '', {
    operationId: 'findPatron',
    summary: 'Look a card up: the patron, or nobody',
    description:
      "The patron registered with a card, as GET /v1/patrons/{card} answers it, in a list of one; an empty list when no patron has the card. For a screen's card search, where an unknown card is an answer, not an error.",
    writes: "the audit entry `patron.read` (stream `patrons`) when the card is a patron's, as for GET /v1/patrons/{card}.",
    roles: PATRON_READERS,
    type: PatronDto,
    isArray: true,
  })
  find(@Query() q: PatronLookupDto, @CurrentContext() ctx: RequestContext): Promise<PatronDto[]> {
    return this.patrons.find(q.card, ctx);
  }

  @Endpoint('GET', ':card', {
    operationId: 'getPatron',
    summary: "A patron's record",
    description: 'The patron as registered, and where their card is in now.',
    writes: "the audit entry `patron.read` (stream `patrons`): every read of a patron's record is in the audit chain, with who read it.",
    roles: PATRON_READERS,
    type: PatronDto,
    errors: ['NOT_FOUND'],
  })
  get(@CardParam() card: string, @CurrentContext() ctx: RequestContext): Promise<PatronDto> {
    return this.patrons.get(card, ctx);
  }

  @Endpoint('GET', ':card/rating', {
    operationId: 'patronRating',
    summary: "A patron's rated play",
    description:
      "Rated play over a range of gaming days, for the whole range (a trip, when the range is its days) and each gaming day, with how many visits were begun in it (their figures: GET /v1/patrons/{card}/visits): coups played, handle by bet type, average bet and time played computed from the ledger (not estimated), decisions per hour, actual win, theoretical win from the exact house edge of each bet under its table's rules with its ±2σ band, and comps at the property's share of theo (docs/domain.md §10). Voided coups are not in it, even when voided after an earlier read.",
    writes: 'the audit entry `patron.read` (stream `patrons`), naming the range read.',
    roles: PATRON_READERS,
    type: RatingDto,
    errors: ['NOT_FOUND'],
  })
  rating(@CardParam() card: string, @Query() q: RatingQueryDto, @CurrentContext() ctx: RequestContext): Promise<RatingDto> {
    return this.patrons.rating(card, q, ctx);
  }

  @Endpoint('GET', ':card/visits', {
    operationId: 'patronVisits',
    summary: "A patron's visits, with the rated play of each, a page at a time",
    description:
      'The visits (seatings: table, seat, card in and out) begun in a range of gaming days, oldest first, each with its rated play on those days, as in the rating (docs/domain.md §10). A page holds `limit` visits (default 100); pass its `next` as `after` for the following page.',
    writes: 'the audit entry `patron.read` (stream `patrons`), naming the range and page read.',
    roles: PATRON_READERS,
    type: VisitsPageDto,
    errors: ['NOT_FOUND'],
  })
  visits(@CardParam() card: string, @Query() q: VisitsQueryDto, @CurrentContext() ctx: RequestContext): Promise<VisitsPageDto> {
    return this.patrons.visits(card, q, ctx);
  }
}
