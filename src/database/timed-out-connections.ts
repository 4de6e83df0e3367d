import type { PoolClient } from 'pg';
import { AfterQueryEvent, EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { discardConnection, isQueryTimeout } from './timeouts';

/**
 * Registered with the DataSource (`subscribers`): a TypeORM statement that timed out on the
 * client ends its connection (see `discardConnection`). Statements sent on the pool itself need
 * nothing: pg-pool releases their client with the error, which removes it.
 */
@EventSubscriber()
export class DiscardTimedOutConnections implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): Promise<void> | undefined {
    if (event.success || !isQueryTimeout(event.error)) return undefined;
    return event.queryRunner.connect().then((client: PoolClient) => discardConnection(client));
  }
}
