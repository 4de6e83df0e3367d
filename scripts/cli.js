#!/usr/bin/env node
// `npm run cli -- …`: runs dist/cli.js, building first only when a source file or the build
// settings are newer than the last build (a build takes seconds; most commands take less).
'use strict';
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const builtAt = (() => {
  try {
    return statSync(join(root, 'dist', '.tsbuildinfo')).mtimeMs;
  } catch {
    return 0;
  }
})();

function newerThanBuild(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs > builtAt;
  return readdirSync(path).some((name) => newerThanBuild(join(path, name)));
}

const stale = [join(root, 'src'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), join(root, 'package-lock.json')].some(
  newerThanBuild,
);
if (stale) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // An incremental build that found nothing to emit leaves its record as it was: mark it current.
  const now = new Date();
  utimesSync(join(root, 'dist', '.tsbuildinfo'), now, now);
}
const cli = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(cli.status ?? 1);
