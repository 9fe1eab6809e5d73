// dist/server.js: `kanban serve` under its older name, for scripts and tests that run it directly.
import { runServe, SERVE_USAGE } from './cli/serve';
import { UsageError } from './cli/usage';

runServe(process.argv.slice(2), process.env).catch((error) => {
  if (error instanceof UsageError) {
    console.error(`kanban: ${error.message}\n${SERVE_USAGE}`);
    process.exit(2);
  }
  console.error(`kanban: ${(error as Error).message}`);
  process.exit(1);
});
