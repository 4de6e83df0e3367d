// The API's shapes, taken from the public API's generated types (openapi.json): the console's data
// routes answer exactly as their public counterparts.
import type { components } from '../../clients/typescript/src/schema';

type Schemas = components['schemas'];

export type Buyer = Schemas['Buyer'];
export type BuyerEvaluation = Schemas['BuyerEvaluation'];
export type CriterionVerdict = Schemas['CriterionVerdict'];
export type Signal = Schemas['Signal'];
export type SignalType = Signal['type'];
export type ActivityStatus = Schemas['ActivityStatus'];
export type ActivityNearMiss = Schemas['ActivityNearMiss'];
export type ConsoleEvent = Schemas['Event'];
export type CriteriaReading = Schemas['CriteriaReading'];
export type Criterion = Schemas['Criterion'];
export type Span = Schemas['Span'];
export type SimulationResult = Schemas['SimulationResult'];
export type SimulationExample = Schemas['SimulationExample'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Trigger = ActivityStatus['trigger'];

/** A page of a list: `next_cursor` null (or `has_more` false) at the end. */
export interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more?: boolean };
}

/** The events feed's page: `resume_cursor` is where to poll again from. */
export interface EventPage {
  data: ConsoleEvent[];
  pagination: { next_cursor: string | null; resume_cursor: string };
}

/** A knowledge-base record: the common fields plus the resource's own (all strings). */
export interface KbRecord {
  id: string;
  name: string;
  short_name: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export interface ConsoleUser {
  id: string;
  email: string;
  workspace_id: string;
  workspace_name: string;
}

export interface SessionAnswer {
  user: ConsoleUser;
  csrf_token: string;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  scope: 'read' | 'write';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeyWithSecret extends ApiKey {
  secret: string;
}

/** Each type's triggers, as the API accepts them together (`trigger` requires `type`). */
export const TRIGGERS: Readonly<Record<SignalType, readonly Trigger[]>> = {
  website: ['visited_page', 'filled_form', 'abandoned_form'],
  market: ['researched_topic', 'explored_product', 'evaluated_competitor'],
  linkedin: ['followed_page', 'commented_post', 'reacted_post'],
};
export const SIGNAL_TYPES: readonly SignalType[] = ['website', 'market', 'linkedin'];
