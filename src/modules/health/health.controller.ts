import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorResult, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { ReplicaReads } from '../../database/replica-reads';
import { isRedisMisconfiguration } from '../../shared/infrastructure/redis';
import { Public } from '../../shared/interface/http/auth.guard';
import { RateLimitStatus } from '../../shared/interface/http/rate-limit';
import { PipelineProducer } from '../pipeline/pipeline.producer';

const REDIS_TIMEOUT_MS = 1_000;

/**
 * Liveness and readiness, outside the versioned API and without a key. Readiness fails (503) when
 * PostgreSQL does not answer or migrations are pending; Redis being away is reported, with its
 * error, but does not fail it: the API keeps serving (the rate limiter fails open, accepted
 * activities wait in the database for the sweeper). Redis answering that the queues cannot work
 * as configured (`CROSSSLOT`, `MOVED`: a Redis Cluster spoken to as one server) fails it too,
 * with the reason: that does not pass by itself.
 * Read replicas, when configured, are reported the same way: a replica lagging or away sends its
 * reads to the primary (ADR 0050).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly producer: PipelineProducer,
    private readonly rateLimit: RateLimitStatus,
    private readonly replicaReads: ReplicaReads,
  ) {}

  @Public()
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  async ready(@Res() res: Response): Promise<void> {
    const redisError = await this.producer.probe(REDIS_TIMEOUT_MS);
    const replicas = this.replicaReads.status();
    const reported = { redis: this.redisReport(redisError), ...(replicas.length > 0 ? { replicas } : {}) };
    try {
      const result = await this.health.check([() => this.database.pingCheck('database', { timeout: 2_000 }), () => this.migrations()]);
      if (redisError && isRedisMisconfiguration(redisError)) {
        res.status(HttpStatus.SERVICE_UNAVAILABLE).json({ ...result, status: 'error', ...reported });
        return;
      }
      res.status(HttpStatus.OK).json({ ...result, ...reported });
    } catch (error) {
      const body = (error as { getResponse?: () => object }).getResponse?.() ?? { status: 'error' };
      res.status(HttpStatus.SERVICE_UNAVAILABLE).json({ ...body, ...reported });
    }
  }

  private async migrations(): Promise<HealthIndicatorResult> {
    const pending = await this.dataSource.showMigrations();
    if (pending) throw Object.assign(new Error('Migrations are pending'), { causes: { migrations: { status: 'down' } } });
    return { migrations: { status: 'up' } };
  }

  private redisReport(error: Error | null) {
    const rateLimit = !error && this.rateLimit.available ? 'on' : 'off (failing open)';
    if (!error) return { status: 'up', rate_limit: rateLimit };
    if (isRedisMisconfiguration(error)) {
      return {
        status: 'misconfigured',
        rate_limit: rateLimit,
        error: `The pipeline queues cannot work: ${error.message}${/REDIS_CLUSTER_NODES/.test(error.message) ? '' : ' (on a Redis Cluster, set REDIS_CLUSTER_NODES)'}`,
      };
    }
    return { status: 'down', rate_limit: rateLimit, error: error.message };
  }
}
