import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorResult, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { ReplicaReads } from '../../database/replica-reads';
import { withinRedisBound } from '../../shared/infrastructure/redis';
import { Public } from '../../shared/interface/http/auth.guard';
import { RateLimitStatus } from '../../shared/interface/http/rate-limit';
import { PipelineProducer } from '../pipeline/pipeline.producer';

const REDIS_TIMEOUT_MS = 1_000;

/**
 * Liveness and readiness, outside the versioned API and without a key. Readiness fails (503) when
 * PostgreSQL does not answer or migrations are pending; Redis being away is reported but does not
 * fail it: the API keeps serving (the rate limiter fails open, accepted activities wait in the
 * database for the sweeper). Read replicas, when configured, are reported the same way: a replica
 * lagging or away sends its reads to the primary (ADR 0050).
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
    const redis = await this.redisUp();
    const replicas = this.replicaReads.status();
    const reported = { redis: this.redisReport(redis), ...(replicas.length > 0 ? { replicas } : {}) };
    try {
      const result = await this.health.check([() => this.database.pingCheck('database', { timeout: 2_000 }), () => this.migrations()]);
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

  private redisReport(up: boolean) {
    return { status: up ? 'up' : 'down', rate_limit: up && this.rateLimit.available ? 'on' : 'off (failing open)' };
  }

  private async redisUp(): Promise<boolean> {
    try {
      // Any queue read goes to Redis; a bounded wait keeps the probe fast when it is away.
      const queue = this.producer.queue('resolve');
      await withinRedisBound(queue, () => queue.count(), REDIS_TIMEOUT_MS);
      return true;
    } catch {
      return false;
    }
  }
}
