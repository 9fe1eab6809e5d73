import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/atomicFile';

/**
 * What `.kanban/.gitignore` keeps out of git: everything the service generates beside the cards and
 * `.kanban.json`. Local state and caches (`.state/`), the SQLite database at its default place with
 * its journal files, and the backups a migration leaves.
 */
export const KANBAN_GITIGNORE_LINES = [
  '.state/',
  'backups/',
  '*.db',
  '*.db-wal',
  '*.db-shm',
  '*.db-journal',
  '*.sqlite',
  '*.sqlite-wal',
  '*.sqlite-shm',
  '*.sqlite3',
  '*.sqlite3-wal',
  '*.sqlite3-shm',
];

const HEADER = '# Written by kanban: files the service generates (state, caches, SQLite databases, backups).';

export function kanbanGitignorePath(kanbanDir: string): string {
  return path.join(kanbanDir, '.gitignore');
}

/** The lines of the current `.kanban/.gitignore` that `text` lacks (all of them when there is none). */
export function missingGitignoreLines(text: string | null): string[] {
  if (text === null) return [...KANBAN_GITIGNORE_LINES];
  const have = new Set(text.split('\n').map((line) => line.trim()));
  return KANBAN_GITIGNORE_LINES.filter((line) => !have.has(line) && !(line === '.state/' && have.has('.state')));
}

async function readGitignore(kanbanDir: string): Promise<string | null> {
  return fs.readFile(kanbanGitignorePath(kanbanDir), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/**
 * Bring `.kanban/.gitignore` up to date: add the lines it lacks after the user's own, which stay.
 * Answers the lines added. For `kanban init` and `kanban doctor --fix`; an older file is never
 * changed at start or by a read.
 */
export async function updateKanbanGitignore(kanbanDir: string): Promise<string[]> {
  const current = await readGitignore(kanbanDir);
  const missing = missingGitignoreLines(current);
  if (missing.length === 0) return [];
  const text =
    current === null ? `${HEADER}\n${missing.join('\n')}\n` : `${current.replace(/\n*$/, '\n')}${missing.join('\n')}\n`;
  await fs.mkdir(kanbanDir, { recursive: true });
  await writeFileAtomic(kanbanGitignorePath(kanbanDir), text);
  return missing;
}

/**
 * The first write to a board that has no `.kanban/.gitignore` (one made through the API, without
 * `kanban init`) writes the current one; an existing file is left to `doctor --fix`.
 */
export async function createKanbanGitignoreIfMissing(kanbanDir: string): Promise<void> {
  if ((await readGitignore(kanbanDir)) !== null) return;
  await updateKanbanGitignore(kanbanDir);
}

/**
 * A folder of generated files that keeps itself out of git, whatever `.kanban/.gitignore` says (a
 * board made by an older version has one that may not list it): a `.gitignore` of `*` inside it.
 * So a read that writes a cache there leaves `git status` clean.
 */
export async function ensureSelfIgnoringDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (
    await fs.access(ignore).then(
      () => true,
      () => false,
    )
  )
    return;
  await writeFileAtomic(ignore, '*\n');
}

/** How many migration backups `.kanban/backups/` keeps: each is a whole copy of the board. */
export const BACKUPS_KEPT = 5;

/**
 * Remove all but the newest `BACKUPS_KEPT` entries of `.kanban/backups/` (their names carry the
 * time they were made, so the newest sort last). Answers the names removed.
 */
export async function pruneBackups(kanbanDir: string): Promise<string[]> {
  const dir = path.join(kanbanDir, 'backups');
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const withTimes = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.'))
      .map(async (e) => ({ name: e.name, mtimeMs: (await fs.stat(path.join(dir, e.name))).mtimeMs })),
  );
  withTimes.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : 1));
  const removed = withTimes.slice(0, Math.max(0, withTimes.length - BACKUPS_KEPT)).map((e) => e.name);
  for (const name of removed) await fs.rm(path.join(dir, name), { recursive: true, force: true });
  return removed;
}
