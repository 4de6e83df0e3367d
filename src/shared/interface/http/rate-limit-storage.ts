import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import DataLoader from 'dataloader';
import type { RedisClient } from '../../infrastructure/redis';
import { groupBy, turnBatching } from '../../infrastructure/turn-batching';

/** What @nestjs/throttler's guard learns of one hit. */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Counts `ARGV[4]` hits of a key at once, atomically: the window starts with the key's first hit
 * and lasts `ARGV[1]` ms; once the count passes `ARGV[2]` the key is blocked for `ARGV[3]` ms.
 * Answers the new count, the window's and the block's remaining milliseconds, and whether the key
 * was already blocked before these hits.
 */
const COUNT_HITS = `
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])
local totalHits = redis.call('INCRBY', KEYS[1], tonumber(ARGV[4]))
local timeToExpire = redis.call('PTTL', KEYS[1])
if timeToExpire <= 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  timeToExpire = ttl
end
local wasBlocked = 0
local timeToBlockExpire = redis.call('PTTL', KEYS[2])
if timeToBlockExpire > 0 then
  wasBlocked = 1
elseif totalHits > limit then
  redis.call('SET', KEYS[2], 1, 'PX', blockDuration)
  timeToBlockExpire = blockDuration
else
  timeToBlockExpire = 0
end
return { totalHits, timeToExpire, wasBlocked, timeToBlockExpire }`;

interface Hit {
  key: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  throttlerName: string;
}

type CountHits = (hitsKey: string, blockKey: string, ttl: number, limit: number, blockDuration: number, count: number) => Promise<unknown>;

/**
 * The rate limit's storage in Redis, behind @nestjs/throttler's `ThrottlerStorage` interface: a
 * window of `ttl` ms from a key's first hit, and past `limit` hits a block of `blockDuration` ms.
 * Counters are atomic in Redis, so every API instance shares them and a workspace is allowed
 * exactly `limit` requests per window, however many instances and connections it uses.
 *
 * The hits of one turn of the event loop are counted together, one script call per key
 * (`INCRBY n`), and each still gets its own number, in arrival order, exactly as if counted one
 * by one: under load a turn holds several requests of a busy workspace, and each round trip to
 * Redis costs the API more CPU than the rest of the limit's work.
 *
 * A key's counter and block are `<key>:<throttler>:hits` and `…:blocked`, which the script uses
 * together: on a Redis Cluster the key must carry a hash tag (`bi:rl:{ws:123}`), so that both are
 * in one slot, and each tag names one workspace or address, so that the counters spread over the
 * cluster's nodes.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationBootstrap, OnModuleDestroy {
  private readonly countHits: CountHits;
  private readonly hits = new DataLoader<Hit, ThrottlerStorageRecord>((batch) => this.countBatch(batch), turnBatching(1_000));

  constructor(
    readonly redis: RedisClient,
    private readonly startupWaitMs = 2_000,
  ) {
    redis.defineCommand('rateLimitCountHits', { numberOfKeys: 2, lua: COUNT_HITS });
    this.countHits = (redis as unknown as { rateLimitCountHits: CountHits }).rateLimitCountHits.bind(redis);
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return this.hits.load({ key, ttl, limit, blockDuration, throttlerName });
  }

  /**
   * How long a tracker stays blocked (`increment`'s key and throttler name), in milliseconds; 0
   * when it is not. Reads only, counts nothing: a limit that counts failures asks it first.
   */
  async blockedFor(key: string, throttlerName: string): Promise<number> {
    const left = await this.redis.pttl(`${key}:${throttlerName}:blocked`);
    return left > 0 ? left : 0;
  }

  /**
   * Before the application serves: waits for the client to be ready, at most `startupWaitMs`, so
   * that a new instance counts its first requests instead of letting them through while it
   * connects (the client refuses commands until then, and a refused count fails open). A Redis
   * that is not ready by then leaves the limit failing open, as it would later.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.startupWaitMs);
      this.redis.once('ready', done);
    });
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private async countBatch(batch: readonly Hit[]): Promise<Array<ThrottlerStorageRecord | Error>> {
    const records: Array<ThrottlerStorageRecord | Error> = new Array<ThrottlerStorageRecord | Error>(batch.length);
    const groups = groupBy(
      batch.map((hit, index) => ({ hit, index })),
      ({ hit }) => JSON.stringify([hit.throttlerName, hit.key, hit.ttl, hit.limit, hit.blockDuration]),
    );
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const { key, ttl, limit, blockDuration, throttlerName } = group[0].hit;
        const base = `${key}:${throttlerName}`;
        try {
          const answer = await this.countHits(`${base}:hits`, `${base}:blocked`, ttl, limit, blockDuration, group.length);
          if (!Array.isArray(answer) || answer.length !== 4 || answer.some((value) => typeof value !== 'number')) {
            throw new TypeError(`Unexpected answer from the rate-limit script: ${JSON.stringify(answer)}`);
          }
          const [total, timeToExpire, wasBlocked, timeToBlockExpire] = answer as number[];
          group.forEach(({ index }, position) => {
            const totalHits = total - group.length + position + 1;
            const isBlocked = wasBlocked === 1 || totalHits > limit;
            records[index] = {
              totalHits,
              timeToExpire: Math.ceil(timeToExpire / 1000),
              isBlocked,
              timeToBlockExpire: isBlocked ? Math.ceil(timeToBlockExpire / 1000) : 0,
            };
          });
        } catch (error) {
          for (const { index } of group) records[index] = error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
    return records;
  }
}
