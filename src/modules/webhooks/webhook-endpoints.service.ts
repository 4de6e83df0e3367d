import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AppError } from '../../shared/application/app-error';
import { keysetPage, Page } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { Clock, formatTimestamp } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../../shared/domain/ids';
import { isPlainObject } from '../../shared/domain/plain-object';
import { CursorCodec } from '../../shared/infrastructure/cursor-codec';
import { SecretBox } from '../../shared/infrastructure/secret-box';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { EVENT_TYPES, subscribes } from '../events/event-types';
import { EventRow, EventsRepository } from '../events/events.repository';
import { EventsService } from '../events/events.service';
import { checkReceiverUrl, hostRefusal } from './receiver-address';
import { DeliveryRow, EndpointChanges, EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookQueue } from './webhook-queue';
import { newSigningSecret, signedHeaders } from './webhook-signature';
import { WebhookSender } from './webhook-sender';

/** A rotated secret keeps signing beside the new one this long. */
export const ROTATION_OVERLAP_MS = 86_400_000;
const MAX_URL_LENGTH = 2_048;
const MAX_DESCRIPTION_LENGTH = 500;
const MAX_EVENT_PATTERNS = 100;

export type EndpointView = Record<string, unknown>;

function presentEndpoint(row: EndpointRow): EndpointView {
  return {
    id: formatId(ID_PREFIXES.webhookEndpoint, row.id),
    object: 'webhook_endpoint',
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

export function presentDelivery(row: DeliveryRow): Record<string, unknown> {
  return {
    id: formatId(ID_PREFIXES.webhookDelivery, row.id),
    object: 'webhook_delivery',
    endpoint_id: formatId(ID_PREFIXES.webhookEndpoint, row.endpoint_id),
    event_id: row.event_id === null ? null : formatId(ID_PREFIXES.event, row.event_id),
    message_id: row.message_id,
    event_type: row.event_type,
    attempt: row.attempt,
    succeeded: row.succeeded,
    status_code: row.status_code,
    error: row.error,
    latency_ms: row.latency_ms,
    response_excerpt: row.response_excerpt,
    next_retry_at: row.next_retry_at ? formatTimestamp(row.next_retry_at) : null,
    created_at: formatTimestamp(row.created_at),
  };
}

/** Event types and wildcards (`buyer.*`, `kb.*`, `*`), each naming at least one type. */
function eventPatterns(value: unknown): string[] {
  const problem = 'enabled_events must be a non-empty list of event types or wildcards such as "buyer.*"';
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_EVENT_PATTERNS)
    throw AppError.validation('enabled_events', `${problem}.`);
  for (const pattern of value) {
    if (typeof pattern !== 'string' || !EVENT_TYPES.some((type) => subscribes([pattern], type))) {
      throw AppError.validation('enabled_events', `${problem}; ${JSON.stringify(String(pattern).slice(0, 100))} names none.`);
    }
  }
  return [...new Set(value as string[])];
}

function text(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string') throw AppError.validation(name, `${name} must be a string.`);
  if (value.length > max) throw AppError.validation(name, `${name} must be at most ${max} characters.`);
  return value;
}

/**
 * Webhook endpoints of a workspace: created with a signing secret shown once, listed, changed,
 * rotated, tested, deleted; and their delivery attempts.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsRepository,
    private readonly eventViews: EventsService,
    private readonly queue: WebhookQueue,
    private readonly cursors: CursorCodec,
    private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly sender: WebhookSender,
  ) {}

  async create(ctx: WorkspaceContext, body: unknown): Promise<EndpointView> {
    const input = this.read(body, ['url', 'enabled_events', 'description']);
    if (input.url === undefined) throw AppError.validation('url', 'url is required.');
    if (input.enabled_events === undefined) throw AppError.validation('enabled_events', 'enabled_events is required.');
    const receiver = this.receiverUrl(input.url);
    const enabledEvents = eventPatterns(input.enabled_events);
    const description = input.description === undefined ? '' : text(input.description, 'description', MAX_DESCRIPTION_LENGTH);
    const url = await this.allowedReceiver(receiver);
    const secret = newSigningSecret();
    const row = await this.endpoints.insert(ctx, {
      id: this.ids.next(),
      url,
      description,
      enabled_events: enabledEvents,
      enabled: true,
      secret: this.box.seal(secret),
      created_at: this.clock.now(),
      updated_at: this.clock.now(),
    });
    await this.endpoints.startDispatch(ctx, row.id);
    return { ...presentEndpoint(row), secret };
  }

  list(ctx: WorkspaceContext, query: { limit: number; cursor?: string }): Promise<Page<EndpointView>> {
    return keysetPage({
      cursors: this.cursors,
      binding: { workspaceId: requireWorkspace(ctx), endpoint: 'webhook-endpoints', params: {} },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.endpoints.page(ctx, after, limit),
      positionOf: (row) => ({ at: row.created_at, id: row.id }),
      present: presentEndpoint,
    });
  }

  async get(ctx: WorkspaceContext, id: string): Promise<EndpointView> {
    return presentEndpoint(await this.found(ctx, id));
  }

  async update(ctx: WorkspaceContext, id: string, body: unknown): Promise<EndpointView> {
    const endpointId = this.parseId(id);
    const input = this.read(body, ['url', 'enabled_events', 'enabled', 'description']);
    if (Object.keys(input).length === 0) throw AppError.validation('body', 'Supply at least one field to update.');
    const changes: EndpointChanges = {};
    const receiver = input.url === undefined ? undefined : this.receiverUrl(input.url);
    if (input.enabled_events !== undefined) changes.enabled_events = eventPatterns(input.enabled_events);
    if (input.description !== undefined) changes.description = text(input.description, 'description', MAX_DESCRIPTION_LENGTH);
    if (input.enabled !== undefined) {
      if (typeof input.enabled !== 'boolean') throw AppError.validation('enabled', 'enabled must be true or false.');
      changes.enabled = input.enabled;
      changes.disabled_reason = input.enabled ? null : 'disabled by request';
    }
    if (receiver) changes.url = await this.allowedReceiver(receiver);
    const row = await this.endpoints.update(ctx, endpointId, changes, this.clock.now());
    if (!row) throw AppError.notFound('Webhook endpoint');
    if (changes.enabled === true) await this.endpoints.startDispatch(ctx, row.id);
    return presentEndpoint(row);
  }

  async remove(ctx: WorkspaceContext, id: string): Promise<void> {
    if (!(await this.endpoints.softDelete(ctx, this.parseId(id), this.clock.now()))) throw AppError.notFound('Webhook endpoint');
  }

  /** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
  async rotateSecret(ctx: WorkspaceContext, id: string): Promise<EndpointView> {
    const current = await this.found(ctx, id);
    const secret = newSigningSecret();
    const now = this.clock.now();
    const row = await this.endpoints.update(
      ctx,
      current.id,
      {
        secret: this.box.seal(secret),
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      },
      now,
    );
    if (!row) throw AppError.notFound('Webhook endpoint');
    return { ...presentEndpoint(row), secret };
  }

  /** Sends a `ping` now, once, signed like any delivery, and answers with the attempt as recorded. */
  async test(ctx: WorkspaceContext, id: string): Promise<Record<string, unknown>> {
    const endpoint = await this.found(ctx, id);
    const now = this.clock.now();
    // Not an event of the feed: an id of its own, in the ids' 19-digit form.
    const messageId = formatId('msg_', this.ids.next());
    const body = JSON.stringify({
      id: messageId,
      object: 'event',
      type: 'ping',
      created_at: formatTimestamp(now),
      data: { object: presentEndpoint(endpoint) },
    });
    const result = await this.sender.send(endpoint.url, signedHeaders(messageId, now, body, this.secretsOf(endpoint, now)), body);
    const delivery: DeliveryRow = {
      id: this.ids.next(),
      endpoint_id: endpoint.id,
      event_id: null,
      message_id: messageId,
      event_type: 'ping',
      attempt: 1,
      status_code: result.statusCode,
      error: result.error,
      latency_ms: result.latencyMs,
      response_excerpt: result.excerpt.slice(0, 500),
      succeeded: result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300,
      next_retry_at: null,
      created_at: now,
    };
    await this.endpoints.insertDelivery(ctx, delivery);
    return presentDelivery(delivery);
  }

  async deliveries(ctx: WorkspaceContext, id: string, query: { limit: number; cursor?: string }): Promise<Page<Record<string, unknown>>> {
    const endpoint = await this.found(ctx, id);
    return keysetPage({
      cursors: this.cursors,
      binding: { workspaceId: requireWorkspace(ctx), endpoint: `webhook-endpoints/${endpoint.id}/deliveries`, params: {} },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.endpoints.deliveries(ctx, endpoint.id, after, limit),
      positionOf: (row) => ({ at: row.created_at, id: row.id }),
      present: presentDelivery,
    });
  }

  /** Queues the event again for every enabled endpoint that subscribes to it. */
  async redeliver(ctx: WorkspaceContext, eventId: string): Promise<Record<string, unknown>> {
    const parsed = parseId(ID_PREFIXES.event, eventId);
    const event = parsed.kind === 'ok' ? await this.events.findOne(ctx, parsed.value) : null;
    if (!event) throw AppError.notFound('Event');
    const targets = (await this.endpoints.enabled(ctx)).filter((endpoint) => subscribes(endpoint.enabled_events, event.type));
    await this.queue.addWithinBound(
      targets.map((endpoint) => ({ workspaceId: requireWorkspace(ctx), endpointId: endpoint.id, eventIds: [event.id] })),
      { suffix: `r${this.ids.next()}` },
    );
    return {
      object: 'redelivery',
      event_id: formatId(ID_PREFIXES.event, event.id),
      endpoint_ids: targets.map((endpoint) => formatId(ID_PREFIXES.webhookEndpoint, endpoint.id)),
    };
  }

  /** The secrets that sign now: the current one, and a rotated one until it expires. */
  secretsOf(endpoint: EndpointRow, now: Date): string[] {
    const secrets = [this.box.open(endpoint.secret)];
    if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now) {
      secrets.push(this.box.open(endpoint.previous_secret));
    }
    return secrets;
  }

  /** The presented event a delivery sends, as `GET /v1/events/{id}` shows it. */
  eventBody(event: EventRow): { type: string; body: string } {
    return { type: event.type, body: JSON.stringify(this.eventViews.present(event)) };
  }

  /** The URL's own rules (no network): the URL as it will be called. */
  private receiverUrl(value: unknown): URL {
    const raw = text(value, 'url', MAX_URL_LENGTH);
    const checked = checkReceiverUrl(raw, this.config.webhooks.allowInsecureUrls);
    if (checked.problem || !checked.url) throw AppError.validation('url', `${checked.problem ?? 'url is invalid'}.`);
    return checked.url;
  }

  /** The host's addresses as DNS gives them now: run after every other check of the body. */
  private async allowedReceiver(url: URL): Promise<string> {
    const refusal = await hostRefusal(url.hostname, this.config.webhooks.allowInsecureUrls);
    if (refusal) throw AppError.validation('url', `url cannot receive webhooks: ${refusal}.`);
    return url.toString();
  }

  private read(body: unknown, allowed: readonly string[]): Record<string, unknown> {
    if (!isPlainObject(body)) throw AppError.validation('body', 'The request body must be a JSON object.');
    for (const name of Object.keys(body)) {
      if (!allowed.includes(name)) throw AppError.validation(name.slice(0, 100), `${name.slice(0, 100)} is not a known field.`);
    }
    return body;
  }

  private parseId(id: string): string {
    const parsed = parseId(ID_PREFIXES.webhookEndpoint, id);
    if (parsed.kind !== 'ok') throw AppError.notFound('Webhook endpoint');
    return parsed.value;
  }

  private async found(ctx: WorkspaceContext, id: string): Promise<EndpointRow> {
    const row = await this.endpoints.find(ctx, this.parseId(id));
    if (!row) throw AppError.notFound('Webhook endpoint');
    return row;
  }
}
