import { Injectable, NestMiddleware } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { middlewareSequence } from './middleware-sequence';

const calls: string[] = [];

@Injectable()
class Recorder {
  record(name: string): void {
    calls.push(name);
  }
}

@Injectable()
class First implements NestMiddleware {
  constructor(private readonly recorder: Recorder) {}
  use(_req: unknown, _res: unknown, next: () => void): void {
    this.recorder.record('first');
    next();
    this.recorder.record('first after next');
  }
}

@Injectable()
class Second implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: () => void): void {
    calls.push('second');
    next();
  }
}

@Injectable()
class Failing implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: (error?: unknown) => void): void {
    next(new Error('refused by Failing'));
  }
}

@Injectable()
class Answering implements NestMiddleware {
  use(): void {
    calls.push('answering');
  }
}

/** Async and last, as the request pipeline is: its promise must be the sequence's. */
@Injectable()
class AsyncLast implements NestMiddleware {
  async use(req: { fail?: boolean }, _res: unknown, next: () => void): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (req.fail) throw new Error('rejected by AsyncLast');
    calls.push('async last');
    next();
  }
}

/** Async but not last: fails after calling next. */
@Injectable()
class AsyncFailingAfterNext implements NestMiddleware {
  async use(_req: unknown, _res: unknown, next: () => void): Promise<void> {
    next();
    await Promise.resolve();
    throw new Error('rejected by AsyncFailingAfterNext');
  }
}

async function sequenceOf(...types: Parameters<typeof middlewareSequence>) {
  const Sequence = middlewareSequence(...types);
  const module = await Test.createTestingModule({ providers: [Recorder, First, Second, Failing, Answering, AsyncLast, AsyncFailingAfterNext, Sequence] }).compile();
  return module.get<NestMiddleware>(Sequence);
}

describe('middlewareSequence', () => {
  beforeEach(() => (calls.length = 0));

  it('runs its middleware in order, with their own dependencies injected, and then the route', async () => {
    const sequence = await sequenceOf(First, Second, AsyncLast);
    const next = jest.fn(() => calls.push('route'));
    await sequence.use({}, {}, next);
    // First's next returns once AsyncLast has returned its promise, before it settles.
    expect(calls).toEqual(['first', 'second', 'first after next', 'async last', 'route']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });

  it("returns the last middleware's promise, so its rejection reaches the caller", async () => {
    const sequence = await sequenceOf(First, AsyncLast);
    const next = jest.fn();
    await expect(sequence.use({ fail: true }, {}, next)).rejects.toThrow('rejected by AsyncLast');
    expect(next).not.toHaveBeenCalled();
  });

  it("returns an earlier async middleware's rejection too, the rest having been started", async () => {
    const sequence = await sequenceOf(AsyncFailingAfterNext, AsyncLast);
    const next = jest.fn();
    await expect(sequence.use({}, {}, next)).rejects.toThrow('rejected by AsyncFailingAfterNext');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['async last']);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('passes an error given to next on to the route, skipping the rest', async () => {
    const sequence = await sequenceOf(First, Failing, Second);
    const next = jest.fn();
    await sequence.use({}, {}, next);
    expect(next).toHaveBeenCalledWith(expect.objectContaining({ message: 'refused by Failing' }));
    expect(calls).toEqual(['first', 'first after next']);
  });

  it('stops where a middleware ends the request without calling next', async () => {
    const sequence = await sequenceOf(Answering, Second);
    const next = jest.fn();
    await sequence.use({}, {}, next);
    expect(calls).toEqual(['answering']);
    expect(next).not.toHaveBeenCalled();
  });

  it('is named after its middleware and refuses to be empty', () => {
    expect(middlewareSequence(First, Second).name).toBe('Sequence(First, Second)');
    expect(() => middlewareSequence()).toThrow('at least one');
  });
});
