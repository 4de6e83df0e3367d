import express, { NextFunction, Request, Response, Router } from 'express';
import { join, resolve } from 'node:path';

/**
 * The console pages' Content-Security-Policy: everything from this origin only — no external
 * scripts, styles, fonts or CDNs, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where `npm run build` puts the UI (vite build), next to the compiled server. */
export const DEFAULT_UI_DIRECTORY = resolve(__dirname, '..', '..', 'console-ui');

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console</title></head>
<body><h1>Console</h1><p>The console UI is not built. Run <code>npm run build</code> to build it into <code>dist/console-ui/</code>.
The console API answers under <code>/console/api</code>.</p></body></html>
`;

const YEAR_SECONDS = 31_536_000;

/**
 * Serves the console's single-page UI at `/console` (mount it there) with Express's own static
 * file server: assets under `/console/assets/` cached for a year (their names carry a content
 * hash), every other path that is not a file and not `/console/api/…` answered with `index.html`
 * (no-cache), so the UI's client-side routes load. Without a built UI, a short page says so.
 */
export function consoleUi(directory: string = DEFAULT_UI_DIRECTORY): Router {
  const router = Router();
  const index = join(directory, 'index.html');
  router.use((req: Request, res: Response, next: NextFunction) => {
    // The API's routes are Nest's, behind its own middleware.
    if (req.path === '/api' || req.path.startsWith('/api/')) return next('router');
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  router.use(
    '/assets',
    express.static(join(directory, 'assets'), { immutable: true, maxAge: YEAR_SECONDS * 1000, index: false, redirect: false }),
  );
  // A missing asset is missing, not a page.
  router.use('/assets', (_req: Request, res: Response) => void res.status(404).type('text').send('Not found'));
  router.use(
    express.static(directory, {
      index: false,
      // A directory is not a page: no redirect to its slash form; the UI's index answers it below.
      redirect: false,
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next('router');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index, (error: NodeJS.ErrnoException | undefined) => {
      if (!error) return;
      // Not built (yet): said in a page, found out by the read itself rather than a check first.
      if (error.code === 'ENOENT' && !res.headersSent) return void res.status(200).type('html').send(NOT_BUILT);
      next(error);
    });
  });
  return router;
}
