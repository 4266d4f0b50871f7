/** A bet's pay in full as the API answers it (domain payTermsOf): the table's views and the table-side display alike. */
import { ApiProperty } from '@nestjs/swagger';
import { BetType, formatOdds, PAY_CASES, payTermsOf, RuleSet } from '../../domain';

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
  @ApiProperty({ type: PayExceptionDto, isArray: true, description: 'Where the bet pays other than its pay' }) except: PayExceptionDto[];
}

export function payTermsView(rules: RuleSet, bet: BetType): { pays: string; commissionBps: number; except: PayExceptionDto[] } {
  const t = payTermsOf(rules, bet);
  return {
    pays: formatOdds(t.pays),
    commissionBps: t.commissionBps,
    except: t.except.map((e) => ({ when: e.when, pays: e.pays ? formatOdds(e.pays) : null })),
  };
}
