import { applyDecorators, CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import type { Response } from 'express';
import { catchError, defer, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { AppError } from '../../application/app-error';
import { WorkspaceContext } from '../../application/workspace-context';
import { ErrorCode } from '../../domain/errors';
import {
  bodyHash,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isValidIdempotencyKey,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from '../../domain/idempotency';
import { IdempotencyRepository, IdempotentRequest, StoredResponse } from '../../infrastructure/idempotency.repository';
import { ERROR_SCHEMA_REF, errorExample, ErrorExample, headerRef, RETRY_AFTER_HEADER } from './openapi.decorators';
import { AppRequest, pathOfUrl } from './request-context';

const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/** Response headers a replay repeats; the others (request id, rate limit) belong to each request. */
const REPLAYED_HEADERS = ['Location'];

/** The key's request, held while it runs. */
interface Held {
  ctx: WorkspaceContext;
  request: IdempotentRequest;
  token: string;
}

/**
 * `Idempotency-Key` on a POST or PATCH (ADR 0045), with Stripe's semantics. Without the header
 * the request passes straight through. With it, the first request claims the key in its
 * workspace, runs, and stores a success (status, the headers that matter, the JSON body); a retry
 * with the same method, path and body gets that answer again with `Idempotent-Replayed: true`,
 * and the handler does not run. A failure (4xx or 5xx) gives the key up, so the retry runs anew.
 * Another request under the key is `400 idempotency_key_mismatch`; one while the first still runs
 * is `409 idempotency_key_in_use` with `Retry-After: 1`.
 *
 * Runs after the guards, so the key's workspace is bound and the body has parsed.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly keys: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<AppRequest>();
    const header = req.headers[HEADER];
    if (header === undefined) return next.handle();
    const res = http.getResponse<Response>();
    return defer(() => this.claim(req)).pipe(
      mergeMap((claim) => ('response' in claim ? of(replay(res, claim.response)) : this.run(claim, req, res, next))),
    );
  }

  private async claim(req: AppRequest): Promise<Held | { response: StoredResponse }> {
    // Each line of a repeated header separately: two keys are no key.
    const values = req.headersDistinct[HEADER] ?? [];
    const header = values[0];
    if (values.length !== 1 || !isValidIdempotencyKey(header)) {
      throw AppError.validation(
        IDEMPOTENCY_KEY_HEADER,
        `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`,
      );
    }
    const ctx = req.state?.workspace;
    if (!ctx) throw new Error('No workspace bound to this request');
    const request: IdempotentRequest = { key: header, method: req.method, path: pathOfUrl(req.originalUrl), bodyHash: bodyHash(req.body) };
    const claim = await this.keys.claim(ctx, request);
    switch (claim.kind) {
      case 'claimed':
        return { ctx, request, token: claim.token };
      case 'replay':
        return { response: claim.response };
      case 'mismatch':
        throw new AppError(
          ErrorCode.idempotencyKeyMismatch,
          `This ${IDEMPOTENCY_KEY_HEADER} was already used for a request with another method, path or body; use a new key for a new request.`,
        );
      case 'in_flight':
        throw new AppError(
          ErrorCode.idempotencyKeyInUse,
          `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry once it has finished.`,
          undefined,
          { 'Retry-After': '1' },
        );
    }
  }

  /** Runs the handler for the claim's holder: a success is stored before it is answered, a failure gives the key up. */
  private run(held: Held, req: AppRequest, res: Response, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap(async (value: unknown) => {
        await this.complete(held, req, res, value);
        return value;
      }),
      catchError((error: unknown) => from(this.release(held, req)).pipe(mergeMap(() => throwError(() => error)))),
    );
  }

  private async complete(held: Held, req: AppRequest, res: Response, value: unknown): Promise<void> {
    // Nest has set the route's status before the handler ran; the handler's value is what the
    // adapter serialises (ApiExpressAdapter.reply: JSON.stringify), so the replay's bytes match.
    const status = res.statusCode;
    if (status < 200 || status > 299) return this.release(held, req);
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = value === undefined ? null : (JSON.stringify(value) ?? null);
    try {
      const stored = await this.keys.complete(held.ctx, held.request.key, held.token, { status, headers, body });
      if (!stored) this.logger.warn({ requestId: req.state.requestId }, 'Idempotency claim was taken over before the request finished');
    } catch (error) {
      // The change is made and the client gets its answer; only the replay is lost, and a retry
      // after the lease runs the request again (ADR 0045).
      this.logger.warn({ requestId: req.state.requestId, err: error }, 'Storing the idempotent response failed');
    }
  }

  private async release(held: Held, req: AppRequest): Promise<void> {
    try {
      await this.keys.release(held.ctx, held.request.key, held.token);
    } catch (error) {
      // The claim then ends with its lease.
      this.logger.warn({ requestId: req.state.requestId, err: error }, 'Releasing the idempotency key failed');
    }
  }
}

/** A stored answer, again: its headers and body. Nest writes the route's status, the one stored. */
function replay(res: Response, stored: StoredResponse): unknown {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return stored.body === null ? undefined : JSON.parse(stored.body);
}

/**
 * Makes a POST or PATCH route idempotent with `Idempotency-Key` and declares the header in the
 * OpenAPI document (`documentIdempotency` adds the rest). Every POST and PATCH of the public API
 * carries it.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: a repeat with the same key, method, path and body gets the first success again ' +
        `(with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`) instead of running twice. Keys belong to the workspace and are ` +
        'kept 24 hours by default; a failed request gives its key up.',
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[\\x20-\\x7E]+$' },
    }),
  );
}

const isReference = (value: unknown): value is ReferenceObject => typeof value === 'object' && value !== null && '$ref' in value;

const takesIdempotencyKey = (operation: OperationObject): boolean =>
  (operation.parameters ?? []).some((p) => !isReference(p) && p.in === 'header' && p.name === IDEMPOTENCY_KEY_HEADER);

const IDEMPOTENCY_ERRORS: Record<string, { description: string; example: ErrorExample }> = {
  400: {
    description:
      `\`idempotency_key_mismatch\`: the \`${IDEMPOTENCY_KEY_HEADER}\` was used before for another method, path or body ` +
      `(a malformed key is \`validation_error\` with \`param\` \`${IDEMPOTENCY_KEY_HEADER}\`)`,
    example: errorExample(
      ErrorCode.idempotencyKeyMismatch,
      `This ${IDEMPOTENCY_KEY_HEADER} was already used for a request with another method, path or body; use a new key for a new request.`,
    ),
  },
  409: {
    description: `\`idempotency_key_in_use\`: the first request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still running; wait \`Retry-After\` seconds`,
    example: errorExample(
      ErrorCode.idempotencyKeyInUse,
      `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry once it has finished.`,
    ),
  },
};

/**
 * What the `Idempotency-Key` header adds to the operations that take it: the
 * `Idempotent-Replayed` header on their successes and the two errors of a reused key, with their
 * examples (and `Retry-After` on the 409).
 */
export function documentIdempotency(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.post, item.patch]) {
      if (!operation || !takesIdempotencyKey(operation)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^2\d\d$/.test(status) || !response || isReference(response)) continue;
        response.headers = {
          ...response.headers,
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: `\`true\` when this is the stored answer to an earlier request with the same \`${IDEMPOTENCY_KEY_HEADER}\``,
            schema: { type: 'string', enum: ['true'] },
          },
        };
      }
      for (const [status, { description, example }] of Object.entries(IDEMPOTENCY_ERRORS)) {
        const existing = operation.responses[status] as ResponseObject | undefined;
        const content = existing?.content?.['application/json'];
        operation.responses[status] = {
          ...existing,
          description: existing ? `${existing.description}; or ${description}` : description,
          content: {
            'application/json': {
              ...content,
              schema: content?.schema ?? { $ref: ERROR_SCHEMA_REF },
              examples: { ...content?.examples, [example.value.error.code]: example },
            },
          },
          ...(status === '409' ? { headers: { ...existing?.headers, [RETRY_AFTER_HEADER]: headerRef(RETRY_AFTER_HEADER) } } : {}),
        };
      }
    }
  }
}
