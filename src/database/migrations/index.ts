import { KnowledgeBase1763769600000 } from './1763769600000-knowledge-base';
import { BuyersSignals1763856000000 } from './1763856000000-buyers-signals';
import { Pipeline1763942400000 } from './1763942400000-pipeline';
import { BuyerUpdatesInPlace1764028800000 } from './1764028800000-buyer-updates-in-place';
import { ActivityUpdatesInPlace1764115200000 } from './1764115200000-activity-updates-in-place';
import { BuyerEvaluationDetail1764201600000 } from './1764201600000-buyer-evaluation-detail';
import { Events1764288000000 } from './1764288000000-events';
import { Webhooks1764374400000 } from './1764374400000-webhooks';
import { IdempotencyKeys1764460800000 } from './1764460800000-idempotency-keys';
import { ShardableKeys1764547200000 } from './1764547200000-shardable-keys';
import { SignalsByMonth1764633600000 } from './1764633600000-signals-by-month';
import { ActivitiesByDay1764720000000 } from './1764720000000-activities-by-day';
import { ActivityNearMisses1764806400000 } from './1764806400000-activity-near-misses';
import { ApiKeyLastUse1764892800000 } from './1764892800000-api-key-last-use';
import { ConsoleUsers1764979200000 } from './1764979200000-console-users';
import { TimeOrderedEventIds1765065600000 } from './1765065600000-time-ordered-event-ids';
import { CanonicalUrlsInAscii1765152000000 } from './1765152000000-canonical-urls-in-ascii';

/** Every migration, oldest first. Listed explicitly so the same list works from src/ and dist/. */
export const migrations = [
  KnowledgeBase1763769600000,
  BuyersSignals1763856000000,
  Pipeline1763942400000,
  BuyerUpdatesInPlace1764028800000,
  ActivityUpdatesInPlace1764115200000,
  BuyerEvaluationDetail1764201600000,
  Events1764288000000,
  Webhooks1764374400000,
  IdempotencyKeys1764460800000,
  ShardableKeys1764547200000,
  SignalsByMonth1764633600000,
  ActivitiesByDay1764720000000,
  ActivityNearMisses1764806400000,
  ApiKeyLastUse1764892800000,
  ConsoleUsers1764979200000,
  TimeOrderedEventIds1765065600000,
  CanonicalUrlsInAscii1765152000000,
];
