import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../platform/database/prisma.service';
import { QuarterlyDto, QuarterlyQueryDto, RangeQueryDto, ReconciliationDto, WinLossQueryDto } from './dto/report.dto';
import { PaceQueryDto, PaceReportDto } from './dto/pace.dto';
import { paceReport } from './pace';
import { quarterly } from './quarterly';
import { reconcile } from './reconciliation';
import { limitLevelsJson } from './limit-levels';
import { tableAccountingReportJson } from './table-accounting-report';
import { winLossChunks, winLossJson } from './win-loss';
import { YieldAdviceDto, YieldEvaluationDto, YieldEvaluationQueryDto, YieldQueryDto } from './dto/yield.dto';
import { yieldAdvice, yieldEvaluation } from './yield';

/**
 * The reports, each in a file of its own by job: win-loss.ts, quarterly.ts,
 * table-accounting-report.ts, limit-levels.ts, reconciliation.ts, pace.ts, yield.ts, and report-figures.ts for what they share (the
 * figures as SQL, the dimensions, the range). This is the controller's one door to them.
 */
@Injectable()
export class ReportsService {
  winLossChunks(db: PrismaService, q: WinLossQueryDto): Promise<AsyncGenerator<string | Buffer>> {
    return winLossChunks(db, q);
  }

  winLossJson(db: PrismaService, q: WinLossQueryDto): Promise<string> {
    return winLossJson(db, q);
  }

  quarterly(db: PrismaService, q: QuarterlyQueryDto): Promise<QuarterlyDto> {
    return quarterly(db, q);
  }

  tableAccountingReportJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
    return tableAccountingReportJson(db, q);
  }

  limitLevelsJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
    return limitLevelsJson(db, q);
  }

  reconcile(db: PrismaService, q: RangeQueryDto): Promise<ReconciliationDto> {
    return reconcile(db, q);
  }

  pace(db: PrismaService, q: PaceQueryDto): Promise<PaceReportDto> {
    return paceReport(db, q);
  }

  yieldAdvice(db: PrismaService, q: YieldQueryDto): Promise<YieldAdviceDto> {
    return yieldAdvice(db, q);
  }

  yieldEvaluation(db: PrismaService, q: YieldEvaluationQueryDto): Promise<YieldEvaluationDto> {
    return yieldEvaluation(db, q);
  }
}
