import { joinPaths, routePattern } from './route-methods';

describe('route paths', () => {
  it('join a controller path and a handler path as Nest does', () => {
    expect(joinPaths('v1/kb/icps', ':icp_id')).toBe('/v1/kb/icps/:icp_id');
    expect(joinPaths('/v1/buyers/', '')).toBe('/v1/buyers');
    expect(joinPaths('', '')).toBe('/');
  });

  it('match one segment per parameter, a trailing slash, and nothing else', () => {
    const pattern = routePattern('/v1/kb/icps/:icp_id');
    expect(pattern.test('/v1/kb/icps/icp_0000000000000000001')).toBe(true);
    expect(pattern.test('/v1/kb/icps/icp_1/')).toBe(true);
    expect(pattern.test('/v1/kb/icps')).toBe(false);
    expect(pattern.test('/v1/kb/icps/a/b')).toBe(false);
    expect(routePattern('/openapi.json').test('/openapiXjson')).toBe(false);
  });
});
