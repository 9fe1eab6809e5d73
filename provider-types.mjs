// Declarations of `kanban-board-service/provider` (dist/types/provider.d.ts and the files it
// imports), so a provider author gets the contract in their editor. Run by `npm pack` (prepack):
// everyday builds skip it, since the service itself needs no .d.ts.
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');
const program = ts.createProgram(['server/provider.ts'], {
  declaration: true,
  emitDeclarationOnly: true,
  outDir: 'dist/types',
  rootDir: 'server',
  strict: true,
  skipLibCheck: true,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  target: ts.ScriptTarget.ES2022,
  resolveJsonModule: true,
  esModuleInterop: true,
  types: ['node'],
});
const errors = program.emit().diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
if (errors.length) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
  console.error(ts.formatDiagnostics(errors, host));
  process.exit(1);
}
