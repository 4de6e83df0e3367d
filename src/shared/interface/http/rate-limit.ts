import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerGuard, ThrottlerLimitDetail, ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { AppError } from '../../application/app-error';
import { ErrorCode } from '../../domain/errors';
import { isPublicRoute } from './auth.guard';
import { AppRequest } from './request-context';
import { RedisThrottlerStorage } from './rate-limit-storage';

/** The throttler's name; `default` keeps the headers unsuffixed (`X-RateLimit-Limit`). */
export const RATE_LIMIT_THROTTLER = 'default';

/**
 * The Redis key of a tracker's counter (the storage adds the throttler's name and `:hits` or
 * `:blocked`): `bi:rl:{ws:123}`. The tracker is the hash tag, so a workspace's two keys share a
 * slot of a Redis Cluster and different workspaces spread over its nodes; the queue prefix's own
 * braces are left out, since they would put every workspace in the queues' slot.
 */
export function rateLimitKey(config: AppConfig, tracker: string): string {
  return `${config.queuePrefix.replace(/[{}]/g, '')}:rl:{${tracker}}`;
}

/** `429 rate_limit_exceeded` with `Retry-After` alone, for a limit on failures (there is no budget to report). */
function failuresExceeded(retryAfter: number): AppError {
  const seconds = String(Math.max(retryAfter, 1));
  return new AppError(ErrorCode.rateLimitExceeded, `Too many failed attempts. Retry after ${seconds} seconds.`, undefined, {
    'Retry-After': seconds,
  });
}

/** `429 rate_limit_exceeded`, with the headers a client needs to wait the right time. */
function rateLimitExceeded(limit: number, retryAfter: number): AppError {
  const seconds = String(Math.max(retryAfter, 1));
  return new AppError(ErrorCode.rateLimitExceeded, `Rate limit exceeded. Retry after ${seconds} seconds.`, undefined, {
    'Retry-After': seconds,
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': seconds,
  });
}

/**
 * Whether the rate limit's store answered the last time it was asked (readiness reports it).
 * While it does not, requests pass unlimited (fail open), and a warning is logged at most every
 * ten seconds: losing the limiter must not take the API down with it.
 */
@Injectable()
export class RateLimitStatus {
  private readonly logger = new Logger('RateLimit');
  private lastWarning = Number.NEGATIVE_INFINITY;
  private storeAnswered = true;

  get available(): boolean {
    return this.storeAnswered;
  }

  answered(): void {
    this.storeAnswered = true;
  }

  failed(error: unknown): void {
    this.storeAnswered = false;
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(`Rate limiting is off: the store did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * @nestjs/throttler's guard, with one budget per workspace (the tracker and key are set in
 * RateLimitModule): public routes are not limited, a spent budget is the API's `429
 * rate_limit_exceeded`, and a store that does not answer lets the request pass.
 */
@Injectable()
export class WorkspaceThrottlerGuard extends ThrottlerGuard {
  @Inject(RateLimitStatus) private readonly status!: RateLimitStatus;

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      const allowed = await super.canActivate(context);
      this.status.answered();
      return allowed;
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.status.failed(error);
      return true;
    }
  }

  /** Public routes, and signing in to the console (no workspace yet; it has its own limit). */
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const state = context.switchToHttp().getRequest<AppRequest>().state;
    return Promise.resolve(isPublicRoute(this.reflector, context) || (state?.surface === 'console' && !state.console));
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimitExceeded(detail.limit, detail.timeToBlockExpire);
  }
}

/**
 * The requests the guard never sees, counted in the same store with the same budget: requests
 * without a valid key (they never reach a route) per client address, so that guessing keys is
 * slow; and a workspace's requests that reach no route (`404`, `405`) against its own budget,
 * since every API request counts. Also the console's limit on failed sign-ins.
 */
@Injectable()
export class RateLimitCounter {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly status: RateLimitStatus,
  ) {}

  /** Counts a failed attempt from `req`'s address; throws the 429 once the budget is spent. */
  async count(req: AppRequest): Promise<void> {
    await this.countFor(`ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`);
  }

  /**
   * Counts a request of the workspace that reached no route, as the guard counts a routed one.
   * Returns the rate-limit headers the answer carries; throws the 429 once the budget is spent.
   */
  async countUnrouted(workspaceId: string): Promise<Record<string, string>> {
    const record = await this.countFor(`ws:${workspaceId}`);
    if (!record) return {};
    return {
      'X-RateLimit-Limit': String(this.config.rateLimit.limit),
      'X-RateLimit-Remaining': String(Math.max(0, this.config.rateLimit.limit - record.totalHits)),
      'X-RateLimit-Reset': String(record.timeToExpire),
    };
  }

  /** One hit for `tracker`; undefined when the store did not answer (the limit fails open). */
  private async countFor(tracker: string): Promise<{ totalHits: number; timeToExpire: number } | undefined> {
    const { limit, ttlSeconds } = this.config.rateLimit;
    const record = await this.answered(() =>
      this.storage.increment(rateLimitKey(this.config, tracker), ttlSeconds * 1000, limit, ttlSeconds * 1000, RATE_LIMIT_THROTTLER),
    );
    if (record?.isBlocked) throw rateLimitExceeded(limit, record.timeToBlockExpire);
    return record;
  }

  /**
   * For a limit that counts failures only (console sign-ins, ADR 0058): throws 429 while any of
   * `trackers` is blocked, counting nothing.
   */
  async assertNotBlocked(trackers: string[], throttler: string): Promise<void> {
    const storage = this.storage;
    if (!(storage instanceof RedisThrottlerStorage)) return;
    const left = await this.answered(() =>
      Promise.all(trackers.map((tracker) => storage.blockedFor(rateLimitKey(this.config, tracker), throttler))),
    );
    const longest = left ? Math.max(0, ...left) : 0;
    if (longest > 0) throw failuresExceeded(Math.ceil(longest / 1000));
  }

  /**
   * Counts a failure against each of `trackers`, `limit` allowed per window: the failure that
   * reaches it is answered 429 and blocks the tracker for a window.
   */
  async countFailure(trackers: string[], throttler: string, limit: number, windowSeconds: number): Promise<void> {
    const window = windowSeconds * 1000;
    const records = await this.answered(() =>
      Promise.all(
        trackers.map((tracker) => this.storage.increment(rateLimitKey(this.config, tracker), window, limit - 1, window, throttler)),
      ),
    );
    const blocked = (records ?? []).filter((record) => record.isBlocked);
    if (blocked.length > 0) throw failuresExceeded(Math.max(...blocked.map((record) => record.timeToBlockExpire)));
  }

  /** The store's answer, or undefined when it did not answer (the limit fails open). */
  private async answered<T>(ask: () => Promise<T>): Promise<T | undefined> {
    try {
      const answer = await ask();
      this.status.answered();
      return answer;
    } catch (error) {
      this.status.failed(error);
      return undefined;
    }
  }
}
