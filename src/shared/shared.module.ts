import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { systemClock } from './domain/clock';
import { ids } from './domain/ids';
import { CursorCodec } from './infrastructure/cursor-codec';
import { IdempotencyPruner } from './infrastructure/idempotency-pruner';
import { IdempotencyRepository } from './infrastructure/idempotency.repository';

export const CLOCK = Symbol('CLOCK');
export const ID_GENERATOR = Symbol('ID_GENERATOR');

/**
 * The shared kernel's providers, available everywhere: clock, id generator, cursor codec, and the
 * `Idempotency-Key` records the write routes' interceptor keeps (ADR 0045).
 */
@Global()
@Module({
  providers: [
    { provide: CLOCK, useValue: systemClock },
    { provide: ID_GENERATOR, useValue: ids },
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
    IdempotencyRepository,
  ],
  exports: [CLOCK, ID_GENERATOR, CursorCodec, IdempotencyRepository],
})
export class SharedModule {}

/** Retention of `Idempotency-Key` records, run by the processes that run workers (like events retention). */
@Module({
  providers: [IdempotencyPruner],
  exports: [IdempotencyPruner],
})
export class IdempotencyRetentionModule {}
