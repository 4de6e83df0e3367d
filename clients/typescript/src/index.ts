import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

/**
 * A typed client of the buyer-intelligence API: `openapi-fetch` over the types `openapi-typescript`
 * generates from `openapi.json` (`npm run generate`), so paths, parameters, bodies and answers are
 * checked by the compiler.
 */

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type Signal = Schemas['Signal'];
export type Buyer = Schemas['Buyer'];
export type ApiError = Schemas['Error'];
export type SignalQuery = NonNullable<operations['list_signals']['parameters']['query']>;
export type BuyerQuery = NonNullable<operations['list_buyers']['parameters']['query']>;
export type BuyerIntelligenceClient = Client<paths>;

export interface BuyerIntelligenceClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** A workspace API key, `svc_live_…`; sent as `Authorization: Bearer <key>` on every request. */
  apiKey: string;
}

export function createBuyerIntelligenceClient({ apiKey, headers, ...options }: BuyerIntelligenceClientOptions): BuyerIntelligenceClient {
  return createClient<paths>({ ...options, headers: { ...headers, Authorization: `Bearer ${apiKey}` } });
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** How to wait; a test may pass a fake clock (default `setTimeout`). */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request again after a `429 rate_limit_exceeded`, waiting the `Retry-After` seconds the
 * service asks for, up to `maxAttempts` times; any other answer is returned as it is.
 */
export async function withRetry<T extends { response: Response }>(send: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { maxAttempts = 5, sleep = wait } = options;
  for (let attempt = 1; ; attempt += 1) {
    const result = await send();
    if (result.response.status !== 429 || attempt >= maxAttempts) return result;
    const seconds = Number(result.response.headers.get('Retry-After'));
    await sleep((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
  }
}

/** The message of an error answer, with its code and request id, as an `Error`. */
export class BuyerIntelligenceError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body ? `${status} ${body.error.code}: ${body.error.message} (${body.error.request_id})` : `HTTP ${status}`);
    this.name = 'BuyerIntelligenceError';
  }
}

/**
 * Every Signal matching `query`, page by page: each `pagination.next_cursor` is passed back as
 * `cursor` with the same filters until it is `null`. A 429 is waited out (`withRetry`); any
 * other error throws a `BuyerIntelligenceError`.
 */
export async function* allSignals(
  client: BuyerIntelligenceClient,
  query: SignalQuery = {},
  retry: RetryOptions = {},
): AsyncGenerator<Signal> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await withRetry(
      () => client.GET('/v1/signals', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }),
      retry,
    );
    if (!data) throw new BuyerIntelligenceError(response.status, error);
    yield* data.data;
    cursor = data.pagination.next_cursor ?? undefined;
  } while (cursor);
}
