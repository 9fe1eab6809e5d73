import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { defaultConfig, serializeConfig } from '../config/parseConfig';
import { writeFileAtomic } from '../core/atomicFile';
import { StateRuleError, ValidationError } from '../core/errors';
import type { KanbanConfig } from '../config/types';
import { kanbanGitignorePath, updateKanbanGitignore } from '../storage/generatedFiles';

export interface InitializedWorkspace {
  configPath: string;
  gitignorePath: string;
  config: KanbanConfig;
}

/**
 * Starts a board in a folder: a `.kanban.json` holding the service's own defaults (one board, five
 * columns) and the `.kanban/.gitignore` that keeps `.kanban/.state/` (card state, server note,
 * webhook queue, secrets) out of git. `kanban init` and the editor's Create Board both come here, so
 * a board started either way is the same board. An existing `.kanban.json` is never replaced.
 */
export async function initWorkspace(root: string): Promise<InitializedWorkspace> {
  const stat = await fs.stat(root).catch(() => null);
  if (!stat?.isDirectory()) throw new ValidationError(`${root} is not a folder`);
  const configPath = path.join(root, '.kanban.json');
  const exists = await fs.stat(configPath).then(
    () => true,
    () => false,
  );
  if (exists)
    throw new StateRuleError(`${configPath} already exists; nothing was changed (edit it, or remove it to start over)`);
  const config = defaultConfig();
  await writeFileAtomic(configPath, serializeConfig(config));
  const kanbanDir = path.join(root, '.kanban');
  await updateKanbanGitignore(kanbanDir);
  return { configPath, gitignorePath: kanbanGitignorePath(kanbanDir), config };
}
