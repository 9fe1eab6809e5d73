import { createComment, deleteComment, listComments, updateComment } from '../../service/comments';
import { deleteAttachment, getAttachment, uploadAttachments, uploadFiles } from '../../service/attachments';
import { submitForm } from '../../service/forms';
import { openCard, readCard, triggerCardAction } from '../../service/cardActions';
import { addCallerLog, cardLog, clearCallerLogs } from '../../service/logs';
import { resolveCard } from '../../service/taskQueries';
import { gitLinksOf } from '../../service/git/gitLinks';
import { defineRoutes, route, type RequestContext } from '../route';
import {
  CommentCreateBody,
  CommentUpdateBody,
  FormSubmitBody,
  LogBody,
  ReadBody,
  UploadBody,
} from '../../core/shapes/requests/cardNotes';
import { sendAttachment } from '../sendFile';
import {
  cardStateResultSchema,
  clearedSchema,
  commentListSchema,
  commentSchema,
  deletedSchema,
  formSubmissionSchema,
  gitLinksResponseSchema,
  logEntryListSchema,
  logEntrySchema,
  taskSchema,
} from '../responseSchemas';

const card = (ctx: RequestContext) => resolveCard(ctx.ws, ctx.boardId, ctx.params.id);

export const cardRoutes = defineRoutes([
  {
    method: 'get',
    path: '/tasks/{id}/comments',
    tag: 'Comments',
    summary: 'Comments in stored order',
    twin: true,
    errors: [404],
    response: commentListSchema,
    handle: (ctx) => listComments(ctx.ws, ctx.boardId, ctx.params.id),
  },
  route({
    method: 'post',
    path: '/tasks/{id}/comments',
    tag: 'Comments',
    summary: 'Add a comment (emits comment.created)',
    twin: true,
    body: CommentCreateBody,
    success: 201,
    errors: [404],
    response: commentSchema,
    handle: (ctx) => createComment(ctx.ws, ctx.boardId, ctx.params.id, ctx.body, ctx.actor),
  }),
  route({
    method: 'put',
    path: '/tasks/{id}/comments/{commentId}',
    tag: 'Comments',
    summary: 'Edit a comment',
    twin: true,
    body: CommentUpdateBody,
    errors: [404],
    response: commentSchema,
    handle: (ctx) =>
      updateComment(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.commentId, ctx.body.content, ctx.actor),
  }),
  {
    method: 'delete',
    path: '/tasks/{id}/comments/{commentId}',
    tag: 'Comments',
    summary: 'Delete a comment',
    twin: true,
    errors: [404],
    response: deletedSchema,
    handle: (ctx) => deleteComment(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.commentId),
  },

  {
    method: 'get',
    path: '/tasks/{id}/logs',
    tag: 'Logs',
    summary: 'Log entries of a task, oldest first',
    twin: true,
    errors: [404],
    response: logEntryListSchema,
    handle: (ctx) => ctx.ws.logs.read(cardLog(card(ctx))),
  },
  route({
    method: 'post',
    path: '/tasks/{id}/logs',
    tag: 'Logs',
    summary: 'Append a log entry',
    twin: true,
    body: LogBody,
    success: 201,
    errors: [404],
    response: logEntrySchema,
    handle: (ctx) => addCallerLog(ctx.ws, card(ctx), ctx.body, ctx.actor),
  }),
  {
    method: 'delete',
    path: '/tasks/{id}/logs',
    tag: 'Logs',
    summary: 'Remove all log entries of a task',
    twin: true,
    errors: [404],
    response: clearedSchema,
    handle: (ctx) => clearCallerLogs(ctx.ws, card(ctx)),
  },

  {
    method: 'get',
    path: '/tasks/{id}/git',
    tag: 'Git',
    summary: 'Branches named after the card and commits whose Kanban: or Refs: trailer names it',
    twin: true,
    errors: [404],
    response: gitLinksResponseSchema,
    handle: (ctx) => gitLinksOf(ctx.ws, card(ctx)),
  },

  route({
    method: 'post',
    path: '/tasks/{id}/attachments',
    tag: 'Attachments',
    twin: true,
    summary:
      'Upload files: base64 in JSON, or multipart/form-data file parts (curl -F file=@x.csv); all or none are stored',
    body: UploadBody,
    multipart: true,
    bodyLimit: '64mb',
    errors: [404],
    response: taskSchema,
    handle: (ctx) =>
      ctx.files
        ? uploadFiles(ctx.ws, ctx.boardId, ctx.params.id, ctx.files, ctx.actor)
        : uploadAttachments(ctx.ws, ctx.boardId, ctx.params.id, ctx.body.files, ctx.actor),
  }),
  {
    method: 'get',
    path: '/tasks/{id}/attachments/{filename}',
    tag: 'Attachments',
    summary: 'Download a file (download=1 forces a download)',
    twin: true,
    query: [{ name: 'download', type: 'boolean', description: '1 forces Content-Disposition: attachment' }],
    errors: [404, 501],
    returns: 'the file bytes',
    handle: async (ctx) =>
      sendAttachment(
        await getAttachment(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.filename),
        ctx.query.download === true,
      ),
  },
  {
    method: 'delete',
    path: '/tasks/{id}/attachments/{filename}',
    tag: 'Attachments',
    summary: 'Delete a file and its reference',
    twin: true,
    errors: [404],
    response: taskSchema,
    handle: (ctx) => deleteAttachment(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.filename, ctx.actor),
  },

  route({
    method: 'post',
    path: '/tasks/{id}/forms/{formId}/submit',
    tag: 'Forms',
    summary: 'Validate and store form data (emits form.submit)',
    twin: true,
    body: FormSubmitBody,
    errors: [404],
    response: formSubmissionSchema,
    handle: (ctx) => submitForm(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.formId, ctx.body.data, ctx.actor),
  }),
  {
    method: 'post',
    path: '/tasks/{id}/actions/{action}',
    tag: 'Actions',
    summary: 'Trigger a card action (emits card.action.triggered)',
    twin: true,
    success: 204,
    errors: [404],
    noConflict: 'it only announces the action; the card is not written',
    handle: (ctx) => triggerCardAction(ctx.ws, ctx.boardId, ctx.params.id, ctx.params.action),
  },

  {
    method: 'post',
    path: '/tasks/{id}/open',
    tag: 'Card state',
    summary: 'Mark the card opened by the current actor (also makes it the active task)',
    twin: true,
    errors: [404],
    noConflict: "it writes the caller's read state, not the card",
    response: cardStateResultSchema,
    handle: (ctx) => openCard(ctx.ws, ctx.boardId, ctx.params.id, ctx.actor),
  },
  route({
    method: 'post',
    path: '/tasks/{id}/read',
    tag: 'Card state',
    summary: 'Acknowledge activity, up to now or to readThrough.at',
    twin: true,
    body: ReadBody,
    errors: [404],
    noConflict: "it writes the caller's read state, not the card",
    response: cardStateResultSchema,
    handle: (ctx) => readCard(ctx.ws, ctx.boardId, ctx.params.id, ctx.actor, ctx.body.readThrough),
  }),
]);
