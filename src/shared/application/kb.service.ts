import { Repository } from 'typeorm';
import { Clock, formatTimestamp } from '../domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../domain/ids';
import { CursorCodec } from '../infrastructure/cursor-codec';
import { KbRecordEntity } from '../infrastructure/kb-record.entity';
import { KbRepository } from '../infrastructure/kb.repository';
import { isUniqueViolation, SHORT_NAME_INDEX_SUFFIX } from '../infrastructure/postgres-errors';
import { ErrorCode } from '../domain/errors';
import { AppError } from './app-error';
import { keysetPage, Page } from './pagination';
import { KbDtoClass, KbFields, validateKbInput } from './kb-fields';
import { requireWorkspace, WorkspaceContext } from './workspace-context';

/** A knowledge-base record as the API and the console see it. */
export type KbRecordView = Record<string, unknown> & { id: string };

/**
 * The class a resource declares its service as: a subclass of KbService that keeps its constructor
 * (the KB module constructs it with the resource, its table's repository, the cursor codec, the
 * clock and the id generator). Its arguments are left open so that resources of different
 * entities can share one list.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: a typed list would make the entities invariant
export type KbServiceClass<E extends KbRecordEntity> = new (...args: any[]) => KbService<E>;

/** What the generic service reads of a resource's declaration (`KbResource`). */
export interface KbServiceResource {
  /** Singular name, for messages and generated class names (`Target Page`). */
  readonly name: string;
  /** Path segment under `/v1/kb/`. */
  readonly path: string;
  /** Name of the path parameter that carries the id (`icp_id`, `persona_id`, `id`). */
  readonly idParam: string;
  /** Prefix of its public ids (`icp_`); declared in the resource only. */
  readonly idPrefix: string;
  /** Editable fields in response order, with their validation rules. */
  readonly fields: KbFields;
  readonly dtos: { readonly create: KbDtoClass; readonly update: KbDtoClass };
  /** Read-only fields computed from editable ones; shown after the editable fields. */
  readonly computedFields: readonly string[];
  /** Computes `computedFields` from the editable values being written (hook). */
  readonly derive?: (values: Readonly<Record<string, string>>) => Record<string, string>;
}

export interface KbListQuery {
  limit: number;
  cursor?: string;
}

/**
 * Create, read, update, list and soft-delete for one knowledge-base resource. Methods take the
 * workspace first, public ids (`icp_…`) and untrusted input, and return public views, so the HTTP
 * controllers and an importing console backend share exactly one behaviour.
 */
export class KbService<E extends KbRecordEntity> {
  private readonly records: KbRepository<E>;
  /** The fields a view carries from its row, in order: the editable ones, then the computed ones. */
  private readonly viewFields: readonly string[];

  constructor(
    readonly resource: KbServiceResource,
    repository: Repository<E>,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** `events: false` when EVENTS_ENABLED is off: writes record no events. */
    options: { events?: boolean } = {},
  ) {
    this.records = new KbRepository(repository, resource.path, options.events ?? true);
    this.viewFields = [...Object.keys(resource.fields), ...resource.computedFields];
  }

  async list(ctx: WorkspaceContext, query: KbListQuery): Promise<Page<KbRecordView>> {
    return keysetPage({
      cursors: this.cursors,
      binding: { workspaceId: requireWorkspace(ctx), endpoint: `kb/${this.resource.path}`, params: {} },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.records.page(ctx, after, limit),
      positionOf: (row) => ({ at: row.created_at, id: row.id }),
      present: (row) => this.present(row),
    });
  }

  async get(ctx: WorkspaceContext, id: string): Promise<KbRecordView> {
    const row = await this.records.findActive(ctx, this.parseId(id));
    if (!row) throw this.notFound();
    return this.present(row);
  }

  async create(ctx: WorkspaceContext, input: unknown): Promise<KbRecordView> {
    const values = validateKbInput(this.resource.dtos.create, input, this.resource.computedFields);
    const now = this.clock.now();
    const record = {
      ...this.defaults(),
      ...values,
      ...this.resource.derive?.(values),
      id: this.ids.next(),
      created_by: ctx.actor,
      created_at: now,
      updated_at: now,
    } as unknown as E;
    const row = await this.conflictsAsError(() => this.records.insert(ctx, record));
    return this.present(row);
  }

  async update(ctx: WorkspaceContext, id: string, input: unknown): Promise<KbRecordView> {
    const recordId = this.parseId(id);
    const values = validateKbInput(this.resource.dtos.update, input, this.resource.computedFields);
    const changes = { ...values, ...this.resource.derive?.(values) } as Partial<E>;
    const row = await this.conflictsAsError(() => this.records.update(ctx, recordId, changes, this.clock.now()));
    if (!row) throw this.notFound();
    return this.present(row);
  }

  async remove(ctx: WorkspaceContext, id: string): Promise<void> {
    const deleted = await this.records.softDelete(ctx, this.parseId(id), this.clock.now());
    if (!deleted) throw this.notFound();
  }

  /** Whitelist mapper: only declared fields leave the service. */
  present(row: E): KbRecordView {
    const source = row as unknown as Record<string, unknown>;
    const view: KbRecordView = {
      id: formatId(this.resource.idPrefix, row.id),
      client_id: formatId(ID_PREFIXES.workspace, row.workspace_id),
    };
    for (const name of this.viewFields) view[name] = source[name] ?? '';
    view.created_by = { type: row.created_by.type, id: row.created_by.id };
    view.created_at = formatTimestamp(row.created_at);
    view.updated_at = formatTimestamp(row.updated_at);
    return view;
  }

  private defaults(): Record<string, string> {
    return Object.fromEntries(Object.keys(this.resource.fields).map((name) => [name, '']));
  }

  private parseId(id: string): string {
    const parsed = parseId(this.resource.idPrefix, id);
    if (parsed.kind === 'malformed') {
      throw AppError.validation(
        this.resource.idParam,
        `${this.resource.idParam} must be an id of the form ${this.resource.idPrefix}<digits>.`,
      );
    }
    if (parsed.kind === 'absent') throw this.notFound();
    return parsed.value;
  }

  private notFound(): AppError {
    return AppError.notFound(this.resource.name);
  }

  private async conflictsAsError<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, SHORT_NAME_INDEX_SUFFIX)) {
        throw new AppError(ErrorCode.conflict, `short_name is already used by another active ${this.resource.name}.`, 'short_name');
      }
      throw error;
    }
  }
}
