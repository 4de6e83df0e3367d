import { Global, Logger, Module } from '@nestjs/common';
import { seconds, ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { createRedisClient } from '../../infrastructure/redis';
import { warnAtMostEvery } from '../../infrastructure/warn-at-most-every';
import { AppError } from '../../application/app-error';
import { RateLimitCounter, RATE_LIMIT_THROTTLER, rateLimitKey, RateLimitStatus } from './rate-limit';
import { RedisThrottlerStorage } from './rate-limit-storage';
import { AppRequest } from './request-context';

const logger = new Logger('RateLimitStore');

/** The authenticated workspace; a limited route without one fails closed. */
function workspaceOf(req: AppRequest): string {
  // A key's workspace, or a console session's: the console spends the same budget.
  const workspaceId = req.state?.auth?.workspaceId ?? req.state?.console?.workspaceId;
  if (!workspaceId) throw AppError.unauthenticated();
  return workspaceId;
}

/**
 * The rate limit: @nestjs/throttler with a Redis storage (RedisThrottlerStorage), so that a
 * workspace's budget is shared by all its keys and every API instance. The guard
 * (WorkspaceThrottlerGuard) is global, registered by the application. The Redis client fails fast
 * instead of queueing commands while disconnected, so an unreachable Redis costs a request a few
 * milliseconds, not a hang.
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // The storage owns the client and disconnects it on shutdown. On a cluster, a cluster client.
        const redis = createRedisClient(config, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: 500,
          connectTimeout: 2_000,
          retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
        });
        redis.on('error', warnAtMostEvery(logger, 'Redis for rate limits'));
        const storage = new RedisThrottlerStorage(redis);
        return {
          throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: seconds(config.rateLimit.ttlSeconds), limit: config.rateLimit.limit }],
          storage,
          // One budget per workspace, whatever the route (the throttler's own key is per route).
          getTracker: (req) => `ws:${workspaceOf(req as AppRequest)}`,
          generateKey: (_context, tracker) => rateLimitKey(config, tracker),
        };
      },
    }),
  ],
  providers: [RateLimitStatus, RateLimitCounter],
  exports: [RateLimitStatus, RateLimitCounter],
})
export class RateLimitModule {}
