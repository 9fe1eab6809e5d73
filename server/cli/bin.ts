// dist/cli.js, the `kanban` command's bin (esbuild adds the #!/usr/bin/env node line). It answers
// `kanban --version` and `kanban --help` from text written into it at build time, because loading
// the command itself (dist/cli-main.js) costs more than the rest of such a call; anything else is
// handed to dist/cli-main.js, which reads the same process.argv. See esbuild.mjs.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

declare const KANBAN_VERSION: string;
declare const KANBAN_MAIN_HELP: string;

const VERSION_FLAGS = ['--version', '-v', '-V'];
const HELP_WORDS = ['--help', '-h', 'help'];

function answerFromBin(text: string): void {
  // `kanban --help | head -1`: the reader left, which is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${text}\n`);
}

const args = process.argv.slice(2);
if (args.length === 1 && VERSION_FLAGS.includes(args[0])) answerFromBin(KANBAN_VERSION);
else if (args.length === 0 || (args.length === 1 && HELP_WORDS.includes(args[0]))) answerFromBin(KANBAN_MAIN_HELP);
else loadWithCodeCache(path.join(__dirname, 'cli-main.js'));

/**
 * Load the command (dist/cli-main.js) as `require` would, but with V8's code cache for it: compiling
 * its ~0.7 MB cost ~30 ms of every call, a quarter of a call through the board process. The cache
 * lives in the user's own cache folder (never a shared one: a planted cache would be code), keyed
 * by the bundle's size and mtime and the Node version; V8 itself rejects one that does not fit, and
 * a cache that is missing or rejected is written when the command ends.
 */
function loadWithCodeCache(file: string): void {
  const source = readFileSync(file, 'utf8');
  const cacheFile = codeCacheFile(file);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // no cache yet
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cacheFile && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => saveCodeCache(cacheFile, script));
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = module.paths;
  require.cache[file] = loaded;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
}

function codeCacheFile(file: string): string | null {
  try {
    const home = process.env.XDG_CACHE_HOME || (homedir() ? path.join(homedir(), '.cache') : '');
    if (!home) return null;
    const stat = statSync(file);
    return path.join(
      home,
      'kanban',
      `cli-main-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}-${process.arch}.v8`,
    );
  } catch {
    return null;
  }
}

function saveCodeCache(cacheFile: string, script: vm.Script): void {
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, cacheFile);
    // Caches of earlier builds or Node versions would only pile up.
    for (const name of readdirSync(path.dirname(cacheFile))) {
      if (name.startsWith('cli-main-') && name.endsWith('.v8') && name !== path.basename(cacheFile))
        rmSync(path.join(path.dirname(cacheFile), name), { force: true });
    }
  } catch {
    // a read-only home: every call compiles, as without the cache
  }
}
