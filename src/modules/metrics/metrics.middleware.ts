import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

/**
 * The route pattern that served the request (`/v1/kb/icps/:icp_id`), never the URL itself, so
 * the label's values stay few. Nest mounts middleware as catch-all wildcard routes, so a request
 * that never reached a controller route (unknown path, refused by the middleware for want of a
 * key or over the rate limit) is left with one of those; the API's own routes have no wildcards.
 */
export function routePattern(req: Request): string {
  const path: unknown = req.route?.path;
  if (typeof path !== 'string' || path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/** Times every response; the route is read when it finishes, once routing has happened. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.recordRequest(req.method, routePattern(req), res.statusCode, seconds);
    });
    next();
  }
}
