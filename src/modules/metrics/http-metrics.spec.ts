import type { Request } from 'express';
import { routePattern } from './http-metrics';

const request = (route: unknown, baseUrl = '') => ({ route, baseUrl }) as unknown as Request;

describe('routePattern', () => {
  it('is the pattern of the route that served the request, under its base URL', () => {
    expect(routePattern(request({ path: '/v1/kb/icps/:icp_id' }))).toBe('/v1/kb/icps/:icp_id');
    expect(routePattern(request({ path: '/:id' }, '/v1/things'))).toBe('/v1/things/:id');
    expect(routePattern(request({ path: '/' }))).toBe('/');
  });

  it('is "unmatched" without a route, for a non-string path, and for the catch-all routes middleware runs on', () => {
    expect(routePattern(request(undefined))).toBe('unmatched');
    expect(routePattern(request({ path: /^\/x/ }))).toBe('unmatched');
    expect(routePattern(request({ path: '{/*splat}' }))).toBe('unmatched');
    expect(routePattern(request({ path: '{/*splat}' }, '/v1/kb/icps'))).toBe('unmatched');
  });
});
