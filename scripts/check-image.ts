/**
 * The image, built and started without a container engine: each stage of the Dockerfile in a
 * directory of its own (`COPY` from the build context, minus `.dockerignore`, or from an earlier
 * stage; `RUN` in the stage's `WORKDIR` with its `ENV`), on the Node major version of its `FROM`
 * image; then, in the last stage's directory, each command the Compose file runs from the image
 * (and the image's own `CMD`) against a database of its own: the API until `/health/ready`
 * answers, the worker until it says it runs, a one-shot command until it exits; each must end
 * with code 0, the servers on SIGTERM.
 *
 * What it cannot check is the base image itself (its Node build, its `node` user), so where a
 * Docker engine answers, `.ci/run` builds the real image as well.
 *
 *   npm run check:image        (PostgreSQL and Redis as for the tests)
 *   DATABASE_ADMIN_URL [postgres://postgres@127.0.0.1:5432/postgres]   REDIS_URL [redis://127.0.0.1:6379]
 *   CHECK_IMAGE_KEEP=1 keeps the stages' directories
 */
import { execSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { killChildrenOnExit, startNode, stop, waitUntilServing } from '../bench/processes';
import { freePort } from '../test/support/ports';
import { waitFor } from '../test/support/wait';
import { clearRedisPrefix } from '../bench/redis';
import { dropDatabase, ensureDatabase } from '../src/database/bootstrap';

const ROOT = resolve(__dirname, '..');
const ADMIN_URL = process.env.DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** How long a command may take to be ready, or a one-shot command to finish. */
const READY_MS = 120_000;

const started = Date.now();
const log = (message: string) => process.stderr.write(`[image] ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}\n`);

interface Instruction {
  instruction: string;
  args: string;
}

interface Stage {
  name: string;
  /** The directory that stands for the stage's `/`. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  cmd: string[] | null;
}

/** The Dockerfile's instructions, continuation lines joined, comments and parser directives dropped. */
function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const [, instruction, args] = /^(\S+)\s*(.*)$/.exec(pending + line)!;
    pending = '';
    instructions.push({ instruction: instruction.toUpperCase(), args });
  }
  return instructions;
}

/** `.dockerignore`'s patterns; only plain paths, which is all this repository uses. */
function dockerignore(): string[] {
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
function composeCommands(text: string): Array<[string, string[]]> {
  const services: Array<{ name: string; build: boolean; command: string[] | null }> = [];
  let inServices = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inServices = /^services:\s*$/.test(line);
    const service = inServices ? /^ {2}([\w-]+):\s*$/.exec(line) : null;
    const current = services.at(-1);
    if (service) services.push({ name: service[1], build: false, command: null });
    else if (current && /^ {4}build:\s*\.\s*$/.test(line)) current.build = true;
    else if (current && /^ {4}command:/.test(line)) {
      const list = /^ {4}command:\s*(\[.*\])\s*$/.exec(line);
      if (!list) throw new Error(`docker-compose.yml: a command this check cannot read: ${line.trim()}`);
      current.command = JSON.parse(list[1].replaceAll("'", '"')) as string[];
    }
  }
  return services.filter((s) => s.build && s.command).map((s) => [s.name, s.command!]);
}

/**
 * The environment of a `RUN`: this machine's (its PATH, HOME and npm settings), without what the
 * base image would not set — NODE_ENV would make `npm ci` skip the build's dev dependencies.
 */
function buildEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('npm_')));
}

/** Builds every stage into `stages`; returns the last one. */
function build(instructions: Instruction[], stages: Stage[]): Stage {
  const ignored = dockerignore();
  const isIgnored = (path: string) => {
    const rel = relative(ROOT, path);
    return ignored.some((pattern) => rel === pattern || rel.startsWith(`${pattern}/`));
  };
  const inStage = (s: Stage, path: string) => join(s.root, isAbsolute(path) ? path : join(s.workdir, path));
  let stage: Stage | null = null;
  for (const { instruction, args } of instructions) {
    if (instruction === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      const major = /^node:(\d+)[-.]/.exec(image)?.[1];
      if (!major) throw new Error(`FROM ${image}: this check knows only node:<major>-… images`);
      if (process.versions.node.split('.')[0] !== major)
        throw new Error(`FROM ${image} needs Node ${major}; this is Node ${process.versions.node}`);
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
        const fromName = parts[0].startsWith('--from=') ? parts.shift()!.slice('--from='.length) : null;
        const from = fromName === null ? null : stages.find((s) => s.name === fromName);
        if (from === undefined) throw new Error(`COPY ${args}: no stage ${fromName}`);
        if (parts.some((p) => p.startsWith('--'))) throw new Error(`COPY ${args}: options other than --from need a real Docker build`);
        const dest = parts.pop()!;
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
        stage.cmd = JSON.parse(args) as string[];
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

/** Until the process has written a line matching `pattern` (test/support's poll), or fails after READY_MS. */
async function waitForLine(service: ReturnType<typeof startNode>, pattern: RegExp): Promise<void> {
  let output = '';
  service.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  service.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exitCode = await waitFor(
    () => service.child.exitCode,
    (code) => code !== null || pattern.test(output),
    { timeoutMs: READY_MS, intervalMs: 250, what: `${service.name} to write ${pattern}` },
  );
  if (exitCode !== null) throw new Error(`${service.name} exited with code ${exitCode} while starting`);
}

/**
 * One of the image's commands in the last stage's WORKDIR: the API until `/health/ready`
 * answers, the worker until it says it runs, then SIGTERM; anything else until it exits. It must
 * end with code 0.
 */
async function runCommand(name: string, command: string[], stage: Stage, env: NodeJS.ProcessEnv): Promise<void> {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`${name}: ${program} — only node commands are checked`);
  const cwd = join(stage.root, stage.workdir);
  const server = args.includes('dist/main.js') ? 'api' : args.includes('dist/worker.js') ? 'worker' : null;
  if (!server) {
    const run = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 2, 2], timeout: READY_MS });
    if (run.status !== 0) throw new Error(`${name} (${command.join(' ')}) ended with ${run.status ?? run.signal}`);
    log(`${name}: ${command.join(' ')} — ran, exit 0`);
    return;
  }
  const service = startNode(name, args, env, Number(env.PORT), { cwd });
  try {
    if (server === 'api') await waitUntilServing(service, '/health/ready', READY_MS);
    else await waitForLine(service, /Workers running/);
  } catch (error) {
    await stop(service);
    throw error;
  }
  const code = await stop(service);
  if (code !== 0) throw new Error(`${name} (${command.join(' ')}) exited with ${code} on SIGTERM`);
  log(`${name}: ${command.join(' ')} — ready, then stopped, exit 0`);
}

/** The commands in turn, against a database and a Redis key prefix of their own, removed after. */
async function runAll(commands: Array<[string, string[]]>, stage: Stage): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const prefix = `image-check-${suffix}`;
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/bi_image_check_${suffix}`;
  await ensureDatabase(databaseUrl.toString());
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
    await dropDatabase(databaseUrl.toString());
    await clearRedisPrefix(REDIS_URL, prefix);
  }
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const stages: Stage[] = [];
  try {
    const last = build(parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')), stages);
    if (!last.cmd) throw new Error('the Dockerfile has no CMD');
    const commands = composeCommands(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    if (!commands.some(([, command]) => JSON.stringify(command) === JSON.stringify(last.cmd))) commands.push(['CMD', last.cmd]);
    await runAll(commands, last);
    log(`the image builds on Node ${process.versions.node}, and ${commands.map(([name]) => name).join(', ')} run from it`);
  } finally {
    if (process.env.CHECK_IMAGE_KEEP !== '1') for (const stage of stages) rmSync(stage.root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
