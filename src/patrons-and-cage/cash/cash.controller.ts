import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CASHIERS, CurrentActor, EVERYONE, MARKER_READERS, RECORDERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { CashService } from './cash.service';
import {
  BuyInDto,
  BuyInInputDto,
  BuyInsQueryDto,
  CageTransactionInputDto,
  CashTransactionDto,
  MarkerDto,
  MarkerPaymentInputDto,
  MarkersQueryDto,
} from './dto/cash.dto';

@ApiTags('Cash')
@Controller('v1')
export class CashController {
  constructor(private readonly cash: CashService) {}

  @Endpoint('POST', 'tables/:id/buy-ins', {
    operationId: 'recordBuyIn',
    summary: 'A buy-in at the table',
    description:
      "Cash or a marker exchanged for chips at the table (both go into the drop box), or chips brought from another table (they do not). By patron when known: named, or the patron whose card is in at `seat`. A MARKER issues credit to a registered patron within their approved credit line at the property in the table’s currency (none approved: NO_CREDIT_LINE; over it: CREDIT_LIMIT_EXCEEDED), paid back at the cage. A cash buy-in is also the patron's cash transaction (docs/domain.md §11); over the report threshold the patron must be identified (a table in another currency than the property's cash currency: its worth at the gaming day's rate; with no rate, at any amount).",
    writes: "a buy-in (and a marker, or a cash transaction); the audit entry `buyIn.record` (the table's stream).",
    roles: RECORDERS,
    status: 201,
    type: BuyInDto,
    errors: ['NOT_FOUND', 'TABLE_CLOSED', 'UNKNOWN_PATRON', 'PATRON_REQUIRED', 'IDENTIFICATION_REQUIRED', 'NO_CREDIT_LINE', 'CREDIT_LIMIT_EXCEEDED'],
  })
  buyIn(@IdParam() id: string, @Body() dto: BuyInInputDto, @CurrentContext() ctx: RequestContext): Promise<BuyInDto> {
    return this.cash.buyIn(id, dto, ctx);
  }

  @Endpoint('GET', 'tables/:id/buy-ins', {
    operationId: 'listBuyIns',
    summary: "The table's buy-ins of a gaming day",
    description: 'Every buy-in recorded at the table on the gaming day, oldest first.',
    roles: EVERYONE,
    type: BuyInDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  buyIns(@IdParam() id: string, @Query() q: BuyInsQueryDto, @CurrentActor() actor: Actor): Promise<BuyInDto[]> {
    return this.cash.buyIns(id, q.gamingDay, actor);
  }

  @Endpoint('GET', 'markers', {
    operationId: 'listMarkers',
    summary: "A patron's markers",
    description: 'Every marker issued to the patron, oldest first, with its payments and what it still owes.',
    writes: "the audit entry `patron.read` (stream `patrons`): a patron's markers are their record.",
    roles: MARKER_READERS,
    type: MarkerDto,
    isArray: true,
    errors: ['UNKNOWN_PATRON'],
  })
  markers(@Query() q: MarkersQueryDto, @CurrentContext() ctx: RequestContext): Promise<MarkerDto[]> {
    return this.cash.markers(q.patronId, ctx);
  }

  @Endpoint('POST', 'markers/:id/payments', {
    operationId: 'payMarker',
    summary: 'A payment on a marker',
    description:
      "Pays a marker down, in part or whole, at the cage: never more than it still owes. A CHECK or WIRE names its reference. Over the property's repayment threshold (GET /v1/properties/{id}/credit-policy) it is recorded only with the requestId of a REPAYMENT request a second person approved, as approved: the same amount, method and reference (NOT_AS_APPROVED otherwise), and once (CONFLICT for a request paid already). A CASH payment is the patron's cash in.",
    writes: 'a marker payment (and, in cash, a cash transaction); the audit entry `marker.payment` (stream `cage`).',
    roles: CASHIERS,
    status: 201,
    type: MarkerDto,
    errors: ['NOT_FOUND', 'MARKER_OVERPAID', 'MARKER_VOIDED', 'MARKER_WRITTEN_OFF', 'REPAYMENT_NEEDS_APPROVAL', 'NOT_AS_APPROVED', 'CONFLICT'],
  })
  pay(@IdParam() id: string, @Body() dto: MarkerPaymentInputDto, @CurrentContext() ctx: RequestContext): Promise<MarkerDto> {
    return this.cash.pay(id, dto, ctx);
  }

  @Endpoint('POST', 'properties/:id/cash-transactions', {
    operationId: 'recordCageTransaction',
    summary: 'Cash in or out at the cage',
    description:
      'Chips cashed (CHIP_REDEMPTION) and front money withdrawn (WITHDRAWAL) are cash out; front money deposited (DEPOSIT) is cash in. By patron when known; over the report threshold the patron must be identified (another currency than the property’s: its worth at the gaming day’s rate; with no rate, at any amount).',
    writes: 'a cash transaction; the audit entry `cash.record` (stream `cage`).',
    roles: CASHIERS,
    status: 201,
    type: CashTransactionDto,
    errors: ['NOT_FOUND', 'UNKNOWN_PATRON', 'IDENTIFICATION_REQUIRED', 'FRONT_MONEY_SHORT'],
  })
  cage(@IdParam() id: string, @Body() dto: CageTransactionInputDto, @CurrentContext() ctx: RequestContext): Promise<CashTransactionDto> {
    return this.cash.cage(id, dto, ctx);
  }
}
