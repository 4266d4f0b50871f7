import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { ExchangeRatesController } from './exchange-rates.controller';
import { ExchangeRatesService } from './exchange-rates.service';

/** Daily exchange rates into a group's currency, for its reports. */
@Module({ imports: [LedgerModule], controllers: [ExchangeRatesController], providers: [ExchangeRatesService] })
export class ExchangeRatesModule {}
