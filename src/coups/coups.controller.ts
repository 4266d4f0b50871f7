import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, KeyConfirmedByWrite, RECORDERS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { CoupsService } from './coups.service';
import { AddWagersDto, CoupDto, HandsDto, RecordCoupDto, WagerDto } from './dto/coup.dto';

const RECORD_ERRORS = ['NOT_FOUND', 'SHOE_CLOSED', 'SHOE_EXHAUSTED', 'COUP_IN_PROGRESS', 'MISDEAL', 'CARD_NOT_IN_SHOE', 'BET_NOT_OFFERED', 'BET_LIMIT', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'] as const;

@ApiTags('Coups')
@Controller('v1')
export class CoupsController {
  constructor(private readonly coups: CoupsService) {}

  @Post('shoes/:id/coups')
  @Endpoint({
    operationId: 'recordCoup',
    summary: 'Record a coup: with cards, the whole coup settled at once; without, a coup opened for betting',
    description: 'One transaction. Every wager is settled (result, payout, commission, net); Banker commission accrues against the seat; tied Player/Banker bets are returned or carried to the next coup by table rule.',
    roles: RECORDERS, status: 201, type: CoupDto, errors: [...RECORD_ERRORS],
  })
  @KeyConfirmedByWrite()
  record(@IdParam() shoeId: string, @Body() dto: RecordCoupDto, @CurrentActor() actor: Actor): Promise<CoupDto> {
    return this.coups.record(shoeId, dto, actor);
  }

  @Get('shoes/:id/coups')
  @Endpoint({ operationId: 'listCoups', summary: "A shoe's coups with their wagers", roles: EVERYONE, type: CoupDto, isArray: true, errors: ['NOT_FOUND'] })
  list(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<CoupDto[]> {
    return this.coups.listForShoe(shoeId, actor);
  }

  @Get('coups/:id')
  @Endpoint({ operationId: 'getCoup', summary: 'Read a coup, its wagers and any void', roles: EVERYONE, type: CoupDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<CoupDto> {
    return this.coups.get(id, actor);
  }

  @Post('coups/:id/wagers')
  @Endpoint({ operationId: 'addWagers', summary: 'Add wagers to a coup that is taking bets', roles: RECORDERS, status: 201, type: CoupDto, errors: ['NOT_FOUND', 'SHOE_CLOSED', 'COUP_NOT_TAKING_BETS', 'BET_NOT_OFFERED', 'BET_LIMIT', 'IDEMPOTENCY_KEY_REUSED'] })
  addWagers(@IdParam() id: string, @Body() dto: AddWagersDto, @CurrentActor() actor: Actor): Promise<CoupDto> {
    return this.coups.addWagers(id, dto, actor);
  }

  @Post('coups/:id/cards')
  @Endpoint({ operationId: 'recordCards', summary: 'Record the cards of a coup taking bets, settling every wager', roles: RECORDERS, type: CoupDto, errors: ['NOT_FOUND', 'SHOE_CLOSED', 'SHOE_EXHAUSTED', 'COUP_NOT_TAKING_BETS', 'MISDEAL', 'CARD_NOT_IN_SHOE', 'IDEMPOTENCY_KEY_REUSED'] })
  recordCards(@IdParam() id: string, @Body() dto: HandsDto, @CurrentActor() actor: Actor): Promise<CoupDto> {
    return this.coups.recordCards(id, dto, actor);
  }

  @Post('wagers/:id/withdraw')
  @Endpoint({ operationId: 'withdrawWager', summary: "Withdraw a carried tie bet before its coup's cards are recorded", roles: RECORDERS, type: WagerDto, errors: ['NOT_FOUND', 'SHOE_CLOSED', 'WAGER_NOT_WITHDRAWABLE'] })
  withdraw(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<WagerDto> {
    return this.coups.withdraw(id, actor);
  }
}
