import type { Static } from '@sinclair/typebox';
import type { MigrationResultSchema } from '../core/shapes/storage';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InsufficientStorageError, isDiskFull, ServiceError, ValidationError } from '../core/errors';
import { throwIfCancelled, type RunControl } from '../core/progress';
import type { Card } from '../core/model';
import type { CardStore, InvalidFile } from '../storage/cardStore';
import { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { ProviderError } from '../storage/providerOptions';
import { duplicateCommentId } from '../storage/sql/cardRows';
import { DEFAULT_SQLITE_PATH, SqliteCardStore } from '../storage/sqlite/sqliteCardStore';
import { applyExternalChanges } from './external';
import { moveClaimsWithCards } from './claimStores';
import { writeMarkdownTarget, writeSqliteTarget, type TargetWrite } from './migrationWriters';
import type { Workspace } from './workspace';
import { ensureSelfIgnoringDir, pruneBackups } from '../storage/generatedFiles';
import { log } from '../core/log';
import type { MigrateToSqliteBody } from '../core/shapes/requests/dataMoves';

/** A failed migration changed nothing; the message says why (400, like every request the rules refuse). */
export class MigrationError extends ValidationError {}

export type MigrationResult = Static<typeof MigrationResultSchema>;

/** A database file name: letters, digits, `.`, `_` and `-` before one of the usual endings. */
const SQLITE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(db|sqlite|sqlite3)$/;

/** The SQLite file a migration writes: workspace-relative, inside the workspace, not a folder. */
async function checkSqlitePath(
  ws: Workspace,
  requested: unknown,
): Promise<{ sqlitePath: string; absolutePath: string }> {
  if (requested !== undefined && (typeof requested !== 'string' || requested.trim() === '')) {
    throw new ValidationError(
      'sqlitePath must be a non-empty path relative to the workspace root, such as ".kanban/kanban.db"',
    );
  }
  const sqlitePath = ((requested as string | undefined) ?? DEFAULT_SQLITE_PATH).replace(/\\/g, '/');
  if (path.isAbsolute(sqlitePath) || /^[a-zA-Z]:/.test(sqlitePath))
    throw new ValidationError(`sqlitePath "${sqlitePath}" must be relative to the workspace root`);
  if (/[\u0000-\u001f]/.test(sqlitePath)) throw new ValidationError('sqlitePath must not contain control characters');
  const absolutePath = path.resolve(ws.root, sqlitePath);
  if (!absolutePath.startsWith(path.resolve(ws.root) + path.sep))
    throw new ValidationError(`sqlitePath "${sqlitePath}" leaves the workspace folder`);
  if (absolutePath.startsWith(path.join(ws.kanbanDir, 'boards') + path.sep)) {
    throw new ValidationError(
      `sqlitePath "${sqlitePath}" is inside .kanban/boards, where the Markdown cards live; choose another place`,
    );
  }
  const stat = await fs.stat(absolutePath).catch(() => null);
  if (stat && !stat.isFile()) throw new ValidationError(`sqlitePath "${sqlitePath}" exists and is not a file`);
  if (!SQLITE_FILE_NAME.test(path.basename(absolutePath))) {
    throw new ValidationError(
      `sqlitePath "${sqlitePath}" must name a database file ending in .db, .sqlite or .sqlite3, such as ".kanban/kanban.db"`,
    );
  }
  return { sqlitePath: path.relative(ws.root, absolutePath).split(path.sep).join('/'), absolutePath };
}

/** Every card of the source, or a clear refusal when one cannot be carried over. */
async function readSource(store: CardStore): Promise<{ cards: Card[]; skipped: InvalidFile[] }> {
  const { cards, invalid } = await store.loadAll();
  for (const card of cards) {
    const duplicate = duplicateCommentId(card);
    if (duplicate)
      throw new MigrationError(
        `card "${card.id}" has two comments with the id "${duplicate}"; give one another id, then migrate again`,
      );
  }
  return { cards, skipped: invalid };
}

function summary(cards: Card[]) {
  const boards: Record<string, number> = {};
  for (const card of cards) boards[card.boardId] = (boards[card.boardId] ?? 0) + 1;
  return {
    cards: cards.length,
    comments: cards.reduce((n, c) => n + c.comments.length, 0),
    attachments: cards.reduce((n, c) => n + c.attachments.length, 0),
    boards,
  };
}

function failure(step: string, error: unknown): Error {
  // A typed refusal (a broken .kanban.json, a full disk, a database away) keeps its own status.
  if (error instanceof ServiceError) return error;
  const cause = error instanceof ProviderError || error instanceof Error ? error.message : String(error);
  if (isDiskFull(error))
    return new InsufficientStorageError(
      `disk full while ${step}; nothing was changed and the current storage stays active: free some space, then migrate again (${cause})`,
    );
  return new MigrationError(
    `migration failed while ${step}; nothing was changed and the current storage stays active: ${cause}`,
  );
}

/**
 * The last steps, shared by both directions: record the provider in .kanban.json, then make the
 * new store the running one (no restart) and announce it. A failed config write undoes the target.
 */
async function switchTo(
  ws: Workspace,
  target: CardStore,
  write: TargetWrite,
  plugin: { provider: string; options: Record<string, unknown> } | null,
  signal: AbortSignal | undefined,
) {
  await undoWhenCancelled(write, signal);
  try {
    await ws.updateConfig((draft) => {
      if (plugin) draft.plugins['card.storage'] = plugin;
      else delete draft.plugins['card.storage'];
    });
  } catch (error) {
    await write.undo().catch((undoError) => log.error('kanban: undoing a failed migration failed too', undoError));
    throw failure('updating .kanban.json', error);
  }
  const previous = ws.store;
  ws.store = target;
  await ws.reload();
  target.subscribe?.((change) => void applyExternalChanges(ws, [change]));
  // Before the previous store closes: its database may hold the claims.
  await moveClaimsWithCards(ws, target);
  await previous
    .close()
    .catch((error) =>
      log.warn(`kanban: closing the ${previous.provider} store after migration failed: ${(error as Error).message}`),
    );
  await write.finish().catch(() => undefined);
  if (write.movedAside) {
    await ensureSelfIgnoringDir(path.join(ws.kanbanDir, 'backups'));
    await pruneBackups(ws.kanbanDir).catch((error) =>
      log.warn(`kanban: could not prune .kanban/backups: ${(error as Error).message}`),
    );
  }
}

/**
 * The last look for a cancel, before the switch that cannot be taken back. A SQLite copy runs
 * without reading any input, so a cancel sent during it is read here, after one turn of the loop.
 */
async function undoWhenCancelled(write: TargetWrite, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await new Promise((resolve) => setImmediate(resolve));
  if (!signal.aborted) return;
  await write.undo().catch((undoError) => log.error('kanban: undoing a cancelled migration failed', undoError));
  throwIfCancelled(signal, 'the migration');
}

/** POST /api/storage/migrate-to-sqlite: markdown files -> SQLite, all or nothing. */
export function migrateToSqlite(
  ws: Workspace,
  body: MigrateToSqliteBody | undefined,
  run: RunControl = {},
): Promise<MigrationResult> {
  return ws.mutate(async () => {
    const from = ws.store.provider;
    if (from === 'sqlite')
      throw new ValidationError(`cards are already stored in SQLite (${describePath(ws.store)}); nothing to migrate`);
    if (from !== 'markdown')
      throw new ValidationError(
        `migrate-to-sqlite moves cards from the built-in markdown storage; the active card.storage provider is "${from}"`,
      );
    const { sqlitePath, absolutePath } = await checkSqlitePath(ws, body?.sqlitePath);
    const report = ws.progress.reporter('storage.migrate-to-sqlite', run.onProgress);
    report('reading the cards', 0, 1);
    const { cards, skipped } = await readSource(ws.store);
    throwIfCancelled(run.signal, 'the migration');
    const existed = await fs.stat(absolutePath).then(
      () => true,
      () => false,
    );
    let target: SqliteCardStore | null = null;
    try {
      target = await SqliteCardStore.open(
        { sqlitePath, absolutePath },
        (ws.store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000,
      );
      const write = await writeSqliteTarget(target, cards, ws.kanbanDir, report, run.signal);
      await switchTo(ws, target, write, { provider: 'sqlite', options: { sqlitePath } }, run.signal);
      const result: MigrationResult = {
        from,
        to: 'sqlite',
        sqlitePath,
        ...summary(cards),
        skipped,
        source: '.kanban/boards (Markdown files, left in place)',
        movedAside: rel(ws, write.movedAside),
      };
      ws.emit('storage.migrated', null, { ...result });
      return result;
    } catch (error) {
      if (ws.store !== target) {
        await target?.close().catch(() => undefined);
        if (!existed) for (const suffix of ['', '-wal', '-shm']) await fs.rm(absolutePath + suffix, { force: true });
      }
      throw failure('writing the SQLite database', error);
    }
  });
}

/** POST /api/storage/migrate-to-markdown: SQLite -> markdown files, all or nothing. */
export function migrateToMarkdown(ws: Workspace, run: RunControl = {}): Promise<MigrationResult> {
  return ws.mutate(async () => {
    const source = ws.store;
    if (source.provider === 'markdown')
      throw new ValidationError('cards are already stored as Markdown files; nothing to migrate');
    if (!(source instanceof SqliteCardStore)) {
      throw new ValidationError(
        `migrate-to-markdown moves cards from the built-in SQLite storage; the active card.storage provider is "${source.provider}"`,
      );
    }
    if (ws.shared) {
      // Other processes serve this file, and .kanban.json may not be rewritten under them.
      throw new ValidationError(
        'the cards are in a SQLite file that several server processes share (shared: true); stop the others, remove "shared" from .kanban.json, restart, then migrate',
      );
    }
    const report = ws.progress.reporter('storage.migrate-to-markdown', run.onProgress);
    report('reading the cards', 0, 1);
    const { cards, skipped } = await readSource(source);
    throwIfCancelled(run.signal, 'the migration');
    const target = new MarkdownCardStore(ws.root, ws.kanbanDir);
    try {
      const write = await writeMarkdownTarget(target, cards, ws.kanbanDir, report, run.signal);
      await switchTo(ws, target, write, null, run.signal);
      const result: MigrationResult = {
        from: 'sqlite',
        to: 'markdown',
        sqlitePath: source.sqlitePath,
        ...summary(cards),
        skipped,
        source: `${source.sqlitePath} (SQLite database, left in place)`,
        movedAside: rel(ws, write.movedAside),
      };
      ws.emit('storage.migrated', null, { ...result });
      return result;
    } catch (error) {
      throw failure('writing the Markdown files', error);
    }
  });
}

function describePath(store: CardStore): string {
  return store instanceof SqliteCardStore ? store.sqlitePath : store.provider;
}

function rel(ws: Workspace, file: string | null): string | null {
  return file === null ? null : path.relative(ws.root, file).split(path.sep).join('/');
}
