import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CASH_REPORT_READERS, DROP_READERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { ComplianceService } from './compliance.service';
import { CashReportDto, CashReportQueryDto, DropLineDto } from './dto/cash.dto';

@ApiTags('Cash')
@Controller('v1')
export class ComplianceController {
  constructor(private readonly compliance: ComplianceService) {}

  @Endpoint('GET', 'compliance/cash-report', {
    operationId: 'cashReport',
    summary: 'The cash reports: multiple-transaction log, report candidates, structuring',
    description:
      "For a property and a range of gaming days, with the property's thresholds (US Title 31 by default: USD 3,000 and 10,000): every cash transaction from the log threshold (the multiple-transaction log), every patron-day whose cash in, or cash out, reaches the report threshold (currency-transaction-report candidates; in and out are never netted), the patron-days that look split to stay under a threshold, and every named patron's cash in and out per day. What a compliance officer does with each: docs/domain.md §11.",
    writes: "the audit entry `patron.read` (stream `patrons`): the reports read patrons' records.",
    roles: CASH_REPORT_READERS,
    type: CashReportDto,
    errors: ['NOT_FOUND'],
  })
  cashReport(@Query() q: CashReportQueryDto, @CurrentContext() ctx: RequestContext): Promise<CashReportDto> {
    return this.compliance.cashReport(q, ctx);
  }

  @Endpoint('GET', 'reports/drop-reconciliation', {
    operationId: 'dropReconciliation',
    summary: "The drop counted against the table's buy-ins",
    description:
      "Each table and gaming day of the property: cash and marker buy-ins (what the drop box should hold), chips from other tables (not in the box), the drop counted at the close of the day's sessions, and the difference. A difference is an EXCEPTION to explain; NOT_COUNTED while a session of the day is open or none was opened.",
    roles: DROP_READERS,
    type: DropLineDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  drop(@Query() q: CashReportQueryDto): Promise<DropLineDto[]> {
    return this.compliance.drop(q);
  }
}
