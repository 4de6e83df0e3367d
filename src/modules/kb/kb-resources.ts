import type { KbResource } from '../../shared/application/kb-resource';
import { competitorResource } from './competitors/competitor.resource';
import { exclusionResource } from './exclusions/exclusion.resource';
import { icpResource } from './icps/icp.resource';
import { personaResource } from './personas/persona.resource';
import { productResource } from './products/product.resource';
import { targetFormResource } from './target-forms/target-form.resource';
import { targetPageResource } from './target-pages/target-page.resource';
import { topicResource } from './topics/topic.resource';

/**
 * The knowledge-base resources, in the order the API documents them. What serves and stores them
 * is derived from this list: the KB module's controllers and services, the DataSource's entities,
 * the id parameters the exception filter names, and the table-driven tests.
 */
export const KB_RESOURCES: readonly KbResource[] = [
  icpResource,
  personaResource,
  competitorResource,
  productResource,
  topicResource,
  targetPageResource,
  targetFormResource,
  exclusionResource,
];

/** The resource served at `/v1/kb/<path>`. */
export function kbResourceAt(path: string): KbResource {
  const resource = KB_RESOURCES.find((candidate) => candidate.path === path);
  if (!resource) throw new Error(`No knowledge-base resource is served at ${path}`);
  return resource;
}
