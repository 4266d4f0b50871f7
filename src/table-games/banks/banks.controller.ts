import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { BanksService } from './banks.service';
import { BankCoupDto, BankDto, OpenBankDto, RecordBankCoupDto, RetireBankDto } from './dto/bank.dto';

const COUP_ERRORS = [
  'NOT_FOUND',
  'SHOE_CLOSED',
  'SHOE_EXHAUSTED',
  'COUP_IN_PROGRESS',
  'BANK_CLOSED',
  'STAKES_STAND',
  'MISDEAL',
  'CARD_NOT_IN_SHOE',
  'INVALID_STAKES',
  'STAKES_EXCEED_BANK',
  'BANCO_CONFLICT',
] as const;

@ApiTags('Player-banked games')
@Controller('v1')
export class BanksController {
  constructor(private readonly banks: BanksService) {}

  @Endpoint('POST', 'shoes/:id/banks', {
    operationId: 'openBank',
    summary: 'Open a bank (chemin de fer, baccarat banque): the service checks who may hold it next',
    description:
      "Opens a bank in chemin de fer or baccarat banque. The service checks who may hold it: after a bank passes (the banker lost) it goes to the next seat in rotation; after a retirement it is offered in rotation at the amount the retiring banker would have staked, and a taker must put up at least that; if every seat declines, the seat after the retiring banker opens a new bank at any amount within the table's limits. A player who took a retired bank out of turn does not move the rotation (WRONG_BANKER names the seat due).",
    writes: 'the bank; the audit entry `bank.open`.',
    roles: RECORDERS,
    status: 201,
    type: BankDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'NOT_PLAYER_BANKED', 'BANK_ALREADY_ACTIVE', 'WRONG_BANKER', 'INVALID_STAKES', 'BET_LIMIT', 'BANK_BELOW_OFFER'],
  })
  open(@IdParam() shoeId: string, @Body() dto: OpenBankDto, @CurrentContext() ctx: RequestContext): Promise<BankDto> {
    return this.banks.open(shoeId, dto, ctx);
  }

  @Endpoint('GET', 'shoes/:id/banks', {
    operationId: 'listBanks',
    summary: "A shoe's banks, in order, with who holds the bank next",
    description: "A shoe's banks in order, with who holds the bank next.",
    roles: EVERYONE,
    type: BankDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<BankDto[]> {
    return this.banks.listForShoe(shoeId, actor);
  }

  @Endpoint('GET', 'banks/:id', {
    operationId: 'getBank',
    summary: "A bank's state",
    description:
      "A bank's state: the amount at stake, money set aside for the banker, the house's commission so far, stakes standing after a tie, and who holds the bank next.",
    roles: EVERYONE,
    type: BankDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() bankId: string, @CurrentActor() actor: Actor): Promise<BankDto> {
    return this.banks.get(bankId, actor);
  }

  @Endpoint('POST', 'banks/:id/coups', {
    operationId: 'recordBankCoup',
    body: {
      type: RecordBankCoupDto,
      examples: {
        chemmyBanco: {
          summary: "Chemin de fer: seat 5 calls banco on the whole bank; the punters' 5 stands, the banker's 7 wins",
          value: { cards: { player: ['2C', '3D'], banker: ['4H', '3S'] }, stakes: [{ seat: 5, call: 'BANCO' }] },
        },
        chemmyStakes: {
          summary: 'Chemin de fer: two punters cover part of the bank; the rest is set aside for the banker',
          value: {
            cards: { player: ['9C', 'QD'], banker: ['6H', 'TS'] },
            stakes: [
              { seat: 4, amount: 30000 },
              { seat: 6, amount: 20000 },
            ],
          },
        },
        banque: {
          summary: 'Baccarat banque: stakes on the right, the left and à cheval; each side settles against the banker',
          value: {
            cards: { right: ['5D', '2C'], left: ['8S', 'AH'], banker: ['6H', 'KC'] },
            stakes: [
              { seat: 2, side: 'RIGHT', amount: 20000 },
              { seat: 7, side: 'LEFT', amount: 10000 },
              { seat: 9, side: 'A_CHEVAL', amount: 5000 },
            ],
          },
        },
      },
    },
    summary: "Record a coup against the bank: who pays whom, the house's commission and the bank's state after it",
    description:
      "Records a coup against a bank. The cards are checked by the game's drawing rules (a natural ends the coup for every hand); the stakes by its rules (banco, banco suivi, bystanders, sides and à cheval, never more than the bank). The answer shows the bank before, what was covered and set aside, the house's commission, each punter's result, the bank after and who holds it next.",
    writes: "the bank coup, the bank's new state, the house commission in the rollups and the audit entry `bank.coup`, in one transaction.",
    roles: RECORDERS,
    status: 201,
    type: BankCoupDto,
    errors: [...COUP_ERRORS],
  })
  coup(@IdParam() bankId: string, @Body() dto: RecordBankCoupDto, @CurrentContext() ctx: RequestContext): Promise<BankCoupDto> {
    return this.banks.coup(bankId, dto, ctx);
  }

  @Endpoint('GET', 'banks/:id/coups', {
    operationId: 'listBankCoups',
    summary: "A bank's coups, as settled",
    description: "A bank's coups in order, as settled, with any void.",
    roles: EVERYONE,
    type: BankCoupDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  coups(@IdParam() bankId: string, @CurrentActor() actor: Actor): Promise<BankCoupDto[]> {
    return this.banks.coups(bankId, actor);
  }

  @Endpoint('POST', 'banks/:id/retire', {
    operationId: 'retireBank',
    summary: 'The banker retires: takes the bank and what was set aside; the bank is offered on (chemin de fer) or may be continued (banque)',
    description:
      'The banker retires with the bank and everything set aside. In chemin de fer the bank is then offered on at what the banker would have staked; in baccarat banque another player may continue it at the amount given.',
    writes: "the bank's status and offer; the audit entry `bank.retire`.",
    roles: RECORDERS,
    status: 200,
    type: BankDto,
    errors: ['NOT_FOUND', 'BANK_CLOSED', 'BANK_NOT_RETIRABLE'],
  })
  retire(@IdParam() bankId: string, @Body() dto: RetireBankDto, @CurrentContext() ctx: RequestContext): Promise<BankDto> {
    return this.banks.retire(bankId, dto, ctx);
  }
}
