import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import type { ActivityEntity } from '../../activities/activity.entity';
import type { BuyerEntity } from '../../buyers/buyer.entity';
import type { FieldSources } from '../../buyers/buyer-evaluation';
import { companyInfoTemplate, contactInfoTemplate, Hem, mergeKnown } from '../../buyers/buyer-shape';
import { Attribution, emptyAttribution } from '../../signals/signal-types';
import type { MatchedRecord } from '../domain/signal-data';
import { preparedQuery } from '../../../shared/infrastructure/prepared-query';
import { mintedAt } from '../../../shared/domain/ids';

export interface NewSignal {
  id: string;
  buyerId: string;
  activity: ActivityEntity;
  data: Record<string, unknown>;
  matched: MatchedRecord;
  /** Where the activity's evaluated fields came from (absent from jobs queued before sources were kept). */
  sources?: FieldSources;
}

/** What folding a Signal into a Buyer reads from the Buyer. */
export type LockedBuyer = Pick<
  BuyerEntity,
  | 'id'
  | 'person_key'
  | 'contact_info'
  | 'company_info'
  | 'hems'
  | 'sources'
  | 'signal_count_total'
  | 'signal_count_website'
  | 'signal_count_market'
  | 'signal_count_linkedin'
  | 'first_signal_id'
  | 'first_signal_at'
  | 'last_signal_id'
  | 'last_signal_at'
>;

/**
 * A locked Buyer with Signals folded into it in memory: `buyer` holds its new values, `first` and
 * `last` what changed about its first and last Signal (null when unchanged), `evaluation` the
 * latest activity's until Match judges the Buyer as folded (ADR 0062).
 */
export interface BuyerFold {
  buyer: LockedBuyer;
  evaluation: ActivityEntity['evaluation'];
  /** The activity `evaluation` was made for. */
  evaluatedWith: string | null;
  first: { type: string; trigger: string; attribution: Attribution } | null;
  last: { type: string; trigger: string } | null;
}

/** A person whose Buyer a Match batch locks, or creates with these values. */
export interface BuyerToLock {
  personKey: string;
  newBuyerId: string;
  attribution: Attribution;
}

function earlier(aAt: Date, aId: string, bAt: Date | null, bId: string | null): boolean {
  if (bAt === null || bId === null) return true;
  return aAt.getTime() < bAt.getTime() || (aAt.getTime() === bAt.getTime() && BigInt(aId) < BigInt(bId));
}

function mergeHems(a: Hem[], b: Hem[]): Hem[] {
  const byType = new Map<string, Hem>();
  for (const hem of [...a, ...b]) if (!byType.has(hem.type)) byType.set(hem.type, hem);
  return [...byType.values()];
}

/** `known` with only its unknown values taken from `older` (`mergeKnown` the other way round). */
function fillIn<T extends Record<string, unknown>>(known: T, older: T): T {
  return mergeKnown(known, mergeKnown(older, known));
}

export function attributionOf(activity: ActivityEntity): Attribution {
  return { ...emptyAttribution(), ...activity.payload.attribution };
}

const LOCKED_COLUMNS =
  'b.id, b.person_key, b.contact_info, b.company_info, b.hems, b.sources, b.signal_count_total, b.signal_count_website, b.signal_count_market, ' +
  'b.signal_count_linkedin, b.first_signal_id, b.first_signal_at, b.last_signal_id, b.last_signal_at';

/**
 * Locks (or creates) the Buyers of a Match batch and folds its Signals into them in memory, inside
 * the Match transaction: the Buyer rows are locked, so concurrent Signals of one person count
 * exactly once each. MatchWriter writes the folds.
 */
@Injectable()
export class BuyerWriter {
  /**
   * The people's Buyers, created if new, locked for the rest of the transaction, by person key.
   * One statement, locking in person-key order (so concurrent batches cannot deadlock): the no-op
   * `DO UPDATE` of an existing row takes its row lock and returns it.
   */
  async lockOrCreate(ctx: WorkspaceContext, manager: EntityManager, people: readonly BuyerToLock[]): Promise<Map<string, LockedBuyer>> {
    const sorted = [...people].sort((a, b) => (a.personKey < b.personKey ? -1 : a.personKey > b.personKey ? 1 : 0));
    const { rows } = await preparedQuery<LockedBuyer>(
      manager,
      `INSERT INTO buyers AS b (id, workspace_id, person_key, contact_info, company_info, hems, attribution, created_at, updated_at)
       SELECT v.id, $1, v.person_key, $2, $3, '[]', v.attribution::json, v.minted_at, v.minted_at
         FROM unnest($5::bigint[], $6::text[], $7::text[], $4::timestamptz[]) WITH ORDINALITY AS v (id, person_key, attribution, minted_at, n)
        ORDER BY v.n
       ON CONFLICT (workspace_id, person_key) DO UPDATE SET updated_at = b.updated_at
       RETURNING ${LOCKED_COLUMNS}`,
      [
        requireWorkspace(ctx),
        JSON.stringify(contactInfoTemplate()),
        JSON.stringify(companyInfoTemplate()),
        // A new Buyer's created_at is its id's time, so that Buyers ordered by (created_at, id)
        // are in id order too, also between batches of two workers: of two Buyers that show the
        // same second, the higher id is the later one (ADR 0066).
        sorted.map((person) => mintedAt(person.newBuyerId)),
        sorted.map((person) => person.newBuyerId),
        sorted.map((person) => person.personKey),
        sorted.map((person) => JSON.stringify(person.attribution)),
      ],
    );
    return new Map(rows.map((row) => [row.person_key, row]));
  }

  /** A fold of nothing yet into a locked Buyer. */
  static startFold(buyer: LockedBuyer): BuyerFold {
    return { buyer: { ...buyer }, evaluation: null, evaluatedWith: null, first: null, last: null };
  }

  /** Folds one Signal into the Buyer, in memory. Signals of one Buyer fold in `captured_at` order. */
  static fold(into: BuyerFold, signal: NewSignal): void {
    const { buyer } = into;
    const { activity } = signal;
    const capturedAt = activity.occurred_at;
    // An activity older than the Buyer's last Signal fills in what the Buyer does not know; what a
    // later activity told stays (a title from November is not undone by one from October).
    const older = buyer.last_signal_at !== null && capturedAt.getTime() < buyer.last_signal_at.getTime();
    buyer.contact_info = older
      ? fillIn(buyer.contact_info, activity.contact_info!)
      : mergeKnown(buyer.contact_info, activity.contact_info!);
    buyer.company_info = older
      ? fillIn(buyer.company_info, activity.company_info!)
      : mergeKnown(buyer.company_info, activity.company_info!);
    buyer.hems = mergeHems(activity.identity!.hems, buyer.hems);
    buyer.sources = older ? { ...signal.sources, ...buyer.sources } : { ...buyer.sources, ...signal.sources };
    // The latest activity's evaluation, until Match judges the whole fold; earlier ones are history.
    into.evaluation = activity.evaluation;
    into.evaluatedWith = activity.id;
    buyer.signal_count_total += 1;
    if (activity.type === 'website') buyer.signal_count_website += 1;
    if (activity.type === 'market') buyer.signal_count_market += 1;
    if (activity.type === 'linkedin') buyer.signal_count_linkedin += 1;
    if (earlier(capturedAt, signal.id, buyer.first_signal_at, buyer.first_signal_id)) {
      buyer.first_signal_id = signal.id;
      buyer.first_signal_at = capturedAt;
      into.first = { type: activity.type, trigger: activity.trigger, attribution: attributionOf(activity) };
    }
    if (buyer.last_signal_id === null || !earlier(capturedAt, signal.id, buyer.last_signal_at, buyer.last_signal_id)) {
      buyer.last_signal_id = signal.id;
      buyer.last_signal_at = capturedAt;
      into.last = { type: activity.type, trigger: activity.trigger };
    }
  }
}
