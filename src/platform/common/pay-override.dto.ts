import { BET_TYPES } from '../../domain';
import { EnumField, PAY_HINT, PAY_PATTERN, TextField } from './validation';

/** A pay that differs from the usual table: a table's house rules, or a composition priced with other rules. */
export class PayOverrideDto {
  @EnumField(BET_TYPES, { description: 'Bet whose pay differs from the usual table', enumName: 'BetType', example: 'SUPER_6' })
  betType: string;

  @TextField({ description: 'The pay, stating its basis', example: '15 to 1', maxLength: 24, pattern: PAY_PATTERN, patternHint: PAY_HINT })
  pays: string;
}
