import type { Card, TaskView } from '../core/model';
import { titleOf } from '../core/model';
import type { Workspace } from './workspace';

export interface ViewOptions {
  withComments?: boolean;
  position?: number;
  actor?: string;
}

/** The read model of a card (decisions.md: Task read model). */
export function taskView(ws: Workspace, card: Card, options: ViewOptions = {}): TaskView {
  const view: TaskView = {
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
    position: options.position ?? ws.index.positionOf(card),
    cardState: ws.cardStates.stateOf(card.id, options.actor ?? 'default'),
  };
  if (options.withComments) view.comments = card.comments;
  const filePath = ws.store.filePathOf?.(card);
  if (filePath) view.filePath = filePath;
  return view;
}
