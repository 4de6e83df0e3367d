import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AppError } from '../../shared/application/app-error';
import { ErrorCode } from '../../shared/domain/errors';
import { rateLimitKey, RateLimitStatus } from '../../shared/interface/http/rate-limit';
import { RedisThrottlerStorage } from '../../shared/interface/http/rate-limit-storage';

const THROTTLER = 'console-signin';

/**
 * Failed console sign-ins, counted per email and per client address in the rate limit's Redis
 * store (ADR 0058): the `CONSOLE_SIGNIN_LIMIT`th failure within `CONSOLE_SIGNIN_WINDOW_S` is
 * answered `429` and blocks that email and that address for a window, the right password
 * included. Like the API's limit it fails open when Redis does not answer.
 */
@Injectable()
export class SignInLimit {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly status: RateLimitStatus,
  ) {}

  private keys(email: string, address: string): string[] {
    // The email hashed: Redis keys are not a place for addresses of people.
    const emailDigest = createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32);
    return [rateLimitKey(this.config, `signin:email:${emailDigest}`), rateLimitKey(this.config, `signin:ip:${address}`)];
  }

  /** Throws 429 while the email or the address is blocked. */
  async assertOpen(email: string, address: string): Promise<void> {
    if (!(this.storage instanceof RedisThrottlerStorage)) return;
    const storage = this.storage;
    let left: number[];
    try {
      left = await Promise.all(this.keys(email, address).map((key) => storage.blockedFor(key, THROTTLER)));
      this.status.answered();
    } catch (error) {
      this.status.failed(error);
      return;
    }
    const longest = Math.max(...left);
    if (longest > 0) throw this.exceeded(Math.ceil(longest / 1000));
  }

  /** Counts a failed sign-in; throws 429 when it reached the limit. */
  async countFailure(email: string, address: string): Promise<void> {
    const { signInLimit, signInWindowSeconds } = this.config.console;
    const window = signInWindowSeconds * 1000;
    let records;
    try {
      // Blocked once the count reaches the limit (the store blocks past its `limit`).
      records = await Promise.all(
        this.keys(email, address).map((key) => this.storage.increment(key, window, signInLimit - 1, window, THROTTLER)),
      );
      this.status.answered();
    } catch (error) {
      this.status.failed(error);
      return;
    }
    const blocked = records.filter((record) => record.isBlocked);
    if (blocked.length > 0) throw this.exceeded(Math.max(...blocked.map((record) => record.timeToBlockExpire)));
  }

  private exceeded(seconds: number): AppError {
    const retryAfter = String(Math.max(seconds, 1));
    return new AppError(ErrorCode.rateLimitExceeded, `Too many failed sign-ins. Retry after ${retryAfter} seconds.`, undefined, {
      'Retry-After': retryAfter,
    });
  }
}
