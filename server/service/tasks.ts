import { StateRuleError, ValidationError } from '../core/errors';
import { baseCardId, cardIdCandidates } from '../core/ids';
import { titleOf, type BoardConfig, type Card, type Comment } from '../core/model';
import { withColumnStep } from '../core/columnHistory';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { OrderingExhaustedError, keyBetween, spreadKeys } from '../core/ordering';
import { effectiveDefaultPriority, effectiveDefaultStatus } from './boards';
import { resolveCard } from './taskQueries';
import { checkIsoDate, checkLabelName, checkPriority } from './validate';
import { taskView } from './views';
import { relocateCardBelongings, removeCardBelongings } from './cardBelongings';
import type { Workspace } from './workspace';
import type { CardChange } from '../storage/cardStore';
import { writeCardsChecked } from './fileTruth';
import { resolveBlockedBy } from './dependencies';
import { detachedChildren, openChildrenOf, withLinkFields, withoutLinksTo, type LinkCleanup } from './cardLinks';
import { cardLog, makeEntry } from './logs';
import { addWarning } from './warnings';
import { announceWipEntry, checkWipEntry } from './wipLimits';
import { placeOf } from '../core/cardPlace';
import type { MOVE_FIELDS, TaskCreateBody, TaskUpdateBody } from '../core/shapes/requests/tasks';
import type { Payload } from '../core/events';

/** The card fields a create or an update may set: the update body as its route checks it. */
export type TaskFields = TaskUpdateBody;

function checkStatus(board: BoardConfig, status: string, allowDeleted: boolean): string {
  if (allowDeleted && status === DELETED_STATUS) return status;
  if (!board.columns.some((c) => c.id === status)) {
    throw new ValidationError(
      `status "${status}" is not a column of board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
    );
  }
  return status;
}

function checkContent(content: string): string {
  if (titleOf(content) === '')
    throw new ValidationError('content must not be empty: start it with a "# Title" heading');
  // Stored exactly as sent, final newline and CRs included: every card store gives the same string
  // back (serializeCard says how a Markdown file does it).
  return content;
}

/** Apply validated field changes to a card (no status or order handling here). */
function applyFields(card: Card, fields: TaskFields): Card {
  const next: Card = { ...card };
  if (fields.content !== undefined) next.content = checkContent(fields.content);
  if (fields.priority !== undefined) next.priority = checkPriority(fields.priority);
  if (fields.assignee !== undefined) next.assignee = fields.assignee?.trim() || undefined;
  if (fields.dueDate !== undefined)
    next.dueDate =
      fields.dueDate === null || fields.dueDate === '' ? undefined : checkIsoDate(fields.dueDate, 'dueDate');
  if (fields.labels !== undefined) next.labels = [...new Set(fields.labels.map(checkLabelName))];
  if (fields.metadata !== undefined) next.metadata = fields.metadata;
  if (fields.forms !== undefined) next.forms = fields.forms;
  if (fields.formData !== undefined) next.formData = fields.formData;
  if (fields.actions !== undefined) next.actions = fields.actions;
  return next;
}

function lastColumnOf(board: BoardConfig): string | undefined {
  return board.columns[board.columns.length - 1]?.id;
}

export function withCompletion(card: Card, board: BoardConfig, now: string): Card {
  const done = card.status === lastColumnOf(board);
  if (done && !card.completedAt) return { ...card, completedAt: now };
  if (!done && card.completedAt) return { ...card, completedAt: undefined };
  return card;
}

/** The key after the last keyed card of a column. */
export function appendKey(ws: Workspace, boardId: string, status: string, excludeId?: string): string {
  // Keyless cards sort last, so the last keyed card is found walking back from the end (O(1) usually).
  const column = ws.index.column(boardId, status);
  for (let i = column.length - 1; i >= 0; i--) {
    const card = column[i];
    if (card.order !== '' && card.id !== excludeId) return keyBetween(card.order, null);
  }
  return keyBetween(null, null);
}

/** A new card: its text as `content`, or as `title` with an optional `body`. */
export type NewTaskFields = TaskCreateBody;

/** The content a new card is stored with: `content` as sent, or `# <title>` and the body under it. */
function newTaskContent(fields: NewTaskFields): string {
  const { title, body, content } = fields;
  if (title !== undefined && content !== undefined) {
    throw new ValidationError(
      'send "content" (Markdown whose first # heading is the title) or "title" with an optional "body", not both',
    );
  }
  if (title === undefined) {
    if (body !== undefined)
      throw new ValidationError('"body" goes with "title"; with "content", write the text under its # heading');
    if (content === undefined)
      throw new ValidationError(
        'body is missing the field "content" (Markdown starting with a "# Title" heading); or send "title" with an optional "body"',
      );
    return content;
  }
  const oneLine = title.trim();
  if (oneLine === '') throw new ValidationError('title must not be empty');
  if (/[\r\n]/.test(oneLine)) throw new ValidationError('title must be one line; put the rest in body');
  return body === undefined || body.trim() === '' ? `# ${oneLine}\n` : `# ${oneLine}\n\n${body}`;
}

/** `extras.comments`: a card that arrives with its comments (an import) is written once, with one event. */
export async function createTask(
  ws: Workspace,
  boardId: string,
  input: NewTaskFields,
  extras: { comments?: Comment[] } = {},
) {
  const { title: _title, body: _body, ...rest } = input;
  const fields: TaskFields = { ...rest, content: newTaskContent(input) };
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const status = checkStatus(board, fields.status ?? effectiveDefaultStatus(ws, board), false);
    const wip = checkWipEntry(ws, board, status);
    const now = new Date();
    const stamp = now.toISOString();
    const draft = applyFields(
      {
        id: '',
        boardId,
        status,
        content: '',
        priority: effectiveDefaultPriority(ws, board),
        labels: [],
        metadata: {},
        forms: [],
        formData: {},
        attachments: [],
        comments: extras.comments ?? [],
        order: appendKey(ws, boardId, status),
        created: stamp,
        modified: stamp,
      },
      fields,
    );
    if (fields.blockedBy) draft.blockedBy = resolveBlockedBy(ws, undefined, fields.blockedBy);
    const card = withColumnStep(withCompletion(withLinkFields(ws, draft, fields, true), board, stamp), null, stamp);
    let attempts = 0;
    for (const id of cardIdCandidates(baseCardId(titleOf(card.content), now))) {
      if (++attempts > 1000)
        throw new StateRuleError('could not find a free card id; too many cards share this title today');
      if (ws.index.hasId(id)) continue;
      const candidate = { ...card, id };
      if (await ws.store.create(candidate)) {
        ws.index.put(candidate);
        ws.emit('task.created', boardId, { taskId: id }, candidate);
        announceWipEntry(ws, wip);
        return taskView(ws, candidate, { withComments: true });
      }
    }
    throw new StateRuleError('could not claim a card id');
  });
}

/** Write a changed card and put it in the index. */
export function saveCard(ws: Workspace, card: Card, previous: Card): Promise<void> {
  return saveCards(ws, [{ card, previous }]);
}

/**
 * Write several changed cards as one change: one transaction on stores that offer it (SQL), one
 * atomic file write per card otherwise. The index takes them once all are written; when a file
 * changed by hand refuses the write part way, the cards already written are on disk, so the index
 * takes those too (with an event) and stays what the files say.
 */
export async function saveCards(ws: Workspace, changes: CardChange[]): Promise<void> {
  if (changes.length === 0) return;
  const written: Card[] = [];
  try {
    await writeCardsChecked(
      ws,
      changes.map((c) => c.previous),
      async () => {
        if (ws.store.updateMany && changes.length > 1) {
          await ws.store.updateMany(changes);
          written.push(...changes.map((c) => c.card));
        } else {
          for (const { card, previous } of changes) {
            await ws.store.update(card, previous);
            written.push(card);
          }
        }
      },
    );
  } catch (error) {
    for (const card of written) {
      ws.index.put(card);
      ws.emit('task.updated', card.boardId, { taskId: card.id }, card);
    }
    throw error;
  }
  for (const card of written) ws.index.put(card);
}

export async function updateTask(ws: Workspace, boardId: string, idish: string, fields: TaskFields) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const previous = resolveCard(ws, boardId, idish);
    const now = new Date().toISOString();
    let card = applyFields(previous, fields);
    if (fields.blockedBy !== undefined) card.blockedBy = resolveBlockedBy(ws, previous.id, fields.blockedBy ?? []);
    card = withLinkFields(ws, card, fields, false);
    const moved = fields.status !== undefined && fields.status !== previous.status;
    const wip = moved ? checkWipEntry(ws, board, fields.status as string, previous) : null;
    if (moved) {
      card.status = checkStatus(board, fields.status as string, true);
      card.order = appendKey(ws, boardId, card.status, card.id);
      // A new status brings an archived card back, as it does a deleted one.
      card.archivedAt = undefined;
      card.deletedFrom = undefined;
    }
    card = withColumnStep(withCompletion({ ...card, modified: now }, board, now), previous.status, now);
    await saveCard(ws, card, previous);
    if (moved) {
      announceMove(ws, { taskId: card.id, from: previous.status, to: card.status }, card, wip);
      warnOpenChildren(ws, card, board);
    } else ws.emit('task.updated', boardId, { taskId: card.id, fields: Object.keys(fields) }, card);
    return taskView(ws, card, { withComments: true });
  });
}

/** The ordering key for a card placed at `position` in `status`, re-keying the column when it must. */
export async function keyForPosition(ws: Workspace, card: Card, status: string, position: number): Promise<string> {
  const column = ws.index.column(card.boardId, status);
  // The column without the moved card, read by index: copying it would make every move O(n).
  const own = placeOf(card) === status ? ws.index.positionOf(card) : -1;
  const otherCount = own === -1 ? column.length : column.length - 1;
  const otherAt = (i: number): Card | undefined =>
    i < 0 || i >= otherCount ? undefined : column[own !== -1 && i >= own ? i + 1 : i];
  const at = Math.max(0, Math.min(position, otherCount));
  const before = otherAt(at - 1);
  const after = otherAt(at);
  const keysUsable =
    (!before || before.order !== '') &&
    (!after || after.order !== '') &&
    (!before || !after || before.order < after.order);
  if (keysUsable) {
    try {
      return keyBetween(before?.order ?? null, after?.order ?? null);
    } catch (error) {
      if (!(error instanceof OrderingExhaustedError)) throw error;
    }
  }
  // Hand-edited files can leave missing or equal keys: give the column fresh, evenly spread keys
  // (rare, and the only case where a move rewrites more than the moved card).
  const others = column.filter((c) => c.id !== card.id);
  const keys = spreadKeys(others.length + 1);
  const ordered = [...others.slice(0, at), card, ...others.slice(at)];
  const respread = ordered.flatMap((other, i) =>
    other !== card && other.order !== keys[i] ? [{ card: { ...other, order: keys[i] }, previous: other }] : [],
  );
  await saveCards(ws, respread);
  return keys[at];
}

/** Card fields a move may set in the same write: those a swimlane groups by. */
export type MoveFields = Pick<TaskFields, (typeof MOVE_FIELDS)[number]>;

/**
 * Move a card to `position` of `status`; `fields` (a drop into another swimlane) are set in the
 * same write, so the place and the fields are saved, or refused, together, with one event.
 */
export async function moveTask(
  ws: Workspace,
  boardId: string,
  idish: string,
  status: string,
  position = 0,
  fields: MoveFields = {},
) {
  return ws.mutate(async () => {
    if (!Number.isInteger(position) || position < 0)
      throw new ValidationError('position must be a whole number, 0 or more');
    const board = ws.board(boardId);
    const previous = resolveCard(ws, boardId, idish);
    checkStatus(board, status, true);
    const changed = applyFields(previous, fields);
    const wip = checkWipEntry(ws, board, status, previous);
    const now = new Date().toISOString();
    const order = await keyForPosition(ws, previous, status, position);
    // A move brings an archived card back into the column it is moved to.
    const card = withColumnStep(
      withCompletion(
        { ...changed, status, order, modified: now, archivedAt: undefined, deletedFrom: undefined },
        board,
        now,
      ),
      previous.status,
      now,
    );
    await saveCard(ws, card, previous);
    const fieldNames = Object.keys(fields);
    announceMove(
      ws,
      {
        taskId: card.id,
        from: previous.status,
        to: status,
        position: ws.index.positionOf(card),
        ...(fieldNames.length ? { fields: fieldNames } : {}),
      },
      card,
      wip,
    );
    warnOpenChildren(ws, card, board);
    return taskView(ws, card, { withComments: true });
  });
}

/**
 * A parent put into the last column while sub-cards are still open: the move stands (the board
 * may mean it), and the request is told, as a column over its WIP limit is.
 */
function warnOpenChildren(ws: Workspace, card: Card, board: BoardConfig): void {
  if (card.status !== lastColumnOf(board)) return;
  const open = openChildrenOf(ws, card);
  if (open.length === 0) return;
  const names = open
    .slice(0, 5)
    .map((c) => c.id)
    .join(', ');
  addWarning(
    `card ${card.id} is done but ${open.length} of its sub-cards ${open.length === 1 ? 'is' : 'are'} still open (${names}${open.length > 5 ? ', ...' : ''})`,
  );
}

/**
 * Write the cards a removed or departed card named (one write and one event each); a sub-card
 * whose parent went away says so in its log, so whoever reads it later knows why it stands alone.
 */
async function applyLinkCleanups(ws: Workspace, cleanups: LinkCleanup[]): Promise<void> {
  await saveCards(ws, cleanups);
  for (const { card, fields, logText } of cleanups) {
    ws.emit('task.updated', card.boardId, { taskId: card.id, fields }, card);
    if (logText !== undefined) await logOnCard(ws, card, logText);
  }
}

/** An entry the service itself adds to a card's log. */
async function logOnCard(ws: Workspace, card: Card, text: string): Promise<void> {
  const entry = makeEntry({ text, source: 'kanban' });
  await ws.logs.append(cardLog(card), entry);
  ws.emit('log.added', card.boardId, { taskId: card.id, entry }, card);
}

export async function softDeleteTask(ws: Workspace, boardId: string, idish: string) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    if (previous.status === DELETED_STATUS) return taskView(ws, previous, { withComments: true });
    const now = new Date().toISOString();
    // The column it leaves is kept on the card (archived cards keep theirs as their status), so a restore goes back there.
    const card = withColumnStep(
      {
        ...previous,
        status: DELETED_STATUS,
        deletedFrom: previous.status,
        order: appendKey(ws, boardId, DELETED_STATUS),
        modified: now,
        completedAt: undefined,
        archivedAt: undefined,
      },
      previous.status,
      now,
    );
    await saveCard(ws, card, previous);
    ws.emit('task.deleted', boardId, { taskId: card.id, permanent: false, previousStatus: previous.status }, card);
    return taskView(ws, card, { withComments: true });
  });
}

export async function permanentDeleteTask(ws: Workspace, boardId: string, idish: string) {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    const view = taskView(ws, card, { withComments: true });
    await writeCardsChecked(ws, [card], () => ws.store.remove(card));
    ws.index.remove(card);
    await removeCardBelongings(ws, card);
    ws.events.emit('task.deleted', boardId, { taskId: card.id, permanent: true }, view);
    // The cards that named it (blocked by it, its sub-cards, related to or duplicates of it) no
    // longer do: each is a real write of that card, with its event.
    await applyLinkCleanups(ws, withoutLinksTo(ws, card.id, new Date().toISOString(), 'was deleted for good'));
    return { deleted: card.id };
  });
}

/** Find the card a transfer names: exact id on any board, else a partial id on the default board. */
function findTransferSource(ws: Workspace, destinationId: string, idish: string): Card {
  const exact = ws.index.findById(idish);
  if (exact) return exact;
  const boards = [
    ws.defaultBoardId,
    ...ws.config.boards.map((b) => b.id).filter((id) => id !== ws.defaultBoardId && id !== destinationId),
  ];
  let lastError: unknown;
  for (const boardId of boards) {
    try {
      return resolveCard(ws, boardId, idish);
    } catch (error) {
      lastError = error;
      if (error instanceof StateRuleError) throw error;
    }
  }
  throw lastError;
}

export async function transferTask(ws: Workspace, destinationId: string, idish: string, targetStatus?: string) {
  return ws.mutate(async () => {
    const destination = ws.board(destinationId);
    const previous = findTransferSource(ws, destinationId, idish);
    if (previous.boardId === destinationId)
      throw new ValidationError(`card "${previous.id}" is already on board "${destinationId}"`);
    const status = checkStatus(destination, targetStatus ?? effectiveDefaultStatus(ws, destination), false);
    const wip = checkWipEntry(ws, destination, status);
    const now = new Date().toISOString();
    const moved: Card = {
      ...previous,
      // A parent is a card of the same board: the card leaves its parent behind.
      parent: undefined,
      boardId: destinationId,
      status,
      order: appendKey(ws, destinationId, status),
      modified: now,
      archivedAt: undefined,
      deletedFrom: undefined,
    };
    // An arrival: the lines of the old board stay on the card, but say nothing of this one.
    const card = withColumnStep(withCompletion(moved, destination, now), null, now);
    await writeCardsChecked(ws, [previous], async () => {
      await relocateCardBelongings(ws, previous, card);
      await ws.store.update(card, previous);
    });
    ws.index.remove(previous);
    ws.index.put(card);
    announceMove(
      ws,
      { taskId: card.id, fromBoard: previous.boardId, toBoard: destinationId, from: previous.status, to: status },
      card,
      wip,
    );
    await applyLinkCleanups(ws, detachedChildren(ws, card, now, `moved to board ${destinationId}`));
    if (previous.parent !== undefined)
      await logOnCard(ws, card, `no longer a sub-card of ${previous.parent}: it moved to board ${destinationId}`);
    return taskView(ws, card, { withComments: true });
  });
}

/** `task.moved` first, then what the card's arrival did to the column's WIP limit. */
function announceMove(
  ws: Workspace,
  data: Payload<'task.moved'>,
  card: Card,
  wip: ReturnType<typeof checkWipEntry>,
): void {
  ws.emit('task.moved', card.boardId, data, card);
  announceWipEntry(ws, wip);
}
