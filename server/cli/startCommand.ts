import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ConfigError, parseConfig } from '../config/parseConfig';
import type { Column } from '../core/model';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { startColumnOf } from '../core/startColumn';
import { flag, str, type Command, type Parsed } from './command';
import { ID, enc, show, usage, type Card } from './commandHelpers';
import type { Answer, Context } from './context';
import { addWorktree, branchFor, checkBranchCanStart, checkWorktreePath, createBranch, gitUserName } from './gitRefs';
import { bold, plain } from './output';
import { CliError } from './usage';

/**
 * `kanban start <id>`: the card to the board's start column, assigned to whoever starts it, and
 * optionally a branch (and a worktree) to do the work in. The board change goes through the move
 * route like `kanban move`; git runs here, in the workspace folder, after every git check has
 * passed, so a refusal leaves the board as it was.
 */

export const startCommand: Command = {
  name: 'start',
  summary: 'Start work on a card: to the in-progress column, assigned to you; --branch/--worktree for git',
  args: ID,
  details: [
    "The column is the board's startStatus in .kanban.json, else the first column whose id or name is",
    'in progress, doing, wip, started or active, else the second column. The assignee is --assignee,',
    'else git config user.name, else the card keeps its assignee.',
    '--branch creates kanban/<full card id> at HEAD without checking it out; --worktree <path> also',
    'checks it out in a new worktree there. Neither commits. Both refuse, leaving the board unchanged,',
    'outside a git repository, during a merge or rebase, or when the branch already exists.',
  ],
  options: {
    assignee: {
      type: 'string',
      value: '<name>',
      description: 'who starts it (default: git config user.name; without either the assignee is kept)',
    },
    branch: { type: 'boolean', description: 'also create the branch kanban/<id> at HEAD, not checked out' },
    worktree: {
      type: 'string',
      value: '<path>',
      description: 'also check that branch out in a new worktree at <path> (implies --branch)',
    },
  },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const request = requestOf(parsed);
    const current = await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}`));
    const id = plain(current.data.id);
    if (current.data.status === DELETED_STATUS)
      throw new CliError(`${id} is deleted; kanban restore ${id} brings it back first`);
    const column = await startColumn(ctx, plain(current.data.boardId));
    const assignee = request.assignee ?? (await gitUserName(ctx.dir, ctx.env)) ?? undefined;
    const branch = request.branch ? branchFor(id) : undefined;
    if (branch) await refuseUnlessGitReady(ctx, id, branch, request.worktree);
    const answer = await moveAndAssign(ctx, current, column.id, assignee);
    if (branch) await makeRefs(ctx, id, branch, request.worktree);
    await show(ctx, answer, () => {
      const moved = current.data.status !== column.id || Boolean(current.data.archivedAt);
      const parts = [moved ? `moved to ${column.id}` : `already in ${column.id}`];
      if (assignee !== undefined) parts.push(`assigned to ${assignee}`);
      if (branch) parts.push(`branch ${branch}`);
      if (request.worktree) parts.push(`worktree ${request.worktree}`);
      return `started ${bold(ctx.output, id)}: ${parts.join(', ')}`;
    });
  },
};

interface StartRequest {
  assignee?: string;
  branch: boolean;
  /** Absolute: a path on the command line is relative to where kanban runs, not to the workspace. */
  worktree?: string;
}

function requestOf(parsed: Parsed): StartRequest {
  const assignee = str(parsed, 'assignee')?.trim();
  if (assignee === '')
    usage(startCommand, '--assignee needs a name (kanban edit <id> --assignee "" clears the assignee)');
  const worktree = str(parsed, 'worktree');
  if (worktree !== undefined && worktree.trim() === '') usage(startCommand, '--worktree needs a path');
  return {
    ...(assignee === undefined ? {} : { assignee }),
    branch: flag(parsed, 'branch') || worktree !== undefined,
    ...(worktree === undefined ? {} : { worktree: path.resolve(worktree) }),
  };
}

/** Every git check before the board changes, so a refusal leaves the card where it was. */
async function refuseUnlessGitReady(
  ctx: Context,
  id: string,
  branch: string,
  worktree: string | undefined,
): Promise<void> {
  try {
    await checkBranchCanStart(ctx.dir, branch, ctx.env);
    if (worktree) await checkWorktreePath(worktree);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`cannot start ${id}: ${error.message} (the board is unchanged)`);
    throw error;
  }
}

/** The refs, after the board change: a failure now (checked just before) says the card did move. */
async function makeRefs(ctx: Context, id: string, branch: string, worktree: string | undefined): Promise<void> {
  try {
    await createBranch(ctx.dir, branch, ctx.env);
    if (worktree) await addWorktree(ctx.dir, worktree, branch, ctx.env);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`${id} was started on the board, but ${error.message}`);
    throw error;
  }
}

/**
 * The start column of the board as the API answers it. `startStatus` is not in the board's read
 * model, so it is read from the workspace folder's `.kanban.json`, the folder git runs in too.
 */
async function startColumn(ctx: Context, boardId: string): Promise<Column> {
  const board = (await ctx.get<{ columns: Column[] }>(`/boards/${enc(boardId)}`)).data;
  const configured = await configuredStartStatus(ctx.dir, boardId);
  const column = startColumnOf(board.columns, configured);
  if (column) return column;
  if (configured !== undefined) {
    throw new CliError(
      `startStatus "${configured}" of board "${boardId}" in .kanban.json is not a column of that board (columns: ${board.columns.map((c) => c.id).join(', ')})`,
    );
  }
  throw new CliError(`board "${boardId}" has no columns to start a card in`);
}

async function configuredStartStatus(dir: string, boardId: string): Promise<string | undefined> {
  const file = path.join(dir, '.kanban.json');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseConfig(text).boards.find((b) => b.id === boardId)?.startStatus;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${file} is invalid at ${error.message}`);
    throw error;
  }
}

/**
 * One write onto the version just read (If-Match): a move that also sets the assignee, or only
 * the assignee when the card is already in the column (a move would push it to the top).
 */
async function moveAndAssign(
  ctx: Context,
  current: Answer<Card>,
  status: string,
  assignee: string | undefined,
): Promise<Answer<Card>> {
  const card = current.data;
  const cardPath = `/boards/${enc(plain(card.boardId))}/tasks/${enc(plain(card.id))}`;
  const assign = assignee !== undefined && assignee !== card.assignee ? { assignee } : {};
  if (card.status !== status || card.archivedAt) {
    return ctx.call<Card>('PATCH', `${cardPath}/move`, { body: { status, ...assign }, ifMatch: current.etag });
  }
  if (assign.assignee !== undefined) return ctx.call<Card>('PUT', cardPath, { body: assign, ifMatch: current.etag });
  return current;
}
