// dist/cli.js, the `kanban` command (esbuild adds the #!/usr/bin/env node line).
import { run } from './run';

// `kanban list | head`: the reader left, which is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

void run(process.argv.slice(2)).then((code) => {
  if (code < 0) return; // serve and mcp keep the process for as long as they run
  process.exitCode = code;
  // Let stdout drain (a pipe may still hold output), then end even if a handle stays open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
