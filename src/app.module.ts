import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiKeyGuard } from './access/api-key.guard';
import { AccessService, ADMIN_KEY } from './access/access.service';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AUDIT_SECRETS, AuditSecrets } from './ledger/audit-log';
import { BanksModule } from './banks/banks.module';
import { CommissionsModule } from './commissions/commissions.module';
import { ErrorFilter } from './common/error.filter';
import { Metrics } from './common/metrics';
import { ShutdownState } from './common/shutdown';
import { MetricsModule } from './metrics/metrics.module';
import { loggingModule } from './common/logging';
import { PerKeyThrottlerGuard } from './common/hardening';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from './config/config';
import { CoupsModule } from './coups/coups.module';
import { LedgerMonthsKeeper } from './database/ledger-months';
import { PrismaService } from './database/prisma.service';
import { ReadDatabase } from './database/read-database';
import { HealthModule } from './health/health.module';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { OddsModule } from './odds/odds.module';
import { PropertiesModule } from './properties/properties.module';
import { ShoesModule } from './shoes/shoes.module';
import { AuditModule } from './audit/audit.module';
import { ReportsModule } from './reports/reports.module';
import { VoidRequestsModule } from './void-requests/void-requests.module';
import { TableAccountingModule } from './table-accounting/table-accounting.module';
import { TablesModule } from './tables/tables.module';
import { DisplayModule } from './display/display.module';
import { EventsModule } from './events/events.module';
import { DealersModule } from './dealers/dealers.module';
import { PatronsModule } from './patrons/patrons.module';
import { CashModule } from './cash/cash.module';
import { RollingModule } from './rolling/rolling.module';
import { JunketsModule } from './junkets/junkets.module';
import { ExchangeRatesModule } from './exchange-rates/exchange-rates.module';
import { GroupModule } from './group/group.module';
import { SurveillanceModule } from './surveillance/surveillance.module';
import { StaffModule } from './staff/staff.module';

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
        AccessService,
        LedgerMonthsKeeper,
        { provide: APP_GUARD, useClass: ApiKeyGuard }, // first: the throttler counts per key
        { provide: APP_GUARD, useClass: PerKeyThrottlerGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
      exports: [PrismaService, ReadDatabase, AccessService, AUDIT_SECRETS, Metrics, ShutdownState],
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
