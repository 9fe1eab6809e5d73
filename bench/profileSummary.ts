import { promises as fs } from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that the summary reads. */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A stretch of the run, in microseconds of the monotonic clock. V8 stamps profiles with the same
 * clock as `process.hrtime`, so the bench can mark scenario boundaries from its own process.
 */
export interface TimeWindow {
  name: string;
  startUs: number;
  endUs: number;
}

export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface HotSpot {
  name: string;
  ms: number;
  share: number;
}

const REPO_ROOT = path.join(__dirname, '..');

/** Names frames by their TypeScript source when the bundle's source map knows them. */
class FrameNamer {
  private map: SourceMap | null = null;

  static async create(): Promise<FrameNamer> {
    const namer = new FrameNamer();
    const mapText = await fs.readFile(path.join(REPO_ROOT, 'dist', 'server.js.map'), 'utf8').catch(() => null);
    if (mapText) namer.map = new SourceMap(JSON.parse(mapText));
    return namer;
  }

  file(frame: CallFrame): string {
    const url = frame.url;
    if (!url) return '(native)';
    if (url.endsWith('dist/server.js') && this.map) {
      const entry = this.map.findEntry(frame.lineNumber, frame.columnNumber) as {
        originalSource?: string;
        originalLine?: number;
      };
      if (entry.originalSource) return `${relativeSource(entry.originalSource)}:${(entry.originalLine ?? 0) + 1}`;
    }
    const marker = url.indexOf('node_modules/');
    const short =
      marker >= 0 ? url.slice(marker + 'node_modules/'.length) : path.basename(url.replace(/^file:\/\//, ''));
    return `${short}:${frame.lineNumber + 1}`;
  }

  name(frame: CallFrame): string {
    return `${frame.functionName || '(anonymous)'} ${this.file(frame)}`;
  }
}

function relativeSource(source: string): string {
  const clean = source.replace(/^file:\/\//, '');
  const marker = clean.indexOf('node_modules/');
  if (marker >= 0) return clean.slice(marker + 'node_modules/'.length);
  return path.isAbsolute(clean) ? path.relative(REPO_ROOT, clean) : clean.replace(/^(\.\.\/)+/, '');
}

/** The npm package a frame's code belongs to, `server` for the bundle, null for node internals. */
function packageOf(url: string): string | null {
  if (url.endsWith('dist/server.js')) return 'server';
  const marker = url.lastIndexOf('node_modules/');
  if (marker < 0) return null;
  const parts = url.slice(marker + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function rank(map: Map<string, number>, total: number, top: number): HotSpot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, share: total ? us / total : 0 }));
}

/**
 * Self time per function (the code that burns the CPU) and inclusive time of the service's own
 * functions (which of our code paths the time is spent under), over the samples inside a window.
 */
function summariseWindow(profile: CpuProfile, namer: FrameNamer, window: TimeWindow | null, top: number): string {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let time = profile.startTime;
  profile.samples.forEach((nodeId, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (window && (time < window.startUs || time > window.endUs)) return;
    const frame = byId.get(nodeId)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += delta;
      return;
    }
    total += delta;
    const name = namer.name(frame);
    self.set(name, (self.get(name) ?? 0) + delta);
    const seen = new Set<string>();
    const packages = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      const pkg = packageOf(f.url);
      if (pkg) packages.add(pkg);
      if (!f.url.endsWith('dist/server.js')) continue;
      const ours = namer.name(f);
      if (seen.has(ours)) continue;
      seen.add(ours);
      inclusive.set(ours, (inclusive.get(ours) ?? 0) + delta);
    }
    for (const pkg of packages) byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta);
  });
  const line = (h: HotSpot) =>
    `    ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.ms.toFixed(0).padStart(6)} ms  ${h.name}`;
  return [
    `  -- ${window?.name ?? 'whole run'}: ${(total / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle`,
    '   self time (where the CPU went):',
    ...rank(self, total, top).map(line),
    '   inclusive time of server functions (which of our code it ran under):',
    ...rank(inclusive, total, top).map(line),
    '   inclusive time by package (npm packages the time was spent under, natives included):',
    ...rank(byPackage, total, 8).map(line),
  ].join('\n');
}

export async function summariseFile(file: string, windows: TimeWindow[] = [], top = 15): Promise<string> {
  const profile = JSON.parse(await fs.readFile(file, 'utf8')) as CpuProfile;
  const namer = await FrameNamer.create();
  const parts = windows.length
    ? windows.map((w) => summariseWindow(profile, namer, w, top))
    : [summariseWindow(profile, namer, null, top)];
  return [`CPU profile of the server: ${path.relative(process.cwd(), file)}`, ...parts].join('\n');
}

// `tsx bench/profileSummary.ts <file.cpuprofile> [top]` prints the summary of an existing profile.
if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profileSummary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  summariseFile(file, [], Number(process.argv[3] ?? 30)).then(console.log, (error) => {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    process.exit(1);
  });
}
