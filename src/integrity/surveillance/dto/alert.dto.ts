import { ApiProperty } from '@nestjs/swagger';
import { DEALER_ID_PATTERN, EnumField, PATRON_PATTERN, TextField, UuidField } from '../../../platform/common/validation';

export const ALERT_KINDS = ['COUNT_BETTING', 'WINS_BEYOND_ODDS', 'MONEY_BEYOND_ODDS', 'FIRST_CARD_KNOWLEDGE', 'DEALER_PAIRING', 'REPEATED_RUN'] as const;
export const ALERT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'CLOSED'] as const;
export const ALERT_SUBJECTS = ['PATRON', 'DEALER', 'TABLE', 'SHOE', 'SEAT'] as const;

export class AlertQueryDto {
  @EnumField(ALERT_STATUSES, { description: 'Only alerts in this state', enumName: 'AlertStatus', required: false }) status?: string;
  @EnumField(ALERT_KINDS, { description: 'Only alerts of this detector', enumName: 'AlertKind', required: false }) kind?: string;
  @UuidField({ description: "Only this table's alerts", required: false }) tableId?: string;
  @UuidField({ description: "Only this shoe's alerts", required: false }) shoeId?: string;
  @TextField({ description: "Only this patron's alerts", maxLength: 64, pattern: PATRON_PATTERN, patternHint: 'must be a patron id', required: false })
  patronId?: string;
  @TextField({ description: "Only this dealer's alerts", maxLength: 64, pattern: DEALER_ID_PATTERN, patternHint: 'must be a dealer id', required: false })
  dealerId?: string;
}

export class AlertStepInputDto {
  @TextField({
    description: 'What was looked at and decided',
    example: 'Reviewed the coups on camera: a dealer error, retrained',
    maxLength: 2000,
    required: false,
  })
  note?: string;
}

export class CloseAlertDto {
  @TextField({
    description: 'Why the alert is closed: what was found and done',
    example: 'Edge sorting confirmed on camera; patron barred, cards replaced',
    maxLength: 2000,
  })
  note: string;
}

export class AlertStepDto {
  @ApiProperty({ enum: ['ACKNOWLEDGE', 'CLOSE'], enumName: 'AlertStepKind' }) step: string;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({ description: 'The API key that took the step' }) keyId: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class AlertUpdateDto {
  @ApiProperty({ format: 'date-time', description: 'When the detector looked again (a shoe the subject played closed)' }) at: string;
  @ApiProperty({ description: "The detector's statistic then (docs/domain.md §9)", example: 2.4e7 }) eValue: number;
  @ApiProperty({ description: '1 ÷ the statistic', example: 4.2e-8 }) pValue: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The evidence then, as in the alert' }) evidence: Record<string, unknown>;
}

export class AlertDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ALERT_KINDS, enumName: 'AlertKind', description: 'The detector (docs/domain.md §9)' }) kind: string;
  @ApiProperty({
    enum: ['MEDIUM', 'HIGH'],
    enumName: 'AlertSeverity',
    description: "HIGH: the detector's statistic a thousand times past its alarm level (a repeated run: its chance a thousand times below the threshold)",
  })
  severity: string;
  @ApiProperty({ enum: ALERT_STATUSES, enumName: 'AlertStatus' }) status: string;
  @ApiProperty({
    description:
      'For a record detector, 1 ÷ its statistic when the alert was raised: an honest record reaches a statistic this large at most this often per shoe, however often it is looked at (the evidence holds the statistic, eValue). For a repeated run, the chance of a match this long by luck, anywhere it was looked for.',
    example: 3.2e-9,
  })
  pValue: number;
  @ApiProperty({
    description:
      'The alarm level on pValue: 1 ÷ the alarm level of the statistic (4e-5 for the first card, 1e-5 for the other record detectors), or 1e-6 for a repeated run',
    example: 1e-5,
  })
  threshold: number;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ format: 'uuid', description: 'The shoe whose close (or, for a repeated run, whose coup) raised it' }) shoeId: string;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ nullable: true, type: String }) dealerId: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Unrated play (no player card): the seat at the table whose record raised it' }) seat:
    number | null;
  @ApiProperty({ format: 'date', description: "The gaming day of the patron's record, or of the coup that repeated a run" }) gamingDay: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What a surveillance officer reads: a one-line reason; the money, expected against actual, with its currency; the coups that tell (table, shoe and coup number, cards, bet, stake, the exact edge at the bet, result); the statistic (eValue) and its alarm level; for a run, the cards and both shoes',
  })
  evidence: Record<string, unknown>;
  @ApiProperty({
    type: AlertUpdateDto,
    isArray: true,
    description: 'While the alert is open, each later look of its detector at the grown record (one cheat, one alert: its evidence grows here)',
  })
  updates: AlertUpdateDto[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: AlertStepDto, isArray: true }) steps: AlertStepDto[];
}

export class OpenAlertsQueryDto {
  @EnumField(ALERT_SUBJECTS, { description: 'What to gather the alerts by', enumName: 'AlertSubject', example: 'PATRON' }) by: string;
}

export class OpenAlertsDto {
  @ApiProperty({ description: 'The patron id, dealer id, table id or shoe id', example: 'P-1042' }) subject: string;
  @ApiProperty({ nullable: true, type: String, description: "The table's code (by TABLE or SHOE)" }) tableCode: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "The shoe's number at its table (by SHOE)" }) shoeNumber: number | null;
  @ApiProperty({ description: 'Alerts nobody has acknowledged yet' }) open: number;
  @ApiProperty({ description: 'Alerts acknowledged and not yet closed' }) acknowledged: number;
  @ApiProperty({ description: 'Of those, how many are HIGH' }) high: number;
  @ApiProperty({ description: 'The smallest p-value among them', example: 3.2e-9 }) smallestPValue: number;
  @ApiProperty({ enum: ALERT_KINDS, enumName: 'AlertKind', isArray: true, description: 'The detectors that raised them' }) kinds: string[];
  @ApiProperty({ format: 'date-time' }) oldestAt: string;
  @ApiProperty({ format: 'date-time' }) newestAt: string;
}
