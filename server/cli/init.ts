import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { defaultConfig, serializeConfig } from '../config/parseConfig';
import { writeFileAtomic } from '../core/atomicFile';
import { updateKanbanGitignore } from '../storage/generatedFiles';
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
    const stat = await fs.stat(root).catch(() => null);
    if (!stat?.isDirectory()) throw new CliError(`${root} is not a folder`);
    const configPath = path.join(root, '.kanban.json');
    if (
      await fs.stat(configPath).then(
        () => true,
        () => false,
      )
    ) {
      throw new CliError(`${configPath} already exists; nothing was changed (edit it, or remove it to start over)`);
    }
    const config = defaultConfig();
    await writeFileAtomic(configPath, serializeConfig(config));
    await updateKanbanGitignore(path.join(root, '.kanban'));
    if (ctx.json) {
      ctx.output.out(JSON.stringify({ configPath, gitignore: path.join(root, '.kanban', '.gitignore') }, null, 2));
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
