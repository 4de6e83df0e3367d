import { ActivityEntity } from '../modules/activities/activity.entity';
import { BuyerEntity } from '../modules/buyers/buyer.entity';
import { KB_RESOURCES } from '../modules/kb/kb-resources';
import { SignalEntity } from '../modules/signals/signal.entity';
import { ApiKeyEntity, WorkspaceEntity } from '../modules/workspaces/workspace.entity';

/**
 * Every mapped table (the knowledge base's from its resources). Listed explicitly, not found by a
 * file pattern, so the same list works from src/ and dist/.
 */
export const entities = [
  WorkspaceEntity,
  ApiKeyEntity,
  ...KB_RESOURCES.map((resource) => resource.entity),
  BuyerEntity,
  SignalEntity,
  ActivityEntity,
];
