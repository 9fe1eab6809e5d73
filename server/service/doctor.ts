import { existsSync, promises as fs } from 'node:fs';
import type { Static } from '@sinclair/typebox';
import * as path from 'node:path';
import type { Card } from '../core/model';
import { ARCHIVED_STATUS, DELETED_STATUS } from '../core/shapes/vocabulary';
import { placeOf } from '../core/cardPlace';
import { kanbanConfigSchema } from '../config/configSchema';
import { kanbanGitignorePath, missingGitignoreLines, updateKanbanGitignore } from '../storage/generatedFiles';
import { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { DEFAULT_SQLITE_PATH } from '../storage/sqlite/sqliteCardStore';
import type { Workspace } from './workspace';
import type { DoctorFixReportSchema, DoctorProblemSchema, DoctorReportSchema } from '../core/shapes/doctor';
import { GitError, runGit } from './git/runGit';

/** The kinds of problem and what `--fix` does about each: core/shapes/doctor.ts. */
export type DoctorProblemKind = DoctorProblem['kind'];
export type DoctorProblem = Static<typeof DoctorProblemSchema>;
export type DoctorReport = Static<typeof DoctorReportSchema>;
export type DoctorFixReport = Static<typeof DoctorFixReportSchema>;

/** GET /api/workspace/doctor: what is wrong with the board's files, changing nothing. */
export async function diagnose(ws: Workspace): Promise<DoctorReport> {
  const problems = [
    ...ws.duplicateIds.map((d): DoctorProblem => ({
      kind: 'duplicate-id',
      path: d.path,
      fixable: true,
      message: `claims id ${d.id}, which ${d.sharedWith} holds (another card); served as ${d.servedAs}`,
    })),
    ...ws.staleCopies.map((s): DoctorProblem => ({
      kind: 'stale-copy',
      path: s.path,
      fixable: true,
      message: `a second file of card ${s.id} left by an interrupted move (served from ${s.servedFrom}); not served`,
    })),
    ...misplacedFiles(ws),
    ...ws.invalidFiles.map((f): DoctorProblem => ({
      kind: 'invalid-file',
      path: f.path,
      fixable: false,
      message: `${f.reason}${f.line ? ` (line ${f.line})` : ''}; fix the file by hand`,
    })),
    ...(await unknownConfigKeys(ws)),
    ...orphanedStatuses(ws),
    ...(await gitignoreProblems(ws)),
  ];
  return { ok: problems.length === 0, problems };
}

/** POST /api/workspace/doctor/fix: repair what can be repaired without losing anything, then diagnose again. */
export async function fixWorkspace(ws: Workspace): Promise<DoctorFixReport> {
  const fixed: string[] = [];
  for (const recovered of await ws.recoverCrashLeftovers())
    fixed.push(`moved ${recovered.path} to ${recovered.movedTo} (a second copy of the card in ${recovered.kept})`);
  await ws.mutate(async () => {
    for (const card of cardsToRewrite(ws)) {
      const from = ws.store.filePathOf?.(card);
      await ws.store.update(card, card);
      // A copy of the card object: the path its id and status say, not the one it was read from.
      const to = ws.store.filePathOf?.({ ...card });
      ws.emit('task.updated', card.boardId, { taskId: card.id, changes: ['file'] }, card);
      fixed.push(`moved ${from} to ${to}`);
    }
  });
  const added = await updateKanbanGitignore(ws.kanbanDir);
  if (added.length) fixed.push(`added ${added.join(', ')} to .kanban/.gitignore`);
  return { ...(await diagnose(ws)), fixed };
}

/** Cards whose file is not where and under the name their status and id say. */
function cardsToRewrite(ws: Workspace): Card[] {
  const store = ws.store;
  if (!(store instanceof MarkdownCardStore)) return [];
  return ws.index.allCards().filter((card) => {
    const known = store.known.get(card.id);
    return known !== undefined && known.file !== store.absolutePath(card);
  });
}

function misplacedFiles(ws: Workspace): DoctorProblem[] {
  const store = ws.store;
  if (!(store instanceof MarkdownCardStore)) return [];
  const duplicates = new Set(ws.duplicateIds.map((d) => d.servedAs));
  return cardsToRewrite(ws)
    .filter((card) => !duplicates.has(card.id))
    .map((card) => {
      const file = store.known.get(card.id)!.file;
      const relative = store.relative(file);
      const folder = store.locate(file)?.status;
      if (folder !== placeOf(card)) {
        return {
          kind: 'folder-mismatch',
          path: relative,
          fixable: true,
          message: `says status "${card.status}" but is in the "${folder}" folder; the status decides, and the file moves on the card's next write`,
        };
      }
      return {
        kind: 'name-mismatch',
        path: relative,
        fixable: true,
        message: `holds card ${card.id} (its frontmatter id) under another name; the file is renamed on the card's next write`,
      };
    });
}

async function unknownConfigKeys(ws: Workspace): Promise<DoctorProblem[]> {
  const text = await fs.readFile(ws.configPath, 'utf8').catch(() => null);
  if (text === null) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return []; // a .kanban.json that does not parse stops the service before this runs
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  const schema = kanbanConfigSchema() as {
    properties: Record<string, { anyOf?: { items?: { properties: Record<string, unknown> } }[] }>;
  };
  const problems: DoctorProblem[] = [];
  for (const key of Object.keys(raw)) {
    if (!(key in schema.properties))
      problems.push({
        kind: 'unknown-config-key',
        path: '.kanban.json',
        fixable: false,
        message: `"${key}" is not a setting this version knows; it is ignored`,
      });
  }
  const boardKeys = schema.properties.boards.anyOf?.[0]?.items?.properties ?? {};
  const boards = (raw as { boards?: unknown }).boards;
  if (Array.isArray(boards)) {
    for (const board of boards) {
      if (typeof board !== 'object' || board === null) continue;
      for (const key of Object.keys(board)) {
        if (!(key in boardKeys))
          problems.push({
            kind: 'unknown-config-key',
            path: '.kanban.json',
            fixable: false,
            message: `board "${(board as { id?: string }).id}": "${key}" is not a board setting this version knows; it is ignored`,
          });
      }
    }
  }
  return problems;
}

function orphanedStatuses(ws: Workspace): DoctorProblem[] {
  const problems: DoctorProblem[] = [];
  for (const board of ws.config.boards) {
    const columns = new Set([...board.columns.map((c) => c.id), DELETED_STATUS, ARCHIVED_STATUS]);
    const orphaned = new Map<string, number>();
    for (const card of ws.index.cardsOf(board.id))
      if (!columns.has(card.status)) orphaned.set(card.status, (orphaned.get(card.status) ?? 0) + 1);
    for (const [status, count] of orphaned) {
      problems.push({
        kind: 'orphaned-status',
        path: null,
        fixable: false,
        message: `board "${board.id}": ${count} card${count === 1 ? '' : 's'} in "${status}", which is not a column of the board; add the column back or move the cards`,
      });
    }
  }
  return problems;
}

async function gitignoreProblems(ws: Workspace): Promise<DoctorProblem[]> {
  const problems: DoctorProblem[] = [];
  const text = await fs.readFile(kanbanGitignorePath(ws.kanbanDir), 'utf8').catch(() => null);
  const missing = missingGitignoreLines(text);
  if (missing.length && existsSync(ws.kanbanDir)) {
    problems.push({
      kind: 'gitignore-outdated',
      path: '.kanban/.gitignore',
      fixable: true,
      message: text === null ? 'is missing: generated files may be committed' : `lacks ${missing.join(', ')}`,
    });
  }
  for (const file of await notIgnored(ws.root, generatedFiles(ws))) {
    const underKanban = file.startsWith('.kanban/');
    problems.push({
      kind: 'not-ignored',
      path: file,
      fixable: underKanban,
      message: `is generated by the service but git would pick it up${underKanban ? '' : '; add it to your .gitignore'}`,
    });
  }
  return problems;
}

/** The generated files and folders that exist now, workspace-relative. */
function generatedFiles(ws: Workspace): string[] {
  const candidates = ['.kanban/.state', '.kanban/backups', ...withJournals(DEFAULT_SQLITE_PATH)];
  const described = ws.store.describe?.() as { file?: unknown } | undefined;
  if (typeof described?.file === 'string' && !path.relative(ws.root, described.file).startsWith('..')) {
    const db = path.relative(ws.root, described.file).split(path.sep).join('/');
    candidates.push(...withJournals(db));
  }
  return [...new Set(candidates)].filter((file) => existsSync(path.join(ws.root, file)));
}

const withJournals = (db: string) => [db, `${db}-wal`, `${db}-shm`, `${db}-journal`];

/** Those of `files` git would not ignore; none outside a git repository (or without git). */
async function notIgnored(root: string, files: string[]): Promise<string[]> {
  if (files.length === 0) return [];
  let output: string;
  try {
    output = await runGit({ git: 'git', cwd: root, args: ['check-ignore', '--stdin', '-z'], input: files.join('\0') });
  } catch (error) {
    // Exit 1: none of them is ignored. Anything else (128: not a repository; no git): nothing to say.
    if (!(error instanceof GitError && error.exitCode === 1)) return [];
    output = '';
  }
  const ignored = new Set(output.split('\0').filter(Boolean));
  return files.filter((file) => !ignored.has(file));
}
