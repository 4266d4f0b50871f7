import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, KeyConfirmedByWrite, RECORDERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { CheckedOnReplay } from '../../platform/idempotency/replay-check';
import { coupAnswerAgrees } from './coup-answers';
import { IdParam } from '../../platform/common/validation';
import { CoupsService } from './coups.service';
import { StepwiseCoupsService } from './stepwise-coups.service';
import { CoupReadsService } from './coup-reads.service';
import { AddWagersDto, CoupDto, HandsDto, RecordCoupDto, WagerDto } from './dto/coup.dto';

const RECORD_ERRORS = [
  'NOT_FOUND',
  'PLAYER_BANKED',
  'SHOE_CLOSED',
  'SHOE_EXHAUSTED',
  'COUP_IN_PROGRESS',
  'COUP_NUMBER_TAKEN',
  'COUP_TIME_IMPOSSIBLE',
  'MISDEAL',
  'CARD_NOT_IN_SHOE',
  'BET_NOT_OFFERED',
  'BET_LIMIT',
  'UNKNOWN_PATRON',
  'PATRON_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
] as const;

@ApiTags('Coups')
@Controller('v1')
export class CoupsController {
  constructor(
    private readonly coups: CoupsService,
    private readonly stepwise: StepwiseCoupsService,
    private readonly reads: CoupReadsService,
  ) {}

  @Endpoint('POST', 'shoes/:id/coups', {
    operationId: 'recordCoup',
    summary: 'Record a coup: with cards, the whole coup settled at once; without, a coup opened for betting',
    description:
      "Records a coup. **With cards** the whole coup is checked (the drawing rules: MISDEAL; the cards still in the shoe: CARD_NOT_IN_SHOE), every wager is settled and the answer shows the outcome and each wager's result, payout, commission and net. Banker commission accrues against the seat; tied Player and Banker bets are returned or carried to the next coup by the table's rule. **Without cards** the coup is opened for betting (add wagers, then record the cards). An empty body `{}` is such a request, and a legitimate one: it opens the shoe's next coup for betting before any wager is placed, as the dealer calls for bets (tie bets carried from the last coup join it); it is refused while the shoe is closed or another of its coups is open for betting (COUP_IN_PROGRESS). Coup numbers are given in order per shoe and never reused.",
    writes:
      'the coup, its wagers, the seat commission accruals, the three report rollups and the audit entry `coup.settle` (or `coup.open`), in one transaction.',
    roles: RECORDERS,
    status: 201,
    type: CoupDto,
    errors: [...RECORD_ERRORS],
    body: {
      type: RecordCoupDto,
      examples: {
        wholeCoup: {
          summary: 'A whole coup: Player draws a 10 to 5 and loses to Banker 7; seat 1 wins on Banker (commission accrues), seat 2 loses on Player',
          value: {
            cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
            wagers: [
              { seat: 1, betType: 'BANKER', amount: 10000, patronId: 'P-10442' },
              { seat: 2, betType: 'PLAYER', amount: 5000 },
            ],
          },
        },
        stepwiseOpen: {
          summary: 'A stepwise coup, step 1: open it for betting with the first wagers (then POST /v1/coups/{id}/wagers and /cards)',
          value: { wagers: [{ seat: 3, betType: 'TIE', amount: 2500 }] },
        },
      },
    },
  })
  @KeyConfirmedByWrite()
  @CheckedOnReplay(coupAnswerAgrees)
  record(@IdParam() shoeId: string, @Body() dto: RecordCoupDto, @CurrentContext() ctx: RequestContext): Promise<CoupDto> {
    return this.coups.record(shoeId, dto, ctx);
  }

  @Endpoint('GET', 'shoes/:id/coups', {
    operationId: 'listCoups',
    summary: "A shoe's coups with their wagers",
    description: "A shoe's coups in order with their wagers, results and any void.",
    roles: EVERYONE,
    type: CoupDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<CoupDto[]> {
    return this.reads.listForShoe(shoeId, actor);
  }

  @Endpoint('GET', 'coups/:id', {
    operationId: 'getCoup',
    summary: 'Read a coup, its wagers and any void',
    description: 'One coup with its cards, outcome, wagers and any void.',
    roles: EVERYONE,
    type: CoupDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<CoupDto> {
    return this.reads.get(id, actor);
  }

  @Endpoint('POST', 'coups/:id/wagers', {
    operationId: 'addWagers',
    body: {
      type: AddWagersDto,
      examples: {
        twoSeats: {
          summary: 'A stepwise coup, step 2: more wagers while betting is open',
          value: {
            wagers: [
              { seat: 1, betType: 'BANKER', amount: 10000 },
              { seat: 4, betType: 'PLAYER_PAIR', amount: 1000 },
            ],
          },
        },
      },
    },
    summary: 'Add wagers to a coup that is taking bets',
    description: "Adds wagers to a coup opened for betting. Each is checked against the table's bets and limits.",
    writes: 'the wagers; the audit entry `coup.wagers`.',
    roles: RECORDERS,
    status: 201,
    type: CoupDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'COUP_NOT_TAKING_BETS', 'BET_NOT_OFFERED', 'BET_LIMIT', 'UNKNOWN_PATRON', 'PATRON_REQUIRED', 'IDEMPOTENCY_KEY_REUSED'],
  })
  @CheckedOnReplay(coupAnswerAgrees)
  addWagers(@IdParam() id: string, @Body() dto: AddWagersDto, @CurrentContext() ctx: RequestContext): Promise<CoupDto> {
    return this.stepwise.addWagers(id, dto, ctx);
  }

  @Endpoint('POST', 'coups/:id/cards', {
    operationId: 'recordCards',
    body: {
      type: HandsDto,
      examples: {
        naturals: { summary: 'A stepwise coup, last step: the cards (Player natural 9 beats Banker 7)', value: { player: ['9H', 'TD'], banker: ['7S', 'KC'] } },
      },
    },
    summary: 'Record the cards of a coup taking bets, settling every wager',
    description: 'Deals a coup opened for betting: the cards are checked as for a whole coup and every wager is settled.',
    writes:
      "the coup's cards and outcome, each wager's settlement, the commission accruals, the rollups and the audit entry `coup.settle`, in one transaction.",
    roles: RECORDERS,
    type: CoupDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'SHOE_EXHAUSTED', 'COUP_NOT_TAKING_BETS', 'MISDEAL', 'CARD_NOT_IN_SHOE', 'IDEMPOTENCY_KEY_REUSED'],
  })
  @CheckedOnReplay(coupAnswerAgrees)
  recordCards(@IdParam() id: string, @Body() dto: HandsDto, @CurrentContext() ctx: RequestContext): Promise<CoupDto> {
    return this.stepwise.recordCards(id, dto, ctx);
  }

  @Endpoint('POST', 'wagers/:id/withdraw', {
    operationId: 'withdrawWager',
    summary: "Withdraw a carried tie bet before its coup's cards are recorded",
    description: 'Withdraws a tie-carried Player or Banker bet from a coup not yet dealt (where the table lets a customer take it back).',
    writes: "the wager's status; the audit entry `wager.withdraw`.",
    roles: RECORDERS,
    type: WagerDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'WAGER_NOT_WITHDRAWABLE'],
  })
  withdraw(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<WagerDto> {
    return this.stepwise.withdraw(id, ctx);
  }
}
