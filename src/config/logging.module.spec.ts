import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { formatId, ID_PREFIXES } from '../shared/domain/ids';
import type { AppRequest } from '../shared/interface/http/request-context';
import type { AppConfig } from './config';
import { AppLogger, createHttpLogger, loggedHeaders } from './logging.module';

/** Lines an AppLogger writes, parsed. */
function capture(level = 'trace') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  const logger = new AppLogger(pino({ level }, stream));
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { logger, lines, flush };
}

describe('AppLogger (Nest LoggerService on pino)', () => {
  it('maps Nest levels to pino levels and keeps the context', async () => {
    const { logger, lines, flush } = capture();
    logger.log('started', 'Main');
    logger.warn('slow', 'Sweeper');
    logger.debug('detail', 'X');
    logger.verbose('chatter', 'X');
    logger.fatal('gone', 'X');
    await flush();
    expect(lines.map((line) => [line.level, line.msg, line.context])).toEqual([
      [30, 'started', 'Main'],
      [40, 'slow', 'Sweeper'],
      [20, 'detail', 'X'],
      [10, 'chatter', 'X'],
      [60, 'gone', 'X'],
    ]);
  });

  it('puts the stack of error(message, stack, context) on the line', async () => {
    const { logger, lines, flush } = capture();
    logger.error('boom', 'Error: boom\n    at here', 'Filter');
    await flush();
    expect(lines[0]).toMatchObject({ level: 50, msg: 'boom', stack: 'Error: boom\n    at here', context: 'Filter' });
  });

  it('spreads an object message into the line and serialises an Error', async () => {
    const { logger, lines, flush } = capture();
    logger.error({ requestId: 'req_1', err: new Error('db down') }, 'the stack', 'ApiExceptionFilter');
    logger.warn(new Error('plain'), 'Ctx');
    await flush();
    expect(lines[0]).toMatchObject({ requestId: 'req_1', msg: 'the stack', context: 'ApiExceptionFilter' });
    expect((lines[0].err as { message: string }).message).toBe('db down');
    expect(lines[1]).toMatchObject({ level: 40, msg: 'plain', context: 'Ctx' });
    expect((lines[1].err as { stack: string }).stack).toContain('Error: plain');
  });

  it('writes nothing below its level', async () => {
    const { logger, lines, flush } = capture('warn');
    logger.log('quiet', 'X');
    logger.debug('quiet', 'X');
    logger.error('loud', 'X');
    await flush();
    expect(lines.map((line) => line.msg)).toEqual(['loud']);
  });
});

describe('loggedHeaders', () => {
  it('replaces credentials and cookies and keeps the rest as sent', () => {
    const headers = { host: 'api', authorization: 'Bearer svc_live_x', cookie: 'a=b', 'x-api-key': 'svc_live_y', 'x-forwarded-for': ['a', 'b'] };
    expect(loggedHeaders(headers)).toEqual({ host: 'api', authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]', 'x-forwarded-for': ['a', 'b'] });
    expect(headers.authorization).toBe('Bearer svc_live_x');
  });
});

describe('createHttpLogger', () => {
  /**
   * One request through the request logger into `handle` (or given up by the client 50 ms after
   * sending it, with `abandon`); the lines the logger wrote, parsed.
   */
  async function logRequest(
    handle: (req: IncomingMessage, res: ServerResponse) => void,
    path: string,
    headers: Record<string, string>,
    { logLevel = 'info', abandon = false, raw = [] as string[], finished = [] as Array<{ status: number; seconds: number }> } = {},
  ): Promise<Array<Record<string, any>>> {
    const lines: Array<Record<string, any>> = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8').split('\n').filter(Boolean);
      raw.push(...text);
      lines.push(...text.map((line) => JSON.parse(line)));
    });
    const logger = createHttpLogger({ logLevel } as AppConfig, stream);
    logger.onFinished((_req, res, seconds) => finished.push({ status: res.statusCode, seconds }));
    const server = createServer((req, res) => logger(req, res, () => handle(req, res)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const abort = new AbortController();
      const response = fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: abort.signal });
      if (abandon) {
        // The client gives up before the handler answers.
        setTimeout(() => abort.abort(), 50);
        await expect(response).rejects.toThrow();
      } else {
        const answer = await response;
        await answer.text();
        expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{24}$/);
      }
      for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return lines;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  const authenticated = (status: number) => (req: IncomingMessage, res: ServerResponse) => {
    (req as AppRequest).state = { requestId: 'req_x', auth: { keyId: '7', workspaceId: '42', scope: 'write' } };
    res.statusCode = status;
    res.setHeader('Set-Cookie', 'session=secret');
    res.end('{}');
  };

  it('writes one line: request id, method, URL and headers without credentials, status, workspace id', async () => {
    const lines = await logRequest(authenticated(200), '/v1/kb/icps?limit=5&api_key=svc_live_abc', {
      authorization: 'Bearer svc_live_secret',
      cookie: 'a=b',
      'x-api-key': 'svc_live_other',
    });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      workspace_id: formatId(ID_PREFIXES.workspace, '42'),
      req: { method: 'GET', url: '/v1/kb/icps?limit=5&api_key=[redacted]' },
      res: { statusCode: 200 },
    });
    expect(line.req.id).toMatch(/^req_[0-9a-z]{24}$/);
    expect(line.req.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]' });
    expect(line.res).toEqual({ statusCode: 200 });
    expect(typeof line.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toMatch(/svc_live_|secret/);
  });

  it('writes the line of a completed request byte for byte as pino would write it', async () => {
    const raw: string[] = [];
    const [line] = await logRequest(authenticated(200), '/v1/kb/icps?limit=5', { authorization: 'Bearer svc_live_secret', 'x-note': '"quoted" \\ é' }, { raw });
    const { level, time, pid, hostname, msg, ...fields } = line;
    const written: string[] = [];
    const reference = pino({ level: 'info' }, { write: (text: string) => void written.push(text) });
    reference.info(fields, msg);
    expect(raw).toHaveLength(1);
    expect(`${raw[0]}\n`).toBe(written[0].replace(/"time":\d+/, `"time":${time}`));
    expect({ level, pid, hostname, msg }).toEqual({ level: 30, pid: process.pid, hostname: expect.any(String), msg: 'request completed' });
    expect(line.req.headers['x-note']).toBe('"quoted" \\ é');
  });

  it('reports each request sent in full to its onFinished listeners, probes included, and not an abandoned one', async () => {
    const finished: Array<{ status: number; seconds: number }> = [];
    await logRequest(authenticated(201), '/v1/kb/icps', { authorization: 'Bearer svc_live_secret' }, { finished });
    await logRequest((_req, res) => res.end('{}'), '/health/live', {}, { finished });
    await logRequest(() => undefined, '/v1/buyers', {}, { abandon: true, finished });
    expect(finished.map(({ status }) => status)).toEqual([201, 200]);
    for (const { seconds } of finished) expect(seconds).toBeGreaterThanOrEqual(0);
    for (const { seconds } of finished) expect(seconds).toBeLessThan(5);
  });

  it('writes a failed request with its error, and its workspace id', async () => {
    const lines = await logRequest(authenticated(503), '/v1/buyers', { authorization: 'Bearer svc_live_secret' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request errored', workspace_id: formatId(ID_PREFIXES.workspace, '42'), res: { statusCode: 503 } });
    expect(lines[0].err.message).toBe('failed with status code 503');
  });

  it('names no workspace for a request without a key', async () => {
    const lines = await logRequest((_req, res) => res.writeHead(401).end(), '/v1/buyers', {});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ res: { statusCode: 401 } });
    expect(lines[0]).not.toHaveProperty('workspace_id');
  });

  it('leaves probes out', async () => {
    const lines = await logRequest((_req, res) => res.end('{}'), '/health/live', {});
    expect(lines).toEqual([]);
  });

  it('writes nothing below its level, and still gives each request its id', async () => {
    const lines = await logRequest(authenticated(200), '/v1/buyers', { authorization: 'Bearer svc_live_secret' }, { logLevel: 'warn' });
    expect(lines).toEqual([]);
  });

  it('writes a request the client abandoned as aborted', async () => {
    const lines = await logRequest(() => undefined, '/v1/buyers?limit=5', {}, { abandon: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request aborted', req: { method: 'GET', url: '/v1/buyers?limit=5' } });
    expect(lines[0].req.remoteAddress).toBe('127.0.0.1');
  });
});
