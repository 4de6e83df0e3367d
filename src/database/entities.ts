import { ActivityEntity } from '../modules/activities/activity.entity';
import { BuyerEntity } from '../modules/buyers/buyer.entity';
import { CompetitorEntity } from '../modules/kb/competitors/competitor.entity';
import { ExclusionEntity } from '../modules/kb/exclusions/exclusion.entity';
import { IcpEntity } from '../modules/kb/icps/icp.entity';
import { PersonaEntity } from '../modules/kb/personas/persona.entity';
import { ProductEntity } from '../modules/kb/products/product.entity';
import { TargetFormEntity } from '../modules/kb/target-forms/target-form.entity';
import { TargetPageEntity } from '../modules/kb/target-pages/target-page.entity';
import { TopicEntity } from '../modules/kb/topics/topic.entity';
import { SignalEntity } from '../modules/signals/signal.entity';
import { ApiKeyEntity, WorkspaceEntity } from '../modules/workspaces/workspace.entity';

/** Every mapped table. Listed explicitly so the same list works from src/ and dist/. */
export const entities = [
  WorkspaceEntity,
  ApiKeyEntity,
  IcpEntity,
  PersonaEntity,
  CompetitorEntity,
  ProductEntity,
  TopicEntity,
  TargetPageEntity,
  TargetFormEntity,
  ExclusionEntity,
  BuyerEntity,
  SignalEntity,
  ActivityEntity,
];
