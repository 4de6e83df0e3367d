import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../shared/interface/http/auth.guard';
import { MetricsService } from './metrics.service';

/** Prometheus scrape endpoint, without a key like the health probes; it carries no secrets. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Public()
  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.metrics();
    res.status(200).setHeader('Content-Type', this.metrics.contentType);
    // A Buffer, because Express rewrites the Content-Type of a string body (charset first).
    res.send(Buffer.from(body, 'utf8'));
  }
}
