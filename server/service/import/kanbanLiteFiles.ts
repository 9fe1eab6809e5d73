import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { KanbanLiteFiles } from './importTypes';

/**
 * A kanban-lite workspace folder read into the `data` an import takes: its `.kanban.json` and the
 * `.md` files under `.kanban/`, with paths relative to the folder. Only the command line does this
 * (in its own process, on its user's files); the HTTP route never reads a path it is sent.
 */
export async function readKanbanLiteDir(root: string): Promise<KanbanLiteFiles> {
  const files: KanbanLiteFiles['files'] = [];
  const config = path.join(root, '.kanban.json');
  const configText = await fs.readFile(config, 'utf8').catch(() => null);
  if (configText !== null) files.push({ path: '.kanban.json', content: configText });
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && entry.name.endsWith('.md'))
        files.push({
          path: path.relative(root, full).split(path.sep).join('/'),
          content: await fs.readFile(full, 'utf8'),
        });
    }
  };
  await walk(path.join(root, '.kanban'));
  if (files.length === 0)
    throw new Error(`${root} holds no .kanban.json and no .kanban/ card files; is it a kanban-lite workspace?`);
  return { files };
}
