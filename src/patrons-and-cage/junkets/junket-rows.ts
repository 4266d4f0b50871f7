import { minorUnits } from '../../platform/common/exact-json';
import { JunketStatement } from '../../domain';
import { JunketOperator } from '../../generated/prisma/client';
import { AccountEntryDto, AgreementDto, JunketDto, MembershipDto, StatementFiguresDto } from './dto/junkets.dto';

/** An agreed statement as the named queries (junkets.sql) read it. */
export interface AgreedRow {
  id: string;
  from: string;
  to: string;
  figures: StatementFiguresDto;
  digest: string;
  junketSignatory: string;
  agreedByKeyId: string;
  agreedAt: Date;
  requestId: string | null;
  requestedByKeyId: string | null;
  approvedByKeyIds: string[];
}

/** A membership version as the named queries (junkets.sql) read it. */
export interface MembershipRow {
  id: string;
  patronId: string;
  operatorId: string | null;
  agentCode: string | null;
  programmeCode: string | null;
  effectiveFrom: string;
  recordedByKeyId: string;
  recordedAt: Date;
}

/** A junket as the API shows it: `creditLimit` is its credit line in force (CreditLines.junketLine), not the one asked for at opening. */
export function junketDto(r: JunketOperator, agents: { code: string; name: string }[], balance: bigint, creditLimit: bigint): JunketDto {
  return {
    id: r.id,
    propertyId: r.propertyId,
    code: r.code,
    name: r.name,
    licence: r.licence,
    currency: r.currency,
    creditLimit: minorUnits(creditLimit),
    balance: minorUnits(balance),
    agents,
    recordedByKeyId: r.recordedByKeyId,
    recordedAt: r.recordedAt.toISOString(),
  };
}

export function membershipDto(m: MembershipRow): MembershipDto {
  return {
    id: m.id,
    patronId: m.patronId,
    junketId: m.operatorId,
    agent: m.agentCode,
    programme: m.programmeCode,
    effectiveFrom: m.effectiveFrom,
    recordedByKeyId: m.recordedByKeyId,
    recordedAt: m.recordedAt.toISOString(),
  };
}

export function entryDto(
  r: {
    id: string;
    kind: string;
    amount: bigint;
    currency: string;
    method: string | null;
    statementId: string | null;
    gamingDay: Date;
    at: Date;
    recordedByKeyId: string;
    reference?: string | null;
  },
  balance: bigint,
): AccountEntryDto {
  return {
    id: r.id,
    kind: r.kind,
    amount: minorUnits(r.amount),
    currency: r.currency,
    method: r.method,
    statementId: r.statementId,
    gamingDay: r.gamingDay.toISOString().slice(0, 10),
    at: r.at.toISOString(),
    recordedByKeyId: r.recordedByKeyId,
    reference: r.reference ?? null,
    balance: minorUnits(balance),
  };
}

export function agreementDto(a: AgreedRow): AgreementDto {
  return {
    id: a.id,
    junketSignatory: a.junketSignatory,
    agreedByKeyId: a.agreedByKeyId,
    agreedAt: a.agreedAt.toISOString(),
    digest: a.digest,
    requestId: a.requestId,
    requestedByKeyId: a.requestedByKeyId,
    approvedByKeyIds: a.approvedByKeyIds,
  };
}

export function figuresDto(op: JunketOperator, from: string, to: string, s: JunketStatement): StatementFiguresDto {
  const m = minorUnits;
  return {
    junketId: op.id,
    code: op.code,
    currency: op.currency,
    from,
    to,
    programmes: s.programmes.map((p) => ({
      code: p.code,
      members: p.members,
      rolled: m(p.rolled),
      handle: m(p.handle),
      win: m(p.win),
      commission: m(p.commission),
      allowance: m(p.allowance),
      netWin: m(p.netWin),
      daysOutside: [...p.daysOutside],
    })),
    members: s.members.map((x) => ({
      patronId: x.patronId,
      agents: [...x.agents],
      programmes: [...x.programmes],
      purchased: m(x.purchased),
      returned: m(x.returned),
      rolled: m(x.rolled),
      wagers: x.wagers,
      handle: m(x.handle),
      win: m(x.win),
      rollingWinPercent: x.rollingWinPercent,
    })),
    agents: s.agents.map((a) => ({ agent: a.agent, members: a.members, rolled: m(a.rolled), handle: m(a.handle), win: m(a.win) })),
    totals: {
      purchased: m(s.totals.purchased),
      returned: m(s.totals.returned),
      netPurchased: m(s.totals.netPurchased),
      rolled: m(s.totals.rolled),
      inHand: m(s.totals.inHand),
      agrees: s.totals.agrees,
      wagers: s.totals.wagers,
      handle: m(s.totals.handle),
      win: m(s.totals.win),
      rollingWinPercent: s.totals.rollingWinPercent,
      theoreticalWin: m(s.totals.theoreticalWin),
      theoreticalRollingWinPercent: s.totals.theoreticalRollingWinPercent,
      commission: m(s.totals.commission),
      allowance: m(s.totals.allowance),
      netWin: m(s.totals.netWin),
    },
    account: {
      opening: m(s.account.opening),
      markers: m(s.account.markers),
      repayments: m(s.account.repayments),
      payouts: m(s.account.payouts),
      credited: m(s.account.credited),
      closing: m(s.account.closing),
      due: s.account.due,
    },
    playerCredit: s.playerCredit.map((c) => ({ patronId: c.patronId, advanced: m(c.advanced), repaid: m(c.repaid), outstanding: m(c.outstanding) })),
  };
}
