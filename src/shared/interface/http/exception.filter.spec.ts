import { ArgumentsHost, BadRequestException, Logger, NotFoundException } from '@nestjs/common';
import { AppError } from '../../application/app-error';
import { ApiExceptionFilter } from './exception.filter';

function run(exception: unknown) {
  const headers: Record<string, string> = {};
  const res = {
    headersSent: false,
    statusCode: 0,
    body: undefined as unknown,
    setHeader: (name: string, value: string) => (headers[name] = value),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
  };
  const req = { method: 'GET', path: '/v1/kb/icps', state: { requestId: 'req_abc123' } };
  const host = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return { status: res.statusCode, body: res.body as { error: Record<string, unknown> }, headers };
}

describe('ApiExceptionFilter', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('renders an AppError as the envelope with its param and the request id', () => {
    const out = run(AppError.validation('short_name', 'short_name must not be empty.'));
    expect(out.status).toBe(400);
    expect(out.body).toEqual({
      error: { code: 'validation_error', message: 'short_name must not be empty.', request_id: 'req_abc123', param: 'short_name' },
    });
    expect(out.headers['X-Request-Id']).toBe('req_abc123');
  });

  it('hides everything about an unexpected error behind a 500 internal_error', () => {
    const secret = new Error('connect to 10.0.0.5 failed: password=hunter2 svc_live_abcdefabcdefabcdefabcdef');
    const out = run(secret);
    expect(out.status).toBe(500);
    expect(out.body.error.code).toBe('internal_error');
    expect(out.body.error).not.toHaveProperty('param');
    expect(JSON.stringify(out.body)).not.toMatch(/hunter2|svc_live_|10\.0\.0\.5|at .*\.ts/);
  });

  it('maps lost database or Redis connections to 503 service_unavailable with Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const out = run(refused);
    expect(out.status).toBe(503);
    expect(out.body.error.code).toBe('service_unavailable');
    expect(out.headers['Retry-After']).toMatch(/^\d+$/);
    const adminShutdown = { driverError: { code: '57P01' }, message: 'terminating connection' };
    expect(run(adminShutdown).status).toBe(503);
  });

  it.each([
    ['no answer within the query timeout', { driverError: new Error('Query read timeout') }],
    ['the same from the pool directly', new Error('Query read timeout')],
    ['no free connection within the connect timeout', new Error('timeout exceeded when trying to connect')],
    ['no new connection within the connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a connection ended after a timeout', { driverError: new Error('Client was closed and is not queryable') }],
    ['the statement timeout', { driverError: { code: '57014', message: 'canceling statement due to statement timeout' } }],
  ])('maps %s to 503 service_unavailable with Retry-After', (_, error) => {
    const out = run(error);
    expect(out.status).toBe(503);
    expect(out.body.error.code).toBe('service_unavailable');
    expect(out.headers['Retry-After']).toBe('5');
  });

  it.each([
    ['a deadlock', { driverError: { code: '40P01', message: 'deadlock detected' } }],
    ['a serialization failure', { code: '40001', message: 'could not serialize access' }],
  ])('maps %s to 503 service_unavailable with a short Retry-After', (_, error) => {
    const out = run(error);
    expect(out.status).toBe(503);
    expect(out.body.error.code).toBe('service_unavailable');
    expect(out.headers['Retry-After']).toBe('1');
  });

  it("maps the router's 404 to not_found and other framework errors to documented codes", () => {
    expect(run(new NotFoundException()).body.error.code).toBe('not_found');
    const bad = run(new BadRequestException());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', param: 'body' });
  });
});
