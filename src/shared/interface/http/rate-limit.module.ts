import { Global, Logger, Module } from '@nestjs/common';
import { seconds, ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { warnAtMostEvery } from '../../infrastructure/redis';
import { RATE_LIMIT_THROTTLER, RateLimiter } from './rate-limiter';
import { RedisThrottlerStorage } from './redis-throttler-storage';

const logger = new Logger('RateLimitStore');

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
        storage.redis.on('error', warnAtMostEvery(logger, 'Redis for rate limits'));
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
