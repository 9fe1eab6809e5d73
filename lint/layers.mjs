// The layer rule: a module may import only from its own layer or the layers below it, so the
// service never depends on a front end and each layer can be read, tested and replaced from below.
// The order lives here, once; docs/architecture.md explains it.
import * as path from 'node:path';

/** Lowest first. Folders (or single files) of the repository, by layer; a layer may name several. */
export const LAYERS = [
  { name: 'core', paths: ['server/core'] },
  { name: 'config', paths: ['server/config'] },
  { name: 'storage and auth', paths: ['server/storage', 'server/auth'] },
  { name: 'service', paths: ['server/service'] },
  { name: 'live', paths: ['server/live'] },
  { name: 'api', paths: ['server/api'] },
  { name: 'client', paths: ['server/client'] },
  { name: 'mcp', paths: ['server/mcp'] },
  { name: 'server', paths: ['server/server.ts'] },
  { name: 'cli', paths: ['server/cli'] },
  { name: 'hosts', paths: ['server/main.ts', 'server/provider.ts', 'extension'] },
];

const ORDER = LAYERS.map((l) => l.name).join(' < ');

function layerOf(root, file) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  let found = null;
  LAYERS.forEach((layer, rank) => {
    for (const p of layer.paths) {
      if (
        relative === p ||
        relative.startsWith(`${p}/`) ||
        relative.replace(/\.(ts|tsx|js|mjs)$/, '') === p.replace(/\.ts$/, '')
      ) {
        // The longest match wins (server/server.ts over a folder that would hold it).
        if (!found || p.length > found.match.length) found = { rank, name: layer.name, match: p };
      }
    }
  });
  return found;
}

/** @type {import('eslint').Rule.RuleModule} */
const importsLookDown = {
  meta: {
    type: 'problem',
    docs: { description: 'a module imports only from its own layer or those below it' },
    schema: [],
    messages: {
      up: '{{from}} ({{fromLayer}}) imports {{to}} ({{toLayer}}), a layer above it; the order is {{order}}. Move what both need down, or pass it in.',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const own = layerOf(root, file);
    if (!own) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      const theirs = layerOf(root, target);
      if (!theirs || theirs.rank <= own.rank) return;
      context.report({
        node,
        messageId: 'up',
        data: {
          from: path.relative(root, file),
          fromLayer: own.name,
          to: path.relative(root, target),
          toLayer: theirs.name,
          order: ORDER,
        },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.argument?.value),
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        )
          check(node, node.arguments[0].value);
      },
    };
  },
};

export const layersPlugin = { rules: { 'imports-look-down': importsLookDown } };
