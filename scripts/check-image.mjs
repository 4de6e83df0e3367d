#!/usr/bin/env node
/**
 * The image, built and started without a container engine: each stage of the Dockerfile in a
 * directory of its own (`COPY` from the build context, minus `.dockerignore`, or from an earlier
 * stage; `RUN` in the stage's `WORKDIR` with its `ENV`), on the Node major version of its `FROM`
 * image; then, in the last stage's directory, each command the Compose file runs from the image
 * (and the image's own `CMD`) against a database of its own: the API until `/health/ready`
 * answers, the worker until it says it runs, a one-shot command until it exits; each must exit 0
 * on SIGTERM (or by itself).
 *
 * What it cannot check is the base image itself (its Node build, its `node` user), so where a
 * Docker engine answers, `.ci/run` builds the real image as well.
 *
 *   node scripts/check-image.mjs        (from the repository; PostgreSQL and Redis as for the tests)
 *   DATABASE_ADMIN_URL [postgres://postgres@127.0.0.1:5432/postgres]   REDIS_URL [redis://127.0.0.1:6379]
 *   CHECK_IMAGE_KEEP=1 keeps the stages' directories
 */
import { execSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { Client } = createRequire(join(ROOT, 'package.json'))('pg');
const ADMIN_URL = process.env.DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const started = Date.now();
const log = (message) => process.stderr.write(`[image] ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}\n`);

/** The Dockerfile's instructions, continuation lines joined, comments and parser directives dropped. */
export function parseDockerfile(text) {
  const instructions = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = pending + line;
    pending = '';
    const [, instruction, args] = /^(\S+)\s*(.*)$/.exec(whole);
    instructions.push({ instruction: instruction.toUpperCase(), args });
  }
  return instructions;
}

/** `.dockerignore`'s patterns; only plain paths, which is all this repository uses. */
function dockerignore() {
  const file = join(ROOT, '.dockerignore');
  if (!existsSync(file)) return [];
  const patterns = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const pattern of patterns) {
    if (/[*?[\]!]/.test(pattern)) throw new Error(`.dockerignore: the pattern ${pattern} needs a real Docker build`);
  }
  return patterns.map((pattern) => pattern.replace(/^\/+|\/+$/g, ''));
}

/** The Compose file's commands for the services built from this image, by service name. */
export function composeCommands(text) {
  const services = {};
  let current = null;
  let inServices = false;
  for (const line of text.split('\n')) {
    if (/^services:\s*$/.test(line)) inServices = true;
    else if (/^\S/.test(line)) inServices = false;
    const service = inServices ? /^ {2}([\w-]+):\s*$/.exec(line) : null;
    if (service) current = services[service[1]] = { build: false, command: null };
    else if (current && /^ {4}build:\s*\.\s*$/.test(line)) current.build = true;
    else if (current && /^ {4}command:/.test(line)) {
      const list = /^ {4}command:\s*(\[.*\])\s*$/.exec(line);
      if (!list) throw new Error(`docker-compose.yml: a command this check cannot read: ${line.trim()}`);
      current.command = JSON.parse(list[1].replaceAll("'", '"'));
    }
  }
  return Object.fromEntries(
    Object.entries(services)
      .filter(([, s]) => s.build && s.command)
      .map(([name, s]) => [name, s.command]),
  );
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The environment of a `RUN`: this machine's (its PATH, HOME and npm settings), without what the
 * base image would not set — NODE_ENV would make `npm ci` skip the build's dev dependencies.
 */
function buildEnvironment() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('npm_')));
}

/** Builds every stage into `stages`; returns the last one. */
function build(instructions, stages) {
  const ignored = dockerignore();
  const isIgnored = (path) => {
    const rel = relative(ROOT, path);
    return ignored.some((pattern) => rel === pattern || rel.startsWith(`${pattern}/`));
  };
  let stage = null;
  const inStage = (s, path) => join(s.root, isAbsolute(path) ? path : join(s.workdir, path));
  for (const { instruction, args } of instructions) {
    if (instruction === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      const major = /^node:(\d+)[-.]/.exec(image)?.[1];
      if (!major) throw new Error(`FROM ${image}: this check knows only node:<major>-… images`);
      if (process.versions.node.split('.')[0] !== major) {
        throw new Error(`FROM ${image} needs Node ${major}; this is Node ${process.versions.node}`);
      }
      stage = {
        name: as?.toUpperCase() === 'AS' ? name : String(stages.length),
        root: mkdtempSync(join(tmpdir(), 'image-stage-')),
        workdir: '/',
        env: {},
        cmd: null,
      };
      stages.push(stage);
      log(`stage ${stage.name}: ${image} (Node ${process.versions.node}) in ${stage.root}`);
      continue;
    }
    if (!stage) throw new Error(`${instruction} before FROM`);
    switch (instruction) {
      case 'WORKDIR':
        stage.workdir = isAbsolute(args) ? args : join(stage.workdir, args);
        mkdirSync(join(stage.root, stage.workdir), { recursive: true });
        break;
      case 'ENV': {
        const pairs = args.includes('=')
          ? [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, '')])
          : [args.split(/\s+(.*)/s).slice(0, 2)];
        for (const [key, value] of pairs) stage.env[key] = value;
        break;
      }
      case 'COPY': {
        const parts = args.split(/\s+/);
        const fromName = parts[0].startsWith('--from=') ? parts.shift().slice('--from='.length) : null;
        const from = fromName === null ? null : stages.find((s) => s.name === fromName);
        if (from === undefined) throw new Error(`COPY ${args}: no stage ${fromName}`);
        if (parts.some((p) => p.startsWith('--'))) throw new Error(`COPY ${args}: options other than --from need a real Docker build`);
        const dest = parts.pop();
        const destPath = inStage(stage, dest);
        const intoDirectory = parts.length > 1 || dest.endsWith('/');
        for (const source of parts) {
          const sourcePath = from ? inStage(from, source) : join(ROOT, source);
          if (!existsSync(sourcePath)) throw new Error(`COPY ${args}: ${source} does not exist`);
          if (!from && isIgnored(sourcePath)) throw new Error(`COPY ${args}: ${source} is in .dockerignore`);
          // A directory's contents go into the destination; a file into it when it is a directory.
          const target = statSync(sourcePath).isDirectory() || !intoDirectory ? destPath : join(destPath, basename(sourcePath));
          cpSync(sourcePath, target, { recursive: true, verbatimSymlinks: true, filter: from ? undefined : (path) => !isIgnored(path) });
        }
        break;
      }
      case 'RUN':
        log(`RUN ${args}`);
        execSync(args, {
          cwd: join(stage.root, stage.workdir),
          env: { ...buildEnvironment(), ...stage.env },
          stdio: ['ignore', 2, 2],
          shell: '/bin/sh',
        });
        break;
      case 'CMD':
        stage.cmd = JSON.parse(args);
        break;
      case 'USER':
      case 'EXPOSE':
      case 'LABEL':
        break;
      default:
        throw new Error(`${instruction}: this check does not know it; build the image with Docker`);
    }
  }
  if (!stage) throw new Error('the Dockerfile has no FROM');
  return stage;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
/** Resolves null after `ms` without keeping the process alive, for a race the other side usually wins. */
const timeout = (ms) => new Promise((done) => setTimeout(() => done(null), ms).unref());

/** What tells that a long-running command is up; a command with neither runs once and exits. */
function readiness(args) {
  if (args.includes('dist/main.js')) return 'http';
  if (args.includes('dist/worker.js')) return 'worker';
  return 'once';
}

/**
 * Runs one of the image's commands in the last stage's WORKDIR: a server until it is ready, then
 * SIGTERM; a one-shot command until it exits. Either must end with code 0.
 */
async function runCommand(name, command, stage, env) {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`${name}: ${program} — only node commands are checked`);
  const child = spawn(process.execPath, args, { cwd: join(stage.root, stage.workdir), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exit = null;
  const exited = new Promise((done) => child.once('exit', (code, signal) => done((exit = { code, signal }))));
  const fail = (why) => {
    child.kill('SIGKILL');
    throw new Error(`${name} (${command.join(' ')}): ${why}\n${output.slice(-4000)}`);
  };
  const kind = readiness(args);
  const deadline = Date.now() + 120_000;
  if (kind !== 'once') {
    for (;;) {
      if (exit) fail(`exited before it was ready (${JSON.stringify(exit)})`);
      if (kind === 'worker' && /Workers running/.test(output)) break;
      if (kind === 'http') {
        const ready = await fetch(`http://127.0.0.1:${env.PORT}/health/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
      }
      if (Date.now() > deadline) fail('not ready within 120 s');
      await sleep(250);
    }
    child.kill('SIGTERM');
  }
  const ended = await Promise.race([exited, timeout(kind === 'once' ? Math.max(0, deadline - Date.now()) : 30_000)]);
  if (!ended) fail(kind === 'once' ? 'did not exit within 120 s' : 'did not stop within 30 s of SIGTERM');
  if (ended.code !== 0) fail(`exited with ${JSON.stringify(ended)}`);
  log(`${name}: ${command.join(' ')} — ${kind === 'once' ? 'ran' : 'ready, then stopped'}, exit 0`);
}

async function main() {
  const stages = [];
  try {
    const last = build(parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')), stages);
    if (!last.cmd) throw new Error('the Dockerfile has no CMD');
    const commands = Object.entries(composeCommands(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')));
    if (!commands.some(([, command]) => JSON.stringify(command) === JSON.stringify(last.cmd))) commands.push(['CMD', last.cmd]);
    await runAll(commands, last);
    log(`the image builds on Node ${process.versions.node}, and ${commands.map(([name]) => name).join(', ')} run from it`);
  } finally {
    if (process.env.CHECK_IMAGE_KEEP !== '1') for (const stage of stages) rmSync(stage.root, { recursive: true, force: true });
  }
}

/** The commands in turn, against a database and a Redis key prefix of their own, removed after. */
async function runAll(commands, stage) {
  const suffix = randomBytes(4).toString('hex');
  const database = `bi_image_check_${suffix}`;
  const prefix = `image-check-${suffix}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  try {
    for (const [name, command] of commands) {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...stage.env,
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL,
        CURSOR_SECRET: `${prefix}-cursor-secret`,
        SECRETS_KEY: `${prefix}-secrets-key-of-32-characters-or-more`,
        QUEUE_PREFIX: prefix,
        PORT: String(await freePort()),
        RUN_WORKERS: 'false',
      };
      await runCommand(name, command, stage, env);
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await clearRedisPrefix(prefix);
  }
}

async function clearRedisPrefix(prefix) {
  const Redis = createRequire(join(ROOT, 'package.json'))('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main().catch((error) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
