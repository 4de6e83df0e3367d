import { Controller, Get } from '@nestjs/common';
import { Public } from '../../shared/interface/http/auth.guard';

/** Liveness: the process serves HTTP. Needs no key and says nothing about the data. */
@Controller('health')
export class HealthController {
  @Public()
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
