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
import { writeMarkdownTarget, writeSqliteTarget, type ProgressReport, type TargetWrite } from './migrationWriters';
import { carryFilesAndLogs, pluginsAfter, type CarriedFiles } from './migrationFiles';
import type { PluginEntry } from '../config/types';
import { BUILT_IN_PROVIDERS, createCardStateStore } from '../storage/providers';
import type { Workspace } from './workspace';
import { log } from '../core/log';
import { ensureSelfIgnoringDir, pruneBackups } from '../storage/generatedFiles';
import { SqlCardStore } from '../storage/sql/sqlCardStore';
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

/** What differs between the migrations: the target, how it is written, what `.kanban.json` names. */
export interface MigrationPlan<T extends CardStore> {
  action: 'migrate-to-sqlite' | 'migrate-to-markdown' | 'migrate-to-postgres' | 'migrate-to-mysql';
  to: string;
  /** For messages: "writing the SQLite database". */
  targetName: string;
  /** card.storage after the switch, options as the caller gave them; null for Markdown (the default). */
  plugin: PluginEntry | null;
  /** The SQLite file the target is, if it is one. */
  sqlitePath?: string;
  open(): Promise<T>;
  write(target: T, cards: Card[], report: ProgressReport, signal: AbortSignal | undefined): Promise<TargetWrite>;
  /** Close and remove what `open` made (null: it failed), when the migration fails before the switch. */
  discard(target: T | null): Promise<void>;
}

/**
 * Every migration, whatever the two sides: read every card of the current store, write the
 * target (then attachments, logs), check it, switch the workspace and `.kanban.json` at once. The
 * source is left as it was, as a backup. `prepare` runs in the mutation queue: its refusals see
 * the store as it is.
 */
export function migrate<T extends CardStore>(
  ws: Workspace,
  run: RunControl,
  prepare: () => Promise<MigrationPlan<T>>,
): Promise<MigrationResult> {
  return ws.mutate(async () => {
    const plan = await prepare();
    const source = ws.store;
    const report = ws.progress.reporter(`storage.${plan.action}`, run.onProgress);
    report('reading the cards', 0, 1);
    const { cards, skipped } = await readSource(source);
    throwIfCancelled(run.signal, 'the migration');
    let target: T | null = null;
    try {
      target = await plan.open();
      const write = await plan.write(target, cards, report, run.signal);
      const plugins = pluginsAfter(ws, plan.plugin);
      const carried = await carryFilesAndLogs(ws, target, plugins, cards, report, run.signal).catch(
        async (error: unknown) => {
          await write.undo();
          throw error;
        },
      );
      const undo = async () => {
        await carried.undo();
        await write.undo();
      };
      await carryForHosts(ws, target).catch(async (error: unknown) => {
        await undo();
        throw error;
      });
      await switchTo(ws, target, { ...write, undo }, plan.plugin, run.signal);
      await switchFilesAndState(ws, source, target, carried, plugins);
      await tellHostsSwitched(ws);
      await closePrevious(ws, source, write);
      const result: MigrationResult = {
        from: source.provider,
        to: plan.to,
        sqlitePath: plan.sqlitePath ?? (source instanceof SqliteCardStore ? source.sqlitePath : ''),
        ...summary(cards),
        skipped,
        source: describeSource(source),
        movedAside: rel(ws, write.movedAside),
      };
      ws.emit('storage.migrated', null, { ...result });
      return result;
    } catch (error) {
      // A discard that fails says more than the write did (a path the file system cannot hold).
      if (ws.store !== target) await plan.discard(target);
      throw failure(`writing ${plan.targetName}`, error);
    }
  });
}

/**
 * The last steps: record the provider in .kanban.json, then make the new store the running one
 * (no restart). A failed config write undoes the target.
 */
async function switchTo(
  ws: Workspace,
  target: CardStore,
  write: TargetWrite,
  plugin: PluginEntry | null,
  signal: AbortSignal | undefined,
) {
  await undoWhenCancelled(write, signal);
  // Out of a shared database, .kanban.json holds the whole configuration again.
  if (ws.shared && ws.store.sharedConfig) ws.leaveSharedDatabase();
  try {
    await ws.updateConfig((draft) => {
      if (plugin) draft.plugins['card.storage'] = plugin;
      else delete draft.plugins['card.storage'];
    });
  } catch (error) {
    await write.undo().catch((undoError) => log.error('kanban: undoing a failed migration failed too', undoError));
    throw failure('updating .kanban.json', error);
  }
  ws.store = target;
  // The switch is made: a database that cannot give its configuration now gives it at the next start.
  await ws
    .joinSharedDatabase()
    .catch((error) =>
      log.warn(`kanban: the configuration is read from the database at the next start: ${(error as Error).message}`),
    );
  await ws.reload();
  target.subscribe?.((change) => void applyExternalChanges(ws, [change]));
}

/**
 * What the layers above keep for the cards goes into the target too (webhook secrets). What they
 * wrote there stays if the migration fails later: the target is discarded or left unused.
 */
async function carryForHosts(ws: Workspace, target: CardStore): Promise<void> {
  for (const step of ws.storeSwitchSteps) await step.carry(target);
}

/** The switch is done and cannot be taken back: a step that fails now is logged, not thrown. */
async function tellHostsSwitched(ws: Workspace): Promise<void> {
  for (const step of ws.storeSwitchSteps)
    await step
      .switched()
      .catch((error) => log.error('kanban: a part of the service did not follow the migration', error));
}

/** Attachments, logs, card state and claims follow the cards, before the previous store closes. */
async function switchFilesAndState(
  ws: Workspace,
  source: CardStore,
  target: CardStore,
  carried: CarriedFiles,
  plugins: Record<string, PluginEntry>,
): Promise<void> {
  const previousAttachments = ws.attachments;
  ws.attachments = carried.attachments;
  ws.logs = carried.logs;
  if (previousAttachments !== carried.attachments) await previousAttachments.close().catch(() => undefined);
  if ((source.sharedCardState || target.sharedCardState) && !plugins['card.state']) {
    const context = { root: ws.root, kanbanDir: ws.kanbanDir, plugins };
    await ws.cardStates
      .moveTo(await createCardStateStore(context, target))
      .catch((error) => log.warn(`kanban: the card states could not move with the cards: ${(error as Error).message}`));
  }
  // Its database may hold the claims.
  await moveClaimsWithCards(ws, target);
}

async function closePrevious(ws: Workspace, previous: CardStore, write: TargetWrite): Promise<void> {
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

/** POST /api/storage/migrate-to-sqlite: the current store -> SQLite, all or nothing. */
export function migrateToSqlite(
  ws: Workspace,
  body: MigrateToSqliteBody | undefined,
  run: RunControl = {},
): Promise<MigrationResult> {
  return migrate(ws, run, async () => {
    if (ws.store instanceof SqliteCardStore)
      throw new ValidationError(`cards are already stored in SQLite (${ws.store.sqlitePath}); nothing to migrate`);
    refuseUnknownSource(ws, 'migrate-to-sqlite');
    const { sqlitePath, absolutePath } = await checkSqlitePath(ws, body?.sqlitePath);
    const existed = await fs.stat(absolutePath).then(
      () => true,
      () => false,
    );
    return {
      action: 'migrate-to-sqlite',
      to: 'sqlite',
      targetName: 'the SQLite database',
      plugin: { provider: 'sqlite', options: { sqlitePath } },
      sqlitePath,
      open: () =>
        SqliteCardStore.open(
          { sqlitePath, absolutePath },
          (ws.store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000,
        ),
      write: (target, cards, report, signal) => writeSqliteTarget(target, cards, ws.kanbanDir, report, signal),
      discard: async (target) => {
        await target?.close().catch(() => undefined);
        if (!existed) for (const suffix of ['', '-wal', '-shm']) await fs.rm(absolutePath + suffix, { force: true });
      },
    };
  });
}

/** POST /api/storage/migrate-to-markdown: the current store -> Markdown files, all or nothing. */
export function migrateToMarkdown(ws: Workspace, run: RunControl = {}): Promise<MigrationResult> {
  return migrate(ws, run, async () => {
    if (ws.store.provider === 'markdown')
      throw new ValidationError('cards are already stored as Markdown files; nothing to migrate');
    refuseUnknownSource(ws, 'migrate-to-markdown');
    if (ws.shared && ws.store instanceof SqliteCardStore) {
      // Other processes serve this file, and .kanban.json may not be rewritten under them.
      throw new ValidationError(
        'the cards are in a SQLite file that several server processes share (shared: true); stop the others, remove "shared" from .kanban.json, restart, then migrate',
      );
    }
    return {
      action: 'migrate-to-markdown',
      to: 'markdown',
      targetName: 'the Markdown files',
      plugin: null,
      open: async () => new MarkdownCardStore(ws.root, ws.kanbanDir),
      write: (target, cards, report, signal) => writeMarkdownTarget(target, cards, ws.kanbanDir, report, signal),
      discard: async () => undefined,
    };
  });
}

/** The built-in stores only: a provider from another package may not read back all it holds. */
export function refuseUnknownSource(ws: Workspace, action: string): void {
  const from = ws.store.provider;
  if (!(BUILT_IN_PROVIDERS['card.storage'] as readonly string[]).includes(from))
    throw new ValidationError(
      `${action} moves cards from the built-in storage (markdown, sqlite, mysql, postgres); the active card.storage provider is "${from}"`,
    );
}

function describeSource(store: CardStore): string {
  if (store instanceof SqliteCardStore) return `${store.sqlitePath} (SQLite database, left in place)`;
  if (store.provider === 'markdown') return '.kanban/boards (Markdown files, left in place)';
  const label = store instanceof SqlCardStore ? store.label : store.provider;
  return `${label} (${store.provider} database, left in place)`;
}

function rel(ws: Workspace, file: string | null): string | null {
  return file === null ? null : path.relative(ws.root, file).split(path.sep).join('/');
}
