// Builds every bundle: the standalone server, the VS Code extension and the board UI.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const watch = process.argv.includes('--watch');

/**
 * The `kanban` command: bundles that hold everything they use, so it runs from an installed package
 * and from the .vsix (with ELECTRON_RUN_AS_NODE=1), neither of which has these node_modules. It is
 * cut into parts so a command loads only what it uses: parsing the whole 3.3 MB took longer than
 * most commands' own work (bench/README.md, "CLI start-up"). Each part is `require`d by its sibling
 * from dist/ where the source imports it: `kanban serve` (Express, WebSockets, Swagger UI) and
 * `kanban mcp` (the MCP SDK) load their part only when run; mysql2, pg and the S3 client load only when
 * a provider configured to use them opens. dist/cli.js itself is a small bin (see below).
 */
const CLI_PARTS = {
  'server/cli/serve.ts': './cli-serve.js',
  'server/mcp/command.ts': './cli-mcp.js',
  // The error classes run.ts tells apart with instanceof: one copy for all parts, or an error thrown
  // in cli-serve.js would not be the UsageError that cli-main.js checks for.
  'server/cli/usage.ts': './cli-usage.js',
};
const CLI_VENDOR_PARTS = {
  'mysql2/promise': './cli-mysql2.js',
  pg: './cli-pg.js',
  '@aws-sdk/client-s3': './cli-s3.js',
};
/** pg's optional native binding (libpq): never used here, so never bundled. */
const PG_NATIVE = 'pg-native';

const cliParts = {
  name: 'kanban-cli-parts',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const source = path.relative(process.cwd(), path.join(args.resolveDir, args.path)).split(path.sep).join('/');
      const part = CLI_PARTS[`${source}.ts`] ?? CLI_PARTS[source];
      return part ? { path: part, external: true } : undefined;
    });
    build.onResolve({ filter: /^(mysql2\/promise|pg|@aws-sdk\/client-s3)$/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: CLI_VENDOR_PARTS[args.path], external: true },
    );
  },
};

function cliBundle(entry, outfile) {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // better-sqlite3 is native and optional: required only when SQLite is configured.
    external: ['better-sqlite3', PG_NATIVE],
    plugins: [cliParts],
    // The parts load with require: dist/cli.js runs cli-main.js through vm.Script (for V8's code
    // cache), where a dynamic import() has no loader to resolve it.
    supported: { 'dynamic-import': false },
    // docs.ts finds Swagger UI with require.resolve at run time (see the copy below).
    logOverride: { 'require-resolve-not-external': 'silent' },
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  };
}

/**
 * The VS Code extension: dist/extension.js holds the kanban code (the editor parses all of it at
 * activation, so it carries no package that only a later command needs) and requires, from its
 * siblings, each group of packages below when the code that imports them first runs. That code is
 * reached only through a require() inside a function (serverModule in extension/server/apiServer.ts
 * at the API server's first start; the MCP tool catalog at a language model tool's first call), so
 * the bundle evaluates it, and requires its part, only then. The databases' drivers and the S3
 * client are the command's own parts (CLI_VENDOR_PARTS), shared, not copied.
 */
const EXTENSION_VENDOR_PARTS = {
  './extension-http.js': ['express', 'cors', 'busboy'],
  './extension-mcp.js': ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
  // The MCP tools' client code imports it too (for a server reached over HTTP): a part of its own.
  './extension-ws.js': ['ws'],
};
const extensionVendorPart = new Map(
  Object.entries(EXTENSION_VENDOR_PARTS).flatMap(([part, names]) => names.map((name) => [name, part])),
);
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const extensionParts = {
  name: 'kanban-extension-parts',
  setup(build) {
    const names = [...extensionVendorPart.keys()].map(escapeRegExp).join('|');
    // A package of a part stands in the bundle as a one-line module that takes it from that part.
    build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => ({ path: args.path, namespace: 'part' }));
    build.onLoad({ filter: /.*/, namespace: 'part' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(extensionVendorPart.get(args.path))})[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/extension-[a-z]+\.js$/, namespace: 'part' }, (args) => ({
      path: args.path,
      external: true,
    }));
    build.onResolve({ filter: /^(mysql2\/promise|pg|@aws-sdk\/client-s3)$/ }, (args) => ({
      path: CLI_VENDOR_PARTS[args.path],
      external: true,
    }));
  },
};

/** A part of the extension: its packages, each evaluated when the extension first asks for it. */
function extensionVendorBundle(part, names) {
  const getters = names.map(
    (name) =>
      `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => require(${JSON.stringify(name)}) });`,
  );
  return {
    stdin: { contents: getters.join('\n'), resolveDir: process.cwd(), sourcefile: part, loader: 'js' },
    outfile: path.join('dist', part),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  };
}

function cliBundles() {
  return [
    cliBundle('server/cli/main.ts', 'dist/cli-main.js'),
    ...Object.entries(CLI_PARTS).map(([source, part]) => cliBundle(source, path.join('dist', part))),
    ...Object.entries(CLI_VENDOR_PARTS).map(([name, part]) => cliBundle(name, path.join('dist', part))),
  ];
}

/**
 * dist/cli.js, the bin: answers --version and --help from text written in here, taken from the
 * built command itself so the two cannot differ, and hands any other command line to cli-main.js.
 */
function cliBin() {
  const mainHelp = execFileSync(process.execPath, ['dist/cli-main.js', '--help'], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
    encoding: 'utf8',
  });
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  return {
    entryPoints: ['server/cli/bin.ts'],
    outfile: 'dist/cli.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['./cli-main.js'],
    define: { KANBAN_VERSION: JSON.stringify(version), KANBAN_MAIN_HELP: JSON.stringify(mainHelp.replace(/\n$/, '')) },
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  };
}

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
  ...cliBundles(),
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
  // The VS Code extension: the service and its parts (EXTENSION_VENDOR_PARTS), so the .vsix needs
  // no node_modules. `vscode` is the editor's own module; better-sqlite3 is native and cannot load in
  // VS Code's runtime, so it stays out and is required only when a user configures SQLite.
  {
    entryPoints: ['extension/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', 'better-sqlite3', PG_NATIVE],
    plugins: [extensionParts],
    // docs.ts finds Swagger UI with require.resolve at run time; the copy below makes that work.
    logOverride: { 'require-resolve-not-external': 'silent' },
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
  },
  ...Object.entries(EXTENSION_VENDOR_PARTS).map(([part, names]) => extensionVendorBundle(part, names)),
  // The board UI: one script and one stylesheet (no CDN, no inline code, so a strict
  // Content-Security-Policy holds), served at / by the server and loaded by the VS Code webview.
  // A module, so that what only one view uses (Chart.js, for the metrics) is a chunk in
  // dist/webview/chunks/ that its dynamic import() fetches when that view is first shown: from the
  // same origin in a browser, and, in VS Code, under the nonce of the script that imports it.
  {
    entryPoints: { main: 'webview/main.tsx' },
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
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

// The board UI's chunks carry a hash in their names, so each build writes new ones: the old are
// removed first, or they would go into the .vsix and the npm package with the new.
const WEBVIEW_CHUNKS = 'dist/webview/chunks';
rmSync(WEBVIEW_CHUNKS, { recursive: true, force: true });
mkdirSync('dist/webview', { recursive: true });
copyFileSync('webview/index.html', 'dist/webview/index.html');

// The icon font both hosts draw the board's icons with (webview/components/Icon.tsx), beside the
// page that loads it. Its licenses go with it: CC BY 4.0 (the font) asks for attribution, MIT (the
// stylesheet) for its notice.
const codicons = 'node_modules/@vscode/codicons';
copyFileSync(`${codicons}/dist/codicon.css`, 'dist/webview/codicon.css');
copyFileSync(`${codicons}/dist/codicon.ttf`, 'dist/webview/codicon.ttf');
copyFileSync(`${codicons}/LICENSE`, 'dist/webview/codicon-LICENSE.txt');
copyFileSync(`${codicons}/LICENSE-CODE`, 'dist/webview/codicon-LICENSE-CODE.txt');

for (const options of builds) {
  if (!watch) await esbuild.build(options);
  else {
    const context = await esbuild.context(options);
    await context.rebuild(); // now, so the bin below finds dist/cli-main.js
    await context.watch();
  }
}
// After the command's parts: the bin's help text comes from the built dist/cli-main.js (a watch
// keeps the help of its start; every other command line goes to the rebuilt parts).
await esbuild.build(cliBin());

// The JSON schema of .kanban.json for editors (package.json `jsonValidation`), written from the
// service's own schema module at every build, so the two cannot disagree.
await esbuild.build({
  entryPoints: ['server/config/configSchema.ts'],
  outfile: 'dist/.build/configSchema.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'warning',
});
const { kanbanConfigSchema } = createRequire(import.meta.url)('./dist/.build/configSchema.cjs');
writeFileSync('dist/kanban.schema.json', `${JSON.stringify(kanbanConfigSchema(), null, 2)}\n`);

// npm makes a bin executable on install; this makes ./dist/cli.js runnable straight after a build.
if (!watch) chmodSync('dist/cli.js', 0o755);
