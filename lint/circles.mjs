// The circle rule: no module may reach itself again through its static imports (type-only imports
// and re-exports included). A circle means neither file can be read, tested or changed without the
// other; the way out is what the layer rule asks within a layer too: move what both need into a
// lower file (an interface, a constant), or pass it in. A dynamic `import()` is a deliberate lazy
// load and does not count.
import * as fs from 'node:fs';
import * as path from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
const STATIC_IMPORT = /(?:^|[\n;])\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s)?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The file a relative import names, or null when it is not a TypeScript file of the repository. */
function resolveImport(fromFile, source) {
  const base = path.resolve(path.dirname(fromFile), source);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), base.replace(/\.js$/, '.ts')];
  for (const c of candidates) {
    if (/\.tsx?$/.test(c) && fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

/** Files each file imports, read from disk once per lint run (the file being linted uses its live text). */
const onDisk = new Map();
function importsOnDisk(file) {
  let found = onDisk.get(file);
  if (!found) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // A file that went away imports nothing.
    }
    found = [...text.matchAll(STATIC_IMPORT)].map((m) => resolveImport(file, m[1])).filter(Boolean);
    onDisk.set(file, found);
  }
  return found;
}

/** A path of imports from `start` back to `file`, or null when there is none. */
function pathBack(start, file) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === file) {
      const trail = [];
      for (let at = current; at; at = cameFrom.get(at)) trail.unshift(at);
      return trail;
    }
    for (const next of importsOnDisk(current)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noImportCircles = {
  meta: {
    type: 'problem',
    docs: { description: 'a module never reaches itself again through its imports' },
    schema: [],
    messages: {
      circle:
        '{{from}} imports {{to}}, which leads back to it: {{trail}}. Move what both need into a lower file (an interface or a constant), or pass it in.',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.resolve(context.filename);
    const relative = (f) => path.relative(root, f).split(path.sep).join('/');
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolveImport(file, source);
      if (!target || target === file) return;
      const trail = pathBack(target, file);
      if (!trail) return;
      context.report({
        node,
        messageId: 'circle',
        data: { from: relative(file), to: relative(target), trail: [file, ...trail].map(relative).join(' -> ') },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};

export const circlesPlugin = { rules: { 'no-import-circles': noImportCircles } };
