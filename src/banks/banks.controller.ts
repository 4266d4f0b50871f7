import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { BanksService } from './banks.service';
import { BankCoupDto, BankDto, OpenBankDto, RecordBankCoupDto, RetireBankDto } from './dto/bank.dto';

const COUP_ERRORS = ['NOT_FOUND', 'SHOE_CLOSED', 'SHOE_EXHAUSTED', 'COUP_IN_PROGRESS', 'BANK_CLOSED', 'STAKES_STAND', 'MISDEAL', 'CARD_NOT_IN_SHOE', 'INVALID_STAKES', 'STAKES_EXCEED_BANK', 'BANCO_CONFLICT'] as const;

@ApiTags('Player-banked games')
@Controller('v1')
export class BanksController {
  constructor(private readonly banks: BanksService) {}

  @Post('shoes/:id/banks')
  @Endpoint({
    operationId: 'openBank', summary: 'Open a bank (chemin de fer, baccarat banque): the service checks who may hold it next', roles: RECORDERS, status: 201, type: BankDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'NOT_PLAYER_BANKED', 'BANK_ALREADY_ACTIVE', 'WRONG_BANKER', 'INVALID_STAKES', 'BET_LIMIT'],
  })
  open(@IdParam() shoeId: string, @Body() dto: OpenBankDto, @CurrentActor() actor: Actor): Promise<BankDto> {
    return this.banks.open(shoeId, dto, actor);
  }

  @Get('shoes/:id/banks')
  @Endpoint({ operationId: 'listBanks', summary: "A shoe's banks, in order, with who holds the bank next", roles: EVERYONE, type: BankDto, isArray: true, errors: ['NOT_FOUND'] })
  list(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<BankDto[]> {
    return this.banks.listForShoe(shoeId, actor);
  }

  @Get('banks/:id')
  @Endpoint({ operationId: 'getBank', summary: "A bank's state", roles: EVERYONE, type: BankDto, errors: ['NOT_FOUND'] })
  get(@IdParam() bankId: string, @CurrentActor() actor: Actor): Promise<BankDto> {
    return this.banks.get(bankId, actor);
  }

  @Post('banks/:id/coups')
  @Endpoint({ operationId: 'recordBankCoup', summary: "Record a coup against the bank: who pays whom, the house's commission and the bank's state after it", roles: RECORDERS, status: 201, type: BankCoupDto, errors: [...COUP_ERRORS] })
  coup(@IdParam() bankId: string, @Body() dto: RecordBankCoupDto, @CurrentActor() actor: Actor): Promise<BankCoupDto> {
    return this.banks.coup(bankId, dto, actor);
  }

  @Get('banks/:id/coups')
  @Endpoint({ operationId: 'listBankCoups', summary: "A bank's coups, as settled", roles: EVERYONE, type: BankCoupDto, isArray: true, errors: ['NOT_FOUND'] })
  coups(@IdParam() bankId: string, @CurrentActor() actor: Actor): Promise<BankCoupDto[]> {
    return this.banks.coups(bankId, actor);
  }

  @Post('banks/:id/retire')
  @Endpoint({ operationId: 'retireBank', summary: 'The banker retires: takes the bank and what was set aside; the bank is offered on (chemin de fer) or may be continued (banque)', roles: RECORDERS, status: 200, type: BankDto, errors: ['NOT_FOUND', 'BANK_CLOSED', 'BANK_NOT_RETIRABLE'] })
  retire(@IdParam() bankId: string, @Body() dto: RetireBankDto, @CurrentActor() actor: Actor): Promise<BankDto> {
    return this.banks.retire(bankId, dto, actor);
  }
}
