import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AppError } from '../../shared/application/app-error';
import { ErrorCode } from '../../shared/domain/errors';
import { WithoutSession } from '../../shared/interface/http/auth.guard';
import { AppRequest } from '../../shared/interface/http/request-context';
import { clearedSessionCookie, sessionCookie } from './console-session-cookie';
import { ConsoleUsersService, sessionView } from './console-users.service';
import { RateLimitCounter } from '../../shared/interface/http/rate-limit';
import { SIGN_IN_THROTTLER, signInTrackers } from './sign-in-limit';

/** `email` and `password` of a sign-in, checked like the API checks a body: the first fault, named. */
function credentials(body: unknown): { email: string; password: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AppError.validation('body', 'The request body must be a JSON object.');
  }
  const fields = body as Record<string, unknown>;
  for (const name of ['email', 'password']) {
    const value = fields[name];
    if (value === undefined || value === null) throw AppError.validation(name, `${name} is required.`);
    if (typeof value !== 'string') throw AppError.validation(name, `${name} must be a string.`);
    if (value.trim() === '') throw AppError.validation(name, `${name} must not be empty.`);
    if (value.length > 1_000) throw AppError.validation(name, `${name} must be at most 1000 characters.`);
  }
  return { email: fields.email as string, password: fields.password as string };
}

/** Signing in and out of the console (docs/console.md). */
@Controller('console/api/session')
export class ConsoleSessionController {
  constructor(
    private readonly users: ConsoleUsersService,
    private readonly failures: RateLimitCounter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Always a new session, whatever cookie came with the request (no fixation). */
  @Post()
  @HttpCode(200)
  @WithoutSession()
  async signIn(@Req() req: AppRequest, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    const { email, password } = credentials(body);
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    // Failed sign-ins per email and per address: the CONSOLE_SIGNIN_LIMIT-th within the window
    // is 429 and blocks both for a window, the right password included.
    const trackers = signInTrackers(email, address);
    await this.failures.assertNotBlocked(trackers, SIGN_IN_THROTTLER);
    const signedIn = await this.users.signIn(email, password);
    if (!signedIn) {
      const { signInLimit, signInWindowSeconds } = this.config.console;
      await this.failures.countFailure(trackers, SIGN_IN_THROTTLER, signInLimit, signInWindowSeconds);
      throw new AppError(ErrorCode.authentication, 'Wrong email or password.');
    }
    const maxAgeSeconds = this.config.console.sessionMaxHours * 3_600;
    res.setHeader('Set-Cookie', sessionCookie(signedIn.token, { secure: req.secure, maxAgeSeconds }));
    res.setHeader('Cache-Control', 'no-store');
    return sessionView(signedIn.session);
  }

  @Get()
  current(@Req() req: AppRequest, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Cache-Control', 'no-store');
    return sessionView(this.sessionOf(req));
  }

  @Delete()
  @HttpCode(204)
  async signOut(@Req() req: AppRequest, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.users.signOut(this.sessionOf(req));
    res.setHeader('Set-Cookie', clearedSessionCookie({ secure: req.secure }));
  }

  private sessionOf(req: AppRequest) {
    const session = req.state?.console;
    if (!session) throw AppError.noConsoleSession();
    return session;
  }
}
