import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { AppConfig } from './config/config';
import { loggingModule } from './shared/infrastructure/logging';
import { CoreModule } from './core.module';
import { ActivitiesModule } from './modules/activities/activities.module';
import { BuyersModule } from './modules/buyers/buyers.module';
import { EvaluationModule } from './modules/evaluation/evaluation.module';
import { EventsModule, EventsRetentionModule } from './modules/events/events.module';
import { WebhooksModule, WebhookWorkersModule } from './modules/webhooks/webhooks.module';
import { HealthModule } from './modules/health/health.module';
import { KbModule } from './modules/kb/kb.module';
import { HttpMetricsMiddleware } from './modules/metrics/http-metrics';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PipelineModule } from './modules/pipeline/pipeline.module';
import { SignalsModule } from './modules/signals/signals.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';
import { ConsoleModule } from './modules/console/console.module';
import { HTTP_SURFACES, HttpSurfaces } from './shared/interface/http/request-context';
import { AuthGuard } from './shared/interface/http/auth.guard';
import { ApiExceptionFilter } from './shared/interface/http/exception.filter';
import { RouteMethods } from './shared/interface/http/route-methods';
import { WorkspaceThrottlerGuard } from './shared/interface/http/rate-limit';
import { RateLimitModule } from './shared/interface/http/rate-limit.module';
import { RequestLogMiddleware } from './shared/interface/http/request-log';
import { RequestPipelineMiddleware } from './shared/interface/http/request-pipeline.middleware';
import { IdempotencyRetentionModule } from './shared/shared.module';
import { PartitionMaintenanceModule } from './database/partition-maintenance';

/**
 * The HTTP API. A request passes, in order: the request log (it gives the request its id; lines
 * through nestjs-pino's pino logger), the metrics' timer, the request middleware (key, then body), routing, the rate-limit
 * guard (the workspace's budget), the auth guard (scope, workspace, body errors), on POST and
 * PATCH routes the idempotency interceptor (`Idempotency-Key`), the handler; any error ends in
 * the exception filter.
 */
@Module({})
export class AppModule implements NestModule {
  /**
   * `logDestination`: where log lines go (stdout when omitted). `surfaces`: what the application
   * serves — by default the public API, and the console under `/console` unless CONSOLE_ENABLED
   * is off; the console's own process (`dist/console.js`) serves the console only (ADR 0058).
   */
  static forRoot(
    config: AppConfig,
    logDestination?: DestinationStream,
    surfaces: HttpSurfaces = { api: true, console: config.console.enabled },
  ): DynamicModule {
    // Workers run beside the API only, never in the console's own process.
    const workers = config.runWorkers && surfaces.api;
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        DiscoveryModule,
        loggingModule(logDestination),
        RateLimitModule,
        HealthModule,
        MetricsModule,
        WorkspacesModule,
        KbModule,
        BuyersModule,
        SignalsModule,
        ActivitiesModule,
        EvaluationModule,
        EventsModule,
        WebhooksModule,
        ...(surfaces.console ? [ConsoleModule] : []),
        // One command serves a demo: the API runs the pipeline workers too unless RUN_WORKERS=false.
        ...(workers
          ? [PipelineModule, EventsRetentionModule, IdempotencyRetentionModule, PartitionMaintenanceModule, WebhookWorkersModule]
          : []),
      ],
      providers: [
        { provide: HTTP_SURFACES, useValue: surfaces },
        RouteMethods,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // Guards run in this order: every request to a route counts against the workspace's
        // budget, even one the auth guard then refuses.
        { provide: APP_GUARD, useClass: WorkspaceThrottlerGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLogMiddleware, HttpMetricsMiddleware, RequestPipelineMiddleware).forRoutes('/');
  }
}
