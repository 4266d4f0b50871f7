/** A bet's pay in full as the API answers it (domain payTermsOf): the table's views and the table-side display alike. */
import { ApiProperty } from '@nestjs/swagger';
import { BetType, formatOdds, PAY_CASES, payTermsOf, RoundingRule, RuleSet } from '../../domain';
import { EnumField, IntField } from './validation';

/** How a table rounds its commission and fractional pays (domain RoundingRule): as asked for and as answered. */
export class RoundingDto {
  @EnumField(['FLOOR', 'HALF_UP', 'CEILING'], { description: 'Direction', enumName: 'RoundingMode', example: 'FLOOR' })
  mode: 'FLOOR' | 'HALF_UP' | 'CEILING';

  @IntField({ description: 'Round to a multiple of this many minor units (1 = the minor unit, 25 = a 25 chip)', example: 1, min: 1, max: 1_000_000 })
  unit: number;
}

export class PayExceptionDto {
  @ApiProperty({
    enum: PAY_CASES,
    enumName: 'PayCase',
    description:
      'BANKER_WINS_WITH_6 (Super 6), BANKER_WINS_WITH_THREE_CARD_7 (EZ), BOTH_PERFECT_PAIRS (Perfect Pair with its second pay), TIE (Player and Banker bets on a tie)',
  })
  when: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '1 to 2',
    description: 'The pay in that case; null where the bet pushes (stake returned, or kept for the next coup where ties carry)',
  })
  pays: string | null;
}

/** The fields every bet view adds to its pay: the commission taken and the cases paid otherwise. */
export class PayTermsFields {
  @ApiProperty({ example: 500, description: 'Commission taken from the bet’s winnings, basis points (0: none)' }) commissionBps: number;
  @ApiProperty({
    type: RoundingDto,
    nullable: true,
    description:
      'How the commission and any fractional pay of this bet are rounded, where the percentage and the pay alone do not say the amount (CEILING to 1000 minor units: a 2.5 % commission on 130.00 is charged as 10.00); null where nothing of the bet is rounded, or only down to the minor unit',
  })
  rounding: RoundingDto | null;
  @ApiProperty({ type: PayExceptionDto, isArray: true, description: 'Where the bet pays other than its pay' }) except: PayExceptionDto[];
}

export function payTermsView(rules: RuleSet, bet: BetType): { pays: string; commissionBps: number; rounding: RoundingRule | null; except: PayExceptionDto[] } {
  const t = payTermsOf(rules, bet);
  return {
    pays: formatOdds(t.pays),
    commissionBps: t.commissionBps,
    rounding: t.rounding,
    except: t.except.map((e) => ({ when: e.when, pays: e.pays ? formatOdds(e.pays) : null })),
  };
}
