import type { Card, TaskView } from '../core/model';
import { titleOf } from '../core/model';
import type { Workspace } from './workspace';

export interface ViewOptions {
  withComments?: boolean;
  position?: number;
  actor?: string;
}

/** The fields of the read model that depend on the card alone, in the read model's key order. */
function cardFields(card: Card) {
  return {
    id: card.id,
    boardId: card.boardId,
    title: titleOf(card.content),
    content: card.content,
    status: card.status,
    priority: card.priority,
    assignee: card.assignee ?? null,
    dueDate: card.dueDate ?? null,
    labels: card.labels,
    metadata: card.metadata,
    forms: card.forms,
    formData: card.formData,
    actions: card.actions ?? [],
    attachments: card.attachments,
    commentCount: card.comments.length,
    created: card.created,
    modified: card.modified,
    completedAt: card.completedAt ?? null,
  };
}

/** The read model of a card (decisions.md: Task read model). */
export function taskView(ws: Workspace, card: Card, options: ViewOptions = {}): TaskView {
  const view: TaskView = {
    ...cardFields(card),
    position: options.position ?? ws.index.positionOf(card),
    cardState: ws.cardStates.stateOf(card.id, options.actor ?? 'default'),
  };
  if (options.withComments) view.comments = card.comments;
  const filePath = ws.store.filePathOf?.(card);
  if (filePath) view.filePath = filePath;
  return view;
}

/**
 * The card-only part of a list entry as JSON, without its closing brace, made once per card
 * object (cards are immutable: a change is a new object). Most of a list's cost was building and
 * stringifying these fields for every card on every read.
 */
const fieldsJson = new WeakMap<Card, string>();
/** `,"filePath":"..."` per card object, for the store that made it. */
const filePathJson = new WeakMap<Card, { store: unknown; text: string }>();

function fieldsJsonOf(card: Card): string {
  let text = fieldsJson.get(card);
  if (text === undefined) {
    text = JSON.stringify(cardFields(card)).slice(0, -1);
    fieldsJson.set(card, text);
  }
  return text;
}

function filePathJsonOf(ws: Workspace, card: Card): string {
  const held = filePathJson.get(card);
  if (held && held.store === ws.store) return held.text;
  const filePath = ws.store.filePathOf?.(card);
  const text = filePath ? `,"filePath":${JSON.stringify(filePath)}` : '';
  filePathJson.set(card, { store: ws.store, text });
  return text;
}

/**
 * `JSON.stringify(taskView(ws, card, {position, actor}))` (list entries carry no comments), built
 * from cached pieces: only the position and the actor's card state are new per read.
 */
export function taskViewJson(ws: Workspace, card: Card, position: number, actor: string): string {
  const state = ws.cardStates.stateOf(card.id, actor);
  return `${fieldsJsonOf(card)},"position":${position},"cardState":{"open":${state.open},"unread":${state.unread}}${filePathJsonOf(ws, card)}}`;
}
