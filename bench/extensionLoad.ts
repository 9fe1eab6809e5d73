/**
 * Loading the VS Code extension's bundle and running activate(), in plain Node against the VS Code
 * double of the extension tests: what the editor's "code loading" and "activate call" cost, without
 * the editor. Each run is a fresh process; give `--bundle <file>` more than once to compare builds
 * in one loop (e.g. a copy of an older dist/extension.js), so they share the machine's load.
 *
 *   npx tsx bench/extensionLoad.ts [--bundle dist/extension.js]... [--runs 9]
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const run = promisify(execFile);

/** The child: the double stands in for `vscode`; times require() of the bundle, then activate(). */
const PROBE = `
const Module = require('node:module');
const path = require('node:path');
const [doublePath, bundle, folder] = process.argv.slice(2);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? doublePath : resolve.call(this, request, ...rest);
};
const { double, fakeExtensionContext } = require(doublePath);
double.reset();
double.trusted = true;
double.setFolders([folder]);
const heap = process.memoryUsage().heapUsed;
const cpu = process.cpuUsage();
const start = performance.now();
const extension = require(path.resolve(bundle));
const loaded = performance.now();
const loadCpu = process.cpuUsage(cpu);
extension.activate(fakeExtensionContext(process.cwd()));
const activated = performance.now();
process.stdout.write(JSON.stringify({
  loadMs: loaded - start,
  loadCpuMs: (loadCpu.user + loadCpu.system) / 1000,
  activateMs: activated - loaded,
  heapMb: (process.memoryUsage().heapUsed - heap) / 1048576,
}));
process.exit(0);
`;

interface Sample {
  loadMs: number;
  loadCpuMs: number;
  activateMs: number;
  heapMb: number;
}

function option(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => arg === name && values.push(process.argv[i + 1]));
  return values;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function main(): Promise<void> {
  const bundles = option('--bundle').length ? option('--bundle') : ['dist/extension.js'];
  const runs = Number(option('--runs')[0] ?? 9);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-bench-extload-'));
  try {
    const doublePath = path.join(scratch, 'vscodeDouble.cjs');
    await esbuild.build({
      entryPoints: ['test/extension/helpers/vscodeDouble.ts'],
      outfile: doublePath,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'warning',
    });
    const probe = path.join(scratch, 'probe.cjs');
    await fs.writeFile(probe, PROBE);
    const folder = await fs.mkdtemp(path.join(scratch, 'folder-'));
    await fs.writeFile(path.join(folder, '.kanban.json'), '{}\n');
    const samples = new Map<string, Sample[]>(bundles.map((b) => [b, []]));
    // One untimed round first: the file system's cache, not the bundle, would be timed.
    for (let round = -1; round < runs; round++) {
      for (const bundle of bundles) {
        const { stdout } = await run(process.execPath, [probe, doublePath, bundle, folder]);
        if (round >= 0) samples.get(bundle)!.push(JSON.parse(stdout) as Sample);
      }
    }
    const load = await fs.readFile('/proc/loadavg', 'utf8').catch(() => '?');
    console.log(`${runs} runs each, ${os.cpus().length} cores, load average ${load.split(' ').slice(0, 3).join(' ')}`);
    console.log('| bundle | size | load (wall) | load (CPU) | activate() | heap after |');
    console.log('|---|---|---|---|---|---|');
    for (const [bundle, list] of samples) {
      const size = (await fs.stat(bundle)).size / 1e6;
      const ms = (key: keyof Sample) => `${median(list.map((s) => s[key])).toFixed(0)} ms`;
      console.log(
        `| \`${bundle}\` | ${size.toFixed(2)} MB | ${ms('loadMs')} | ${ms('loadCpuMs')} | ${ms('activateMs')} | +${median(list.map((s) => s.heapMb)).toFixed(1)} MB |`,
      );
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

void main();
