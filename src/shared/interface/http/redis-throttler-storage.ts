import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import DataLoader from 'dataloader';
import Redis, { RedisOptions } from 'ioredis';
import { groupBy, turnBatching } from '../../infrastructure/turn-batching';

/**
 * Counts `ARGV[5]` hits at once, with the storage package's rules: the window starts with the
 * first hit and lasts `ttl` ms; a hit beyond `limit` blocks the key for `blockDuration` ms. Also
 * answers whether the key was blocked before these hits. Then reserves up to `ARGV[6]` more hits
 * of the window for the caller, as far as they fit within `limit`, and answers how many it
 * reserved.
 */
const COUNT_HITS = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blockDuration = tonumber(ARGV[4])
local count = tonumber(ARGV[5])
local extra = tonumber(ARGV[6])
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
local reserved = 0
if wasBlocked == 0 and extra > 0 and totalHits < limit then
  reserved = math.min(extra, limit - totalHits)
  redis.call('INCRBY', hitKey, reserved)
end
return { totalHits, timeToExpire, wasBlocked, timeToBlockExpire, reserved }`;

type CountHits = (
  hitKey: string,
  blockKey: string,
  name: string,
  ttl: number,
  limit: number,
  block: number,
  count: number,
  extra: number,
) => Promise<unknown>;

interface Hit {
  key: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  throttlerName: string;
}

/**
 * Hits of a key's current window reserved in Redis for this process: numbers `next` to `last` of
 * the window's count, to be handed out in order until `windowEnd` (ms since the epoch).
 */
interface Reservation {
  next: number;
  last: number;
  windowEnd: number;
  /** How many hits the last reservation asked for; the next one asks for twice as many. */
  size: number;
  /** Calls to Redis for this key under way; only one at a time asks for a reservation. */
  inFlight: number;
}

/** A busy key reserves at most this share of its limit at a time (none below a limit of 100). */
const RESERVATION_SHARE = 100;
/** At most this many keys' reservations are kept; those whose window is over are forgotten first. */
const RESERVATIONS_KEPT = 10_000;
/** How often, at most, the kept reservations are swept for ended windows once the bound is reached. */
const FORGET_EVERY_MS = 1_000;

/**
 * The rate limit's Redis storage (the package's client and lifecycle, keys in its layout). The hits
 * of one turn of the event loop go to Redis together — one script call per key, run by its hash —
 * and each request still gets its own count, in arrival order, exactly as if counted one by one.
 * Under load a turn holds several requests of a workspace, so this saves Redis and the API most of
 * a round trip per request.
 *
 * A key that needs Redis more than once in a window is busy, and from then on each call also
 * reserves hits of the window for this process — 1, 2, 4, … up to 1 % of the limit (none for a
 * limit under 100) — that its next hits are counted from without a round trip, with the same
 * numbers they would have had in Redis. One process alone is counted exactly. Several processes
 * share the budget as before, except that hits one has reserved and not yet used count as spent
 * for the others: a workspace may be refused up to 1 % of its limit per process early, never
 * allowed more than its limit.
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly countHits: CountHits;
  private readonly hits = new DataLoader<Hit, ThrottlerStorageRecord>((hits) => this.countBatch(hits), turnBatching(1_000));
  private readonly reservations = new Map<string, Reservation>();
  private lastForget = 0;

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    const redis = this.redis as Redis;
    redis.defineCommand('throttlerCountHits', { numberOfKeys: 2, lua: COUNT_HITS });
    this.countHits = (redis as unknown as { throttlerCountHits: CountHits }).throttlerCountHits.bind(redis);
  }

  override increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const reserved = this.reservations.get(reservationKey(key, throttlerName));
    if (reserved !== undefined && reserved.next <= reserved.last) {
      const now = Date.now();
      if (now < reserved.windowEnd) {
        const totalHits = reserved.next++;
        return Promise.resolve({ totalHits, timeToExpire: Math.ceil((reserved.windowEnd - now) / 1000), isBlocked: false, timeToBlockExpire: 0 });
      }
    }
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
        const reservation = this.reservationFor(reservationKey(key, throttlerName), limit);
        const extra = reservation.inFlight === 0 ? reservation.size : 0;
        reservation.inFlight += 1;
        try {
          const answer = await this.countHits(
            `{${key}:${throttlerName}}:hits`,
            `{${key}:${throttlerName}}:blocked`,
            throttlerName,
            ttl,
            limit,
            blockDuration,
            group.length,
            extra,
          );
          if (!Array.isArray(answer) || answer.length !== 5 || answer.some((value) => typeof value !== 'number')) {
            throw new TypeError(`Unexpected answer from the rate-limit script: ${JSON.stringify(answer)}`);
          }
          const [total, timeToExpire, wasBlocked, timeToBlockExpire, granted] = answer as number[];
          this.reserved(reservation, total, granted, timeToExpire, limit);
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
        } finally {
          reservation.inFlight -= 1;
        }
      }),
    );
    return records;
  }

  /** The key's reservation, with the size its next call to Redis asks for. */
  private reservationFor(id: string, limit: number): Reservation {
    const now = Date.now();
    let reservation = this.reservations.get(id);
    if (reservation === undefined || (now >= reservation.windowEnd && reservation.inFlight === 0)) {
      if (this.reservations.size >= RESERVATIONS_KEPT && now - this.lastForget >= FORGET_EVERY_MS) this.forgetEnded(now);
      // The first call of a window reserves nothing: a key that is not busy is counted in Redis only.
      reservation = { next: 1, last: 0, windowEnd: Number.POSITIVE_INFINITY, size: 0, inFlight: 0 };
      // Past the bound (many keys at once, e.g. addresses guessing keys) a new key is counted in
      // Redis alone, as a limit under 100 is: what is kept stays bounded.
      if (this.reservations.has(id) || this.reservations.size < RESERVATIONS_KEPT) this.reservations.set(id, reservation);
    } else if (reservation.inFlight === 0) {
      reservation.size = Math.min(Math.max(reservation.size * 2, 1), Math.floor(limit / RESERVATION_SHARE));
    }
    return reservation;
  }

  /** Takes what Redis reserved after `total`: the window's hits `total + 1` to `total + granted`. */
  private reserved(reservation: Reservation, total: number, granted: number, timeToExpire: number, limit: number): void {
    const windowEnd = Date.now() + timeToExpire;
    if (granted > 0 && total + granted <= limit) {
      reservation.next = total + 1;
      reservation.last = total + granted;
    }
    if (reservation.windowEnd === Number.POSITIVE_INFINITY || granted > 0) reservation.windowEnd = windowEnd;
  }

  private forgetEnded(now: number): void {
    this.lastForget = now;
    for (const [id, reservation] of this.reservations) {
      if (now >= reservation.windowEnd && reservation.inFlight === 0) this.reservations.delete(id);
    }
  }
}

function reservationKey(key: string, throttlerName: string): string {
  return `${throttlerName}\u0000${key}`;
}
