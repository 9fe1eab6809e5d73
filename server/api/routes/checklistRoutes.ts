import { addItem, editItem, parseItemIndex, removeItem } from '../../service/checklists';
import { defineRoutes, route } from '../route';
import { withActivity } from './taskRoutes';
import { ChecklistAddBody, ChecklistEditBody } from '../../core/shapes/requests/cardNotes';
import { cardVersion } from '../versions';
import { taskSchema } from '../responseSchemas';

const answers = 'the updated task; its checklistItems show the new numbering';

export const checklistRoutes = defineRoutes([
  route({
    method: 'post',
    path: '/tasks/{id}/checklist',
    tag: 'Checklists',
    twin: true,
    body: ChecklistAddBody,
    errors: [404, 409, 412],
    version: cardVersion,
    summary:
      'Add a checklist item: after the last task list item of the content, or under a new "## Checklist" heading (emits task.updated)',
    returns: answers,
    response: taskSchema,
    handle: (ctx) => withActivity(ctx, addItem(ctx.ws, ctx.boardId, ctx.params.id, ctx.body.text)),
  }),
  route({
    method: 'patch',
    path: '/tasks/{id}/checklist/{index}',
    tag: 'Checklists',
    twin: true,
    body: ChecklistEditBody,
    errors: [404, 409, 412],
    version: cardVersion,
    summary: 'Tick, untick or reword checklist item {index} (zero-based; emits task.updated)',
    returns: answers,
    response: taskSchema,
    handle: (ctx) =>
      withActivity(ctx, editItem(ctx.ws, ctx.boardId, ctx.params.id, parseItemIndex(ctx.params.index), ctx.body)),
  }),
  {
    method: 'delete',
    path: '/tasks/{id}/checklist/{index}',
    tag: 'Checklists',
    twin: true,
    errors: [404, 409, 412],
    version: cardVersion,
    summary: 'Remove checklist item {index} (its line; emits task.updated)',
    returns: answers,
    response: taskSchema,
    handle: (ctx) =>
      withActivity(ctx, removeItem(ctx.ws, ctx.boardId, ctx.params.id, parseItemIndex(ctx.params.index))),
  },
]);
