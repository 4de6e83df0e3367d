import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console's single-page app: served by the service at /console, built into dist/console-ui.
// `npx vite --config console/vite.config.ts` serves it with /console/api proxied to a service on
// :3000 (CONSOLE_API_TARGET to point elsewhere).
const here = decodeURIComponent(new URL('.', import.meta.url).pathname);
const apiTarget = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.CONSOLE_API_TARGET;

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: `${here}../dist/console-ui`,
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/console/api': { target: apiTarget ?? 'http://localhost:3000', changeOrigin: false } },
  },
});
