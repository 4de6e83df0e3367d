import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AppConfig } from './config/config';
import { LoggingModule, RequestLogMiddleware } from './config/logging.module';
import { CoreModule } from './core.module';
import { ActivitiesModule } from './modules/activities/activities.module';
import { BuyersModule } from './modules/buyers/buyers.module';
import { HealthModule } from './modules/health/health.module';
import { KbModule } from './modules/kb/kb.module';
import { HttpMetrics } from './modules/metrics/http-metrics';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PipelineModule } from './modules/pipeline/pipeline.module';
import { SignalsModule } from './modules/signals/signals.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';
import { AuthGuard } from './shared/interface/http/auth.guard';
import { ApiExceptionFilter } from './shared/interface/http/exception.filter';
import { middlewareSequence } from './shared/interface/http/middleware-sequence';
import { RequestPipelineMiddleware } from './shared/interface/http/request-pipeline.middleware';
import { RateLimitModule } from './shared/interface/http/rate-limit.module';
import { WorkspaceInterceptor } from './shared/interface/http/workspace.interceptor';

/**
 * The API's middleware, as one router layer: the request log first (it also times each request
 * for the metrics: HttpMetrics), so that responses the pipeline refuses (401, 429) are logged and
 * counted too; then the request id, the key (authentication first), the workspace's rate limit,
 * and only then the body.
 */
const ApiEdge = middlewareSequence(RequestLogMiddleware, RequestPipelineMiddleware);

/** The HTTP API. */
@Module({})
export class AppModule implements NestModule {
  /** `logDestination`: where request logs go (stdout when omitted). */
  static forRoot(config: AppConfig, logDestination?: NodeJS.WritableStream): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        LoggingModule.forRoot(logDestination),
        RateLimitModule,
        HealthModule,
        MetricsModule,
        WorkspacesModule,
        KbModule,
        BuyersModule,
        SignalsModule,
        ActivitiesModule,
        // One command serves a demo: the API runs the pipeline workers too unless RUN_WORKERS=false.
        ...(config.runWorkers ? [PipelineModule] : []),
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_INTERCEPTOR, useClass: WorkspaceInterceptor },
        HttpMetrics,
        RequestPipelineMiddleware,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The root path, which Nest mounts with Express's use('/'): it runs for every request with
    // no pattern to match and nothing to cut from the URL. A wildcard ('*') is a pattern Express
    // matches, decodes and trims the URL by for every request.
    consumer.apply(ApiEdge).forRoutes('/');
  }
}
