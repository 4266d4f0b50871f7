import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiKeyGuard } from '../foundation/access/api-key.guard';
import { AccessService, ADMIN_KEY } from '../foundation/access/access.service';
import { ApiKeysModule } from '../integrity/api-keys/api-keys.module';
import { AUDIT_SECRETS, AuditSecrets } from '../foundation/ledger/audit-log';
import { BanksModule } from '../table-games/banks/banks.module';
import { CommissionsModule } from '../table-games/commissions/commissions.module';
import { ErrorFilter } from '../platform/common/error.filter';
import { Metrics } from '../platform/common/metrics';
import { ShutdownState } from '../platform/common/shutdown';
import { MetricsModule } from '../operations/metrics/metrics.module';
import { loggingModule } from '../platform/common/logging';
import { PerKeyThrottlerGuard } from '../platform/common/hardening';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../platform/config/config';
import { AUDIT_KEYRING } from '../platform/config/keyring';
import { CoupsModule } from '../table-games/coups/coups.module';
import { LedgerMonthsKeeper } from '../platform/database/ledger-months';
import { PrismaService } from '../platform/database/prisma.service';
import { ReadDatabase } from '../platform/database/read-database';
import { HealthModule } from '../operations/health/health.module';
import { IdempotencyInterceptor } from '../platform/idempotency/idempotency.interceptor';
import { OddsModule } from '../table-games/odds/odds.module';
import { PropertiesModule } from '../finance/properties/properties.module';
import { ShoesModule } from '../table-games/shoes/shoes.module';
import { AuditModule } from '../integrity/audit/audit.module';
import { ReportsModule } from '../finance/reports/reports.module';
import { VoidRequestsModule } from '../table-games/void-requests/void-requests.module';
import { TableAccountingModule } from '../table-games/table-accounting/table-accounting.module';
import { TablesModule } from '../table-games/tables/tables.module';
import { DisplayModule } from '../table-games/display/display.module';
import { EventsModule } from '../operations/events/events.module';
import { DealersModule } from '../table-games/dealers/dealers.module';
import { PatronsModule } from '../patrons-and-cage/patrons/patrons.module';
import { CashModule } from '../patrons-and-cage/cash/cash.module';
import { RollingModule } from '../patrons-and-cage/rolling/rolling.module';
import { JunketsModule } from '../patrons-and-cage/junkets/junkets.module';
import { CreditModule } from '../patrons-and-cage/credit/credit.module';
import { ExchangeRatesModule } from '../finance/exchange-rates/exchange-rates.module';
import { GroupModule } from '../finance/group/group.module';
import { SurveillanceModule } from '../integrity/surveillance/surveillance.module';
import { StaffModule } from '../integrity/staff/staff.module';

/** The database clients (the primary, and where reports read), the access layer and the audit secrets, available to every module. */
@Global()
@Module({})
class CoreModule {
  static forRoot(config: AppConfig, databaseUrl: string, adminKey: string, audit: AuditSecrets): DynamicModule {
    return {
      module: CoreModule,
      imports: [loggingModule(config), ThrottlerModule.forRoot({ throttlers: [{ name: 'per-key', ttl: 60_000, limit: config.rateLimitPerMinute }] })],
      providers: [
        { provide: PrismaService, useFactory: () => new PrismaService(databaseUrl, config.dbPoolSize, config.statementTimeoutMs) },
        {
          provide: ReadDatabase,
          inject: [PrismaService],
          useFactory: (primary: PrismaService) =>
            new ReadDatabase(primary, config.databaseReadUrl ? new PrismaService(config.databaseReadUrl, config.dbPoolSize, config.statementTimeoutMs) : null, {
              maxLagMs: config.readMaxLagMs,
              whenBehind: config.readWhenBehind,
            }),
        },
        { provide: ADMIN_KEY, useValue: adminKey },
        { provide: Metrics, useValue: new Metrics() },
        ShutdownState,
        { provide: AUDIT_SECRETS, useValue: audit },
        { provide: AUDIT_KEYRING, useValue: audit.keyring },
        AccessService,
        LedgerMonthsKeeper,
        { provide: APP_GUARD, useClass: ApiKeyGuard }, // first: the throttler counts per key
        { provide: APP_GUARD, useClass: PerKeyThrottlerGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
      exports: [PrismaService, ReadDatabase, AccessService, AUDIT_SECRETS, AUDIT_KEYRING, Metrics, ShutdownState],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, adminKey: string, audit: AuditSecrets): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, databaseUrl, adminKey, audit),
        ApiKeysModule,
        StaffModule,
        HealthModule,
        MetricsModule,
        PropertiesModule,
        TablesModule,
        DisplayModule,
        DealersModule,
        PatronsModule,
        CashModule,
        RollingModule,
        JunketsModule,
        CreditModule,
        ShoesModule,
        CoupsModule,
        CommissionsModule,
        BanksModule,
        OddsModule,
        TableAccountingModule,
        ReportsModule,
        ExchangeRatesModule,
        GroupModule,
        AuditModule,
        VoidRequestsModule,
        EventsModule.forRoot({ natsUrl: config.natsUrl, stream: config.eventsStream, pollMs: config.eventsPollMs, gatherMs: config.eventsGatherMs }),
        SurveillanceModule.forRoot({
          enabled: config.surveillance,
          databaseUrl,
          pollMs: config.surveillancePollMs,
          share: config.surveillanceShare,
          recordDays: config.surveillanceRecordDays,
        }),
      ],
    };
  }
}
