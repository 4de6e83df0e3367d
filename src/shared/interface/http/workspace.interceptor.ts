import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError } from '../../application/app-error';
import { WorkspaceContext } from '../../application/workspace-context';
import { ErrorCode } from '../../domain/errors';
import { PassThroughInterceptor } from './pass-through-interceptor';
import { AppRequest, RequestState } from './request-context';

function bodyError(error: NonNullable<RequestState['bodyError']>): AppError {
  if (error.status === 413) {
    return new AppError(ErrorCode.payloadTooLarge, 'The request body is larger than 1 MiB.');
  }
  if (error.type === 'content_type') {
    return AppError.validation('body', 'The request body must be JSON sent with Content-Type: application/json.');
  }
  return AppError.validation('body', 'The request body is not valid JSON.');
}

/**
 * Binds the authenticated workspace to the request for `@CurrentWorkspace()`, and raises a body
 * that failed to parse — here, because only now are the route and the key known to be good.
 */
@Injectable()
export class WorkspaceInterceptor extends PassThroughInterceptor {
  before(context: ExecutionContext): void {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const auth = req.state?.auth;
    if (auth) req.state.workspace = WorkspaceContext.forApiKey(auth.workspaceId, auth.keyId, auth.scope);
    if (req.state?.bodyError) throw bodyError(req.state.bodyError);
  }
}

/** The request's workspace; fails closed when a route somehow runs without one. */
export const CurrentWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): WorkspaceContext => {
  const workspace = context.switchToHttp().getRequest<AppRequest>().state?.workspace;
  if (!workspace) throw new Error('No workspace bound to this request');
  return workspace;
});
