import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_SEAT } from '../../../platform/common/validation';
import { BoolField, CardsField, EnumField, IntField, MoneyField, NestedField, SeatsField } from '../../../platform/common/validation';

export class OpenBankDto {
  @IntField({ description: 'Seat that holds the bank', example: 3, min: 1, max: MAX_SEAT })
  bankerSeat: number;

  @MoneyField({ description: 'The bank put up, minor units (within the table limits)', example: 100000 })
  amount: number;

  @SeatsField({
    description: "Occupied seats in the order the bank travels (counter-clockwise). Required for a shoe's first bank; later banks keep it unless given.",
    example: [1, 2, 3, 5, 6, 8, 9],
    max: MAX_SEAT,
    minItems: 2,
    required: false,
  })
  rotation?: number[];

  @SeatsField({
    description: 'Seats that declined the bank before this banker took it (the service checks the banker is the next seat in rotation that did not)',
    example: [4],
    max: MAX_SEAT,
    required: false,
  })
  declined?: number[];

  @EnumField(['AUCTION', 'FIRST_LISTED'], {
    description: 'Baccarat banque: how the bank was given (default FIRST_LISTED)',
    enumName: 'BankAward',
    required: false,
  })
  how?: 'AUCTION' | 'FIRST_LISTED';
}

export class BankCoupCardsDto {
  @CardsField({
    description: "Chemin de fer: the punters' hand, two cards then the third if drawn",
    example: ['9H', 'TD'],
    minItems: 2,
    maxItems: 3,
    required: false,
  })
  player?: string[];

  @CardsField({ description: "Banker's hand", example: ['7S', 'KC'], minItems: 2, maxItems: 3 })
  banker: string[];

  @CardsField({ description: 'Baccarat banque: the right-hand table', example: ['5D', '2C'], minItems: 2, maxItems: 3, required: false })
  right?: string[];

  @CardsField({ description: 'Baccarat banque: the left-hand table', example: ['8S', 'AH'], minItems: 2, maxItems: 3, required: false })
  left?: string[];
}

export class BankStakeDto {
  @IntField({ description: 'Seat of the punter (a bystander: the place they stand behind)', example: 5, min: 1, max: MAX_SEAT })
  seat: number;

  @MoneyField({ description: 'Stake, minor units (a banco may leave it out: it covers the bank)', example: 20000, required: false })
  amount?: number;

  @EnumField(['BANCO', 'BANCO_SUIVI'], {
    description: 'A banco covers the whole bank alone; BANCO_SUIVI is the last losing banco calling again (chemin de fer)',
    enumName: 'BancoCall',
    required: false,
  })
  call?: 'BANCO' | 'BANCO_SUIVI';

  @BoolField({ description: 'Chemin de fer: a bystander covering what the seated punters leave', required: false })
  bystander?: boolean;

  @EnumField(['RIGHT', 'LEFT', 'A_CHEVAL'], {
    description: 'Baccarat banque: the hand the stake rides on; à cheval is half on each',
    enumName: 'BanqueSide',
    required: false,
  })
  side?: 'RIGHT' | 'LEFT' | 'A_CHEVAL';
}

export class RecordBankCoupDto {
  @NestedField(() => BankCoupCardsDto, { description: 'The cards as dealt' })
  cards: BankCoupCardsDto;

  @NestedField(() => BankStakeDto, {
    description: 'Stakes against the bank in rotation order. After a chemin de fer tie the stakes stand: leave them out or repeat them.',
    array: true,
    maxItems: 40,
    required: false,
  })
  stakes?: BankStakeDto[];

  @MoneyField({ description: 'Chemin de fer: what the banker adds to the bank before this coup (never withdraws)', example: 5000, required: false })
  bankerAdds?: number;

  @BoolField({ description: 'Baccarat banque: the banker declares the stakes accepted, making the bank unlimited for the rest of the shoe', required: false })
  declareStakesAccepted?: boolean;
}

export class RetireBankDto {
  @MoneyField({
    description: 'Baccarat banque: the amount at which another player may continue the bank from the same cards (required there)',
    example: 50000,
    required: false,
  })
  amount?: number;
}

export class StandingStakeDto {
  @ApiProperty() seat: number;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty({ nullable: true, type: String }) call: string | null;
  @ApiProperty() bystander: boolean;
}

export class BankDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ description: 'Bank number within the shoe' }) number: number;
  @ApiProperty({ enum: ['CHEMIN_DE_FER', 'BANQUE'] }) game: string;
  @ApiProperty() bankerSeat: number;
  @ApiProperty({ type: Number, isArray: true }) rotation: number[];
  @ApiProperty({ description: 'NEW, PASSED (after a losing banker), OFFER_TAKEN, CONTINUED, AUCTION or FIRST_LISTED' }) how: string;
  @MoneyProperty({ description: 'Amount the bank was opened with' }) openedWith: MinorUnits;
  @MoneyProperty({ description: 'Chemin de fer: the whole bank at stake next coup. Banque: the funds in the bank.' }) bank: MinorUnits;
  @MoneyProperty({ description: 'Uncovered amounts set aside for the banker so far' }) setAside: MinorUnits;
  @MoneyProperty({ description: "The house's commission on this bank's winnings so far" }) houseCommission: MinorUnits;
  @ApiProperty({ nullable: true, type: Number, description: 'Seat with banco suivi for the next coup' }) bancoSuivi: number | null;
  @ApiProperty({ type: StandingStakeDto, isArray: true, nullable: true, description: 'Stakes standing after a tie' }) standingStakes: StandingStakeDto[] | null;
  @ApiProperty() stakesAccepted: boolean;
  @ApiProperty() coups: number;
  @ApiProperty({ enum: ['ACTIVE', 'PASSED', 'RETIRED', 'BROKE', 'SHOE_CLOSED'] }) status: string;
  @MoneyProperty({ nullable: true, description: 'After retiring: the amount the bank is offered at (chemin de fer) or continued at (banque)' })
  offer: MinorUnits | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Who holds the bank next (the banker while the bank is active)' }) nextBanker: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Chemin de fer: a retired bank taken out of turn (the seats before the taker declined it) keeps the seat whose turn it was; that seat banks next when this bank is lost',
  })
  outOfTurnFor: number | null;
  @MoneyProperty({
    nullable: true,
    description: 'What the banker takes away when the bank closes: the bank (on retiring) and everything set aside',
  })
  bankerTakes: MinorUnits | null;
  @ApiProperty() openedAt: string;
  @ApiProperty({ nullable: true, type: String }) closedAt: string | null;
}

export class PunterResultDto {
  @ApiProperty() seat: number;
  @ApiProperty({ nullable: true, type: String, enum: ['RIGHT', 'LEFT', 'A_CHEVAL'] }) side: string | null;
  @ApiProperty({ nullable: true, type: String }) call: string | null;
  @ApiProperty() bystander: boolean;
  @MoneyProperty() stake: MinorUnits;
  @MoneyProperty({ description: "The punter's result: + won, − lost, 0 when the stake stands (tie)" }) net: MinorUnits;
  @MoneyProperty({ description: 'Banque: what the bank owed and could not pay (no claim)' }) unpaid: MinorUnits;
}

export class BankCoupVoidDto {
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty() approvedByKeyId: string;
  @ApiProperty() voidedAt: string;
}

export class BanqueSideOutcomeDto {
  @ApiProperty({ enum: ['PUNTER', 'BANKER', 'TIE'], enumName: 'BanqueSideWinner' }) winner: string;
  @ApiProperty({ description: "The side's hand total" }) punterTotal: number;
  @ApiProperty({ description: 'A natural (8 or 9 on two cards)' }) natural: boolean;
}

/** What the cards decided: chemin de fer fills the first group of fields, baccarat banque the second. */
export class BankCoupOutcomeDto {
  @ApiPropertyOptional({ enum: ['PLAYER', 'BANKER', 'TIE'], enumName: 'ChemmyWinner', description: 'Chemin de fer: who won (PLAYER = the punters)' })
  winner?: string;
  @ApiPropertyOptional({ description: "Chemin de fer: the punters' total" }) punterTotal?: number;
  @ApiProperty({ description: "The banker's total" }) bankerTotal: number;
  @ApiPropertyOptional({ description: 'Chemin de fer: a natural ended the coup' }) natural?: boolean;
  @ApiPropertyOptional({ description: "Chemin de fer: who played the punters' hand" }) handPlayer?: number;
  @ApiPropertyOptional({ description: 'Chemin de fer: a tie, the stakes stand' }) stakesStand?: boolean;
  @ApiPropertyOptional({ type: BanqueSideOutcomeDto, description: 'Banque: the right-hand table against the banker' }) right?: BanqueSideOutcomeDto;
  @ApiPropertyOptional({ type: BanqueSideOutcomeDto, description: 'Banque: the left-hand table against the banker' }) left?: BanqueSideOutcomeDto;
  @ApiPropertyOptional({ description: 'Banque: the banker had a natural' }) bankerNatural?: boolean;
  @ApiPropertyOptional({ description: 'Banque: the bank could not pay every winner' }) bankBroken?: boolean;
}

export class BankCoupDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) bankId: string;
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty({ description: 'Coup number within the shoe' }) number: number;
  @ApiProperty() gamingDay: string;
  @ApiProperty({ type: BankCoupCardsDto, description: 'The cards as dealt' }) cards: BankCoupCardsDto;
  @ApiProperty({ type: BankCoupOutcomeDto }) outcome: BankCoupOutcomeDto;
  @ApiProperty() bankerSeat: number;
  @MoneyProperty({ description: 'The bank at stake (chemin de fer) or in hand (banque) before the coup' }) bankBefore: MinorUnits;
  @MoneyProperty({ description: 'Stakes covering the bank' }) covered: MinorUnits;
  @MoneyProperty({ description: 'Chemin de fer: the uncovered part, set aside for the banker' }) setAside: MinorUnits;
  @MoneyProperty({ description: "The house's commission on the banker's winnings" }) commission: MinorUnits;
  @MoneyProperty({ nullable: true, description: 'The bank after the coup (null when it passed)' }) bankAfter: MinorUnits | null;
  @ApiProperty({ description: 'Who holds the bank next' }) nextBanker: number;
  @ApiProperty({ nullable: true, type: Number, description: "Chemin de fer: who played the punters' hand" }) handPlayer: number | null;
  @ApiProperty({ description: 'A chemin de fer tie: the stakes stand for the next coup' }) stakesStand: boolean;
  @ApiProperty({ description: 'Banque: the bank could not pay every winner' }) bankBroken: boolean;
  @ApiProperty({ type: PunterResultDto, isArray: true }) punters: PunterResultDto[];
  @ApiProperty({ type: BankDto, description: "The bank's state after the coup (listing a bank's coups: its state now)" }) bank: BankDto;
  @ApiProperty({ type: BankCoupVoidDto, nullable: true }) void: BankCoupVoidDto | null;
  @ApiProperty() settledAt: string;
}
