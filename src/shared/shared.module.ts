import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { systemClock } from './domain/clock';
import { ids } from './domain/ids';
import { CursorCodec } from './infrastructure/cursor-codec';

export const CLOCK = Symbol('CLOCK');
export const ID_GENERATOR = Symbol('ID_GENERATOR');

/** The shared kernel's providers: clock, id generator and cursor codec, available everywhere. */
@Global()
@Module({
  providers: [
    { provide: CLOCK, useValue: systemClock },
    { provide: ID_GENERATOR, useValue: ids },
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
  ],
  exports: [CLOCK, ID_GENERATOR, CursorCodec],
})
export class SharedModule {}
