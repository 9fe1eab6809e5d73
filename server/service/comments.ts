import { NotFoundError, ValidationError } from '../core/errors';
import { newCommentId } from '../core/ids';
import type { Card, Comment } from '../core/model';
import { resolveCard } from './taskQueries';
import { saveCard } from './tasks';
import type { Workspace } from './workspace';
import type { CommentCreateBody } from '../core/shapes/requests/cardNotes';

export function listComments(ws: Workspace, boardId: string, idish: string): Comment[] {
  return resolveCard(ws, boardId, idish).comments;
}

function requireText(value: string, field: string): string {
  if (value.trim() === '') throw new ValidationError(`${field} must not be empty`);
  return value;
}

function freshCommentId(card: Card): string {
  let id = newCommentId();
  while (card.comments.some((c) => c.id === id)) id = newCommentId();
  return id;
}

export async function createComment(
  ws: Workspace,
  boardId: string,
  idish: string,
  input: CommentCreateBody,
  actor: string,
) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    const now = new Date().toISOString();
    const comment: Comment = {
      id: freshCommentId(previous),
      author: requireText(input.author, 'author'),
      content: requireText(input.content, 'content'),
      created: now,
    };
    const card: Card = { ...previous, comments: [...previous.comments, comment], modified: now };
    await saveCard(ws, card, previous);
    await ws.cardStates.recordActivity(card, actor);
    ws.emit('comment.created', boardId, { taskId: card.id, comment }, card);
    return comment;
  });
}

function requireComment(card: Card, commentId: string): Comment {
  const comment = card.comments.find((c) => c.id === commentId);
  if (!comment) throw new NotFoundError(`card "${card.id}" has no comment "${commentId}"`);
  return comment;
}

export async function updateComment(
  ws: Workspace,
  boardId: string,
  idish: string,
  commentId: string,
  content: string,
  actor: string,
) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    requireComment(previous, commentId);
    const now = new Date().toISOString();
    const text = requireText(content, 'content');
    const comments = previous.comments.map((c) => (c.id === commentId ? { ...c, content: text, modified: now } : c));
    const card: Card = { ...previous, comments, modified: now };
    await saveCard(ws, card, previous);
    await ws.cardStates.recordActivity(card, actor);
    const comment = requireComment(card, commentId);
    ws.emit('comment.updated', boardId, { taskId: card.id, comment }, card);
    return comment;
  });
}

export async function deleteComment(ws: Workspace, boardId: string, idish: string, commentId: string) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    requireComment(previous, commentId);
    const card: Card = {
      ...previous,
      comments: previous.comments.filter((c) => c.id !== commentId),
      modified: new Date().toISOString(),
    };
    await saveCard(ws, card, previous);
    ws.emit('comment.deleted', boardId, { taskId: card.id, commentId }, card);
    return { deleted: commentId };
  });
}
