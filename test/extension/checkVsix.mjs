// Checks a built .vsix: it holds exactly what the extension needs at run time and nothing else,
// and its bundle requires no package the .vsix does not carry. Usage: node checkVsix.mjs <file.vsix>
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const file = process.argv[2];
if (!file) throw new Error('usage: node test/extension/checkVsix.mjs <file.vsix>');
const zip = readFileSync(file);

/** Entries from the zip's central directory: name, compression method, sizes, local header offset. */
function listEntries(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip file`);
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    entries.push({
      name: buffer.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: buffer.readUInt16LE(offset + 10),
      compressedSize: buffer.readUInt32LE(offset + 20),
      size: buffer.readUInt32LE(offset + 24),
      localOffset: buffer.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function read(buffer, entry) {
  const start =
    entry.localOffset + 30 + buffer.readUInt16LE(entry.localOffset + 26) + buffer.readUInt16LE(entry.localOffset + 28);
  const data = buffer.subarray(start, start + entry.compressedSize);
  return entry.method === 8 ? inflateRawSync(data) : data;
}

const isPng = (data) => data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

const entries = listEntries(zip);
const names = entries.map((e) => e.name).sort();
const required = [
  'extension.vsixmanifest',
  '[Content_Types].xml',
  'extension/package.json',
  // extension/README.md (npm run package: --readme-path), not the repository's developer README.
  'extension/readme.md',
  'extension/changelog.md',
  // The Marketplace README's picture of the board.
  'extension/media/screenshots/vscode-board.png',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
  // The packages it loads at first use, not at activation (esbuild.mjs, EXTENSION_VENDOR_PARTS).
  'extension/dist/extension-http.js',
  'extension/dist/extension-mcp.js',
  'extension/dist/extension-ws.js',
  // contributes.jsonValidation: completion and errors while editing .kanban.json by hand.
  'extension/dist/kanban.schema.json',
  // The `kanban` command (run with ELECTRON_RUN_AS_NODE=1, e.g. for `kanban mcp`).
  'extension/dist/cli.js',
  // Its parts, which cli.js loads as a command needs them (esbuild.mjs, CLI_PARTS).
  'extension/dist/cli-main.js',
  'extension/dist/cli-usage.js',
  'extension/dist/cli-serve.js',
  'extension/dist/cli-mcp.js',
  'extension/dist/cli-mysql2.js',
  'extension/dist/cli-pg.js',
  'extension/dist/cli-s3.js',
  // SQLite's WebAssembly build, which the bundles load from beside them (SQLite inside VS Code).
  'extension/dist/node-sqlite3-wasm.wasm',
  // The page the API server started from VS Code serves at /.
  'extension/dist/webview/index.html',
  'extension/dist/webview/main.js',
  'extension/dist/webview/main.css',
  // The icon font the board draws its buttons with, and its licenses (CC BY 4.0 font, MIT stylesheet).
  'extension/dist/webview/codicon.css',
  'extension/dist/webview/codicon.ttf',
  'extension/dist/webview/codicon-LICENSE.txt',
  'extension/dist/webview/codicon-LICENSE-CODE.txt',
  'extension/dist/node_modules/swagger-ui-dist/package.json',
  'extension/dist/node_modules/swagger-ui-dist/swagger-ui.css',
  'extension/dist/node_modules/swagger-ui-dist/swagger-ui-bundle.js',
  // The extension's icon (Extensions view, Marketplace, Welcome); the activity bar keeps kanban.svg.
  'extension/extension/media/icon.png',
  'extension/extension/media/kanban.svg',
  // The Getting Started walkthrough's pictures (npm run walkthrough-images makes them).
  'extension/extension/media/walkthrough/create-board.png',
  'extension/extension/media/walkthrough/open-board.png',
  'extension/extension/media/walkthrough/add-card.png',
  'extension/extension/media/walkthrough/edit-file.png',
  'extension/extension/media/walkthrough/api-server.png',
];
const allowedExtra = new Set(['extension/dist/node_modules/swagger-ui-dist/LICENSE']);

// The board UI's chunks (esbuild.mjs: dist/webview/chunks/, names with a hash): every one a board
// script imports, statically or when a view is first shown (Chart.js for the metrics), must be
// inside, or that view fails only when opened; a chunk no script imports is a leftover.
const webviewScripts = entries.filter(
  (e) => e.name === 'extension/dist/webview/main.js' || /^extension\/dist\/webview\/chunks\/[^/]+\.js$/.test(e.name),
);
const webviewImports = new Set(
  webviewScripts.flatMap((entry) =>
    [
      ...read(zip, entry)
        .toString('utf8')
        .matchAll(/(?:\bfrom|\bimport\(?)\s*"(\.{1,2}\/[^"]+\.js)"/g),
    ].map((m) => posix.join(posix.dirname(entry.name), m[1])),
  ),
);
const problems = [];
if (![...webviewImports].some((name) => name.startsWith('extension/dist/webview/chunks/')))
  problems.push('the board script imports no chunk (esbuild.mjs splits Chart.js out for the metrics)');
for (const name of webviewImports)
  if (!names.includes(name)) problems.push(`a board script imports ${name}, which the .vsix does not carry`);
for (const name of required) if (!names.includes(name)) problems.push(`missing ${name}`);
// `kanban-board-service/provider` (package.json `files` serves npm and vsce alike): the provider
// contract's bundle and, after an `npm pack`, its declarations. Unused by the extension, harmless.
const providerEntry = (name) =>
  name === 'extension/dist/provider.js' || /^extension\/dist\/types\/.+\.d\.ts$/.test(name);
for (const name of names)
  if (!required.includes(name) && !allowedExtra.has(name) && !webviewImports.has(name) && !providerEntry(name))
    problems.push(`unexpected ${name}`);

const manifest = JSON.parse(
  read(
    zip,
    entries.find((e) => e.name === 'extension/package.json'),
  ).toString('utf8'),
);
if (manifest.main !== './dist/extension.js') problems.push(`package.json main is ${manifest.main}`);
if (!manifest.contributes?.commands?.length) problems.push('package.json contributes no commands');
// Without an icon the Extensions view and the Welcome tile show a placeholder; vsce takes only PNG.
const icon = manifest.icon && entries.find((e) => e.name === `extension/${manifest.icon}`);
if (!icon) problems.push(`package.json icon ${manifest.icon} is not in the package`);
else if (!isPng(read(zip, icon))) problems.push(`${manifest.icon} is not a PNG`);
// A walkthrough step whose page or picture is missing shows an empty pane: every file it names must
// be inside, a picture a PNG small enough not to weigh on the package, with a text for screen readers.
const WALKTHROUGH_IMAGE_BYTES = 150 * 1024;
for (const walkthrough of manifest.contributes?.walkthroughs ?? []) {
  for (const step of walkthrough.steps ?? []) {
    const media = step.media ?? {};
    const images = typeof media.image === 'string' ? [media.image] : Object.values(media.image ?? {});
    // Every step shows what it is about, not only tells it.
    if (!images.length) problems.push(`walkthrough step ${step.id} has no picture`);
    else if (!media.altText?.trim()) problems.push(`walkthrough step ${step.id} has a picture without altText`);
    for (const page of [media.markdown, media.svg, ...images].filter(Boolean)) {
      const entry = entries.find((e) => e.name === `extension/${page}`);
      if (!entry) problems.push(`walkthrough step ${step.id} names ${page}, which is not in the package`);
      else if (page.endsWith('.png') && !isPng(read(zip, entry))) problems.push(`${page} is not a PNG`);
      else if (entry.size > WALKTHROUGH_IMAGE_BYTES)
        problems.push(`${page} is ${entry.size} bytes; a walkthrough picture stays under ${WALKTHROUGH_IMAGE_BYTES}`);
    }
  }
}

// The details page is extension/README.md as vsce writes it (its relative paths turned into the
// repository's URLs of those paths), not the developer README; every picture in it is in the package.
const readme = read(
  zip,
  entries.find((e) => e.name === 'extension/readme.md'),
).toString('utf8');
const project = String(manifest.repository?.url ?? manifest.repository ?? '').match(
  /github\.com[/:]([^/]+\/[^/]+?)(\.git)?$/,
)?.[1];
const rawBase = `https://github.com/${project}/raw/HEAD/`;
const relative = (text) => text.replaceAll(rawBase, '').replaceAll(`https://github.com/${project}/blob/HEAD/`, '');
const userReadme = readFileSync(new URL('../../extension/README.md', import.meta.url), 'utf8');
if (relative(readme) !== userReadme) problems.push('the packaged readme is not extension/README.md');
const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g), ...readme.matchAll(/<img[^>]+src=["']([^"']+)/g)].map(
  (m) => m[1],
);
for (const image of images) {
  if (!names.includes(`extension/${relative(image)}`))
    problems.push(`the readme shows ${image}, which is not in the package`);
}

// Every package the bundles still require must come with the editor or Node, or be optional.
const bundles = entries.filter((e) => /^extension\/dist\/(extension|cli)(-[a-z0-9]+)?\.js$/.test(e.name));
const bundle = bundles.map((entry) => read(zip, entry).toString('utf8')).join('\n');
const optional = new Set([
  'vscode', // given by the editor
  'better-sqlite3', // native: loaded only when SQLite is configured, with a clear message when it cannot
  'bufferutil',
  'utf-8-validate', // ws: optional speed-ups, required inside try/catch
  'cardinal', // mysql2: optional SQL highlighting, required inside try/catch
  'pg-native', // pg: the libpq binding, loaded only through pg's `native` getter, which the service never reads
]);
// ajv (and ajv-formats, in the MCP SDK) write these into the source of standalone validators;
// compiled-in-memory ones never load them.
const ajvCodegen = /^ajv\/dist\/runtime\/|^ajv-formats\/dist\/formats$/;
// `[require("x");]` is prose inside an AWS SDK error message, not a call.
const required_ = new Set([...bundle.matchAll(/(?<!\[)\brequire\("([^"./][^"]*)"\)/g)].map((m) => m[1]));
for (const name of required_) {
  const bare = name.replace(/^node:/, '').split('/')[0];
  if (!builtinModules.includes(bare) && !optional.has(name) && !ajvCodegen.test(name))
    problems.push(`the bundle requires "${name}", which the .vsix does not carry`);
}

// A part a bundle requires from beside it (esbuild.mjs: CLI_PARTS, CLI_VENDOR_PARTS, EXTENSION_VENDOR_PARTS)
// must be in the package too, or that command fails only when first used.
for (const [, part] of bundle.matchAll(/\brequire\("\.\/([^"]+\.js)"\)/g)) {
  if (!names.includes(`extension/dist/${part}`))
    problems.push(`a bundle requires ./${part}, which the .vsix does not carry`);
}

const total = entries.reduce((sum, e) => sum + e.size, 0);
if (problems.length) {
  console.error(`${file}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `${file}: ${names.length} files, ${(total / 1024 / 1024).toFixed(2)} MB unpacked, ${(zip.length / 1024 / 1024).toFixed(2)} MB packed; contents as expected`,
);
