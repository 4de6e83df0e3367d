import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

/**
 * The route pattern that served the request (`/v1/kb/icps/:icp_id`), never the URL itself, so
 * the label's values stay few. Express sets `req.route` only when a route serves the request, so
 * one that never reached a controller route (unknown path, refused by the middleware for want of
 * a key) has none. A wildcard pattern counts as unmatched too: middleware mounted on a wildcard
 * route would leave one, and the API's own routes have no wildcards.
 */
export function routePattern(req: Request): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string' || path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/**
 * Times every response sent in full (`finish`), probes and refused requests included; the route
 * is read when it finishes, once routing has happened. Mounted before the request middleware, so
 * that requests it refuses are counted too.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = performance.now();
    res.once('finish', () => {
      this.metrics.recordRequest(req.method, routePattern(req), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  }
}
