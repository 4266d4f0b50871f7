import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EVERYONE } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { OddsRequestDto, OddsResponseDto } from './dto/odds.dto';
import { OddsService } from './odds.service';

@ApiTags('Odds')
@Controller('v1/odds')
export class OddsController {
  constructor(private readonly odds: OddsService) {}

  @Endpoint('POST', '', {
    operationId: 'calculateOdds',
    summary: 'Exact odds and house edge of every bet for a shoe composition (full or depleted)',
    description:
      'Exact probabilities of every outcome and the house edge of every bet, counted over every ordered sequence of the cards that can still be dealt, for a full shoe or any depleted composition, under the given rules. Integers throughout; edges as exact fractions and rounded percentages.',
    roles: EVERYONE,
    status: 200,
    type: OddsResponseDto,
    errors: ['INVALID_SHOE', 'INVALID_RULES', 'CARD_NOT_IN_SHOE', 'ODDS_NOT_AVAILABLE'],
  })
  calculate(@Body() dto: OddsRequestDto): OddsResponseDto {
    return this.odds.calculate(dto);
  }
}
