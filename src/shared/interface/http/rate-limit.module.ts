import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Global, Logger, Module } from '@nestjs/common';
import { seconds, ThrottlerModule } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis, { RedisOptions } from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { RATE_LIMIT_THROTTLER, RateLimiter } from './rate-limiter';

const logger = new Logger('RateLimitStore');

type Hit = (hitKey: string, blockKey: string, name: string, ttl: number, limit: number, block: number) => Promise<unknown>;

/**
 * The storage's own script and answer, run by `EVALSHA` (ioredis falls back to `EVAL` once when
 * Redis does not have the script yet) instead of sending the whole script with every request.
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly hit: Hit;

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    const redis = this.redis as Redis;
    redis.defineCommand('throttlerHit', { numberOfKeys: 2, lua: this.scriptSrc });
    this.hit = (redis as unknown as { throttlerHit: Hit }).throttlerHit.bind(redis);
  }

  override async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const results = await this.hit(`{${key}:${throttlerName}}:hits`, `{${key}:${throttlerName}}:blocked`, throttlerName, ttl, limit, blockDuration);
    if (!Array.isArray(results) || results.length !== 4 || results.some((value) => typeof value !== 'number')) {
      throw new TypeError(`Unexpected answer from the rate-limit script: ${JSON.stringify(results)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = results as number[];
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}

/**
 * @nestjs/throttler with its Redis storage. The Redis client fails fast instead of queueing
 * commands while disconnected, so an unreachable Redis costs a request a few milliseconds, not a
 * hang.
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // Given a URL, the storage owns the client and disconnects it on shutdown.
        const storage = new RedisThrottlerStorage(config.redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: 500,
          connectTimeout: 2_000,
          retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
        });
        let lastError = 0;
        storage.redis.on('error', (error: Error) => {
          if (Date.now() - lastError > 10_000) {
            lastError = Date.now();
            logger.warn(`Redis for rate limits: ${error.message}`);
          }
        });
        return {
          throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: seconds(config.rateLimit.ttlSeconds), limit: config.rateLimit.limit }],
          storage,
        };
      },
    }),
  ],
  providers: [RateLimiter],
  exports: [RateLimiter],
})
export class RateLimitModule {}
