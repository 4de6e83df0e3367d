import { Inject, Injectable, Logger } from '@nestjs/common';
import { getOptionsToken, getStorageToken, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { AppError } from '../../application/app-error';
import { ErrorCode } from '../../domain/errors';

export const RATE_LIMIT_THROTTLER = 'workspace';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  blocked: boolean;
  /** Seconds until a blocked client may retry. */
  retryAfter: number;
}

/**
 * One budget per workspace (shared by all its keys and all API processes, since the counters
 * live in Redis), and one per client address for requests without a valid key. When Redis does
 * not answer, requests pass (fail open) and the fact is logged: losing the limiter must not take
 * the API down with it.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly limit: number;
  private readonly ttlMs: number;
  private lastWarning = 0;
  private available = true;

  constructor(
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const throttler = (Array.isArray(options) ? options : options.throttlers)[0];
    this.limit = Number(throttler.limit);
    this.ttlMs = Number(throttler.ttl);
  }

  /** Whether the last attempt reached the store (readiness reports it). */
  get storeAvailable(): boolean {
    return this.available;
  }

  async hit(subject: string): Promise<RateLimitState | null> {
    try {
      const record = await this.storage.increment(
        `${this.config.queuePrefix}:rl:${subject}`,
        this.ttlMs,
        this.limit,
        this.ttlMs,
        RATE_LIMIT_THROTTLER,
      );
      this.available = true;
      return {
        limit: this.limit,
        remaining: Math.max(this.limit - record.totalHits, 0),
        reset: Math.max(record.timeToExpire, 0),
        blocked: record.isBlocked,
        retryAfter: Math.max(record.timeToBlockExpire, 1),
      };
    } catch (error) {
      this.available = false;
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`Rate limiting is off: the store did not answer (${(error as Error).message})`);
      }
      return null;
    }
  }
}

/** Sets the limit headers, and answers 429 when the budget is spent. */
export function applyRateLimit(res: Response, state: RateLimitState | null): void {
  if (!state) return;
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.blocked ? 0 : state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.blocked ? state.retryAfter : state.reset));
  if (state.blocked) {
    throw new AppError(
      ErrorCode.rateLimitExceeded,
      `Rate limit exceeded. Retry after ${state.retryAfter} seconds.`,
      undefined,
      { 'Retry-After': String(state.retryAfter) },
    );
  }
}
