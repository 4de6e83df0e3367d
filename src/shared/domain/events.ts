/**
 * Events name a change to an object: `signal.created`, `buyer.updated`, `kb.icp.deleted`. The
 * knowledge-base resources' object types come from their paths (`target-pages` → `kb.target_page`).
 */
export type KbEventAction = 'created' | 'updated' | 'deleted';

export function kbObjectType(path: string): string {
  return `kb.${path.replace(/s$/, '').replace(/-/g, '_')}`;
}

export function kbEventType(path: string, action: KbEventAction): string {
  return `${kbObjectType(path)}.${action}`;
}
