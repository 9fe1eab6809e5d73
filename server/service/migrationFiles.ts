import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { silentProgress, throwIfCancelled } from '../core/progress';
import type { Card } from '../core/model';
import type { PluginEntry } from '../config/types';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../storage/attachmentStore';
import type { CardStore } from '../storage/cardStore';
import type { LogOwner, LogStore } from '../storage/logStore';
import { LocalFsAttachmentStore } from '../storage/localfs/localFsAttachmentStore';
import { FileLogStore } from '../storage/localfs/fileLogStore';
import { createAttachmentStore, createLogStore, type ProviderContext } from '../storage/providers';
import type { ProgressReport } from './migrationWriters';
import type { Workspace } from './workspace';

/**
 * Attachments and logs follow the cards when either side of a migration is a database that keeps
 * them (MySQL, PostgreSQL): into its tables, or back into the local files. Between Markdown and
 * SQLite, and under a configured attachment.storage (S3...), they stay where they are.
 */
export interface CarriedFiles {
  /** The stores the workspace uses once it serves the target. */
  attachments: AttachmentStore;
  logs: LogStore;
  /** Remove what was carried, when a later step of the migration fails. */
  undo(): Promise<void>;
}

/** The plugins `.kanban.json` holds after the switch (card.storage replaced, or removed for markdown). */
export function pluginsAfter(ws: Workspace, plugin: PluginEntry | null): Record<string, PluginEntry> {
  const plugins = { ...ws.config.plugins };
  if (plugin) plugins['card.storage'] = plugin;
  else delete plugins['card.storage'];
  return plugins;
}

export async function carryFilesAndLogs(
  ws: Workspace,
  target: CardStore,
  plugins: Record<string, PluginEntry>,
  cards: Card[],
  report: ProgressReport = silentProgress,
  signal?: AbortSignal,
): Promise<CarriedFiles> {
  const context: ProviderContext = { root: ws.root, kanbanDir: ws.kanbanDir, plugins };
  const undos: (() => Promise<void>)[] = [];
  const undo = async () => {
    for (const step of undos.splice(0).reverse()) await step();
  };
  try {
    const attachmentsInto = attachmentTarget(ws, target, plugins);
    const attachments = attachmentsInto ? await createAttachmentStore(context, target) : ws.attachments;
    if (attachmentsInto) undos.push(await copyAttachments(ws.attachments, attachmentsInto, cards, report, signal));
    const logsFrom = ws.store.sharedLogs && !target.sharedLogs ? ws.store.sharedLogs() : ws.logs;
    const logsInto = target.sharedLogs?.() ?? (ws.store.sharedLogs ? new FileLogStore(ws.kanbanDir) : null);
    if (logsInto) undos.push(await copyLogs(logsFrom, logsInto, owners(ws, cards), report, signal));
    // The database store still reads older local log files: left in place they would read twice.
    if (target.sharedLogs) undos.push(await moveLogFilesAside(ws.kanbanDir, owners(ws, cards)));
    return { attachments, logs: logsInto ? createLogStore(context, target) : ws.logs, undo };
  } catch (error) {
    await undo();
    throw error;
  }
}

/** Where attachment bytes must be written, or null when the same store serves both sides. */
function attachmentTarget(
  ws: Workspace,
  target: CardStore,
  plugins: Record<string, PluginEntry>,
): AttachmentStore | null {
  if (plugins['attachment.storage']) return null;
  // The database part only: its local-file fallback would delete the source's files on put.
  const database = target.sharedAttachments?.();
  if (database) return database;
  return ws.store.sharedAttachments ? new LocalFsAttachmentStore(ws.kanbanDir) : null;
}

async function copyAttachments(
  from: AttachmentStore,
  into: AttachmentStore,
  cards: Card[],
  report: ProgressReport,
  signal: AbortSignal | undefined,
): Promise<() => Promise<void>> {
  const written: { card: CardRef; name: string }[] = [];
  const total = cards.reduce((n, c) => n + c.attachments.length, 0);
  let done = 0;
  const undo = async () => {
    for (const { card, name } of written.splice(0)) await into.remove(card, name);
  };
  try {
    for (const card of cards) {
      for (const name of card.attachments) {
        throwIfCancelled(signal, 'the migration');
        const payload = await from.get(card, name);
        // A reference without a payload stays a reference: there is nothing to carry.
        if (payload) {
          const existed = (await into.get(card, name)) !== null;
          await into.put(card, name, await bytesOf(payload, name), payload.contentType);
          if (!existed) written.push({ card, name });
        }
        report('copying attachments', ++done, total);
      }
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}

async function bytesOf(payload: AttachmentPayload, name: string): Promise<Buffer> {
  if (payload.path) return fs.readFile(payload.path);
  if (!payload.stream) throw new Error(`the attachment store can neither stream nor name the file "${name}"`);
  const chunks: Buffer[] = [];
  for await (const chunk of (await payload.stream()) as Readable) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Every log a migration carries: each board's own, and each card's. */
function owners(ws: Workspace, cards: Card[]): LogOwner[] {
  return [
    ...ws.config.boards.map((board) => ({ boardId: board.id })),
    ...cards.map((card) => ({ boardId: card.boardId, cardId: card.id })),
  ];
}

async function copyLogs(
  from: LogStore,
  into: LogStore,
  all: LogOwner[],
  report: ProgressReport,
  signal: AbortSignal | undefined,
): Promise<() => Promise<void>> {
  const started: LogOwner[] = [];
  const undo = async () => {
    for (const owner of started.splice(0)) await into.clear(owner);
  };
  try {
    for (let i = 0; i < all.length; i++) {
      throwIfCancelled(signal, 'the migration');
      const entries = await from.read(all[i]);
      // Only a log the target did not hold yet can be taken back by clearing it.
      if (entries.length > 0 && (await into.read(all[i])).length === 0) started.push(all[i]);
      for (const entry of entries) await into.append(all[i], entry);
      report('copying logs', i + 1, all.length);
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}

/** Move every log file of `all` into `.kanban/backups/logs-<time>/`, keeping its place under `.kanban/`. */
async function moveLogFilesAside(kanbanDir: string, all: LogOwner[]): Promise<() => Promise<void>> {
  const files = new FileLogStore(kanbanDir);
  const backupDir = path.join(kanbanDir, 'backups', `logs-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const moved: { from: string; to: string }[] = [];
  const undo = async () => {
    for (const { from, to } of moved.splice(0).reverse()) await fs.rename(to, from);
  };
  try {
    for (const owner of all) {
      const from = files.fileOf(owner);
      const to = path.join(backupDir, path.relative(kanbanDir, from));
      await fs.mkdir(path.dirname(to), { recursive: true });
      try {
        await fs.rename(from, to);
        moved.push({ from, to });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  } catch (error) {
    await undo();
    throw error;
  }
  if (moved.length === 0) await fs.rm(backupDir, { recursive: true, force: true });
  return undo;
}
