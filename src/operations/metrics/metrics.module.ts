import { Module } from '@nestjs/common';
import { MetricsCollector } from './metrics.collector';

/** The scrape-time figures (the registry itself, src/platform/common/metrics.ts, is the core module's). */
@Module({ providers: [MetricsCollector] })
export class MetricsModule {}
