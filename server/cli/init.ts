import * as path from 'node:path';
import { ServiceError } from '../core/errors';
import { initWorkspace } from '../service/initWorkspace';
import type { Command } from './command';
import { CliError } from './usage';

/**
 * `kanban init`: a `.kanban.json` holding the service's own defaults (one board, five columns),
 * and the `.kanban/.gitignore` entry that keeps `.kanban/.state/` (card state, server note,
 * webhook queue and secrets) out of git, exactly as the service writes it.
 */
export const initCommand: Command = {
  name: 'init',
  summary: 'Start a board here: .kanban.json with the default board, and a .kanban/.gitignore for generated files',
  details: ['refuses when the folder already has a .kanban.json'],
  writes: true,
  offline: true,
  async run(ctx) {
    const root = ctx.options.dir
      ? path.resolve(ctx.options.dir)
      : ctx.env.KANBAN_WORKSPACE
        ? path.resolve(ctx.env.KANBAN_WORKSPACE)
        : process.cwd();
    const { configPath, gitignorePath, config } = await initWorkspace(root).catch((error: unknown) => {
      // A refusal is the person's to read, as any other refusal of the CLI.
      throw error instanceof ServiceError ? new CliError(error.message) : error;
    });
    if (ctx.json) {
      ctx.output.out(JSON.stringify({ configPath, gitignore: gitignorePath }, null, 2));
      return;
    }
    const board = config.boards[0];
    ctx.output.out(
      [
        `created ${configPath}: board "${board.id}" with columns ${board.columns.map((c) => c.id).join(', ')}`,
        `.kanban/.gitignore keeps what the service generates (.state/, databases, backups) out of git`,
        'next: kanban add "My first card"   then   kanban list   (or kanban serve for the board in a browser)',
      ].join('\n'),
    );
  },
};
