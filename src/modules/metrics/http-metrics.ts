import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { HTTP_LOGGER, HttpLogger } from '../../config/logging.module';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

/**
 * The route pattern that served the request (`/v1/kb/icps/:icp_id`), never the URL itself, so
 * the label's values stay few. Express sets `req.route` only when a route serves the request, so
 * one that never reached a controller route (unknown path, refused by the middleware for want of
 * a key or over the rate limit) has none. A wildcard pattern counts as unmatched too: middleware
 * mounted on a wildcard route would leave one, and the API's own routes have no wildcards.
 */
export function routePattern(req: Request): string {
  const path: unknown = req.route?.path;
  if (typeof path !== 'string' || path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/**
 * Times every response sent in full, from the request log's one listener per request
 * (`HttpLogger.onFinished`); the route is read when it finishes, once routing has happened.
 */
@Injectable()
export class HttpMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(HTTP_LOGGER) private readonly http: HttpLogger,
  ) {}

  onModuleInit(): void {
    this.http.onFinished((req, res, seconds) => this.metrics.recordRequest(req.method ?? '', routePattern(req as Request), res.statusCode, seconds));
  }
}
