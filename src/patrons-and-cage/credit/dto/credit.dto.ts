import { ApiProperty } from '@nestjs/swagger';
import type { MinorUnits } from '../../../platform/common/exact-json';
import {
  CurrencyField,
  DateField,
  EnumField,
  IntField,
  MoneyField,
  MoneyProperty,
  PATRON_MAX_LENGTH,
  PATRON_PATTERN,
  TextField,
  PAYMENT_REFERENCE,
  UuidField,
} from '../../../platform/common/validation';

export const CREDIT_ACTS = ['LIMIT', 'REPAYMENT', 'WRITE_OFF', 'DEPOSIT', 'POLICY', 'PROGRAMME', 'STATEMENT'] as const;
export const REPAYMENT_METHODS = ['CASH', 'CHIPS', 'CHECK', 'WIRE'] as const;
export const PROGRAMME_BASES = ['ROLLING', 'WIN_LOSS'] as const;

/**
 * A credit act requested (one body for every act; the act says which fields it takes):
 * LIMIT (patronId or junketId, creditLimit, currency for a patron), REPAYMENT (markerId or junketId,
 * amount, method, reference unless cash or chips), WRITE_OFF (markerId), DEPOSIT (markerId, reference),
 * POLICY (the four terms), PROGRAMME (a programme version's terms: code, name, basis, commissionBps,
 * allowanceBps, effectiveFrom), STATEMENT (junketId, from, to, digest, junketSignatory: a junket's
 * statement agreed for the casino).
 */
export class CreditRequestInputDto {
  @EnumField(CREDIT_ACTS, {
    description:
      "LIMIT: a patron's or a junket's credit line; REPAYMENT: a repayment over the property's threshold; WRITE_OFF: a marker written off; DEPOSIT: a marker presented to the patron's bank for collection; POLICY: the property's credit policy; PROGRAMME: a rolling-chip programme's terms (then recorded by POST /v1/properties/{id}/rolling-programmes with the requestId); STATEMENT: a junket's statement agreed for the casino (then recorded by POST /v1/junkets/{id}/statements with the requestId)",
    enumName: 'CreditAct',
    example: 'LIMIT',
  })
  act: (typeof CREDIT_ACTS)[number];

  @TextField({
    description: "LIMIT: the patron's registered card (or give junketId)",
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  patronId?: string;

  @UuidField({ description: 'LIMIT, REPAYMENT or STATEMENT: the junket (an operator at this property)', required: false })
  junketId?: string;

  @UuidField({ description: 'REPAYMENT, WRITE_OFF or DEPOSIT: the marker (at this property)', required: false })
  markerId?: string;

  @MoneyField({ description: 'LIMIT: the most the holder may owe, minor units (0 ends its credit)', example: 50_000_000, min: 0, required: false })
  creditLimit?: number;

  @CurrencyField({ description: "LIMIT for a patron: the line's currency (default: the property's cash currency)", required: false })
  currency?: string;

  @MoneyField({ description: "REPAYMENT: the amount, in the marker's or junket's currency, minor units", example: 5_000_000, required: false })
  amount?: number;

  @EnumField(REPAYMENT_METHODS, { description: 'REPAYMENT: how it is paid', enumName: 'RepaymentMethod', required: false })
  method?: (typeof REPAYMENT_METHODS)[number];

  @TextField({
    description: "REPAYMENT: the cheque's number or the wire's reference (required for CHECK and WIRE); DEPOSIT: the bank's deposit reference, when known",
    example: 'SWIFT 0A1B2C',
    ...PAYMENT_REFERENCE,
    required: false,
  })
  reference?: string;

  @MoneyField({ description: 'POLICY: a credit line above this (cash currency, minor units) is signed last by a casino manager', min: 0, required: false })
  seniorLimitThreshold?: number;

  @MoneyField({ description: 'POLICY: a repayment above this (cash currency, minor units) waits for a second person', min: 0, required: false })
  repaymentThreshold?: number;

  @IntField({ description: 'POLICY: the most a programme may pay in commission on rolling, basis points', min: 0, max: 10_000, required: false })
  rollingCommissionCapBps?: number;

  @IntField({ description: 'POLICY: the most a programme may pay in commission on win/loss, basis points', min: 0, max: 10_000, required: false })
  winLossCommissionCapBps?: number;

  @TextField({
    description: 'PROGRAMME: the programme code (a new version of an existing code changes it from its effective day)',
    example: 'VIP-ROLL',
    maxLength: 40,
    pattern: /^[A-Za-z0-9._-]+$/,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  code?: string;

  @TextField({ description: "PROGRAMME: the programme's name", example: 'Rolling commission 1.2 %', maxLength: 200, required: false })
  name?: string;

  @EnumField(PROGRAMME_BASES, {
    description: 'PROGRAMME: commission as a share of the rolling, or of the house’s win or loss',
    enumName: 'ProgrammeBasis',
    required: false,
  })
  basis?: (typeof PROGRAMME_BASES)[number];

  @IntField({
    description:
      "PROGRAMME: commission, basis points of the basis (120 = 1.2 %): on the rolling, with the allowance, at most the policy's rollingCommissionCapBps; on the win/loss at most its winLossCommissionCapBps",
    example: 120,
    min: 0,
    max: 10_000,
    required: false,
  })
  commissionBps?: number;

  @IntField({
    description: "PROGRAMME: trip allowance (room, travel), basis points of the rolling (default 0): counted against the policy's rollingCommissionCapBps",
    example: 20,
    min: 0,
    max: 10_000,
    required: false,
  })
  allowanceBps?: number;

  @DateField({ description: 'PROGRAMME: the first gaming day it applies to (today or later)', required: false })
  effectiveFrom?: string;

  @DateField({ description: "STATEMENT: the period's first gaming day", required: false })
  from?: string;

  @DateField({ description: "STATEMENT: the period's last gaming day (inclusive)", required: false })
  to?: string;

  @TextField({
    description: 'STATEMENT: the SHA-256 (hex) of the statement as the junket saw it (`digest` of GET /v1/junkets/{id}/statement)',
    maxLength: 64,
    minLength: 64,
    pattern: /^[0-9a-f]{64}$/,
    patternHint: 'must be 64 lowercase hex digits',
    required: false,
  })
  digest?: string;

  @TextField({
    description: 'STATEMENT: who signed the statement for the junket',
    example: 'Chan Tai Man, cashier, Golden Dragon',
    maxLength: 200,
    pattern: /[\p{L}\p{N}\p{P}\p{S}]/u,
    patternHint: 'must hold a letter, digit, punctuation mark or symbol',
    required: false,
  })
  junketSignatory?: string;

  @TextField({
    description: 'Why: what a second person reads before approving',
    example: 'Trip in December; bank reference checked',
    maxLength: 500,
    pattern: /\S/,
    patternHint: 'must not be blank',
  })
  reason: string;
}

export class CreditDecisionInputDto {
  @TextField({ description: 'A note (required to reject)', maxLength: 500, pattern: /\S/, patternHint: 'must not be blank', required: false })
  note?: string;
}

export class CreditDecisionDto {
  @ApiProperty() step: number;
  @ApiProperty() approve: boolean;
  @ApiProperty() keyId: string;
  @ApiProperty() role: string;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({ format: 'date-time' }) decidedAt: string;
}

/** A junket as a credit request names it. */
export class RequestJunketDto {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
}

/** A marker as a credit request names it: whose, of which gaming day, for how much. */
export class RequestMarkerDto {
  @ApiProperty({ description: "The patron's card" }) patronId: string;
  @ApiProperty({ format: 'date', description: 'The gaming day it was issued' }) issuedDay: string;
  @ApiProperty({ format: 'date-time', description: 'When it was issued (two markers of a day told apart)' }) issuedAt: string;
  @MoneyProperty({ description: 'Its amount, minor units of its currency' }) amount: MinorUnits;
  @ApiProperty() currency: string;
}

export class CreditRequestDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ enum: CREDIT_ACTS, enumName: 'CreditAct' }) act: string;
  @ApiProperty({ description: "A patron's card, a junket's id, a marker's id, the property's id, or a programme's code" }) subject: string;
  @ApiProperty({ description: 'The terms as requested (amounts as decimal strings of minor units)', type: 'object', additionalProperties: true })
  terms: Record<string, unknown>;
  @ApiProperty() reason: string;
  @ApiProperty({ enum: ['PENDING', 'APPROVED', 'REJECTED'] }) status: string;
  @ApiProperty({ description: 'Approvals it needs: 1, or 2 over the threshold' }) approvalsNeeded: number;
  @ApiProperty({ nullable: true, type: String, description: 'The role the last approval must hold (CASINO_MANAGER over the threshold)' }) finalRole:
    string | null;
  @ApiProperty() requestedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) requestedAt: string;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description:
      'When the act it approved was recorded quoting it: a repayment paid (REPAYMENT), a programme version (PROGRAMME), an agreed statement (STATEMENT); each once. Null until then, and for the acts in force on approval (LIMIT, WRITE_OFF, DEPOSIT, POLICY)',
  })
  recordedAt: string | null;
  @ApiProperty({
    type: () => RequestMarkerDto,
    nullable: true,
    description: 'The marker it is about (WRITE_OFF, DEPOSIT, a repayment on a marker), as a person tells markers apart; null for any other request',
  })
  marker: RequestMarkerDto | null;
  @ApiProperty({
    type: () => RequestJunketDto,
    nullable: true,
    description: "The junket it is about (a junket's line, repayment or statement), by its code and name; null for any other request",
  })
  junket: RequestJunketDto | null;
  @ApiProperty({ type: CreditDecisionDto, isArray: true }) decisions: CreditDecisionDto[];
}

export class CreditRequestsQueryDto {
  @TextField({
    description: 'Only requests about this subject (a card, a junket id, a marker id)',
    maxLength: 64,
    pattern: /^[A-Za-z0-9._-]+$/,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  subject?: string;
}

export class CreditPolicyDto {
  @ApiProperty() currency: string;
  @MoneyProperty() seniorLimitThreshold: MinorUnits;
  @MoneyProperty() repaymentThreshold: MinorUnits;
  @ApiProperty() rollingCommissionCapBps: number;
  @ApiProperty() winLossCommissionCapBps: number;
  @ApiProperty({ description: "False: no policy approved yet, the engine's defaults" }) approved: boolean;
}

export class CreditLineQueryDto {
  @CurrencyField({ description: "The line's currency (default: the property's cash currency)", required: false })
  currency?: string;
}

export class CreditLineDto {
  @ApiProperty({ description: "A patron's card or a junket's id" }) holder: string;
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'The line in force (0: none approved)' }) creditLimit: MinorUnits;
  @MoneyProperty({ description: 'What is owed on markers now' }) outstanding: MinorUnits;
  @MoneyProperty({ description: 'What may still be lent: the line less what is owed, never below 0' }) available: MinorUnits;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) approvedAt: string | null;
}

export class AgeingQueryDto {
  @DateField({ description: 'The gaming day the markers are aged to (default today)', required: false })
  asOf?: string;
}

export class AgedMarkerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() patronId: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) tableId: string | null;
  @ApiProperty() currency: string;
  @ApiProperty({ format: 'date' }) issuedDay: string;
  @ApiProperty({ description: 'Days from its gaming day to asOf' }) ageDays: number;
  @ApiProperty({ enum: ['CURRENT', 'DAYS_31_60', 'DAYS_61_90', 'OVER_90'] }) bucket: string;
  @MoneyProperty() amount: MinorUnits;
  @MoneyProperty() outstanding: MinorUnits;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: "Deposited with the patron's bank for collection (null: not)" })
  depositedAt: string | null;
}

export class AgeingTotalsDto {
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'Up to 30 days' }) current: MinorUnits;
  @MoneyProperty() days31to60: MinorUnits;
  @MoneyProperty() days61to90: MinorUnits;
  @MoneyProperty() over90: MinorUnits;
  @MoneyProperty() total: MinorUnits;
}

export class AgeingDto {
  @ApiProperty({ format: 'date' }) asOf: string;
  @ApiProperty({ type: AgeingTotalsDto, isArray: true, description: 'Per currency: never two currencies added' }) totals: AgeingTotalsDto[];
  @ApiProperty({ type: AgedMarkerDto, isArray: true, description: 'Every marker still owed, oldest first' }) markers: AgedMarkerDto[];
}
