import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import DataLoader from 'dataloader';
import Redis, { RedisOptions } from 'ioredis';
import { groupBy, turnBatching } from '../../infrastructure/turn-batching';

/**
 * Counts `ARGV[5]` hits at once, with the storage package's rules: the window starts with the
 * first hit and lasts `ttl` ms; a hit beyond `limit` blocks the key for `blockDuration` ms. Also
 * answers whether the key was blocked before these hits.
 */
const COUNT_HITS = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blockDuration = tonumber(ARGV[4])
local count = tonumber(ARGV[5])
local totalHits = redis.call('INCRBY', hitKey, count)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local wasBlocked = 0
local timeToBlockExpire = redis.call('PTTL', blockKey)
if timeToBlockExpire > 0 then
  wasBlocked = 1
elseif totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  timeToBlockExpire = blockDuration
else
  timeToBlockExpire = 0
end
return { totalHits, timeToExpire, wasBlocked, timeToBlockExpire }`;

type CountHits = (hitKey: string, blockKey: string, name: string, ttl: number, limit: number, block: number, count: number) => Promise<unknown>;

interface Hit {
  key: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  throttlerName: string;
}

/**
 * The rate limit's Redis storage (the package's client and lifecycle, keys in its layout). The hits
 * of one turn of the event loop go to Redis together — one script call per key, run by its hash —
 * and each request still gets its own count, in arrival order, exactly as if counted one by one.
 * Under load a turn holds several requests of a workspace, so this saves Redis and the API most of
 * a round trip per request.
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly countHits: CountHits;
  private readonly hits = new DataLoader<Hit, ThrottlerStorageRecord>((hits) => this.countBatch(hits), turnBatching(1_000));

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    const redis = this.redis as Redis;
    redis.defineCommand('throttlerCountHits', { numberOfKeys: 2, lua: COUNT_HITS });
    this.countHits = (redis as unknown as { throttlerCountHits: CountHits }).throttlerCountHits.bind(redis);
  }

  override increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return this.hits.load({ key, ttl, limit, blockDuration, throttlerName });
  }

  private async countBatch(hits: readonly Hit[]): Promise<Array<ThrottlerStorageRecord | Error>> {
    const records: Array<ThrottlerStorageRecord | Error> = new Array(hits.length);
    const groups = groupBy(
      hits.map((hit, index) => ({ hit, index })),
      ({ hit }) => JSON.stringify([hit.throttlerName, hit.key, hit.ttl, hit.limit, hit.blockDuration]),
    );
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const { key, ttl, limit, blockDuration, throttlerName } = group[0].hit;
        try {
          const answer = await this.countHits(`{${key}:${throttlerName}}:hits`, `{${key}:${throttlerName}}:blocked`, throttlerName, ttl, limit, blockDuration, group.length);
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
