/**
 * Helpers for end-to-end tests of activity intake and the pipeline: valid raw activities of every
 * type, ingestion through `POST /ingest/v1/activities`, and polling of
 * `GET /ingest/v1/activities/{id}` until the pipeline has finished with them.
 */
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TestApp, TestWorkspace } from './test-app';

export type ActivityType = 'website' | 'market' | 'linkedin';
export type WebsiteTrigger = 'visited_page' | 'filled_form' | 'abandoned_form';
export type MarketTrigger = 'researched_topic' | 'explored_product' | 'evaluated_competitor';
export type LinkedinTrigger = 'followed_page' | 'commented_post' | 'reacted_post';
export type Trigger = WebsiteTrigger | MarketTrigger | LinkedinTrigger;

export const TRIGGERS_BY_TYPE: Record<ActivityType, Trigger[]> = {
  website: ['visited_page', 'filled_form', 'abandoned_form'],
  market: ['researched_topic', 'explored_product', 'evaluated_competitor'],
  linkedin: ['followed_page', 'commented_post', 'reacted_post'],
};

/** A raw activity as a client sends it (DESIGN §2); loose on purpose, tests also send bad ones. */
export type RawActivity = Record<string, any>;

export interface ActivityStatus {
  id: string;
  status: 'queued' | 'processed' | 'discarded';
  signal_id: string | null;
  buyer_id: string | null;
  discard_reason: 'unresolved_identity' | 'excluded_company' | 'no_target_match' | null;
  near_miss: { target_page_id?: string; target_form_id?: string; url: string; differences: Array<'host' | 'path' | 'query'> } | null;
  type: ActivityType;
  trigger: Trigger;
  occurred_at: string;
  received_at: string;
}

let counter = 0;
/** A process-unique suffix (emails, short names, external ids). */
export function uniq(): string {
  counter += 1;
  return `${process.pid.toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A fresh, valid work email. */
export function email(local = 'person'): string {
  return `${local}.${uniq()}@buyer-${uniq()}.com`;
}

type Common = Partial<Pick<RawActivity, 'external_id' | 'occurred_at' | 'identity' | 'contact' | 'company' | 'attribution'>>;

function common(extra: Common): RawActivity {
  const out: RawActivity = {
    occurred_at: extra.occurred_at ?? '2026-03-02T10:00:00Z',
    identity: extra.identity ?? { email: email() },
  };
  for (const key of ['external_id', 'contact', 'company', 'attribution'] as const) {
    if (extra[key] !== undefined) out[key] = extra[key];
  }
  return out;
}

export function websiteActivity(
  trigger: WebsiteTrigger,
  url: string,
  extra: Common & { website?: Record<string, unknown> } = {},
): RawActivity {
  const { website, ...rest } = extra;
  return { type: 'website', trigger, ...common(rest), website: { url, ...website } };
}

export function marketActivity(
  trigger: MarketTrigger,
  market: { topic?: string; company_website?: string },
  extra: Common = {},
): RawActivity {
  return { type: 'market', trigger, ...common(extra), market };
}

export function linkedinActivity(
  trigger: LinkedinTrigger,
  linkedin: { source?: string; url?: string; comment?: string; reaction_type?: string; company_name?: string; post_title?: string },
  extra: Common = {},
): RawActivity {
  return { type: 'linkedin', trigger, ...common(extra), linkedin };
}

/** sha256, sha1 and md5 of the lowercased email, as Buyers carry them. */
export function hemsOf(address: string): Array<{ type: string; value: string }> {
  return (['sha256', 'sha1', 'md5'] as const).map((type) => ({
    type,
    value: createHash(type).update(address.toLowerCase(), 'utf8').digest('hex'),
  }));
}

export function postActivities(t: TestApp, auth: string, body: unknown) {
  return t.http
    .post('/ingest/v1/activities')
    .set('Authorization', auth)
    .send(body as object);
}

/** Ingests the activities (all must be accepted) and returns their `act_` ids in order. */
export async function ingest(t: TestApp, ws: TestWorkspace, activities: RawActivity[]): Promise<string[]> {
  const res = await postActivities(t, ws.auth, { activities });
  if (res.status !== 202) throw new Error(`POST /ingest/v1/activities: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data as Array<{ id: string; status: string }>;
  if (!Array.isArray(data) || data.length !== activities.length) {
    throw new Error(`POST /ingest/v1/activities answered ${JSON.stringify(res.body)} for ${activities.length} activities`);
  }
  return data.map((d) => d.id);
}

export async function activityStatus(t: TestApp, ws: TestWorkspace, id: string): Promise<ActivityStatus> {
  const res = await t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', ws.auth);
  if (res.status !== 200) throw new Error(`GET /ingest/v1/activities/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ActivityStatus;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the status of every id until none is `queued`; returns the statuses in the order of `ids`.
 * Fails with the still-queued ids when `timeoutMs` passes.
 */
export async function waitForActivities(t: TestApp, ws: TestWorkspace, ids: string[], timeoutMs = 15_000): Promise<ActivityStatus[]> {
  const done = new Map<string, ActivityStatus>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = [...new Set(ids)].filter((id) => !done.has(id));
    const statuses = await Promise.all(pending.map((id) => activityStatus(t, ws, id)));
    for (const status of statuses) if (status.status !== 'queued') done.set(status.id, status);
    if (done.size === new Set(ids).size) return ids.map((id) => done.get(id)!);
    if (Date.now() > deadline) {
      throw new Error(`Activities still queued after ${timeoutMs} ms: ${ids.filter((id) => !done.has(id)).join(', ')}`);
    }
    await sleep(40);
  }
}

/** Ingests and waits: the final statuses, in order. */
export async function ingestAndWait(
  t: TestApp,
  ws: TestWorkspace,
  activities: RawActivity[],
  timeoutMs?: number,
): Promise<ActivityStatus[]> {
  return waitForActivities(t, ws, await ingest(t, ws, activities), timeoutMs);
}

/** Creates a knowledge-base record and returns it (201 required). */
export async function createKb(t: TestApp, ws: TestWorkspace, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.http.post(`/v1/kb/${path}`).set('Authorization', ws.auth).send(body);
  if (res.status !== 201) throw new Error(`POST /v1/kb/${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function patchKb(
  t: TestApp,
  ws: TestWorkspace,
  path: string,
  id: string,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await t.http.patch(`/v1/kb/${path}/${id}`).set('Authorization', ws.auth).send(body);
  if (res.status !== 200) throw new Error(`PATCH /v1/kb/${path}/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function deleteKb(t: TestApp, ws: TestWorkspace, path: string, id: string): Promise<void> {
  const res = await t.http.delete(`/v1/kb/${path}/${id}`).set('Authorization', ws.auth);
  if (res.status !== 204) throw new Error(`DELETE /v1/kb/${path}/${id}: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function targetPage(t: TestApp, ws: TestWorkspace, url: string, name = `Page ${uniq()}`) {
  return createKb(t, ws, 'target-pages', { name, short_name: `tp-${uniq()}`, url, description: `Why ${name} matters` });
}

export async function targetForm(t: TestApp, ws: TestWorkspace, url: string, name = `Form ${uniq()}`) {
  return createKb(t, ws, 'target-forms', { name, short_name: `tf-${uniq()}`, url, description: `Submissions of ${name}` });
}

/** Every Signal of the workspace (all pages), newest first. */
export async function listSignals(t: TestApp, ws: TestWorkspace, query = ''): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  do {
    const params = [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&');
    const res: { status: number; body: any } = await t.http.get(`/v1/signals${params ? `?${params}` : ''}`).set('Authorization', ws.auth);
    if (res.status !== 200) throw new Error(`GET /v1/signals?${params}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return out;
}

/** Every Buyer of the workspace (all pages). */
export async function listBuyers(t: TestApp, ws: TestWorkspace): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  do {
    const path: string = `/v1/buyers${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: { status: number; body: any } = await t.http.get(path).set('Authorization', ws.auth);
    if (res.status !== 200) throw new Error(`GET /v1/buyers: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return out;
}

export async function getBuyer(t: TestApp, ws: TestWorkspace, id: string): Promise<Record<string, any>> {
  const res = await t.http.get(`/v1/buyers/${id}`).set('Authorization', ws.auth);
  if (res.status !== 200) throw new Error(`GET /v1/buyers/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The one Signal with this id (fails when it is not listed). */
export async function getSignal(t: TestApp, ws: TestWorkspace, id: string): Promise<Record<string, any>> {
  const found = (await listSignals(t, ws)).filter((s) => s.id === id);
  if (found.length !== 1) throw new Error(`Signal ${id} listed ${found.length} times`);
  return found[0];
}

/** How many raw activities the workspace has stored, read from the database (accepted or not yet processed). */
export async function storedActivityCount(t: TestApp, ws: TestWorkspace): Promise<number> {
  const workspaceId = BigInt(ws.workspace_id.replace(/^wor_/, '')).toString();
  const rows: Array<{ count: number }> = await t.app
    .get(DataSource)
    .query('SELECT count(*)::int AS count FROM activities WHERE workspace_id = $1', [workspaceId]);
  return rows[0].count;
}

/** Options for `startTestApp` in pipeline tests: workers inline, a rate limit polling cannot reach. */
export const PIPELINE_APP_ENV = { RUN_WORKERS: 'true', RATE_LIMIT_LIMIT: '1000000' };
