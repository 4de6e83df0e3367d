import {
  BadRequestException,
  CallHandler,
  Controller,
  ExecutionContext,
  Get,
  INestApplication,
  Injectable,
  NestInterceptor,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { map, Observable, of } from 'rxjs';
import request from 'supertest';
import { installPassThroughInterceptors, PassThroughInterceptor } from './pass-through-interceptor';

interface SeenRequest {
  query: Record<string, string>;
  seen?: string[];
}

/** Whose `intercept` Nest called. */
const intercepted: string[] = [];
/** What ran, in order: each interceptor's `before`, then the handler. */
const ran: string[] = [];

/** Records what it is given and how it was run; refuses `?refuse=<its name>`. */
abstract class Recording extends PassThroughInterceptor {
  abstract readonly name: string;

  before(context: ExecutionContext): void {
    ran.push(this.name);
    const req = context.switchToHttp().getRequest<SeenRequest>();
    (req.seen ??= []).push(`${this.name}:${context.getType()}:${context.getClass().name}.${context.getHandler().name}`);
    if (req.query.refuse === this.name) throw new BadRequestException(`refused by ${this.name}`);
  }

  override intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    intercepted.push(this.name);
    return super.intercept(context, next);
  }
}

@Injectable()
class First extends Recording {
  readonly name = 'first';
}

@Injectable()
class Second extends Recording {
  readonly name = 'second';
}

/** An ordinary interceptor: it changes the result, so a route with it cannot skip Nest's chain. */
@Injectable()
class Wrapping implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((body) => ({ wrapped: body })));
  }
}

@Controller('probe')
@UseInterceptors(First, Second)
class ProbeController {
  @Get('value')
  value(@Req() req: SeenRequest) {
    ran.push('handler');
    return { seen: req.seen };
  }

  @Get('promise')
  async promise(@Req() req: SeenRequest) {
    await new Promise((resolve) => setImmediate(resolve));
    return { seen: req.seen };
  }

  @Get('observable')
  observable(@Req() req: SeenRequest) {
    return of({ seen: req.seen });
  }

  @Get('failing')
  async failing(): Promise<never> {
    throw new BadRequestException('refused by the handler');
  }

  @Get('wrapped')
  @UseInterceptors(Wrapping)
  wrapped(@Req() req: SeenRequest) {
    return { seen: req.seen };
  }
}

describe('pass-through interceptors', () => {
  let app: INestApplication;

  beforeAll(async () => {
    installPassThroughInterceptors();
    const moduleRef = await Test.createTestingModule({ controllers: [ProbeController], providers: [First, Second, Wrapping] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  beforeEach(() => {
    intercepted.length = 0;
    ran.length = 0;
  });

  it.each(['value', 'promise', 'observable'])(
    'runs each `before` in order with the context Nest gives interceptors, then answers with the handler’s %s, without the Observable chain',
    async (route) => {
      const response = await request(app.getHttpServer()).get(`/probe/${route}`).expect(200);
      expect(response.body).toEqual({ seen: [`first:http:ProbeController.${route}`, `second:http:ProbeController.${route}`] });
      expect(intercepted).toEqual([]);
    },
  );

  it('answers with the error a `before` throws, and neither a later interceptor nor the handler runs', async () => {
    const response = await request(app.getHttpServer()).get('/probe/value?refuse=first').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, message: 'refused by first' });
    expect(ran).toEqual(['first']);
    await request(app.getHttpServer()).get('/probe/value?refuse=second').expect(400);
    expect(ran).toEqual(['first', 'first', 'second']);
    await request(app.getHttpServer()).get('/probe/value').expect(200);
    expect(ran).toEqual(['first', 'first', 'second', 'first', 'second', 'handler']);
  });

  it('answers with the error the handler throws', async () => {
    const response = await request(app.getHttpServer()).get('/probe/failing').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, message: 'refused by the handler' });
  });

  it('leaves a route with any other interceptor to Nest, which runs them all', async () => {
    const response = await request(app.getHttpServer()).get('/probe/wrapped').expect(200);
    expect(response.body).toEqual({ wrapped: { seen: ['first:http:ProbeController.wrapped', 'second:http:ProbeController.wrapped'] } });
    expect(intercepted).toEqual(['first', 'second']);
  });

  it('answers with the error a `before` throws on Nest’s way too', async () => {
    const response = await request(app.getHttpServer()).get('/probe/wrapped?refuse=second').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, message: 'refused by second' });
    expect(intercepted).toEqual(['first', 'second']);
  });

  it('installs once per process', () => {
    expect(installPassThroughInterceptors()).toBe(false);
  });
});
