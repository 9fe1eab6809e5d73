import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { ImportFormat, SourceFiles } from './importTypes';

/**
 * A folder of another tool read into the `data` an import takes: the files that tool keeps its
 * tasks in, paths relative to its own folder. Only the command line does this (in its own process,
 * on its user's files); the HTTP route never reads a path it is sent.
 */

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** Every `.md` file under `dir` (none when it is absent), paths relative to `root`. */
async function markdownUnder(root: string, dir: string, out: SourceFiles['files']): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await markdownUnder(root, full, out);
    else if (entry.isFile() && entry.name.endsWith('.md'))
      out.push({ path: path.relative(root, full).split(path.sep).join('/'), content: await fs.readFile(full, 'utf8') });
  }
}

/** `config.yml` and the Markdown files of the named sub-folders of a tool's folder. */
async function readToolFolder(root: string, folders: string[]): Promise<SourceFiles> {
  const files: SourceFiles['files'] = [];
  const config = await fs.readFile(path.join(root, 'config.yml'), 'utf8').catch(() => null);
  if (config !== null) files.push({ path: 'config.yml', content: config });
  for (const folder of folders) await markdownUnder(root, path.join(root, folder), files);
  return { files };
}

const BACKLOG_FOLDERS = ['tasks', 'completed', 'archive/tasks', 'drafts', 'milestones', 'archive/milestones'];

/** Backlog.md's config names the project or the task prefix; kanban-md's lists statuses and names neither. */
async function isBacklogConfig(folder: string): Promise<boolean> {
  const text = await fs.readFile(path.join(folder, 'config.yml'), 'utf8').catch(() => '');
  try {
    const config = yaml.load(text, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown> | null;
    return !!config && ('project_name' in config || 'task_prefix' in config || 'default_status' in config);
  } catch {
    return false;
  }
}

/** The tool folder inside `dir` (or `dir` itself) and its format, for the task-file tools read here. */
export async function findToolFolder(
  dir: string,
): Promise<{ format: 'backlog-md' | 'kanban-md'; root: string } | undefined> {
  for (const root of [path.join(dir, 'backlog'), path.join(dir, '.backlog'), dir])
    if ((await exists(path.join(root, 'config.yml'))) && (await isBacklogConfig(root)))
      return { format: 'backlog-md', root };
  for (const root of [path.join(dir, 'kanban'), dir])
    if ((await exists(path.join(root, 'tasks'))) && (await exists(path.join(root, 'config.yml'))))
      return { format: 'kanban-md', root };
  return undefined;
}

/** The files an import of `format` takes from a tool folder found by findToolFolder. */
export function readToolFiles(format: ImportFormat, root: string): Promise<SourceFiles> {
  return readToolFolder(root, format === 'backlog-md' ? BACKLOG_FOLDERS : ['tasks']);
}
