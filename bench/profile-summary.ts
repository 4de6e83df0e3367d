/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top functions by self time, and the
 * top packages by self time (`node_modules/<pkg>`, the project's own code, or Node's internals).
 *
 *   npx ts-node --transpile-only bench/profile-summary.ts bench/results/profiles/CPU.….cpuprofile [top]
 *
 * Percentages are of busy time: the profile's total minus `(idle)`, the time the process waited.
 */
import { readFileSync } from 'node:fs';
import { formatTable } from './report';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  self_ms: number;
  percent: number;
}

export interface ProfileSummary {
  total_ms: number;
  idle_ms: number;
  busy_ms: number;
  functions: SelfTime[];
  packages: SelfTime[];
}

/** `(garbage collector)`, `(program)`, `(idle)`: V8's own entries, kept by their names. */
const isV8Entry = (frame: ProfileNode['callFrame']) => frame.url === '' && /^\(.*\)$/.test(frame.functionName);

export function packageOf(frame: ProfileNode['callFrame']): string {
  if (isV8Entry(frame)) return frame.functionName;
  const { url } = frame;
  if (url === '' || url.startsWith('node:')) return 'node internals';
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return 'project';
  const [first, second] = url.slice(at + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

function functionLabel(frame: ProfileNode['callFrame']): string {
  if (isV8Entry(frame)) return frame.functionName;
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return `${name} (native)`;
  const at = frame.url.lastIndexOf('/node_modules/');
  const where =
    at >= 0 ? frame.url.slice(at + '/node_modules/'.length) : frame.url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
  return `${name} ${where}:${frame.lineNumber + 1}`;
}

function ranked(totals: Map<string, number>, busyUs: number, top: number): SelfTime[] {
  return [...totals]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, self_ms: Math.round(us / 1000), percent: Math.round((1000 * us) / busyUs) / 10 }));
}

export function summariseProfile(path: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let totalUs = 0;
  // A sample lasts until the next one: its time is the following delta.
  for (let i = 0; i < profile.samples.length - 1; i++) {
    const us = profile.timeDeltas[i + 1];
    const frame = frames.get(profile.samples[i]);
    if (!frame || us <= 0) continue;
    totalUs += us;
    const fn = functionLabel(frame);
    const pkg = packageOf(frame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const idleUs = byPackage.get('(idle)') ?? 0;
  const busyUs = Math.max(totalUs - idleUs, 1);
  return {
    total_ms: Math.round(totalUs / 1000),
    idle_ms: Math.round(idleUs / 1000),
    busy_ms: Math.round(busyUs / 1000),
    functions: ranked(byFunction, busyUs, top),
    packages: ranked(byPackage, busyUs, top),
  };
}

export function formatProfileSummary(summary: ProfileSummary): string {
  const rows = (list: SelfTime[]) => list.map((entry) => [entry.name, entry.self_ms, `${entry.percent}%`]);
  return [
    `profile: ${summary.total_ms} ms sampled, ${summary.idle_ms} ms idle, ${summary.busy_ms} ms busy (percentages of busy time)`,
    '',
    formatTable(['function (self time)', 'ms', '%'], rows(summary.functions)),
    '',
    formatTable(['package (self time)', 'ms', '%'], rows(summary.packages)),
  ].join('\n');
}

if (require.main === module) {
  const [path, top] = process.argv.slice(2);
  if (!path) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(formatProfileSummary(summariseProfile(path, top ? Number(top) : 25)));
}
