import { ApiProperty } from '@nestjs/swagger';
import type { MinorUnits } from '../../../platform/common/exact-json';
import {
  CurrencyField,
  DateField,
  EnumField,
  MoneyField,
  MoneyProperty,
  PATRON_MAX_LENGTH,
  PATRON_PATTERN,
  TextField,
  PAYMENT_REFERENCE,
  UuidField,
} from '../../../platform/common/validation';

/** A code as the VIP room writes it (letters, digits, . - _). */
const CODE = /^[A-Za-z0-9._-]+$/;
const CODE_HINT = 'may hold letters, digits, ., - and _';
/** A name or signatory: something a person can read (a letter, digit, punctuation mark or symbol at least). */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const VISIBLE_HINT = 'must hold a letter, digit, punctuation mark or symbol';

export class JunketInputDto {
  @TextField({
    description: "The operator's code at the property (unique there)",
    example: 'GOLDEN-DRAGON',
    maxLength: 40,
    pattern: CODE,
    patternHint: CODE_HINT,
  })
  code: string;

  @TextField({ description: "The operator's name", example: 'Golden Dragon VIP Club', maxLength: 200, pattern: VISIBLE, patternHint: VISIBLE_HINT })
  name: string;

  @TextField({
    description: 'Its licence as the regulator numbers it',
    example: 'DICJ-J-0042',
    maxLength: 80,
    required: false,
    pattern: VISIBLE,
    patternHint: VISIBLE_HINT,
  })
  licence?: string;

  @CurrencyField({ description: 'The currency of its account: markers, repayments, statements, and the dead-chip play they count', example: 'HKD' })
  currency: string;

  @MoneyField({
    description:
      'The credit line asked for it, minor units (0: no credit). It is requested (a LIMIT credit request) and in force only once a second person approves it; until then the junket has no credit',
    example: 500_000_000,
    min: 0,
  })
  creditLimit: number;
}

export class JunketAgentDto {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
}

export class JunketDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) licence: string | null;
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'Its credit line in force: the most it may owe on markers (0: none approved yet)' }) creditLimit: MinorUnits;
  @MoneyProperty({ description: 'Its balance now: positive, it owes the casino; negative, the casino owes it' }) balance: MinorUnits;
  @ApiProperty({ type: JunketAgentDto, isArray: true }) agents: JunketAgentDto[];
  @ApiProperty() recordedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) recordedAt: string;
}

export class JunketAgentInputDto {
  @TextField({ description: "The agent's code within the junket", example: 'AG-01', maxLength: 40, pattern: CODE, patternHint: CODE_HINT })
  code: string;

  @TextField({ description: "The agent's name", example: 'Mr Lau', maxLength: 200, pattern: VISIBLE, patternHint: VISIBLE_HINT })
  name: string;
}

export class MembershipInputDto {
  @TextField({
    description: "The patron's card number (registered)",
    example: 'C-8801',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'must start with a letter or digit and hold only letters, digits, ., - and _',
  })
  patronId: string;

  @TextField({
    description: "The property's rolling-chip programme the patron plays under (its code: POST /v1/properties/{id}/rolling-programmes)",
    example: 'JUNKET-ROLL',
    maxLength: 40,
    pattern: CODE,
    patternHint: CODE_HINT,
  })
  programme: string;

  @TextField({
    description: "The junket's agent who brought the patron (its code)",
    example: 'AG-01',
    maxLength: 40,
    pattern: CODE,
    patternHint: CODE_HINT,
    required: false,
  })
  agent?: string;

  @DateField({
    description: 'The first gaming day it applies to (default today): today or later, and after the patron’s latest membership at the property',
    required: false,
  })
  effectiveFrom?: string;
}

export class LeaveInputDto {
  @DateField({ description: 'The first gaming day the patron no longer plays for the junket (default today; today or later)', required: false })
  effectiveFrom?: string;
}

export class MembershipDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() patronId: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null: from this day the patron plays for no junket' }) junketId: string | null;
  @ApiProperty({ nullable: true, type: String }) agent: string | null;
  @ApiProperty({ nullable: true, type: String }) programme: string | null;
  @ApiProperty({ format: 'date' }) effectiveFrom: string;
  @ApiProperty() recordedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) recordedAt: string;
}

export const ENTRY_KINDS = ['MARKER', 'REPAYMENT', 'PAYOUT'] as const;

export class AccountEntryInputDto {
  @EnumField(ENTRY_KINDS, {
    description:
      'MARKER: credit the casino extends to the junket; REPAYMENT: the junket pays on its markers; PAYOUT: the casino pays the junket what it is owed',
    enumName: 'JunketEntryInputKind',
    example: 'MARKER',
  })
  kind: (typeof ENTRY_KINDS)[number];

  @MoneyField({ description: "Minor units of the junket's currency", example: 100_000_000 })
  amount: number;

  @EnumField(['CASH', 'CHIPS', 'CHECK', 'WIRE'], {
    description: 'How a repayment or payout was made (required for them; none for a marker)',
    enumName: 'JunketPaymentMethod',
    required: false,
  })
  method?: 'CASH' | 'CHIPS' | 'CHECK' | 'WIRE';

  @TextField({
    description: "A repayment: what pays it, the cheque's number or the wire's reference (required for CHECK and WIRE)",
    example: 'SWIFT 0A1B2C',
    ...PAYMENT_REFERENCE,
    required: false,
  })
  reference?: string;

  @UuidField({
    description:
      "A repayment over the property's repayment threshold: the credit request (act REPAYMENT) a second person approved for it, whose terms it must match",
    required: false,
  })
  requestId?: string;
}

export class AccountEntryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['MARKER', 'REPAYMENT', 'PAYOUT', 'SETTLEMENT'], enumName: 'JunketEntryKind' }) kind: string;
  @MoneyProperty({ description: "A magnitude (the kind gives the direction); a SETTLEMENT's is the credit it gave the junket, signed" }) amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ nullable: true, type: String }) method: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The agreed statement a SETTLEMENT credits' }) statementId: string | null;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty() recordedByKeyId: string;
  @ApiProperty({ nullable: true, type: String, description: "A repayment's cheque or wire reference" }) reference: string | null;
  @MoneyProperty({ description: 'The balance after it (positive: the junket owes)' }) balance: MinorUnits;
}

export class PlayerCreditInputDto {
  @TextField({
    description: "The player's card number (registered)",
    example: 'C-8801',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'must start with a letter or digit and hold only letters, digits, ., - and _',
  })
  patronId: string;

  @EnumField(['ADVANCE', 'REPAYMENT'], {
    description: 'ADVANCE: credit the junket gave its player; REPAYMENT: the player paid the junket back',
    enumName: 'JunketPlayerCreditKind',
    example: 'ADVANCE',
  })
  kind: 'ADVANCE' | 'REPAYMENT';

  @MoneyField({ description: "Minor units of the junket's currency", example: 50_000_000 })
  amount: number;

  @DateField({ description: 'The gaming day the junket reports it for (default today; never in an agreed period, never after today)', required: false })
  gamingDay?: string;
}

export class PlayerCreditDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() patronId: string;
  @ApiProperty({ enum: ['ADVANCE', 'REPAYMENT'], enumName: 'JunketPlayerCreditKind' }) kind: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() recordedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) recordedAt: string;
}

export class PeriodQueryDto {
  @DateField({ description: 'First gaming day of the period, YYYY-MM-DD', example: '2026-11-01' })
  from: string;

  @DateField({ description: 'Last gaming day of the period (inclusive), YYYY-MM-DD', example: '2026-11-30' })
  to: string;
}

export class AgreeInputDto extends PeriodQueryDto {
  @TextField({
    description: 'Who signed the statement for the junket',
    example: 'Chan Tai Man, cashier, Golden Dragon',
    maxLength: 200,
    pattern: VISIBLE,
    patternHint: VISIBLE_HINT,
  })
  junketSignatory: string;

  @TextField({
    description:
      'The SHA-256 (hex) of the statement as the junket saw it (`digest` of GET …/statement): the period is agreed only if the figures are still those',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    maxLength: 64,
    minLength: 64,
    pattern: /^[0-9a-f]{64}$/,
    patternHint: 'must be 64 lowercase hex digits',
  })
  digest: string;

  @UuidField({
    description:
      'The credit request (act STATEMENT) one credit officer asked and another approved for this agreement: its period, digest and signatory are these, and it is recorded once',
    required: false,
  })
  requestId?: string;
}

export class ProgrammeLineDto {
  @ApiProperty() code: string;
  @ApiProperty({ description: 'Members who played under it in the period' }) members: number;
  @MoneyProperty({ description: 'Dead chips lost under it' }) rolled: MinorUnits;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty({ description: "The house's win on its dead-chip wagers" }) win: MinorUnits;
  @MoneyProperty({ description: 'Commission: each day at the version in force, summed exactly and rounded once; negative: a share of a loss' })
  commission: MinorUnits;
  @MoneyProperty() allowance: MinorUnits;
  @MoneyProperty({ description: 'win − commission − allowance' }) netWin: MinorUnits;
  @ApiProperty({ type: String, isArray: true, description: 'Days played before the programme began (nothing due on them)' }) daysOutside: string[];
}

export class MemberLineDto {
  @ApiProperty() patronId: string;
  @ApiProperty({ type: String, isArray: true }) agents: string[];
  @ApiProperty({ type: String, isArray: true }) programmes: string[];
  @MoneyProperty() purchased: MinorUnits;
  @MoneyProperty() returned: MinorUnits;
  @MoneyProperty() rolled: MinorUnits;
  @ApiProperty() wagers: number;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty() win: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'win ÷ rolled, 4 decimals' }) rollingWinPercent: string | null;
}

export class AgentLineDto {
  @ApiProperty({ description: "The agent's code ('' for members brought by none)" }) agent: string;
  @ApiProperty({ description: 'Members who played through the agent in the period' }) members: number;
  @MoneyProperty() rolled: MinorUnits;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty() win: MinorUnits;
}

export class StatementTotalsDto {
  @MoneyProperty() purchased: MinorUnits;
  @MoneyProperty() returned: MinorUnits;
  @MoneyProperty({ description: 'Rolling counted at the cage: purchased − returned' }) netPurchased: MinorUnits;
  @MoneyProperty({ description: 'Rolling counted at the tables: dead chips lost' }) rolled: MinorUnits;
  @MoneyProperty({ description: 'netPurchased − rolled' }) inHand: MinorUnits;
  @ApiProperty() agrees: boolean;
  @ApiProperty() wagers: number;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty({ description: "The house's win (the junket's players' loss)" }) win: MinorUnits;
  @ApiProperty({ nullable: true, type: String }) rollingWinPercent: string | null;
  @MoneyProperty() theoreticalWin: MinorUnits;
  @ApiProperty({ nullable: true, type: String }) theoreticalRollingWinPercent: string | null;
  @MoneyProperty({ description: "Σ the programmes' commission" }) commission: MinorUnits;
  @MoneyProperty() allowance: MinorUnits;
  @MoneyProperty({ description: "The house's win net of the programmes" }) netWin: MinorUnits;
}

export class StatementAccountDto {
  @MoneyProperty({ description: 'The balance before the first day (positive: the junket owes)' }) opening: MinorUnits;
  @MoneyProperty({ description: 'Markers issued in the period' }) markers: MinorUnits;
  @MoneyProperty({ description: 'Repaid by the junket in the period' }) repayments: MinorUnits;
  @MoneyProperty({ description: 'Paid to the junket in the period' }) payouts: MinorUnits;
  @MoneyProperty({ description: "The statement's commission and allowances, credited to the junket when agreed" }) credited: MinorUnits;
  @MoneyProperty({ description: 'opening + markers − repayments + payouts − credited: the net due, either way' }) closing: MinorUnits;
  @ApiProperty({ enum: ['JUNKET_OWES', 'CASINO_OWES', 'SETTLED'], enumName: 'JunketDue' }) due: string;
}

export class PlayerCreditLineDto {
  @ApiProperty() patronId: string;
  @MoneyProperty({ description: 'Advanced in the period, as the junket reports it' }) advanced: MinorUnits;
  @MoneyProperty() repaid: MinorUnits;
  @MoneyProperty({ description: "Owed to the junket at the period's end, as reported" }) outstanding: MinorUnits;
}

export class StatementFiguresDto {
  @ApiProperty({ format: 'uuid' }) junketId: string;
  @ApiProperty() code: string;
  @ApiProperty() currency: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: ProgrammeLineDto, isArray: true }) programmes: ProgrammeLineDto[];
  @ApiProperty({ type: MemberLineDto, isArray: true }) members: MemberLineDto[];
  @ApiProperty({ type: AgentLineDto, isArray: true, description: "By the agent of the membership in force on each day's play" }) agents: AgentLineDto[];
  @ApiProperty({ type: StatementTotalsDto }) totals: StatementTotalsDto;
  @ApiProperty({ type: StatementAccountDto }) account: StatementAccountDto;
  @ApiProperty({ type: PlayerCreditLineDto, isArray: true, description: "The junket's credit to its players, as it reports it: outside the casino's books" })
  playerCredit: PlayerCreditLineDto[];
}

export class AgreementDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Who signed the statement for the junket' }) junketSignatory: string;
  @ApiProperty({ description: 'The key that recorded the agreement' }) agreedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) agreedAt: string;
  @ApiProperty({ description: 'The SHA-256 of the figures agreed' }) digest: string;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The credit request (act STATEMENT) under which the casino agreed it (null: agreed before the control)',
  })
  requestId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'For the casino: the credit officer who asked to agree it (their key)' })
  requestedByKeyId: string | null;
  @ApiProperty({ type: String, isArray: true, description: 'For the casino: the credit officers who approved it (their keys), each another person' })
  approvedByKeyIds: string[];
}

export class DueShareDto {
  @ApiProperty({ description: "A member's card, or an agent's code ('' for members brought by no agent)" }) id: string;
  @ApiProperty({ type: String, nullable: true, description: "The member's or agent's name as registered (null when none is)" }) name: string | null;
  @MoneyProperty({ description: 'Their share of the programmes’ commission, minor units of the junket’s currency (signed)' }) commission: MinorUnits;
  @MoneyProperty({ description: 'Their share of the programmes’ allowances, minor units' }) allowance: MinorUnits;
}

export class StatementSharesDto {
  @ApiProperty({ type: DueShareDto, isArray: true, description: 'By member, in card order' }) members: DueShareDto[];
  @ApiProperty({ type: DueShareDto, isArray: true, description: 'By agent, in code order' }) agents: DueShareDto[];
}

export class StatementDto {
  @ApiProperty({
    enum: ['OPEN', 'AGREED'],
    enumName: 'JunketStatementStatus',
    description: 'OPEN: not agreed (provisional while the period runs); AGREED: locked',
  })
  status: string;
  @ApiProperty({ type: StatementFiguresDto, description: 'AGREED: the figures as agreed; OPEN: as the records stand' }) figures: StatementFiguresDto;
  @ApiProperty({ description: 'The SHA-256 (hex) of the figures as the records stand now, canonical JSON (RFC 8785)' }) digest: string;
  @ApiProperty({ description: 'AGREED: the records still give the figures agreed (digest = agreement.digest)' }) reproduced: boolean;
  @ApiProperty({ type: AgreementDto, nullable: true }) agreement: AgreementDto | null;
  @ApiProperty({
    type: StatementSharesDto,
    description:
      "Who earned the commission and allowances, with names: each programme's total apportioned exactly among the members and agents whose play earned it (they add up to figures.totals). From the records as they stand; not part of the digest, so statements agreed before it still reproduce",
  })
  shares: StatementSharesDto;
}

export class AgreedPeriodDto extends AgreementDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
}
