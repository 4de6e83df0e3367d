import { DynamicModule, Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { formatId, ID_PREFIXES } from '../shared/domain/ids';
import { AppRequest } from '../shared/interface/http/request-context';
import { newRequestId } from '../shared/interface/http/request-id';
import { APP_CONFIG, AppConfig } from './config';

const SECRET_IN_URL = /((?:api_?key|key|access_token|token)=)[^&#]*|svc_live_[0-9A-Za-z]*/gi;

/** A URL fit for logs: credential parameters and anything key-shaped replaced by `[redacted]`. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(SECRET_IN_URL, (match, name?: string) => (name ? `${name}[redacted]` : '[redacted]'));
}

/**
 * Structured JSON request logs: one line per request with its request id and workspace id;
 * `Authorization` and cookies are redacted and so are credentials in URLs.
 */
@Module({})
export class LoggingModule {
  static forRoot(destination?: NodeJS.WritableStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            const options = {
              level: config.logLevel,
              genReqId: (_req: IncomingMessage, res: ServerResponse) => {
                const id = newRequestId();
                res.setHeader('X-Request-Id', id);
                return id;
              },
              customProps: (req: IncomingMessage) => {
                const auth = (req as AppRequest).state?.auth;
                return auth ? { workspace_id: formatId(ID_PREFIXES.workspace, auth.workspaceId) } : {};
              },
              redact: {
                paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
                censor: '[redacted]',
              },
              serializers: {
                req: (req: { id: string; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
                  id: req.id,
                  method: req.method,
                  url: redactUrl(req.url),
                  headers: req.headers,
                  remoteAddress: req.remoteAddress,
                }),
              },
              // Probes and metric scrapes would drown the requests that matter.
              autoLogging: { ignore: (req: IncomingMessage) => /^\/(health\/|metrics(?:[/?]|$))/.test(req.url ?? '') },
            };
            if (destination) return { pinoHttp: [options, destination] };
            // People reading a terminal get readable lines; pipes and files get JSON.
            const pretty = process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {};
            return { pinoHttp: { ...options, ...pretty } };
          },
        }),
      ],
    };
  }
}
