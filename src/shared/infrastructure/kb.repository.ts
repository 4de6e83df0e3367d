import { Repository, SelectQueryBuilder } from 'typeorm';
import type { KeysetPosition } from '../application/pagination';
import { requireWorkspace, WorkspaceContext } from '../application/workspace-context';
import { KbRecordEntity } from './kb-record.entity';


/**
 * The only way to the knowledge-base tables. Every method takes the workspace first and refuses to
 * run without one, and every statement carries `workspace_id = …` and `deleted_at IS NULL`, so no
 * query path can reach another tenant's or a deleted record.
 */
export class KbRepository<E extends KbRecordEntity> {
  constructor(private readonly repo: Repository<E>) {}

  private active(ctx: WorkspaceContext): SelectQueryBuilder<E> {
    const workspaceId = requireWorkspace(ctx);
    return this.repo
      .createQueryBuilder('r')
      .where('r.workspace_id = :workspaceId', { workspaceId })
      .andWhere('r.deleted_at IS NULL');
  }

  /** One page plus one extra row: the extra row only tells whether another page exists. */
  async page(ctx: WorkspaceContext, after: KeysetPosition | null, limit: number): Promise<E[]> {
    const query = this.active(ctx);
    if (after) {
      query.andWhere('(r.created_at, r.id) < (:createdAt, :id)', { createdAt: after.at, id: after.id });
    }
    return query
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .limit(limit + 1)
      .getMany();
  }

  findActive(ctx: WorkspaceContext, id: string): Promise<E | null> {
    return this.active(ctx).andWhere('r.id = :id', { id }).getOne();
  }

  async insert(ctx: WorkspaceContext, record: Omit<E, 'workspace_id' | 'deleted_at'>): Promise<E> {
    const workspaceId = requireWorkspace(ctx);
    const row = { ...record, workspace_id: workspaceId, deleted_at: null } as unknown as E;
    await this.repo.createQueryBuilder().insert().values(row as never).execute();
    return row;
  }

  /**
   * Applies `changes` to an active record and returns it, or null when there is none.
   * `updated_at` must visibly move on every update although the API shows whole seconds, so it
   * becomes the later of now and one second past the previous value.
   */
  async update(ctx: WorkspaceContext, id: string, changes: Partial<E>, now: Date): Promise<E | null> {
    const workspaceId = requireWorkspace(ctx);
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({
        ...(changes as object),
        updated_at: () => `GREATEST(:now::timestamptz, date_trunc('second', updated_at) + interval '1 second')`,
      } as never)
      .setParameter('now', now)
      .where('workspace_id = :workspaceId AND id = :id AND deleted_at IS NULL', { workspaceId, id })
      .returning('*')
      .execute();
    const rows = result.raw as E[];
    return rows.length > 0 ? rows[0] : null;
  }

  /** Soft delete; false when there was no active record to delete. */
  async softDelete(ctx: WorkspaceContext, id: string, now: Date): Promise<boolean> {
    const workspaceId = requireWorkspace(ctx);
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ deleted_at: now } as never)
      .where('workspace_id = :workspaceId AND id = :id AND deleted_at IS NULL', { workspaceId, id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
