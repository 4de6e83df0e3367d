import { ERROR_STATUS } from './shared/domain/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './shared/interface/http/list-query.pipe';

const CODE_MEANINGS: Record<keyof typeof ERROR_STATUS, string> = {
  validation_error: 'A body field, path id or header is invalid; `param` names it (`activities[3].trigger`, `short_name`).',
  invalid_parameter: 'A query parameter is unknown, repeated or invalid; `param` names it.',
  invalid_cursor: 'The cursor is malformed, altered, or from another request (`param`: `cursor`).',
  authentication_error: 'The key is missing, invalid or revoked.',
  permission_denied: 'The key is read-only and the operation writes.',
  not_found: 'No such record in this workspace (deleted and other workspaces’ records look the same), or no such route.',
  method_not_allowed: 'The path exists but does not answer this method; `Allow` lists the methods it answers.',
  conflict: 'The record conflicts with another, e.g. a `short_name` already used by an active record (`param`).',
  payload_too_large: 'The request body is over 1 MiB.',
  rate_limit_exceeded: "The workspace's budget is spent; wait `Retry-After` seconds.",
  service_unavailable: 'A dependency is unavailable; retry after `Retry-After` seconds.',
  internal_error: 'Unexpected; quote the `request_id`.',
  idempotency_key_mismatch: 'The `Idempotency-Key` was used for another method, path or body.',
  idempotency_key_in_use: 'The first request with this `Idempotency-Key` is still running; retry after `Retry-After`.',
};

const codeRows = (Object.keys(ERROR_STATUS) as Array<keyof typeof ERROR_STATUS>)
  .sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b])
  .map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${CODE_MEANINGS[code]} |`)
  .join('\n');

/** `info.description` of the OpenAPI document: what holds for every operation, in one place (markdown). */
export const OPENAPI_OVERVIEW = `Knowledge base, Buyers, Signals, events, webhooks and activity intake of one workspace.

## Authentication

Every \`/v1\` and \`/ingest/v1\` request carries a workspace API key:

    Authorization: Bearer svc_live_…

The key is opaque (not a JWT) and alone decides the workspace: no URL names one. A write key may call
every operation; a read key answers \`403 permission_denied\` to the operations that write. A missing,
invalid or revoked key is \`401 authentication_error\`. Send keys over HTTPS, in this header only, never in
a URL. \`/docs\`, \`/openapi.json\`, \`/health/*\` and \`/metrics\` need no key.

## Errors

Every failure answers with the same envelope (schema \`Error\`) and an \`X-Request-Id\` header:

    {"error": {"code": "invalid_parameter", "message": "limit must be an integer from 1 to ${MAX_PAGE_SIZE}.",
               "request_id": "req_8f2c1e0a9b7d4c3e", "param": "limit"}}

\`code\` is stable and machine-readable; \`message\` is for people and may change; \`param\`, when present,
names the offending input. Each operation lists its error statuses with an example per code.

| Status | \`code\` | When |
|---|---|---|
${codeRows}

## Pagination

Lists are cursor-paginated: \`limit\` (1–${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}) and \`cursor\`. A page is
\`{"data": [...], "pagination": {"next_cursor": "..." | null}}\` (schemas \`<Record>Page\`). Pass
\`next_cursor\` as \`cursor\` for the next page, with the same filters and sort (\`limit\` may change).
Only \`next_cursor: null\` ends a list; a short page does not. Cursors are opaque: a malformed, altered
or mismatched one is \`400 invalid_cursor\`. No total count is returned. The event feed also returns a
\`resume_cursor\` to poll from later.

## Filters and sorting

Filters combine with AND. Time bounds are UTC \`YYYY-MM-DDTHH:mm:ssZ\`, inclusive at the start
(\`*_after\`) and exclusive at the end (\`*_before\`). Buyers sort by \`created_at\`, Signals by
\`captured_at\` (\`sort_order\` \`asc\` or \`desc\`, default \`desc\`, ties broken by id). A Signals \`trigger\`
needs its \`type\`. An unknown parameter, a repeated one or a bad value is never ignored: it is
\`400 invalid_parameter\` naming it.

## Rate limits

Each workspace has one budget, shared by all its keys and every route that needs a key (by default
600 requests per 60 seconds). Responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\` (seconds until the window ends). Past the budget the answer is
\`429 rate_limit_exceeded\` with \`Retry-After\` in seconds: wait that long before retrying. Failed
authentication attempts are counted per client address against the same budget.

## Idempotency keys

Every \`POST\` and \`PATCH\` accepts an optional \`Idempotency-Key\` header (1–255 printable ASCII
characters). A retry with the same key, method, path and body gets the first success again, with
\`Idempotent-Replayed: true\`, instead of running twice; keys are kept 24 hours per workspace, and a
failed request gives its key up. The same key with another request is \`400 idempotency_key_mismatch\`;
one sent while the first still runs is \`409 idempotency_key_in_use\` with \`Retry-After\`.

## Versioning

The version is part of the path: every operation begins with \`/v1\` (\`/ingest/v1\` for intake).
Within \`v1\` no total count is guaranteed, only the documented sort fields exist, and filters
combine with AND only. Operations and response fields may be added within a version, so clients
should ignore fields they do not know.
`;
