// Builds every bundle: the standalone server, the VS Code extension and the board UI.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const watch = process.argv.includes('--watch');

const builds = [
  {
    entryPoints: ['server/main.ts'],
    outfile: 'dist/server.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    // Dependencies load from node_modules; optional native providers load only when configured.
    packages: 'external',
    logLevel: 'warning',
  },
  // The `kanban` command: one file holding everything, so it runs from an installed package and
  // from the .vsix (with ELECTRON_RUN_AS_NODE=1), neither of which has these node_modules.
  // better-sqlite3 is native and optional: required only when SQLite is configured.
  {
    entryPoints: ['server/cli/main.ts'],
    outfile: 'dist/cli.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['better-sqlite3'],
    banner: { js: '#!/usr/bin/env node' },
    // docs.ts finds Swagger UI with require.resolve at run time (see the copy below).
    logOverride: { 'require-resolve-not-external': 'silent' },
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  },
  // `kanban-board-service/provider` (package.json `exports`): the storage provider contract and its
  // conformance suite, for provider packages and their tests. Node built-ins only.
  {
    entryPoints: ['server/provider.ts'],
    outfile: 'dist/provider.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
  },
  // The VS Code extension: one file holding the service, so the .vsix needs no node_modules.
  // `vscode` is the editor's own module; better-sqlite3 is native and cannot load in VS Code's
  // runtime, so it stays out and is required only when a user configures SQLite.
  {
    entryPoints: ['extension/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', 'better-sqlite3'],
    // docs.ts finds Swagger UI with require.resolve at run time; the copy below makes that work.
    logOverride: { 'require-resolve-not-external': 'silent' },
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  },
  // The board UI: one script and one stylesheet (no CDN, no inline code, so a strict
  // Content-Security-Policy holds), served at / by the server and loaded by the VS Code webview.
  {
    entryPoints: { main: 'webview/main.tsx' },
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: !watch,
    sourcemap: 'linked',
    logLevel: 'warning',
  },
  {
    entryPoints: { main: 'media/main.css' },
    outdir: 'dist/webview',
    bundle: true,
    minify: !watch,
    logLevel: 'warning',
  },
];

// The extension's HTTP server serves Swagger UI from `swagger-ui-dist`, found with require.resolve
// at run time. A .vsix carries no node_modules, so the files the docs page loads are copied where
// that lookup finds them from dist/extension.js.
const swaggerUiTarget = 'dist/node_modules/swagger-ui-dist';
mkdirSync(swaggerUiTarget, { recursive: true });
for (const file of ['package.json', 'LICENSE', 'swagger-ui.css', 'swagger-ui-bundle.js']) {
  copyFileSync(`node_modules/swagger-ui-dist/${file}`, `${swaggerUiTarget}/${file}`);
}

// SQLite's WebAssembly build (node-sqlite3-wasm) is bundled into the extension and the command;
// its loader looks for the .wasm beside the script that holds it, which is dist/.
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm', 'dist/node-sqlite3-wasm.wasm');

mkdirSync('dist/webview', { recursive: true });
copyFileSync('webview/index.html', 'dist/webview/index.html');

for (const options of builds) {
  if (watch) await (await esbuild.context(options)).watch();
  else await esbuild.build(options);
}

// The JSON schema of .kanban.json for editors (package.json `jsonValidation`), written from the
// service's own schema module at every build, so the two cannot disagree.
await esbuild.build({ entryPoints: ['server/config/configSchema.ts'], outfile: 'dist/.build/configSchema.cjs', bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
const { kanbanConfigSchema } = createRequire(import.meta.url)('./dist/.build/configSchema.cjs');
writeFileSync('dist/kanban.schema.json', `${JSON.stringify(kanbanConfigSchema(), null, 2)}\n`);

// npm makes a bin executable on install; this makes ./dist/cli.js runnable straight after a build.
if (!watch) chmodSync('dist/cli.js', 0o755);
