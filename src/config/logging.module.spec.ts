import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AppLogger } from './logging.module';

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
