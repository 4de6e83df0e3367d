import { KnowledgeBase1763769600000 } from './1763769600000-knowledge-base';

/** Every migration, oldest first. Listed explicitly so the same list works from src/ and dist/. */
export const migrations = [KnowledgeBase1763769600000];
